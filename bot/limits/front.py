"""This process's front to the token's budget: every REST call waits here just before it goes.

Calls wait in order of priority (the outbox's, through ``call_priority``; a call made outside
the outbox goes first), and one pump asks the backend for them: every call ready when it asks,
up to ``BATCH``, most urgent first, in one round trip (``Backend.try_acquire_many``). Calls that
come while an answer is on its way go together in the next, so a process on a slow backend or
a late event loop sends as many calls per round trip as queued meanwhile, instead of one. A
call whose channel is full does not hold up the others.

A remote backend that fails, or gives no answer within ``timeout`` (a hung connection), is left
for ``retry_after`` seconds: the process keeps to its own share of the budget meanwhile (a local
bucket, empty at first; the share of the token's shards it holds), logs that once, and logs once
more when the backend answers again. Calls are never refused: at worst they wait.

A slow answer is not a reason to leave: a process that leaves spends its share on top of what
the others still take from the shared budget, and the token draws 429s. Under load the usual
cause of a slow answer is this process's own event loop running late, so ``timeout`` is seconds,
not a fraction of one (measured: 0.25 s left the budget at 200 tables and drew 13 × 429).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import random
import time
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field

from .base import Backend, Call, Limits, Verdict
from .local import LocalBackend

log = logging.getLogger(__name__)

WAIT_JITTER = 0.25
"""A global wait is stretched by up to this fraction, at random (see ``Limiter._serve``)."""

STALL = 0.25
"""Seconds a wait for the backend may end late before the lateness is the event loop's own (a
timer that fires this much past its time ran on a stalled loop)."""
STALLS = 2
"""Times a call whose wait ended late is given its ``timeout`` again (``_shared_verdicts``)."""

BATCH = 16
"""Calls asked for in one round trip at most. Also how many calls of a process may queue at a
shared backend before the outbox keeps its next job (``busy``): more would only wait for a
later answer, out of the outbox's reach (where a newer job can still replace an older one)."""

LATE = 0.125
"""Seconds between a call's round trip and its send past which the call is counted late: the
margin of the default budget, 5 calls a second below Discord's 50, at 40 a second."""
LATE_LOG_EVERY = 60.0

call_priority: ContextVar[int] = ContextVar("hokm_call_priority", default=0)
"""The priority of the REST calls made in this context (lower first); the outbox sets it for
its jobs, and calls made anywhere else (start-up, command sync) count as most urgent."""


@dataclass(order=True)
class _Waiter:
    priority: int
    seq: int
    channel_id: int | None = field(compare=False)
    future: asyncio.Future[None] = field(compare=False)
    asked: float = field(default=0.0, compare=False)
    """When the round trip that granted it was sent: the budget counted the call after that."""


class Limiter:
    """The gate every REST call of this process passes (``acquire``), over one backend."""

    def __init__(
        self,
        backend: Backend,
        limits: Limits | None = None,
        *,
        share: float = 1.0,
        timeout: float = 3.0,
        connect_timeout: float = 5.0,
        retry_after: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.backend = backend
        self.limits = limits or Limits()
        self.clock = clock
        self.timeout = timeout
        self.connect_timeout = connect_timeout
        self.retry_after = retry_after
        self.remote = not isinstance(backend, LocalBackend)
        self.local = backend if isinstance(backend, LocalBackend) else LocalBackend(clock=clock)
        """The budget kept here: the backend itself, or a remote backend's fallback."""
        self.fallback = LocalBackend(share=share, clock=clock)
        self._connected = False
        self._reconnect: asyncio.Task[None] | None = None
        self._down_until = 0.0
        self._down_logged = False
        self._waiters: list[_Waiter] = []
        self._seq = itertools.count()
        self._pump: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._global_ready = 0.0
        """Until then no call may go (the budget said so to an urgent call)."""
        self._reserved_ready = 0.0
        """Until then no call that leaves a reserve may go."""
        self._blocked: dict[int, float] = {}
        self._hint = (self.limits.burst, clock())
        self.listeners: list[Callable[[], None]] = []
        """Called after every grant (the outbox starts its next job then)."""
        self.granted = 0
        self.fallback_grants = 0
        self.late_grants = 0
        """Calls that went ``LATE`` or more after their grant was asked for."""
        self._late_logged = -LATE_LOG_EVERY
        self.round_trips = 0
        """Batches asked of the shared backend (``bench/limiter_bench.py``, the tests)."""

    @property
    def name(self) -> str:
        return self.backend.name

    @property
    def degraded(self) -> bool:
        """A remote backend is not answering: calls keep to the local share."""
        return self.remote and not self._connected

    # ------------------------------------------------------------------ the gate

    async def acquire(self, channel_id: int | None = None, priority: int | None = None) -> None:
        """Wait until one call in ``channel_id`` may go now (its token is then spent)."""
        loop = asyncio.get_running_loop()
        waiter = _Waiter(
            call_priority.get() if priority is None else priority,
            next(self._seq),
            channel_id,
            loop.create_future(),
        )
        self._waiters.append(waiter)
        self._wake.set()
        if self._pump is None or self._pump.done():
            self._pump = asyncio.create_task(self._run(), name="hokm-limiter")
        try:
            await waiter.future
        finally:
            if not waiter.future.done():
                waiter.future.cancel()
        self._note_lateness(waiter)

    def _note_lateness(self, waiter: _Waiter) -> None:
        """Count a call that goes ``LATE`` seconds or more after its budget counted it (its
        process's event loop was late to hand the grant on), and say so once a minute at most:
        the calls that reach Discord in a second are then no longer the ones counted in it,
        which the budget's margin (45 a second against Discord's 50) covers only so far."""
        now = self.clock()
        if now - waiter.asked < LATE:
            return
        self.late_grants += 1
        if now - self._late_logged >= LATE_LOG_EVERY:
            self._late_logged = now
            log.info(
                "rate limiter: %d calls so far went %g s or more after the budget counted them "
                "(a late event loop)",
                self.late_grants,
                LATE,
            )

    async def _run(self) -> None:
        while True:
            self._waiters = [w for w in self._waiters if not w.future.done()]
            if not self._waiters:
                return
            now = self.clock()
            ready = sorted(w for w in self._waiters if self._ready_at(w) <= now)
            if ready:
                try:
                    await self._serve(ready[:BATCH])
                except Exception:  # a bug here must not leave every call waiting
                    log.exception("rate limiter: a call could not be served; trying again")
                    await asyncio.sleep(0.05)
                continue
            wait = min(self._ready_at(w) for w in self._waiters) - now
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(max(wait, 0.0)):
                    await self._wake.wait()  # a new call may be for a channel with room

    def _reserved(self, priority: int) -> bool:
        return priority > self.limits.urgent

    def _ready_at(self, waiter: _Waiter) -> float:
        """When the waiter may be asked for: its channel's room, and the global budget's for
        its kind (a call that leaves a reserve waits longer than an urgent one)."""
        budget = self._reserved_ready if self._reserved(waiter.priority) else self._global_ready
        return max(budget, self._blocked.get(waiter.channel_id or 0, 0.0))

    async def _serve(self, batch: list[_Waiter]) -> None:
        asked = self.clock()
        verdicts = await self._ask(batch)
        now = self.clock()
        # Late by up to a quarter of the wait, at random: processes told to wait for the same
        # token then ask in a random order instead of the same one always first. A token
        # bucket loses nothing by a late ask (the tokens keep filling).
        late = 1.0 + WAIT_JITTER * random.random()
        global_ready = None
        for waiter, verdict in zip(batch, verdicts, strict=True):
            self._hint = (verdict.tokens, now)
            if verdict.granted:
                self.granted += 1
                waiter.asked = asked
                if not waiter.future.done():
                    waiter.future.set_result(None)
            elif verdict.channel:
                self._blocked[waiter.channel_id or 0] = now + verdict.wait
            else:
                ready = now + verdict.wait * late
                self._reserved_ready = max(self._reserved_ready, ready)
                if not self._reserved(waiter.priority):
                    global_ready = max(global_ready or 0.0, ready)
        if global_ready is not None:
            self._global_ready = global_ready
        if any(v.granted for v in verdicts):
            for listener in self.listeners:
                listener()

    async def _ask(self, batch: list[_Waiter]) -> list[Verdict]:
        calls = [(w.channel_id, self.limits.reserve_for(w.priority)) for w in batch]
        if not self.remote:
            return self.local.take_many(calls, self.limits, self.clock())
        if self._connected:
            try:
                verdicts = await self._shared_verdicts(calls)
            except Exception as exc:  # down, hung, refused: keep sending, more slowly
                await self._went_down(exc)
            else:
                if self._down_logged:
                    self._down_logged = False
                    log.info("rate limiter: %s answers again; the shared budget is back", self.name)
                return verdicts
        elif self._reconnect is None or self._reconnect.done():
            self._reconnect = asyncio.create_task(self._reconnect_loop(), name="hokm-limiter-up")
        verdicts = self.fallback.take_many(calls, self.limits, self.clock())
        self.fallback_grants += sum(1 for v in verdicts if v.granted)
        return verdicts

    async def _shared_verdicts(self, calls: list[Call]) -> list[Verdict]:
        """The backend's answers, given ``timeout`` seconds of this process's own time.

        A stalled event loop (a saturated process) runs the timeout's timer before the task
        that reads an answer which came meanwhile: taken as a hung backend, the process left
        the shared budget and spent its own share on top of what the others take from it (the
        token's 429s at saturation). So the call runs as a task of its own, is looked at once
        more after the loop's pending reads, and while the wait itself ended ``STALL`` seconds
        late (the loop, not the backend, was slow) is given its time again, ``STALLS`` times.

        :raises TimeoutError: no answer within ``timeout`` of a loop that ran on time."""
        loop = asyncio.get_running_loop()
        self.round_trips += 1
        call = asyncio.ensure_future(self.backend.try_acquire_many(calls, self.limits))
        try:
            for _ in range(STALLS + 1):
                asked = loop.time()
                await asyncio.wait((call,), timeout=self.timeout)
                if not call.done():
                    await asyncio.sleep(0)  # an answer the loop has read but not yet handed on
                if call.done():
                    return call.result()
                if loop.time() - asked < self.timeout + STALL:
                    break  # the loop ran on time: the backend is slow
            raise TimeoutError(f"no answer within {self.timeout:g} s")
        finally:
            if not call.done():
                call.cancel()

    async def start(self) -> None:
        """Connect a remote backend (within ``connect_timeout``); when it cannot, the process
        keeps to its local share and tries again in the background."""
        log.info("rate limiter: %s", self.describe())
        if self.remote and not self._connected:
            await self._connect_once()  # on failure, _went_down starts the retries

    def describe(self) -> str:
        if not self.remote:
            return f"local, {self.limits.rate:g} calls a second for this process"
        if self.name == "postgresql":
            return f"postgresql, {self.limits.rate:g} calls a second shared by every process on this database"
        where = getattr(self.backend, "where", "")
        return f"{self.name} at {where}, {self.limits.rate:g} calls a second shared by every process using it"

    async def _connect_once(self) -> bool:
        try:
            async with asyncio.timeout(self.connect_timeout):
                await self.backend.connect()
        except Exception as exc:
            await self._went_down(exc)
            return False
        self._connected = True
        return True

    async def _reconnect_loop(self) -> None:
        while not self._connected:
            await asyncio.sleep(max(0.0, self._down_until - self.clock()))
            await self._connect_once()

    async def _went_down(self, exc: Exception) -> None:
        now = self.clock()
        self._down_until = now + self.retry_after
        self.fallback.empty(now)  # the shared budget may just have granted a burst
        self._connected = False
        with contextlib.suppress(Exception):
            await self.backend.close()
        if not self._down_logged:
            self._down_logged = True
            rate = self.limits.rate * self.fallback.share
            log.warning(
                "rate limiter: %s unreachable (%s); this process keeps to its own share, "
                "%.3g calls a second, and asks again every %g s",
                self.name,
                _reason(exc),
                rate,
                self.retry_after,
            )
        if self._reconnect is None or self._reconnect.done():
            self._reconnect = asyncio.create_task(self._reconnect_loop(), name="hokm-limiter-up")

    # ------------------------------------------------------------------ what the outbox reads

    def busy(self, priority: int = 0) -> bool:
        """Whether a call of ``priority`` started now would only queue behind calls of this
        process already waiting for the global budget (the outbox then keeps the job, to choose
        by priority). A call that leaves a reserve never holds up an urgent one. On a shared
        backend up to ``BATCH`` calls may wait for one answer together: until one says the
        budget is out, the next job's call goes in the next round trip."""
        now = self.clock()
        reserved = self._reserved(priority)
        if (self._reserved_ready if reserved else self._global_ready) > now:
            return True
        waiting = sum(
            1
            for w in self._waiters
            if not w.future.done()
            and self._blocked.get(w.channel_id or 0, 0) <= now
            and (reserved or not self._reserved(w.priority))
        )
        return waiting >= (BATCH if self.remote and self._connected else 1)

    def global_wait(self) -> float:
        """Seconds until the global budget is known to have room again (0: perhaps now)."""
        return max(0.0, self._global_ready - self.clock())

    def channel_wait(self, channel_id: int) -> float:
        """Seconds until the channel is known to have room (this process's calls, and what the
        shared backend said of the others'); 0 when it may have room now."""
        now = self.clock()
        known = max(0.0, self._blocked.get(channel_id, 0.0) - now)
        if not self.remote:
            return max(known, self.local.channel_room(channel_id, self.limits, now))
        return known

    def estimate(self, calls: int) -> float:
        """A lower bound of the seconds ``calls`` more calls would wait for the global budget,
        behind the calls already waiting here."""
        now = self.clock()
        if self.remote and not self.degraded:
            tokens, at = self._hint
            rate = self.limits.rate
            tokens = min(self.limits.burst, tokens + (now - at) * rate)
        else:
            backend = self.fallback if self.remote else self.local
            tokens = backend.tokens(self.limits, now)
            rate = self.limits.rate * backend.share
        waiting = sum(1 for w in self._waiters if not w.future.done())
        return max(0.0, (waiting + calls - tokens) / rate, self._global_ready - now)

    def prune(self, now: float | None = None) -> None:
        """Forget channels nothing limits any more (called with the outbox's prune)."""
        now = self.clock() if now is None else now
        self._blocked = {c: t for c, t in self._blocked.items() if t > now}
        self.local.prune(self.limits, now)
        self.fallback.prune(self.limits, now)

    def channels_known(self) -> int:
        """Channels this front keeps anything for (a test's bookkeeping check)."""
        return len(self._blocked) + len(self.local._sent) + len(self.fallback._sent)

    async def close(self) -> None:
        tasks = [t for t in (self._pump, self._reconnect) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for w in self._waiters:
            w.future.cancel()
        self._waiters.clear()
        self._connected = False
        await self.backend.close()


def _reason(exc: BaseException) -> str:
    if isinstance(exc, TimeoutError):
        return "no answer in time"
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
