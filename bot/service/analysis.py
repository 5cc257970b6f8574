"""After a match ends, its hands are graded with every hand known, in a worker.

The double-dummy solver (``engine.dd``) takes seconds of CPU for a hand, so it never runs in
the bot's process: ``Analyses`` hands a finished match's replay record to a process pool of
``analysis_workers`` processes (0: off), each at the lowest CPU priority (nice 19 and, on Linux,
the idle scheduling class), so the tables' clicks and computer players keep the cores first.
One match at a time per worker, in the order the matches ended; the result
(``engine.dd_analysis.MatchAnalysis``) is stored with the match (``Store.save_analysis``), then
every listener registered with ``listen`` is told (``Analysed``): the Discord side edits the
match's summary, another feature may build on it.

Only a finished match is ever analysed: it comes from ``Store.finish_match``'s record or from
the store's finished matches (``analyse_missing``), never from a live table. Logs name the
match and the time taken, never a card.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import time
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import Executor
from dataclasses import dataclass
from datetime import UTC, datetime
from multiprocessing.pool import Pool
from typing import Any

from engine.dd_analysis import (
    NOT_COVERED,
    SOLVER_VERSION,
    Decision,
    MatchAnalysis,
    analyse_match_decisions,
)
from engine.dd_position import COVERED

from ..store import Store

log = logging.getLogger(__name__)

NICE = 19
"""The workers' CPU priority (the lowest): analysis waits for every other job of the machine."""
QUEUE_LIMIT = 10_000
"""Matches waiting for a worker at most; past it a match is left for ``--analyse-missing``."""
CATCH_UP = 500
"""Matches without an analysis queued at start-up at most (``catch_up``): the rest wait for
the next start or ``--analyse-missing``, so a large backlog never holds the queue for days."""
CATCH_UP_PAGE = 20
"""Matches queued at a time by ``catch_up``: the next page once the queue is empty, so the
matches that end meanwhile wait behind a page at most."""


@dataclass(frozen=True, slots=True)
class Analysed:
    """A finished match's analysis was stored (what listeners are told)."""

    match_id: str
    guild_id: int
    analysis: MatchAnalysis
    decisions: tuple[tuple[Decision, ...], ...] = ()
    """Each graded hand's decisions with their positions (``engine.dd_analysis.Decision``)."""


Listener = Callable[[Analysed], Awaitable[object] | None]


Graded = tuple[dict[str, Any], tuple[tuple[Decision, ...], ...]]
"""The worker's answer: the analysis's stored form, and each graded hand's decisions (their
positions: what puzzles are found in)."""


def analyse(game_format: str, replay: Mapping[str, Any] | None) -> Graded:
    """Runs in the worker: the match's analysis. A format the solver does not value (more
    than two sides, Shelem) is said so, without replaying anything."""
    if game_format not in COVERED or replay is None:
        return MatchAnalysis(game_format, (), NOT_COVERED).to_dict(), ()
    analysis, decisions = analyse_match_decisions(dict(replay))
    return analysis.to_dict(), decisions


def _lower_priority() -> None:
    """Nice 19, and Linux's idle class where the OS has it: a core that runs only idle-class
    work counts as idle when the bot's threads wake, so they go straight to it; at nice 19
    alone they could queue behind another busy thread (a load run's acks doubled at p50)."""
    with contextlib.suppress(OSError):
        os.nice(NICE)
    idle = getattr(os, "SCHED_IDLE", None)
    if idle is not None:
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, idle, os.sched_param(0))


@dataclass(frozen=True, slots=True)
class _Job:
    match_id: str
    guild_id: int
    game_format: str
    replay: Mapping[str, Any] | None


class Analyses:
    """The analysis workers and their queue; ``submit`` never blocks, nothing waits on it."""

    def __init__(
        self,
        store: Store,
        workers: int = 1,
        *,
        executor: Executor | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.workers = max(0, workers)
        self.clock = clock
        self._executor = executor
        self._processes: Pool | None = None
        self._queue: asyncio.Queue[_Job] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._listeners: list[Listener] = []
        self._busy = 0
        self._queued: set[str] = set()
        """Matches queued or in a worker: a match is never graded twice at once."""
        self.done = 0
        """Matches analysed and stored by this process (the load bench reads it)."""
        self.caught_up = 0
        """Matches queued by ``catch_up`` (stored without an analysis)."""

    @property
    def enabled(self) -> bool:
        return self.workers > 0

    def listen(self, listener: Listener) -> None:
        """Call ``listener`` after each match's analysis is stored (in the bot's loop)."""
        self._listeners.append(listener)

    def submit(
        self,
        match_id: str,
        guild_id: int,
        game_format: str,
        replay: Mapping[str, Any] | None,
    ) -> bool:
        """Queue a finished match; ``False`` when analysis is off or the queue is full."""
        if not self.enabled:
            return False
        queue = self._start()
        if match_id in self._queued:
            return True
        if queue.qsize() >= QUEUE_LIMIT:
            log.warning("match %s: analysis queue full, left for --analyse-missing", match_id)
            return False
        self._queued.add(match_id)
        queue.put_nowait(_Job(match_id, guild_id, game_format, replay))
        return True

    async def catch_up(
        self, owns: Callable[[int], bool] = lambda guild_id: True, limit: int = CATCH_UP
    ) -> None:
        """At start-up, in the background: queue the finished matches stored without an
        analysis (ended while analysis was off or the bot down, or dropped at a stop) or with
        one an older solver made (``SOLVER_VERSION``), of the
        servers this process serves (``owns``: two processes never grade one), a page at a
        time behind the matches that end meanwhile, at most ``limit`` (counted in
        ``caught_up``). Nothing when analysis is off."""
        queued, after = 0, ""
        while self.enabled and queued < limit:
            try:
                page = await self.store.unanalysed_matches(
                    solver=SOLVER_VERSION, after=after, limit=CATCH_UP_PAGE
                )
            except Exception:
                log.exception("the matches without an analysis could not be read")
                break
            if not page:
                break
            after = page[-1].match_id
            for found in page:
                if not owns(found.guild_id) or queued >= limit:
                    continue
                if not self.submit(found.match_id, found.guild_id, found.game_format, found.replay):
                    return
                queued += 1
                self.caught_up += 1
            await self.idle()
        if queued:
            log.info("%d finished matches without an analysis caught up", queued)

    async def analyse_missing(self, limit: int | None = None) -> int:
        """Analyse the finished matches that have no analysis yet, or one an older solver made,
        in turn (``python -m bot --analyse-missing``; with no worker configured, one is used);
        how many were stored."""
        done, after = 0, ""
        while limit is None or done < limit:
            page = await self.store.unanalysed_matches(solver=SOLVER_VERSION, after=after, limit=50)
            if not page:
                break
            for found in page:
                job = _Job(found.match_id, found.guild_id, found.game_format, found.replay)
                done += await self._run(job)
                if limit is not None and done >= limit:
                    break
            after = page[-1].match_id
        return done

    async def idle(self) -> None:
        """Wait until every queued match is analysed (tests and tools)."""
        if self._queue is not None:
            await self._queue.join()

    @property
    def waiting(self) -> int:
        return (self._queue.qsize() if self._queue is not None else 0) + self._busy

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks.clear()
        if self._processes is not None:
            processes, self._processes = self._processes, None
            processes.terminate()  # an analysis under way is dropped: --analyse-missing
            await asyncio.to_thread(processes.join)

    # ------------------------------------------------------------------ inside

    def _start(self) -> asyncio.Queue[_Job]:
        if self._queue is None:
            self._queue = asyncio.Queue()
            self._tasks = [
                asyncio.create_task(self._work(), name=f"analysis-{i}")
                for i in range(max(1, self.workers))
            ]
        return self._queue

    async def _call(self, job: _Job) -> Graded:
        """``analyse`` in a worker process (or in the executor given, for tests)."""
        loop = asyncio.get_running_loop()
        if self._executor is not None:
            return await loop.run_in_executor(self._executor, analyse, job.game_format, job.replay)
        if self._processes is None:
            # a multiprocessing pool, not ProcessPoolExecutor: ``terminate`` stops a worker
            # in the middle of a long analysis when the bot stops
            context = multiprocessing.get_context("spawn")
            self._processes = context.Pool(max(1, self.workers), initializer=_lower_priority)
        answer: asyncio.Future[Graded] = loop.create_future()

        def settle(value: Any, failed: bool) -> None:
            if answer.done():
                return
            if failed:
                answer.set_exception(value)
            else:
                answer.set_result(value)

        self._processes.apply_async(
            analyse,
            (job.game_format, job.replay),
            callback=lambda v: loop.call_soon_threadsafe(settle, v, False),
            error_callback=lambda e: loop.call_soon_threadsafe(settle, e, True),
        )
        return await answer

    async def _work(self) -> None:
        assert self._queue is not None
        while True:
            job = await self._queue.get()
            self._busy += 1
            try:
                await self._run(job)
            finally:
                self._busy -= 1
                self._queued.discard(job.match_id)
                self._queue.task_done()

    async def _run(self, job: _Job) -> int:
        """Analyse, store, tell; ``1`` when stored. A failure is logged, never raised."""
        started = time.monotonic()
        try:
            data, decisions = await self._call(job)
            analysis = MatchAnalysis.from_dict(data)
            at = datetime.fromtimestamp(self.clock(), UTC)
            if not await self.store.save_analysis(job.match_id, data, at, solver=SOLVER_VERSION):
                return 0
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            # the type only: the engine's message may name a card
            log.error("match %s: analysis failed (%s)", job.match_id, type(exc).__name__)
            return 0
        self.done += 1
        graded = sum(1 for hand in analysis.hands if hand.best is not None)
        took = time.monotonic() - started
        log.info("match %s: analysed in %.1f s, %d hands graded", job.match_id, took, graded)
        told = Analysed(job.match_id, job.guild_id, analysis, decisions)
        for listener in self._listeners:
            try:
                result = listener(told)
                if result is not None:
                    await result
            except Exception:
                log.exception("match %s: an analysis listener failed", job.match_id)
        return 1
