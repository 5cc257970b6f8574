"""Computer players think in worker processes, shared fairly between tables and bounded in time.

A searching player is pure Python and busy for tens of milliseconds a move; run in a thread it
would still hold the interpreter lock and stall every other table's clicks. In a process it
cannot. The worker gets the seat's view only (never the match), so it cannot cheat either.

The workers are few and the tables many, so two rules keep one server's hundred idle tables
from slowing a table elsewhere:

- **Round robin.** Waiting tables are served one request per turn, in the order they came to
  wait; a table whose request is being computed goes to the end of the line when it is
  answered (while a worker is free and no other table waits, it is served anyway). A request
  never waits behind more than one decision of each other table. A table's requests wait under
  keys, at most one per key (a newer one replaces it, in its place): the table's id for its
  computer's move, ``<table id>:<part>`` for anything else of that table (``request_key``: a
  seat's hint), which shares the table's turn, so a member pressing Hint takes no more
  of the workers than their table's share.
- **A deadline per decision.** The worker stops the search at the deadline and plays its best
  card so far (``engine.search`` asks ``should_stop``; the engine itself never reads a clock). A
  request whose deadline passed while it waited is not computed at all: it resolves to ``None``,
  and the caller plays the greedy move.

Each request answered logs how long it waited, how long it had left to search when it started
(its think time: ``0`` when its deadline passed first) and how long it was searched: the
figures by which a slow worker, or a table taking more than its share, is seen
(``bench/bot_load.py`` reads them). Times only, never a view.
"""

from __future__ import annotations

import asyncio
import logging
import math
import multiprocessing
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field

from engine import Card, SeatView, Suit
from engine.shelem import ShelemView

from .variants import ShelemDecision

log = logging.getLogger(__name__)

PART_SEPARATOR = ":"
"""Between a table's id and the part of a request key after it (table ids are hex digits)."""

MIN_THINK = 0.02
"""Seconds a search needs to be worth starting; with less left the greedy move is played."""

Decision = Card | Suit | ShelemDecision
"""A card or a trump; at a Shelem table (V6) a card or a ``ShelemDecision`` (a bid...)."""
View = SeatView | ShelemView
Runner = Callable[[str, int, View, float], "Future[Decision]"]
"""Starts one decision in a worker: (difficulty, seed, view, monotonic deadline)."""


def request_key(table_id: str, part: str) -> str:
    """The key of a request of ``table_id`` besides its computer's move (``part``: a seat's
    hint): it waits beside that table's other requests and is served in the table's turn."""
    return f"{table_id}{PART_SEPARATOR}{part}"


def table_of(key: Hashable) -> Hashable:
    """The table whose turn a request key waits for (``request_key``)."""
    return key.split(PART_SEPARATOR, 1)[0] if isinstance(key, str) else key


def think(difficulty: str, seed: int, view: View, deadline: float = float("inf")) -> Decision:
    """Runs in the worker: one decision for the seat whose view this is, stopped at
    ``deadline`` (``time.monotonic``, the same clock in every process of the machine)."""
    from .games import family_of_match

    def should_stop() -> bool:
        return time.monotonic() >= deadline

    return family_of_match(view).think(difficulty, seed, view, should_stop)


@dataclass(eq=False)
class _Request:
    key: Hashable
    difficulty: str
    seed: int
    view: View
    deadline: float
    future: asyncio.Future[Decision | None] = field(repr=False)
    asked: float = 0.0
    """``clock()`` when it was queued."""


class Thinker:
    """Worker processes (started on first use) fed round robin, one request per table's turn."""

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
        self._waiting: OrderedDict[Hashable, OrderedDict[Hashable, _Request]] = OrderedDict()
        """The tables in the order of their turns, each with its requests by key, oldest first."""
        self._busy = 0
        self._serving: Counter[Hashable] = Counter()
        """Tables with a request being computed: in line behind the others until answered."""
        self.computed = 0
        self.expired = 0
        """Requests answered ``None`` because their deadline passed before a worker was free."""

    @property
    def waiting(self) -> int:
        return sum(len(requests) for requests in self._waiting.values())

    def decide(
        self, key: Hashable, difficulty: str, seed: int, view: View, deadline: float
    ) -> asyncio.Future[Decision | None]:
        """Queue a decision under ``key`` (a table's id, or ``request_key``); resolves to the
        move, or ``None`` (play greedy).

        Cancel the returned future to withdraw a request that is still waiting.
        """
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Decision | None] = loop.create_future()
        requests = self._waiting.setdefault(table_of(key), OrderedDict())
        request = _Request(key, difficulty, seed, view, deadline, future, asked=self.clock())
        old = requests.get(key)
        requests[key] = request  # an old one's place, or the last
        if old is not None and not old.future.done():
            old.future.set_result(None)  # superseded: the table has moved on
        self._pump()
        return future

    def _pump(self) -> None:
        """Hand waiting requests to free workers, one per table's turn."""
        while self._busy < self.workers:
            request = self._next()
            if request is None:
                return
            self._busy += 1
            self._start(request)

    def _next(self) -> _Request | None:
        """The oldest request of the first table in line that is not being served (else of the
        first table: no worker idles while a request waits). A withdrawn request, or one whose
        deadline passed (answered ``None``), does not use up its table's turn."""
        while self._waiting:
            table = next((t for t in self._waiting if not self._serving[t]), None)
            if table is None:
                table = next(iter(self._waiting))
            requests = self._waiting[table]
            _, request = requests.popitem(last=False)
            if not requests:
                del self._waiting[table]
            if request.future.done():  # withdrawn by its table
                continue
            now = self.clock()
            if request.deadline - now < MIN_THINK:
                self.expired += 1
                _log_search(request, now, now, left=0.0)
                request.future.set_result(None)
                continue
            return request
        return None

    def _start(self, request: _Request) -> None:
        loop = asyncio.get_running_loop()
        table = table_of(request.key)
        try:
            work = self._run(request.difficulty, request.seed, request.view, request.deadline)
        except Exception as exc:
            self._busy -= 1
            request.future.set_exception(exc)
            return
        self._serving[table] += 1
        wrapped = asyncio.wrap_future(work, loop=loop)
        started = self.clock()

        def finished(done: asyncio.Future[Decision]) -> None:
            self._busy -= 1
            self.computed += 1
            self._serving[table] -= 1
            if self._serving[table] <= 0:
                del self._serving[table]
            if table in self._waiting:  # its next request: behind the tables now waiting
                self._waiting.move_to_end(table)
            if not done.cancelled():
                _log_search(request, started, self.clock(), request.deadline - started)
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
        for requests in self._waiting.values():
            for request in requests.values():
                if not request.future.done():
                    request.future.cancel()
        self._waiting.clear()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def _log_search(request: _Request, started: float, ended: float, left: float) -> None:
    """One line per request answered: its key; the milliseconds searched; the milliseconds it
    had left to search when it started, its think time (0 when its deadline passed while it
    waited); and the milliseconds it waited."""
    log.info(
        "table %s: searched %d ms of %s ms left after waiting %d ms",
        request.key,
        round((ended - started) * 1000),
        "inf" if math.isinf(left) else round(max(0.0, left) * 1000),
        round((started - request.asked) * 1000),
    )
