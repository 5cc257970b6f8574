"""The shared state of one load run: its options, the one poller, the clock and the counters.

The simulator runs in the bench's process on the same event loop as the double, so it never
waits on the double's change notifications (every change would wake every waiter); one poller
task checks all pending conditions every ``POLL_INTERVAL`` seconds instead, and its own loop lag
is reported (``sim_loop_lag_ms_*``) so a slow double can be told apart from a slow bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import random
import sys
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bench.audit import Ledger
from bench.member import think_time
from bench.turn_marks import TurnMarks
from tests.double.interactions import InteractionRecord
from tests.double.server import DiscordDouble

POLL_INTERVAL = 0.025
"""How often the one poller re-checks every waiting member's condition."""
RESPONSE_TIMEOUT = 5.0
"""How long a member waits for an answer to a click (Discord's own deadline is 3 s)."""


@dataclass
class Args:
    """The load mode's command-line options (``python bench/bot_load.py --help``)."""

    tables: int
    seconds: float
    computers: int
    difficulty: str
    target_score: int | None
    think_min: float
    think_max: float
    dm_patience: float
    computer_delay: float
    ramp: float | None
    seed: int
    backlog: int
    tables_per_server: int
    store_scheme: str
    keep_log: str | None
    profile: str | None
    verbose: bool
    event_loop: str = "auto"
    harness_loop: str = "auto"
    profile_seconds: float | None = None
    attack_tables: int = 0
    attack_per_server: int = 25
    attack_warmup: float = 45.0
    attack_hints: float = 0.0
    processes: int = 1
    analysis_workers: int | None = None
    database: str | None = None
    kill_one_at: float | None = None
    kill_index: int = -1
    restart_after: float = 10.0
    kill_every: float | None = None
    kill_which: str = "all"


class Poller:
    """One task that re-checks every pending condition every ``interval`` seconds.

    ``World.wait_until`` wakes every waiter on every change the double sees; with hundreds of
    members waiting and hundreds of changes a second that would cost more CPU than the double
    itself, on the loop whose latency is being measured.
    """

    def __init__(self, interval: float = POLL_INTERVAL) -> None:
        self.interval = interval
        self._waiters: list[tuple[Callable[[], bool], asyncio.Future[bool], float]] = []
        self.lag: list[float] = []
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="bench-poller")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for _, fut, _ in self._waiters:
            if not fut.done():
                fut.set_result(False)
        self._waiters.clear()

    async def until(self, predicate: Callable[[], bool], within: float) -> bool:
        """True once ``predicate()`` holds, False after ``within`` seconds."""
        if predicate():
            return True
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[bool] = loop.create_future()
        self._waiters.append((predicate, fut, loop.time() + within))
        return await fut

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(self.interval)
            now = loop.time()
            self.lag.append(max(0.0, now - before - self.interval))
            keep = []
            for entry in self._waiters:
                predicate, fut, deadline = entry
                if fut.done():
                    continue
                try:
                    ok = predicate()
                except Exception as exc:  # a simulator bug: surface it in the driver
                    fut.set_exception(exc)
                    continue
                if ok:
                    fut.set_result(True)
                elif now >= deadline:
                    fut.set_result(False)
                else:
                    keep.append(entry)
            self._waiters = keep


class Bench:
    """The shared state of one run: double, poller, clock, counters."""

    def __init__(self, double: DiscordDouble, args: Args) -> None:
        self.double = double
        self.world = double.world
        self.args = args
        self.poller = Poller()
        self.rng = random.Random(args.seed)
        self.stats: Counter[str] = Counter()
        self.late_turns: Counter[str] = Counter()
        """Turns not marked in time, by where the member looked and when in the hand."""
        self.paths: Counter[str] = Counter()
        self.rejections: Counter[str] = Counter()
        self.human_cards = 0
        self.ledger = Ledger()
        """Every card click the bot answered as played (``--processes``: checked against the
        store for lost and doubled actions)."""
        self.trumps = 0
        self.end_at = math.inf
        self.marks = TurnMarks(self.world, set())
        """When each member's hand showed their turn (``install`` it to start timing)."""

    @property
    def stopping(self) -> bool:
        return asyncio.get_running_loop().time() >= self.end_at

    async def sleep(self, seconds: float) -> None:
        remaining = self.end_at - asyncio.get_running_loop().time()
        await asyncio.sleep(max(0.0, min(seconds, remaining)))

    def think(self) -> float:
        return think_time(self.rng, self.args.think_min, self.args.think_max)

    async def answer(
        self, start: Callable[[], Awaitable[InteractionRecord]], what: str
    ) -> InteractionRecord | None:
        """Send one interaction and wait for the bot's callback (None if there was none)."""
        try:
            record = await start()
        except (ValueError, LookupError) as exc:  # the button is gone: the view moved on
            self.stats["sim_click_refused"] += 1
            if self.args.verbose:
                print(f"[sim] {what}: {exc}", file=sys.stderr)
            return None
        self.stats["interactions_sent"] += 1
        await self.poller.until(
            lambda: record.responded or record.expired or not record.delivered, RESPONSE_TIMEOUT
        )
        if not record.responded:
            self.stats["interaction_unanswered"] += 1
            return None
        return record
