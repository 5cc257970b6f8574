"""Load benchmark: many Hokm tables played at once against the real bot, with Discord's limits.

What it measures, and why: one bot token gets about 50 non-interaction REST calls a second in
all and about 5 message creates/edits per 5 s per channel, whatever the number of tables. So the
number of tables one bot can host is bounded by (a) how many non-interaction calls a played card
costs, (b) how fast the bot acknowledges a click (Discord gives 3 s, players notice ~250 ms), and
(c) its memory. This script runs the bot exactly as in production (``python -m bot``, its own
process, SQLite store) against the local Discord double with its rate limiter on, opens
``--tables`` tables (``/hokm new`` + three Join clicks, or "Add computer" for ``--computers``
seats), and lets four simulated members per table play by clicking legal cards after a
0.5-3 s think time, for ``--seconds`` seconds.

Each simulated member learns that it is their turn the way a player would, from what the bot
showed: the clicker's own updated hand ("Waiting for NAME") names the next player, who then
clicks a green card in their DM once the bot's turn marker reached it, or, if the DM has not been
updated within ``--dm-patience`` seconds, presses the table message's "My hand" button and plays
from the ephemeral hand (interaction responses are exempt from the global budget, so this path
keeps tables moving when the turn markers are queued behind other traffic). How often each path
was used is reported under ``paths``.

The simulator runs in this process on the same event loop as the double, so it never waits on
the double's change notifications (every change would wake every waiter); one poller task checks
all pending conditions every ``POLL_INTERVAL`` seconds instead, and this process's own loop lag is
reported (``sim_loop_lag_ms_*``) so a slow double can be told apart from a slow bot.

The last line printed is one JSON object (progress goes to stderr)::

    python bench/bot_load.py --tables 10 --seconds 20
    python bench/bot_load.py --tables 200 --seconds 60
    python bench/bot_load.py --tables 50 --seconds 30 --computers 2 --difficulty hard

Keys (the first ones are the targets): tables; cards_played (every card, computers' too, counted
from the bot's store; ``cards_source``); interactions; interaction_ack_ms_p50/_p99 (the double's
clock, from dispatching INTERACTION_CREATE to receiving the callback); non_interaction_calls
(everything except interaction callbacks and interaction webhooks, counted from when the first
table opens, so start-up and command sync are excluded) and _per_card; http_429; errors (each
failed interaction once: unanswered or refused, as Discord would show "This interaction
failed"; plus error replies, 5xx, the double's own failures and ERROR/Traceback entries in the
bot's log); bot_rss_mb (at the end); loop_lag_ms_p99/_max (the worst 5 s window of the bot's own
``loop lag:`` log lines, bot/loop_monitor.py; without them, ack latency above its floor, which
``ack_excess_ms_*`` always reports; ``loop_lag_source`` says which). Then breakdowns: ack p99 by
click kind and per 5 s, calls by route, turn-signal paths, CPU of the bot / this process / other
processes on the machine (other load skews every latency figure), and this process's own loop
lag and GC pauses.

``--store-scheme sqlite`` runs the store on its thread runner instead of aiosqlite;
``--profile FILE`` records the bot with py-spy (``pip install py-spy``) for the run.

Attack mode (issue 11, item 4: fair sharing)::

    python bench/bot_load.py --attack-tables 110 --tables 20 --computers 2 --difficulty hard

Before the ``--tables`` victim tables start (in their own server, played as above), attackers
open ``--attack-tables`` tables at ``--difficulty`` with ``turn_seconds`` 10 and target 13,
fill each with three computers and never play: after two missed turns the computer plays their
seat too, so every attack table asks the computer workers for a decision about once a second.
A member sits at one table at a time and a server opens at most ``max_open_tables`` (default
25), so the attack is modelled as far as those limits allow: one attacker account per table,
``--attack-per-server`` tables in each attack server (``ceil(110 / 25)`` = 5 servers). The
victims start ``--attack-warmup`` seconds later (by then the attack tables are all-computer) and
play for ``--seconds``. Extra keys:

``victim_computer_move_ms_p50/_p99/_max`` and ``victim_computer_moves``: for every card a
computer seat plays at a victim table, from the moment the computer's turn began (the bot's log
line committing the previous move at that table: the move before is saved, the computer's pause
starts) to the log line committing the computer's card (saved and handed to the outbox; the
next player's turn marker goes out with it). So it includes the ``--computer-delay`` pause (1 s)
and the thinking, the waiting for a worker and the table's store write. Trump choices are not
counted (they are not searched). ``attack_tables_open``, ``attack_seats_autoplayed`` (the
attackers' seats the computer took over) and ``attack_servers`` describe the attack.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import math
import os
import random
import re
import shutil
import signal
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from tests.double.interactions import InteractionRecord  # noqa: E402
from tests.double.models import Channel, StoredMessage, User  # noqa: E402
from tests.double.process import BotProcess  # noqa: E402
from tests.double.ratelimit import RateLimitConfig  # noqa: E402
from tests.double.rest import RequestRecord  # noqa: E402
from tests.double.server import DiscordDouble  # noqa: E402

POLL_INTERVAL = 0.025
"""How often the one poller re-checks every waiting member's condition."""
RESPONSE_TIMEOUT = 5.0
"""How long a member waits for an answer to a click (Discord's own deadline is 3 s)."""
SUCCESS = 3
"""Discord's green button style: the bot marks the legal cards with it."""

# What the bot writes (bot/i18n.py, English), read the way a player reads it.
WAITING_RE = re.compile(r"Waiting for (.+?)\.$", re.MULTILINE)
CHOOSING_RE = re.compile(r"^(.+?) is choosing trump…$", re.MULTILINE)
HAND_RE = re.compile(r"· hand (\d+)\*\*")
TURN_RE = re.compile(r"▶ (.+?) (?:to name trump|to play|is thinking…)")
HAND_OVER = "This hand is over."
OPENED = "Table opened in this channel."
CHANNEL_BUSY = "This channel already has a table"
INTERNAL_ERROR = "Something went wrong on my side"
STALE = "belongs to an earlier hand or a finished table"
ALREADY_SEATED = "You are already seated."
ALREADY_STARTED = "The match has already started."
NO_TABLE = "There is no open table in this channel"
LAG_LINE_RE = re.compile(
    r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),\d+ .*loop lag: "
    r"p50=([\d.]+)ms p99=([\d.]+)ms max=([\d.]+)ms"
)
LAG_LOG_SECONDS = 5
"""How often the bot logs its loop lag (``HOKM_LOOP_LAG_REPORT_SECONDS``, bot/loop_monitor.py)."""

Outcome = tuple[str, str | None, tuple[StoredMessage, str] | None]
"""What a step of play found: ("next", who acts next, a message they can click) or ("over"|"gone")."""


# --------------------------------------------------------------------------- small helpers


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0..100); NaN for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def rounded(value: float, digits: int = 1) -> float | None:
    return None if math.isnan(value) else round(value, digits)


@dataclass(frozen=True)
class HandView:
    """What a hand message (DM or ephemeral) shows, as far as the simulator cares."""

    hand: int | None
    trump_ids: tuple[str, ...]
    green_ids: tuple[str, ...]
    waiting_for: str | None
    over: bool

    @property
    def actionable(self) -> bool:
        return bool(self.trump_ids or self.green_ids)

    def green_codes(self) -> set[str]:
        return {cid.rsplit(":", 1)[1] for cid in self.green_ids}


def read_hand(msg: StoredMessage) -> HandView:
    """Parse a hand message without building the double's Button objects (cheap)."""
    trump: list[str] = []
    green: list[str] = []
    hand: int | None = None
    for row in msg.components:
        for comp in row.get("components", ()) or ():
            cid = comp.get("custom_id") or ""
            if cid.startswith("hokm:t:"):
                trump.append(cid)
            elif cid.startswith("hokm:c:"):
                if comp.get("style") == SUCCESS and not comp.get("disabled"):
                    green.append(cid)
            else:
                continue
            if hand is None:
                hand = int(cid.split(":")[3])
    content = msg.content
    if hand is None:
        found = HAND_RE.search(content)
        hand = int(found.group(1)) if found else None
    waiting = None
    if not trump and not green:
        found = WAITING_RE.search(content) or CHOOSING_RE.search(content)
        waiting = found.group(1) if found else None
    return HandView(hand, tuple(trump), tuple(green), waiting, HAND_OVER in content)


def is_hand_message(msg: StoredMessage) -> bool:
    for row in msg.components:
        for comp in row.get("components", ()) or ():
            if (comp.get("custom_id") or "").startswith(("hokm:c:", "hokm:t:")):
                return True
    return False


def message_text(msg: StoredMessage | None) -> str:
    return "" if msg is None else msg.text


# --------------------------------------------------------------------------- this process's GC


class GcWatch:
    """Keeps the double's heap out of the cyclic GC's way, and records the pauses left.

    The double keeps every message and every earlier version of it, so a full collection
    would walk an ever larger heap while the double (and so every measured acknowledgement)
    waits. Freezing what exists every second leaves the collector only the young objects.
    """

    def __init__(self) -> None:
        self.pauses: list[float] = []
        self._started = 0.0

    def __enter__(self) -> GcWatch:
        gc.collect()
        gc.freeze()
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._callback)
        gc.unfreeze()

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.pauses.append(time.perf_counter() - self._started)

    async def keep_frozen(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            gc.freeze()


# --------------------------------------------------------------------------- the poller


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


# --------------------------------------------------------------------------- simulated members


@dataclass(eq=False)
class Member:
    """A simulated member, and what they remember about their own DM."""

    user: User
    name: str
    consumed: tuple[int, int] | None = None
    """The DM version (message id, edit count) this member already acted on or saw as stale."""
    played_hand: int = 0
    played: set[str] = field(default_factory=set)
    """Card codes this member played in ``played_hand`` (guards against a DM edit in flight)."""
    _dm_len: int = -1
    _dm_msg: StoredMessage | None = None
    _view: tuple[tuple[int, int], HandView] | None = None
    """The last parsed DM version, so waiting members do not re-parse an unchanged DM."""

    def note_played(self, hand: int, code: str) -> None:
        if hand != self.played_hand:
            self.played_hand, self.played = hand, set()
        self.played.add(code)


@dataclass
class Args:
    tables: int
    seconds: float
    computers: int
    difficulty: str
    target_score: int | None
    think_min: float
    think_max: float
    dm_patience: float
    computer_delay: float
    ramp: float
    seed: int
    backlog: int
    store_scheme: str
    keep_log: str | None
    profile: str | None
    verbose: bool
    attack_tables: int = 0
    attack_per_server: int = 25
    attack_warmup: float = 45.0


class Bench:
    """The shared state of one run: double, poller, clock, counters."""

    def __init__(self, double: DiscordDouble, args: Args) -> None:
        self.double = double
        self.world = double.world
        self.args = args
        self.poller = Poller()
        self.rng = random.Random(args.seed)
        self.stats: Counter[str] = Counter()
        self.paths: Counter[str] = Counter()
        self.rejections: Counter[str] = Counter()
        self.human_cards = 0
        self.trumps = 0
        self.end_at = math.inf

    @property
    def stopping(self) -> bool:
        return asyncio.get_running_loop().time() >= self.end_at

    async def sleep(self, seconds: float) -> None:
        remaining = self.end_at - asyncio.get_running_loop().time()
        await asyncio.sleep(max(0.0, min(seconds, remaining)))

    def think(self) -> float:
        return self.rng.uniform(self.args.think_min, self.args.think_max)

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

    # -------------------------------------------------------------- DMs

    def latest_dm(self, member: Member) -> StoredMessage | None:
        """The member's newest hand DM; cached until the DM channel gets a new message."""
        channel_id = self.world.dm_by_user.get(member.user.id)
        if channel_id is None:
            return None
        ids = self.world.channels[channel_id].message_ids
        if len(ids) != member._dm_len:
            member._dm_len = len(ids)
            member._dm_msg = None
            for mid in reversed(ids[-8:]):
                msg = self.world.messages[mid]
                if msg.ephemeral_to is None and not msg.deleted and is_hand_message(msg):
                    member._dm_msg = msg
                    break
        return member._dm_msg

    @staticmethod
    def version(msg: StoredMessage) -> tuple[int, int]:
        return msg.id, len(msg.history)

    def fresh_dm(self, member: Member, hand: int) -> StoredMessage | None:
        """The member's DM if the bot updated it since they last acted and it marks their turn."""
        msg = self.latest_dm(member)
        if msg is None:
            return None
        version = self.version(msg)
        if version == member.consumed:
            return None
        if member._view is None or member._view[0] != version:
            member._view = (version, read_hand(msg))
        view = member._view[1]
        if view.hand is None or view.hand < hand or not view.actionable:
            return None
        if (
            view.green_ids
            and view.hand == member.played_hand
            and view.green_codes() & member.played
        ):
            return None
        return msg


# --------------------------------------------------------------------------- one table


class TableDriver:
    """Opens a table in one channel and plays it with its members until the time is up."""

    def __init__(self, bench: Bench, index: int, channel: Channel, users: list[User]) -> None:
        self.bench = bench
        self.double = bench.double
        self.index = index
        self.channel = channel
        self.members = [Member(u, u.username) for u in users]
        self.by_name = {m.name: m for m in self.members}
        self.rng = random.Random(bench.args.seed * 100_003 + index)
        self.table_message: StoredMessage | None = None
        self.table_id = ""
        self.hand = 1
        self.seated: list[Member] = []
        """Humans by seat order: the host, then the joiners after the computers."""
        self.opened = 0
        self.finished = 0
        self._first_actor: str | None = None

    # -------------------------------------------------------------- opening

    async def run(self, start_delay: float) -> None:
        bench = self.bench
        await bench.sleep(start_delay)
        while not bench.stopping:
            if not await self.open():
                bench.stats["open_failed"] += 1
                await bench.sleep(1.0 + self.rng.random())
                continue
            over = await self.play()
            if over:
                self.finished += 1
                bench.stats["matches_finished"] += 1
                await bench.sleep(self.rng.uniform(0.5, 2.0))

    def _find_table_message(self, after: int) -> StoredMessage | None:
        ids = self.channel.message_ids
        for mid in reversed(ids[-10:]):
            if mid <= after:
                break
            msg = self.double.world.messages[mid]
            if msg.ephemeral_to is not None or msg.deleted:
                continue
            for row in msg.components:
                for comp in row.get("components", ()) or ():
                    if (comp.get("custom_id") or "").startswith("hokm:j:"):
                        return msg
        return None

    async def open(self) -> bool:
        bench, args = self.bench, self.bench.args
        host = self.members[0]
        options: dict[str, Any] = {"difficulty": args.difficulty}
        if args.target_score is not None:
            options["target_score"] = args.target_score
        record = await bench.answer(
            lambda: self.double.slash(host.user, self.channel, "hokm new", options, wait=False),
            "/hokm new",
        )
        if record is None:
            return False
        text = message_text(record.original)
        if OPENED not in text:
            bench.rejections[f"/hokm new: {text[:60]}"] += 1
            if CHANNEL_BUSY in text:  # a table of ours outlived the driver's knowledge of it
                await bench.answer(
                    lambda: self.double.slash(host.user, self.channel, "hokm cancel", wait=False),
                    "/hokm cancel",
                )
            return False
        self.opened += 1
        bench.stats["tables_opened"] += 1
        found: list[StoredMessage] = []

        def table_message_posted() -> bool:
            msg = self._find_table_message(record.id)
            if msg is not None:
                found.append(msg)
            return msg is not None

        if not await bench.poller.until(table_message_posted, 60.0):
            bench.stats["table_message_missing"] += 1
            return False
        msg = found[0]
        join_id = next(
            c["custom_id"]
            for row in msg.components
            for c in row.get("components", ())
            if (c.get("custom_id") or "").startswith("hokm:j:")
        )
        self.table_id = join_id.split(":")[2]
        self.table_message = msg
        self.hand = 1
        for m in self.members:
            m.consumed, m.played_hand, m.played = None, 0, set()
        last: InteractionRecord | None = None
        for _ in range(args.computers):
            await bench.sleep(self.rng.uniform(0.2, 1.0))
            last = await bench.answer(
                lambda: self.double.click(
                    host.user, msg, custom_id=f"hokm:a:{self.table_id}", wait=False
                ),
                "Add computer",
            )
            if last is None or last.response_type != 7:
                return await self._abandon("add computer refused", last)
        joiners = self.members[1 : 4 - args.computers]
        for member in joiners:
            await bench.sleep(self.rng.uniform(0.2, 1.0))
            if not await self._join(member, msg):
                return False
        self.seated = [host, *joiners]
        if bench.stopping:
            return False
        # the last click turned the table message (edited in place) into the match view
        turn = TURN_RE.search(msg.text)
        self._first_actor = turn.group(1) if turn else None
        return True

    async def _join(self, member: Member, msg: StoredMessage) -> bool:
        """Click Join; clicked again once if the bot did not answer, as a member would."""
        record: InteractionRecord | None = None
        for _ in range(2):
            record = await self.bench.answer(
                lambda: self.double.click(
                    member.user, msg, custom_id=f"hokm:j:{self.table_id}", wait=False
                ),
                "Join",
            )
            if record is not None and record.response_type == 7:
                return True
            text = message_text(record.original if record else None)
            if ALREADY_SEATED in text or ALREADY_STARTED in text:
                return True  # the unanswered click went through after all (and filled the table)
            if record is not None:
                break
        return await self._abandon("join refused", record)

    async def _abandon(self, why: str, record: InteractionRecord | None) -> bool:
        self.bench.rejections[
            f"{why}: {message_text(record.original if record else None)[:60]}"
        ] += 1
        host = self.members[0]
        await self.bench.answer(
            lambda: self.double.slash(host.user, self.channel, "hokm cancel", wait=False),
            "/hokm cancel",
        )
        return False

    # -------------------------------------------------------------- playing

    def _note_hand(self, hand: int | None) -> None:
        if hand is not None and hand > self.hand:
            self.hand = hand
            self.bench.stats["hands_started"] += 1

    def _probe_target(self) -> Member:
        """Who presses "My hand" when the simulator lost track of the turn."""
        computers = self.bench.args.computers
        if computers and self.rng.random() < 0.7:
            # after the computers (seats 1..N) the next human in order is the first joiner
            return self.seated[1] if len(self.seated) > 1 else self.seated[0]
        return self.rng.choice(self.seated)

    async def play(self) -> bool:
        """Play until the match ends (True) or the time is up (False)."""
        bench = self.bench
        expected = self._first_actor
        reuse: tuple[StoredMessage, str] | None = None
        while not bench.stopping:
            member = self.by_name.get(expected or "")
            if member is None or member not in self.seated:
                outcome = await self._wait_for_someone(expected)
            else:
                outcome = await self._turn(member, reuse)
            if outcome is None:
                continue  # time is up, or try again
            kind, expected, reuse = outcome
            if kind == "over":
                return True
            if kind == "gone":
                return False
        return False

    async def _wait_for_someone(self, expected: str | None) -> Outcome | None:
        """A computer (or nobody known) is to act: wait for a human's DM, else ask the bot."""
        bench = self.bench
        # the computers sit together, so up to all of them may move before a human's turn
        limit = bench.args.computer_delay * max(1, bench.args.computers) + bench.args.dm_patience
        found: list[Member] = []

        def someone_marked() -> bool:
            for m in self.seated:
                if bench.fresh_dm(m, self.hand) is not None:
                    found.append(m)
                    return True
            return False

        if await bench.poller.until(someone_marked, limit):
            bench.stats["turn_seen_in_dm"] += 1
            return "next", found[0].name, None
        if bench.stopping:
            return None
        return await self._probe(self._probe_target())

    async def _probe(self, member: Member) -> Outcome | None:
        """Press "My hand" on the table message; it either shows the turn or names who is next."""
        bench = self.bench
        msg = self.table_message
        if msg is None:
            return "gone", None, None
        record = await bench.answer(
            lambda: self.double.click(
                member.user, msg, custom_id=f"hokm:h:{self.table_id}", stale=True, wait=False
            ),
            "My hand",
        )
        bench.stats["my_hand_clicks"] += 1
        if record is None or record.original is None:
            return None
        eph = record.original
        text = eph.text
        if STALE in text or NO_TABLE in text:
            return "over", None, None  # finished (by a computer's last card) or gone
        if INTERNAL_ERROR in text:
            bench.stats["internal_error_replies"] += 1
            return None
        view = read_hand(eph)
        self._note_hand(view.hand)
        if view.actionable:
            return "next", member.name, (eph, "my_hand")
        bench.stats["my_hand_not_turn"] += 1
        if view.over:
            return "over", None, None
        if view.waiting_for is None:
            bench.rejections[f"My hand: {text[:60]}"] += 1
            return None
        return "next", view.waiting_for, None

    async def _turn(
        self, member: Member, reuse: tuple[StoredMessage, str] | None
    ) -> Outcome | None:
        bench = self.bench
        await bench.sleep(bench.think())
        if bench.stopping:
            return None
        source: tuple[StoredMessage, str] | None = None
        if reuse is not None and read_hand(reuse[0]).actionable:
            source = reuse
        else:
            dm = bench.fresh_dm(member, self.hand)
            if dm is None and await bench.poller.until(
                lambda: bench.fresh_dm(member, self.hand) is not None, bench.args.dm_patience
            ):
                dm = bench.fresh_dm(member, self.hand)
            if dm is not None:
                source = (dm, "dm")
        if source is None:
            bench.stats["dm_late"] += 1
            probed = await self._probe(member)
            if probed is None or probed[1] != member.name or probed[2] is None:
                return probed
            source = probed[2]
        msg, path = source
        view = read_hand(msg)
        self._note_hand(view.hand)
        if view.trump_ids:
            custom_id = self.rng.choice(view.trump_ids)
        elif view.green_ids:
            custom_id = self.rng.choice(view.green_ids)
        else:
            return None
        record = await bench.answer(
            lambda: self.double.click(member.user, msg, custom_id=custom_id, wait=False), "play"
        )
        dm = bench.latest_dm(member)
        if record is None:
            return "next", None, None
        if record.response_type != 7:
            text = message_text(record.original)
            if INTERNAL_ERROR in text:
                bench.stats["internal_error_replies"] += 1
            bench.rejections[f"play: {text[:60]}"] += 1
            if dm is not None:
                member.consumed = bench.version(dm)
            return "next", None, None
        bench.paths[path] += 1
        if custom_id.startswith("hokm:c:"):
            bench.human_cards += 1
            member.note_played(int(custom_id.split(":")[3]), custom_id.rsplit(":", 1)[1])
        else:
            bench.trumps += 1
        if dm is not None:
            member.consumed = bench.version(dm)  # acted on (or past) whatever the DM shows
        after = record.original
        if after is None:
            return "next", None, None
        shown = read_hand(after)
        if shown.over and not shown.actionable:
            return "over", None, None
        self._note_hand(shown.hand)
        if shown.actionable:  # their turn again (won the trick, or hakem of the next hand)
            return "next", member.name, (after, "response")
        return "next", shown.waiting_for, None


# --------------------------------------------------------------------------- attack mode

ATTACK_OPTIONS: dict[str, Any] = {"turn_seconds": 10, "target_score": 13}
"""The attackers' tables: the shortest turns (they go to the computer soonest), the longest match."""
EVENTS_LINE_RE = re.compile(
    r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3}) INFO bot\.tables: table (\w+): (.*)$"
)
OPENED_LINE_RE = re.compile(r"^opened in channel (\d+)")
EVENT_KINDS = frozenset(
    [
        "opened",
        "joined",
        "left",
        "computer_added",
        "started",
        "hand_dealt",
        "trump_named",
        "card_played",
        "trick",
        "hand_result",
        "match_over",
        "cancelled",
        "expired",
        "abandoned",
        "timeout",
        "timeout_trump",
        "replaced",
        "back",
        "resumed",
    ]
)
"""The first word of a committed change's log line (``TableService._commit``)."""


class AttackDriver(TableDriver):
    """An attacker: opens a table, fills it with computers and never plays a card."""

    async def run(self, start_delay: float) -> None:
        bench = self.bench
        await bench.sleep(start_delay)
        for _ in range(3):
            if await self.open_idle():
                bench.stats["attack_tables_open"] += 1
                return
            await bench.sleep(1.0 + self.rng.random())

    async def open_idle(self) -> bool:
        bench, host = self.bench, self.members[0]
        options = {"difficulty": bench.args.difficulty, **ATTACK_OPTIONS}
        record = await bench.answer(
            lambda: self.double.slash(host.user, self.channel, "hokm new", options, wait=False),
            "/hokm new (attack)",
        )
        text = message_text(record.original if record else None)
        if record is None or OPENED not in text:
            bench.rejections[f"attack /hokm new: {text[:60]}"] += 1
            return False
        found: list[StoredMessage] = []

        def posted() -> bool:
            msg = self._find_table_message(record.id)
            if msg is not None:
                found.append(msg)
            return msg is not None

        if not await bench.poller.until(posted, 60.0):
            return False
        table_id = next(
            c["custom_id"].split(":")[2]
            for row in found[0].components
            for c in row.get("components", ())
            if (c.get("custom_id") or "").startswith("hokm:j:")
        )
        for _ in range(3):
            await bench.answer(
                lambda: self.double.click(
                    host.user, found[0], custom_id=f"hokm:a:{table_id}", wait=False
                ),
                "Add computer (attack)",
            )
        return True


@dataclass
class Attack:
    """The attack servers, their channels and one attacker account per table."""

    args: Args
    guild_ids: list[int]
    channels: list[Channel]
    users: list[User]

    def patch_env(self, env: dict[str, str], victim_guild_id: int) -> None:
        """Commands are synced to the attack servers too (they are dev guilds of the run)."""
        env["HOKM_DEV_GUILD_IDS"] = json.dumps([victim_guild_id, *self.guild_ids])

    async def start(self, bench: Bench) -> None:
        """Open the attack tables, then wait ``--attack-warmup`` for them to go all-computer."""
        drivers = [
            AttackDriver(bench, 100_000 + i, channel, [user])
            for i, (channel, user) in enumerate(zip(self.channels, self.users, strict=True))
        ]
        ramp = min(self.args.ramp, self.args.attack_warmup / 3)
        tasks = [
            asyncio.create_task(d.run(ramp * i / max(1, len(drivers))))
            for i, d in enumerate(drivers)
        ]
        print(f"attack: opening {len(drivers)} tables", file=sys.stderr)
        await asyncio.wait(tasks, timeout=self.args.attack_warmup)
        await asyncio.sleep(max(0.0, self.args.attack_warmup - ramp))
        print(
            f"attack: {bench.stats['attack_tables_open']} tables open; victims start",
            file=sys.stderr,
        )

    def report(
        self, log_text: str, victim_channels: Sequence[Channel], since: float, until: float
    ) -> dict[str, Any]:
        victims = {c.id for c in victim_channels}
        attackers = {c.id for c in self.channels}
        moves, autoplayed, open_ = victim_computer_moves(log_text, victims, attackers, since, until)
        return {
            "victim_computer_move_ms_p50": rounded(percentile(moves, 50)),
            "victim_computer_move_ms_p99": rounded(percentile(moves, 99)),
            "victim_computer_move_ms_max": rounded(max(moves, default=math.nan)),
            "victim_computer_moves": len(moves),
            "attack_tables_open": open_,
            "attack_seats_autoplayed": autoplayed,
            "attack_servers": len(self.guild_ids),
        }


def plan_attack(double: DiscordDouble, args: Args) -> Attack | None:
    """Attack servers of ``--attack-per-server`` tables, one attacker per table."""
    if args.attack_tables <= 0:
        return None
    guild_ids: list[int] = []
    channels: list[Channel] = []
    users: list[User] = []
    servers = math.ceil(args.attack_tables / args.attack_per_server)
    for g in range(servers):
        guild = double.create_guild(f"Attack {g}")
        guild_ids.append(guild.id)
        count = min(args.attack_per_server, args.attack_tables - g * args.attack_per_server)
        for i in range(count):
            channels.append(double.add_text_channel(guild, f"attack-{g}-{i:03d}"))
            users.append(double.add_member(guild, f"x{g}{i:03d}"))
    return Attack(args, guild_ids, channels, users)


def victim_computer_moves(
    log_text: str, victims: set[int], attackers: set[int], since: float, until: float
) -> tuple[list[float], int, int]:
    """(ms per computer card at victim tables, attack seats taken over, attack tables opened),
    read from the bot's log: see the module docstring for what a move's time covers."""
    channel_of: dict[str, int] = {}
    computers: dict[str, set[int]] = {}
    last: dict[str, float] = {}
    moves: list[float] = []
    autoplayed = 0
    for line in log_text.splitlines():
        found = EVENTS_LINE_RE.match(line)
        if found is None:
            continue
        stamp, millis, table_id, rest = found.groups()
        at = time.mktime(time.strptime(stamp, "%Y-%m-%d %H:%M:%S")) + int(millis) / 1000
        opened = OPENED_LINE_RE.match(rest)
        if opened:
            channel_of[table_id] = int(opened.group(1))
        if rest.split(" ", 1)[0] not in EVENT_KINDS and not opened:
            continue
        events = [e.split() for e in rest.split(", ")]
        seat_of = {
            kind: int(w[5:]) for kind, *words in events for w in words if w.startswith("seat=")
        }
        channel = channel_of.get(table_id)
        if channel in attackers:
            autoplayed += sum(1 for kind, *_ in events if kind == "replaced")
        if "computer_added" in seat_of:
            for kind, *words in events:
                if kind == "computer_added":
                    computers.setdefault(table_id, set()).update(
                        int(w[5:]) for w in words if w.startswith("seat=")
                    )
        if (
            channel in victims
            and "card_played" in seat_of
            and seat_of["card_played"] in computers.get(table_id, ())
            and table_id in last
            and since <= at <= until
        ):
            moves.append((at - last[table_id]) * 1000)
        last[table_id] = at
    return moves, autoplayed, sum(1 for c in channel_of.values() if c in attackers)


def add_attack_args(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("attack mode (issue 11, item 4; see the module docstring)")
    group.add_argument(
        "--attack-tables",
        type=int,
        default=0,
        help="tables opened by idle attackers before the victims start (0: no attack); one "
        "attacker account per table, as a member may sit at one table at a time",
    )
    group.add_argument(
        "--attack-per-server",
        type=int,
        default=25,
        help="attack tables per attack server (the default max_open_tables is 25)",
    )
    group.add_argument(
        "--attack-warmup",
        type=float,
        default=45.0,
        help="seconds from the attack to the victims: two missed 10 s turns (or a 30 s trump "
        "choice and a turn) hand the attackers' seats to the computer",
    )


# --------------------------------------------------------------------------- the run


def bot_env(double: DiscordDouble, tmp: Path, guild_id: int, args: Args) -> dict[str, str]:
    env = dict(double.env())
    env.update(
        {
            "HOKM_DATABASE_URL": f"{args.store_scheme}:///{tmp / 'hokm.sqlite3'}",
            "HOKM_DEV_GUILD_IDS": json.dumps([guild_id]),
            "HOKM_COMMAND_SYNC_FILE": str(tmp / "command-sync.sha256"),
            "HOKM_GUILD_READY_TIMEOUT": "0.2",
            "HOKM_COMPUTER_DELAY_SECONDS": str(args.computer_delay),
            "HOKM_LOG_LEVEL": "INFO",
            "HOKM_LOOP_LAG_REPORT_SECONDS": str(LAG_LOG_SECONDS),
        }
    )
    return env


def routes_breakdown(double: DiscordDouble, requests: Sequence[RequestRecord]) -> dict[str, int]:
    """Non-interaction requests by route, with message routes split into DM and channel."""
    out: Counter[str] = Counter()
    for q in requests:
        if q.kind in ("interaction_response", "followup"):
            continue
        route = q.template or q.path
        if route.startswith("/channels/{channel_id}/messages"):
            raw = q.path.split("/")[2]
            channel = double.world.channels.get(int(raw)) if raw.isdigit() else None
            route = route.replace("{channel_id}", "{dm}" if channel and channel.is_dm else "{ch}")
        out[f"{q.method} {route}"] += 1
    return dict(out.most_common())


def click_kind(record: InteractionRecord) -> str:
    custom_id = str((record.payload.get("data") or {}).get("custom_id") or "")
    kinds = {"c": "card", "t": "trump", "j": "join", "a": "add_computer", "h": "my_hand"}
    if not custom_id:
        return "command"
    return kinds.get(custom_id.split(":")[1], "other") if ":" in custom_id else "other"


def ack_breakdown(records: Sequence[InteractionRecord], t0: float) -> dict[str, Any]:
    """Ack p99 by what was clicked, and over time (5 s windows), to see where latency comes from."""
    by_kind: dict[str, list[float]] = {}
    by_window: dict[int, list[float]] = {}
    for r in records:
        if r.response_time is None:
            continue
        ms = r.response_time * 1000
        by_kind.setdefault(click_kind(r), []).append(ms)
        by_window.setdefault(int((r.dispatched_at - t0) // 5), []).append(ms)
    return {
        "ack_ms_p99_by_kind": {
            k: [len(v), rounded(percentile(v, 99))] for k, v in sorted(by_kind.items())
        },
        "ack_ms_p99_per_5s": [rounded(percentile(by_window[w], 99), 0) for w in sorted(by_window)],
    }


def rss_mb(pid: int) -> float:
    try:
        import psutil

        return psutil.Process(pid).memory_info().rss / 2**20
    except Exception:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        except OSError:
            pass
    return math.nan


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return math.nan


def host_busy_seconds() -> float:
    """CPU seconds all cores spent busy (not idle/iowait) since boot, from /proc/stat."""
    try:
        values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return math.nan
    idle = values[3] + (values[4] if len(values) > 4 else 0)
    return (sum(values[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def cards_in_store(db: Path) -> int | None:
    """Cards played at every table of this run, from the bot's own store (computers included)."""
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            rows = con.execute("SELECT state FROM game_tables").fetchall()
        finally:
            con.close()
        total = 0
        for (state,) in rows:
            match = json.loads(state).get("match") or {}
            # a play is logged as "AS", or as ["play", seat, "AS"] by older engines
            total += sum(
                1
                for a in match.get("actions", ())
                if isinstance(a, str) or (isinstance(a, list) and a and a[0] == "play")
            )
        return total
    except (sqlite3.Error, ValueError, TypeError, AttributeError):
        return None


def scan_log(text: str, since: float = 0.0, until: float = math.inf) -> dict[str, Any]:
    """Error and warning lines, and the loop-lag lines logged between ``since`` and ``until``
    (wall clock; a lag line covers the ``LAG_LOG_SECONDS`` before it)."""
    lines = text.splitlines()
    errors = [ln for ln in lines if " ERROR " in ln or " CRITICAL " in ln]
    tracebacks = sum(1 for ln in lines if ln.startswith("Traceback"))
    warnings = [
        ln for ln in lines if " WARNING " in ln and "PyNaCl" not in ln and "davey" not in ln
    ]
    lag = []
    for found in map(LAG_LINE_RE.search, lines):
        if found is None:
            continue
        at = time.mktime(time.strptime(found.group(1), "%Y-%m-%d %H:%M:%S"))
        if since + LAG_LOG_SECONDS - 1 <= at <= until + 1:
            lag.append((float(found.group(3)), float(found.group(4))))
    return {
        "error_lines": errors,
        "tracebacks": tracebacks,
        "warning_lines": warnings,
        "lag": lag,
    }


async def wait_for_log(bot: BotProcess, needle: str, within: float) -> bool:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while loop.time() < deadline:
        if needle in bot.output(tail=10**9):
            return True
        if bot.returncode is not None:
            return False
        await asyncio.sleep(0.1)
    return False


def find_py_spy() -> str | None:
    exe = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    return exe if Path(exe).exists() else None


async def start_profiler(pid: int, path: str, seconds: float) -> asyncio.subprocess.Process | None:
    exe = find_py_spy()
    if exe is None:
        print("py-spy not found; pip install py-spy to use --profile", file=sys.stderr)
        return None
    fmt = "speedscope" if path.endswith(".json") else "flamegraph"
    argv = [
        exe,
        "record",
        "-p",
        str(pid),
        "-d",
        str(int(seconds)),
        "-o",
        path,
        "-f",
        fmt,
        "-r",
        "50",
    ]
    return await asyncio.create_subprocess_exec(
        *argv, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL
    )


async def progress(bench: Bench, drivers: list[TableDriver], t0: float) -> None:
    loop = asyncio.get_running_loop()
    counters = bench.double.counters
    while True:
        await asyncio.sleep(10.0)
        acks = [
            r.response_time * 1000
            for r in list(bench.world.interactions.values())[-2000:]
            if r.response_time is not None
        ]
        print(
            f"[{loop.time() - t0:5.1f}s] cards={bench.human_cards} paths={dict(bench.paths)} "
            f"calls={counters.non_interaction} 429={counters.http_429} "
            f"ack_p99(last 2000)={percentile(acks, 99):.0f}ms "
            f"open={sum(d.opened for d in drivers)}",
            file=sys.stderr,
        )


async def run(args: Args) -> dict[str, Any]:
    double = DiscordDouble(ratelimits=RateLimitConfig(enabled=True), backlog=args.backlog)
    await double.start()
    tmp = Path(tempfile.mkdtemp(prefix="hokm-load-"))
    bot: BotProcess | None = None
    profiler: asyncio.subprocess.Process | None = None
    try:
        guild = double.create_guild("Hokm Load")
        channels = [double.add_text_channel(guild, f"table-{i:03d}") for i in range(args.tables)]
        users = [
            [double.add_member(guild, f"p{i:03d}{k}") for k in "abcd"] for i in range(args.tables)
        ]
        attack = plan_attack(double, args)
        env = bot_env(double, tmp, guild.id, args)
        if attack is not None:
            attack.patch_env(env, guild.id)
        print(
            f"starting the bot ({args.tables} tables, {4 * args.tables} members)", file=sys.stderr
        )
        bot = await BotProcess.start(double, env=env, ready="commands", timeout=60.0)
        if not await wait_for_log(bot, "ready to serve", 30.0):
            raise RuntimeError(f"the bot did not get ready:\n{bot.output()}")
        await asyncio.sleep(1.0)  # guild_ready_timeout, then on_ready
        print(f"bot ready (pid {bot.pid})", file=sys.stderr)

        bench = Bench(double, args)
        gc_watch = GcWatch().__enter__()
        freezer = asyncio.create_task(gc_watch.keep_frozen())
        bench.poller.start()
        if attack is not None:
            await attack.start(bench)
        loop = asyncio.get_running_loop()
        double.counters.reset()
        first_interaction = double.world.ids.next()
        t0 = loop.time()
        bench.end_at = t0 + args.seconds
        cpu0, wall0, own0 = cpu_seconds(bot.pid), time.monotonic(), time.process_time()
        host0 = host_busy_seconds()
        wall_t0 = time.time()
        if args.profile:
            profiler = await start_profiler(bot.pid, args.profile, args.seconds)
        drivers = [TableDriver(bench, i, channels[i], users[i]) for i in range(args.tables)]
        ramp = min(args.ramp, args.seconds / 3)
        reporter = asyncio.create_task(progress(bench, drivers, t0))
        tasks = [
            asyncio.create_task(d.run(ramp * i / max(1, args.tables)))
            for i, d in enumerate(drivers)
        ]
        done, pending = await asyncio.wait(tasks, timeout=args.seconds + RESPONSE_TIMEOUT + 5.0)
        for task in pending:
            task.cancel()
        crashed = [t.exception() for t in done if not t.cancelled() and t.exception()]
        reporter.cancel()
        # let callbacks that are on their way arrive before counting
        in_flight = [
            r
            for r in double.world.interactions.values()
            if r.id > first_interaction and not (r.responded or r.expired or not r.delivered)
        ]
        await bench.poller.until(
            lambda: all(r.responded or r.expired for r in in_flight), RESPONSE_TIMEOUT
        )
        t_end = loop.time()
        cpu1, wall1, own1 = cpu_seconds(bot.pid), time.monotonic(), time.process_time()
        host1 = host_busy_seconds()
        wall_end = time.time()
        counters = double.counters.as_dict()
        non_interaction = double.counters.non_interaction
        memory = rss_mb(bot.pid)
        await bench.poller.stop()
        freezer.cancel()
        gc_watch.__exit__()
        if profiler is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(profiler.wait(), timeout=15.0)

        records = [r for r in double.world.interactions.values() if r.id > first_interaction]
        acks = [r.response_time * 1000 for r in records if r.response_time is not None]
        unanswered = sum(1 for r in records if not r.responded)
        refused = sum(1 for r in records if r.refused)
        failed = sum(1 for r in records if r.refused or not r.responded)
        requests = [q for q in double.requests if q.at >= t0]
        http_5xx = sum(1 for q in requests if q.status >= 500)
        by_route = routes_breakdown(double, requests)

        await bot.terminate(signal.SIGTERM, timeout=10.0)
        log_text = bot.output(tail=10**9)
        if args.keep_log:
            await asyncio.to_thread(Path(args.keep_log).write_text, log_text)
        logscan = scan_log(log_text, wall_t0, wall_end)
        store_cards = cards_in_store(tmp / "hokm.sqlite3")
        cards = store_cards if store_cards else bench.human_cards

        floor = min(acks) if acks else math.nan
        excess_p99 = percentile(acks, 99) - floor
        excess_max = (max(acks) - floor) if acks else math.nan
        if logscan["lag"]:  # the bot's own monitor: worst 5 s window
            lag_p99 = max(p for p, _ in logscan["lag"])
            lag_max = max(m for _, m in logscan["lag"])
            lag_source = f"bot log (worst of {len(logscan['lag'])} windows of {LAG_LOG_SECONDS} s)"
        else:
            lag_p99, lag_max = excess_p99, excess_max
            lag_source = "ack latency above its floor (the bot logged no loop lag)"
        # each failure once: a late callback is unanswered *and* refused *and* logged by the bot
        errors = (
            failed
            + bench.stats["internal_error_replies"]
            + max(len(logscan["error_lines"]), logscan["tracebacks"])
            + http_5xx
            + len(double.internal_errors)
            + len(crashed)
        )
        for exc in crashed:
            print(f"driver crashed: {exc!r}", file=sys.stderr)
        for line in (logscan["error_lines"] + logscan["warning_lines"])[:10]:
            print(f"bot log: {line}", file=sys.stderr)
        window = t_end - t0
        wall = wall1 - wall0
        bot_cpu = (cpu1 - cpu0) / wall * 100 if wall > 0 else math.nan
        own_cpu = (own1 - own0) / wall * 100 if wall > 0 else math.nan
        host_cpu = (host1 - host0) / wall * 100 if wall > 0 else math.nan
        attacked = attack.report(log_text, channels, wall_t0, wall_end) if attack else {}
        return attacked | {
            "tables": args.tables,
            "cards_played": cards,
            "interactions": len(records),
            "interaction_ack_ms_p50": rounded(percentile(acks, 50)),
            "interaction_ack_ms_p99": rounded(percentile(acks, 99)),
            "non_interaction_calls": non_interaction,
            "non_interaction_calls_per_card": round(non_interaction / cards, 3) if cards else None,
            "http_429": counters["http_429"],
            "errors": errors,
            "bot_rss_mb": rounded(memory),
            "loop_lag_ms_p99": rounded(lag_p99),
            "loop_lag_ms_max": rounded(lag_max),
            "loop_lag_source": lag_source,
            "seconds": round(window, 1),
            "computers": args.computers,
            "difficulty": args.difficulty,
            "store": args.store_scheme,
            "cards_source": "store" if store_cards else "simulator (human cards only)",
            "human_cards": bench.human_cards,
            "cards_per_s": round(cards / window, 1) if window > 0 else None,
            "interaction_ack_ms_max": rounded(max(acks) if acks else math.nan),
            "interaction_ack_ms_min": rounded(floor),
            "ack_excess_ms_p99": rounded(excess_p99),
            "ack_excess_ms_max": rounded(excess_max),
            "paths": dict(bench.paths),
            "turn_signals": {
                k: bench.stats[k]
                for k in ("turn_seen_in_dm", "dm_late", "my_hand_clicks", "my_hand_not_turn")
            },
            "calls": {
                k: counters[k]
                for k in ("channel_message", "dm", "edit", "delete", "other")
                if counters[k]
            },
            "interaction_calls": {
                "interaction_response": counters["interaction_response"],
                "followup": counters["followup"],
            },
            **ack_breakdown(records, t0),
            "calls_by_route": by_route,
            "http_429_global": counters["http_429_global"],
            "error_detail": {
                "interactions_failed": failed,
                "unanswered": unanswered,
                "refused_callbacks": refused,
                "internal_error_replies": bench.stats["internal_error_replies"],
                "bot_log_errors": len(logscan["error_lines"]),
                "bot_log_tracebacks": logscan["tracebacks"],
                "http_5xx": http_5xx,
                "double_internal_errors": len(double.internal_errors),
                "driver_crashes": len(crashed),
            },
            "bot_log_warnings": len(logscan["warning_lines"]),
            "rejected_clicks": sum(bench.rejections.values()),
            "rejections": dict(bench.rejections.most_common(5)),
            "tables_opened": bench.stats["tables_opened"],
            "matches_finished": bench.stats["matches_finished"],
            "bot_cpu_percent": rounded(bot_cpu),
            "bot_cpu_ms_per_card": rounded((cpu1 - cpu0) * 1000 / cards) if cards else None,
            "bot_cpu_ms_per_interaction": (
                rounded((cpu1 - cpu0) * 1000 / len(records)) if records else None
            ),
            "bench_cpu_percent": rounded(own_cpu),
            "other_processes_cpu_percent": rounded(host_cpu - bot_cpu - own_cpu),
            "cpus": os.cpu_count(),
            "sim_gc_pause_ms_max": rounded(max(gc_watch.pauses, default=math.nan) * 1000),
            "sim_loop_lag_ms_p99": rounded(percentile(bench.poller.lag, 99) * 1000),
            "sim_loop_lag_ms_max": rounded(max(bench.poller.lag, default=math.nan) * 1000),
        }
    finally:
        if profiler is not None and profiler.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                profiler.kill()
            await profiler.wait()
        if bot is not None:
            await bot.kill()
            bot.close_log()
        await double.stop()
        shutil.rmtree(tmp, ignore_errors=True)


def parse_args(argv: list[str] | None = None) -> Args:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10, help="tables played at once")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to play")
    parser.add_argument(
        "--computers", type=int, default=0, choices=range(4), help="computer seats per table"
    )
    parser.add_argument(
        "--difficulty", default="easy", choices=("easy", "normal", "hard"), help="/hokm new option"
    )
    parser.add_argument("--target-score", type=int, default=None, help="/hokm new option")
    parser.add_argument("--think-min", type=float, default=0.5)
    parser.add_argument("--think-max", type=float, default=3.0)
    parser.add_argument(
        "--dm-patience",
        type=float,
        default=1.0,
        help="seconds a member waits for their DM after thinking before pressing My hand",
    )
    parser.add_argument(
        "--computer-delay", type=float, default=1.0, help="HOKM_COMPUTER_DELAY_SECONDS"
    )
    parser.add_argument(
        "--ramp", type=float, default=5.0, help="spread the table openings over this many seconds"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--backlog", type=int, default=4096, help="the double's listen backlog")
    parser.add_argument(
        "--store-scheme",
        default="sqlite+aiosqlite",
        choices=("sqlite+aiosqlite", "sqlite"),
        help="URL scheme of the temp SQLite store (config.example.toml uses sqlite+aiosqlite)",
    )
    parser.add_argument("--keep-log", help="write the bot's log here")
    parser.add_argument(
        "--profile", help="record the bot with py-spy into this file (.svg or .json)"
    )
    parser.add_argument("--verbose", action="store_true")
    add_attack_args(parser)
    ns = parser.parse_args(argv)
    if ns.tables < 1 or ns.seconds <= 0:
        parser.error("--tables and --seconds must be positive")
    return Args(**vars(ns))


def main(argv: list[str] | None = None) -> None:
    from bench.churn import churn_main  # --churn N: memory under table churn (bench/churn.py)

    if churn_main(argv, rss_mb):
        return
    args = parse_args(argv)
    result = asyncio.run(run(args))
    print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main()
