"""One outbox for every non-interaction REST call the bot makes.

Discord allows a bot about 50 such calls a second in all and about 5 message creates/edits per
5 s in one channel. Interaction responses are exempt, so the clicking player is always answered
directly; everything else (the public table message, turn markers in DMs, channel reports) goes
through here. The outbox decides the order, by priority, and keeps only the newest job per key:
a table message edited ten times while the channel was throttled is sent once, with the state
of the moment it is sent. So the live view degrades gracefully under load (per card when quiet,
per trick when busy) instead of queueing or drawing 429s.

The budget itself is the ``Limiter``'s (``bot.limits``; shared by every process of the token
when it is kept in PostgreSQL or Redis). Each REST call a job makes takes its token there when
the call goes out (``rest_gate``), with the job's priority; the outbox starts a job only while
no call of this process is waiting for the global budget, so the queue, and the choice of what
goes next, stays here.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections import defaultdict, deque
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field

from ..limits import Limiter, Limits, LocalBackend, call_priority

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[None]]

# Priorities, lowest number first.
URGENT = 0  # a new hand's cards
REPORT = 1  # channel reports (hand results, notices)
MARKER = 2  # a DM edit that marks whose turn it is: the player waits for it
OPENING = 3  # a new table's first message: nobody plays there yet, so it waits for those who do
# (and an ended table's last edit, so that it does not wait for every next table in its channel)
TABLE = 4  # the public table message: informative, and coalesces best

PATIENCE = {OPENING: 2.0}
"""Seconds a job of these priorities waits behind more urgent ones at most; then it goes as
``URGENT``. A new table's first message: tables busy elsewhere (say, a hundred an attacker left
to the computer) may delay it, but must never keep it from appearing."""


class Retry(Exception):
    """Raised by a job whose call failed for a passing reason: run it again later."""


@dataclass(order=True)
class _Entry:
    priority: int
    seq: int
    key: Hashable = field(compare=False)
    channel_id: int = field(compare=False)
    job: Job = field(compare=False)
    not_before: float = field(default=0.0, compare=False)
    cost: int = field(default=1, compare=False)
    """REST calls the job makes (tokens it spends)."""
    attempts: int = field(default=0, compare=False)
    queued_at: float = field(default=0.0, compare=False)
    promote_at: float = field(default=float("inf"), compare=False)
    """From then on the job counts as ``URGENT`` (a low priority that waited long enough)."""

    def rank(self, now: float) -> tuple[int, int]:
        return (URGENT if now >= self.promote_at else self.priority), self.seq


class Outbox:
    """Rate-aware, coalescing sender. ``submit`` never blocks; ``run`` is the worker."""

    def __init__(
        self,
        *,
        rate: float = 40.0,
        burst: float = 5.0,
        channel_limit: int = 5,
        channel_window: float = 5.0,
        concurrency: int = 8,
        max_attempts: int = 5,
        clock: Callable[[], float] = time.monotonic,
        limiter: Limiter | None = None,
    ) -> None:
        """Without ``limiter``, a local one with these limits and this clock (one process)."""
        if limiter is None:
            limits = Limits(rate, burst, channel_limit, channel_window)
            limiter = Limiter(LocalBackend(clock=clock), limits, clock=clock)
        self.limiter = limiter
        self.max_attempts = max_attempts
        self.clock = clock
        self._pending: dict[Hashable, _Entry] = {}
        self._inflight: set[Hashable] = set()
        self._sent: defaultdict[int, deque[float]] = defaultdict(deque)
        """Per channel, when its jobs started: a channel full of this process's own calls is
        passed over before a job takes a slot (DM jobs are keyed by member, not channel)."""
        self._last_run: dict[Hashable, float] = {}
        self._longest_every = 0.0
        self._pruned = clock()
        self._seq = itertools.count()
        self._wakeup = asyncio.Event()
        self._idle = asyncio.Event()
        self._slots = asyncio.Semaphore(concurrency)
        self._tasks: set[asyncio.Task[None]] = set()
        self.limiter.listeners.append(self._wakeup.set)  # a call went: the next job may start
        self.calls = 0
        self.failures = 0
        self.dropped = 0

    # The limits live in the limiter; these read and set them (tests and benchmarks).
    @property
    def rate(self) -> float:
        return self.limiter.limits.rate

    @rate.setter
    def rate(self, value: float) -> None:
        self.limiter.limits.rate = value

    @property
    def burst(self) -> float:
        return self.limiter.limits.burst

    @burst.setter
    def burst(self, value: float) -> None:
        self.limiter.limits.burst = value

    @property
    def channel_limit(self) -> int:
        return self.limiter.limits.channel_limit

    @property
    def channel_window(self) -> float:
        return self.limiter.limits.channel_window

    @channel_window.setter
    def channel_window(self, value: float) -> None:
        self.limiter.limits.channel_window = value

    # ------------------------------------------------------------------ API

    def submit(
        self,
        key: Hashable,
        priority: int,
        channel_id: int,
        job: Job,
        *,
        every: float = 0.0,
        cost: int = 1,
        patience: float | None = None,
    ) -> None:
        """Queue ``job``; a pending job with the same key is replaced (newest state wins).

        With ``every``, jobs of this key run at most once per that many seconds (the table
        message is edited about once a second, however fast cards fall). With ``patience``
        (by default ``PATIENCE`` of the priority), the job goes as ``URGENT`` once it has
        waited that many seconds.
        """
        if patience is None:
            patience = PATIENCE.get(priority)
        old = self._pending.get(key)
        if old is not None:
            old.job = job
            old.cost = max(old.cost, cost)
            promote_at = old.promote_at
            if patience is not None:  # waiting already counts towards it
                promote_at = min(promote_at, old.queued_at + patience)
            if priority >= old.priority and promote_at == old.promote_at:
                # The newest state rides on a job already waiting, as urgent as before: no
                # choice changed, so the worker is not woken to make them all again (a table
                # message replaced on every card of 200 tables woke it for a full scan each).
                return
            old.priority = min(old.priority, priority)
            old.promote_at = promote_at
        else:
            entry = _Entry(priority, next(self._seq), key, channel_id, job, cost=cost)
            entry.queued_at = self.clock()
            if patience is not None:
                entry.promote_at = entry.queued_at + patience
            if every:
                entry.not_before = self._last_run.get(key, -every) + every
                self._longest_every = max(self._longest_every, every)
            self._pending[key] = entry
        self._wakeup.set()

    def discard(self, key: Hashable) -> None:
        """Drop a pending job that became pointless (its message was updated another way)."""
        self._pending.pop(key, None)

    @property
    def backlog(self) -> int:
        return len(self._pending)

    def wait_estimate(self, priority: int, cost: int = 1) -> float:
        """Seconds a job of ``priority`` and ``cost`` submitted now would wait for the global
        budget: the jobs already waiting at that priority or a more urgent one spend theirs
        first, after the calls already waiting at the limiter. A lower bound (a channel's own
        limit, jobs that have not reached their call, and other processes' calls are left
        out), which is what a caller choosing a way around the budget needs."""
        now = self.clock()
        ahead = sum(e.cost for e in self._pending.values() if e.rank(now)[0] <= priority)
        return self.limiter.estimate(ahead + cost)

    async def drain(self, within: float = 10.0) -> None:
        """Wait until nothing is pending or in flight (tests, shutdown), at most ``within`` s."""
        deadline = self.clock() + within
        while (self._pending or self._inflight) and self.clock() < deadline:
            self._idle.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(0.05):  # not wait_for: see ``run``
                    await self._idle.wait()

    def prune(self, now: float | None = None) -> None:
        """Forget channels and keys nothing is waiting on: a channel with no call in its
        window, a key last run longer ago than any ``every``. Both are as good as never seen,
        and without this both would keep an entry for every table and DM channel ever used."""
        now = self.clock() if now is None else now
        self._pruned = now
        for channel_id in list(self._sent):
            self._channel_room(channel_id, now)  # drops the calls that left the window
            if not self._sent[channel_id]:
                del self._sent[channel_id]
        horizon = now - self._longest_every
        self._last_run = {k: t for k, t in self._last_run.items() if t > horizon}
        self.limiter.prune(now)

    async def run(self) -> None:
        while True:
            if self.clock() - self._pruned >= self.channel_window:
                self.prune()
            # A free slot first, then the choice: the job chosen is the most urgent at the
            # moment it can start, not one picked before a slow job ended.
            await self._slots.acquire()
            entry, wait = self._next()
            if entry is None:
                self._slots.release()
                self._wakeup.clear()
                idle = self.channel_window if wait is None else wait  # prune when idle
                # asyncio.timeout, not wait_for: on Python 3.11 wait_for swallows a cancel
                # that comes in the loop turn the event is set (a job submitted or ended as
                # the bot closes), and the worker then ran on until the close gave up.
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(idle):
                        await self._wakeup.wait()
                continue
            del self._pending[entry.key]
            self._inflight.add(entry.key)
            self._sent[entry.channel_id].append(self.clock())
            self._last_run[entry.key] = self.clock()
            task = asyncio.create_task(self._send(entry))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    # ------------------------------------------------------------------ internals

    def _next(self) -> tuple[_Entry | None, float | None]:
        """The most urgent entry that may start now, else how long until one may.

        The budget answers once per priority; an entry of a priority it holds back is passed
        over at once, and only an entry more urgent than the best so far has its channel
        looked at (most pending entries are table messages of one priority, each in its own
        channel)."""
        now = self.clock()
        if not self._pending:
            return None, None
        if self.limiter.busy(URGENT):
            # Not even the most urgent job could go: no need to look at every pending one
            # (under load there are hundreds, and this runs on every submit and grant).
            return None, max(self.limiter.global_wait(), 0.05)
        waits = []
        best: _Entry | None = None
        best_rank: tuple[int, int] | None = None
        busy: dict[int, bool] = {}
        held_by_budget = False
        for entry in self._pending.values():
            if entry.key in self._inflight:
                continue
            rank = entry.rank(now)
            level = rank[0]
            if level not in busy:
                busy[level] = self.limiter.busy(level)
            if busy[level]:
                # Its spacing and its channel do not matter until the budget has room: the
                # worker waits for that, not for the next of 200 table messages to come due
                # (it woke every few milliseconds to find the budget still empty).
                held_by_budget = True
                continue
            if entry.not_before > now:
                waits.append(entry.not_before - now)
                continue
            if best_rank is not None and rank >= best_rank:
                continue
            room = max(
                self._channel_room(entry.channel_id, now),
                self.limiter.channel_wait(entry.channel_id),
            )
            if room > 0:
                waits.append(room)
                continue
            best, best_rank = entry, rank
        if best is not None:
            return best, None
        if held_by_budget:  # woken by the limiter's next grant; the wait is a safety net
            waits.append(max(self.limiter.global_wait(), 0.05))
        return None, (min(waits) if waits else 0.05)

    def _channel_room(self, channel_id: int, now: float) -> float:
        """0 when the channel may take a call now, else seconds until it may."""
        sent = self._sent.get(channel_id)
        if sent is None:
            return 0.0
        while sent and sent[0] <= now - self.channel_window:
            sent.popleft()
        if len(sent) < self.channel_limit:
            return 0.0
        return sent[0] + self.channel_window - now

    async def _send(self, entry: _Entry) -> None:
        # This task's REST calls wait at the limiter with the job's priority (its own context).
        call_priority.set(entry.rank(self.clock())[0])
        try:
            self.calls += 1
            await entry.job()
        except Retry:
            self._retry(entry)
        except asyncio.CancelledError:
            raise
        except Exception:
            self.failures += 1
            log.exception("outbox job %r failed", entry.key)
        finally:
            self._inflight.discard(entry.key)
            self._slots.release()
            self._wakeup.set()
            self._idle.set()

    def _retry(self, entry: _Entry) -> None:
        self.failures += 1
        entry.attempts += 1
        if entry.attempts >= self.max_attempts:
            self.dropped += 1
            log.warning("outbox job %r dropped after %d attempts", entry.key, entry.attempts)
            return
        if entry.key in self._pending:
            return  # a newer job for the same key is already waiting
        entry.not_before = self.clock() + min(30.0, 0.5 * 2**entry.attempts)
        self._pending[entry.key] = entry
