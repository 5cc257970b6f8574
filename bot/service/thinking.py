"""Computer players think in worker processes, shared fairly between tables and bounded in time.

A searching player is pure Python and busy for tens of milliseconds a move; run in a thread it
would still hold the interpreter lock and stall every other table's clicks. In a process it
cannot. The worker gets the seat's view only (never the match), so it cannot cheat either.

The workers are few and the tables many, so two rules keep one server's hundred idle tables
from slowing a table elsewhere:

- **Round robin.** Each table has at most one request waiting (a newer one replaces it), and
  waiting tables are served in the order they asked: a request never waits behind more than one
  decision of each other table.
- **A deadline per decision.** The worker stops the search at the deadline and plays its best
  card so far (``engine.search`` asks ``should_stop``; the engine itself never reads a clock). A
  request whose deadline passed while it waited is not computed at all: it resolves to ``None``,
  and the caller plays the greedy move.

Each request answered logs how long it waited and how long it was searched (``0`` when its
deadline passed first): the figures by which a slow worker, or a table taking more than its
share, is seen (``bench/bot_load.py`` reads them). Times only, never a view.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field

from engine import TRUMP, Card, SeatView, Suit
from engine.shelem import ShelemView

from .variants import ShelemDecision

log = logging.getLogger(__name__)

MIN_THINK = 0.02
"""Seconds a search needs to be worth starting; with less left the greedy move is played."""

Decision = Card | Suit | ShelemDecision
"""A card or a trump; at a Shelem table (V6) a card or a ``ShelemDecision`` (a bid...)."""
View = SeatView | ShelemView
Runner = Callable[[str, int, View, float], "Future[Decision]"]
"""Starts one decision in a worker: (difficulty, seed, view, monotonic deadline)."""


def think(difficulty: str, seed: int, view: View, deadline: float = float("inf")) -> Decision:
    """Runs in the worker: one decision for the seat whose view this is, stopped at
    ``deadline`` (``time.monotonic``, the same clock in every process of the machine)."""
    from engine import make_player, parse_difficulty

    def should_stop() -> bool:
        return time.monotonic() >= deadline

    if isinstance(view, ShelemView):
        from engine.shelem import make_shelem_player

        from .shelem_moves import decide

        return decide(make_shelem_player(difficulty, seed, should_stop), view)

    player = make_player(parse_difficulty(difficulty), seed, should_stop)
    if view.phase == TRUMP:
        return Suit(player.choose_trump(view))
    return player.choose_card(view)


@dataclass(eq=False)
class _Request:
    table: Hashable
    difficulty: str
    seed: int
    view: View
    deadline: float
    future: asyncio.Future[Decision | None] = field(repr=False)
    asked: float = 0.0
    """``clock()`` when it was queued."""


class Thinker:
    """Worker processes (started on first use) fed round robin from one request per table."""

    def __init__(
        self,
        workers: int = 1,
        *,
        runner: Runner | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.workers = workers
        self.clock = clock
        self._runner = runner
        self._pool: ProcessPoolExecutor | None = None
        self._waiting: OrderedDict[Hashable, _Request] = OrderedDict()
        self._busy = 0
        self.computed = 0
        self.expired = 0
        """Requests answered ``None`` because their deadline passed before a worker was free."""

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    def decide(
        self, table: Hashable, difficulty: str, seed: int, view: View, deadline: float
    ) -> asyncio.Future[Decision | None]:
        """Queue a decision for ``table``; resolves to the move, or ``None`` (play greedy).

        Cancel the returned future to withdraw a request that is still waiting.
        """
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Decision | None] = loop.create_future()
        old = self._waiting.pop(table, None)
        if old is not None and not old.future.done():
            old.future.set_result(None)  # superseded: the table has moved on
        self._waiting[table] = _Request(
            table, difficulty, seed, view, deadline, future, asked=self.clock()
        )
        self._pump()
        return future

    def _pump(self) -> None:
        """Hand waiting requests to free workers, oldest table first."""
        while self._busy < self.workers and self._waiting:
            _, request = self._waiting.popitem(last=False)
            if request.future.done():  # withdrawn by its table
                continue
            now = self.clock()
            if request.deadline - now < MIN_THINK:
                self.expired += 1
                _log_search(request, now, now)
                request.future.set_result(None)
                continue
            self._busy += 1
            self._start(request)

    def _start(self, request: _Request) -> None:
        loop = asyncio.get_running_loop()
        try:
            work = self._run(request.difficulty, request.seed, request.view, request.deadline)
        except Exception as exc:
            self._busy -= 1
            request.future.set_exception(exc)
            return
        wrapped = asyncio.wrap_future(work, loop=loop)
        started = self.clock()

        def finished(done: asyncio.Future[Decision]) -> None:
            self._busy -= 1
            self.computed += 1
            if not done.cancelled():
                _log_search(request, started, self.clock())
            if not request.future.done():
                if done.cancelled():
                    request.future.set_result(None)
                elif (exc := done.exception()) is not None:
                    request.future.set_exception(exc)
                else:
                    request.future.set_result(done.result())
            self._pump()

        wrapped.add_done_callback(finished)

    def _run(self, difficulty: str, seed: int, view: View, deadline: float) -> Future[Decision]:
        if self._runner is not None:
            return self._runner(difficulty, seed, view, deadline)
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn")
            )
        return self._pool.submit(think, difficulty, seed, view, deadline)

    def close(self) -> None:
        for request in self._waiting.values():
            if not request.future.done():
                request.future.cancel()
        self._waiting.clear()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def _log_search(request: _Request, started: float, ended: float) -> None:
    """One line per request answered: its key, the milliseconds searched and waited."""
    log.info(
        "table %s: searched %d ms after waiting %d ms",
        request.table,
        round((ended - started) * 1000),
        round((started - request.asked) * 1000),
    )
