"""The budget kept in this process: the default for one process, and the fallback share of a
process whose shared limiter cannot be reached."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Sequence

from .base import Call, Limits, Verdict


class LocalBackend:
    """A token bucket for the global budget and a sliding log per channel, in memory.

    ``share`` scales the global rate and burst (a fallback keeps to this process's share of
    the token's budget); the channel limits stay whole: a channel belongs to one process's
    tables, except DMs.
    """

    name = "local"

    def __init__(self, *, share: float = 1.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.share = share
        self.clock = clock
        self._tokens: float | None = None  # full at the first call
        self._refilled = clock()
        self._sent: dict[int, deque[float]] = {}

    async def connect(self) -> None:
        return None

    async def close(self) -> None:
        return None

    async def try_acquire(
        self, channel_id: int | None, limits: Limits, reserve: float = 0.0
    ) -> Verdict:
        return self.take(channel_id, limits, self.clock(), reserve)

    async def try_acquire_many(self, calls: Sequence[Call], limits: Limits) -> list[Verdict]:
        return self.take_many(calls, limits, self.clock())

    def take_many(self, calls: Sequence[Call], limits: Limits, now: float) -> list[Verdict]:
        """``take`` for each call in turn (the front's batch, answered here)."""
        return [self.take(channel, limits, now, reserve) for channel, reserve in calls]

    def take(
        self, channel_id: int | None, limits: Limits, now: float, reserve: float = 0.0
    ) -> Verdict:
        """``try_acquire`` without the coroutine (the front calls it directly)."""
        rate, burst = limits.rate * self.share, max(1.0, limits.burst * self.share)
        need = 1.0 + max(0.0, min(reserve, burst - 1.0))
        tokens = self.tokens(limits, now)
        if tokens < need:
            return Verdict(wait=(need - tokens) / rate, tokens=tokens)
        if channel_id is not None:
            room = self.channel_room(channel_id, limits, now)
            if room > 0:
                return Verdict(wait=room, channel=True, tokens=tokens)
            self._sent.setdefault(channel_id, deque()).append(now)
        self._tokens = min(burst, tokens) - 1.0
        return Verdict(tokens=self._tokens)

    def empty(self, now: float) -> None:
        """Start from no tokens at ``now``: a fallback taking over from a shared budget must not
        add a burst of its own to the calls just granted there."""
        self._tokens = 0.0
        self._refilled = now

    def tokens(self, limits: Limits, now: float) -> float:
        """Global tokens now (refilled for the time since the last call)."""
        rate, burst = limits.rate * self.share, max(1.0, limits.burst * self.share)
        held = burst if self._tokens is None else self._tokens
        self._tokens = min(burst, held + max(0.0, now - self._refilled) * rate)
        self._refilled = max(self._refilled, now)
        return self._tokens

    def channel_room(self, channel_id: int, limits: Limits, now: float) -> float:
        """0 when the channel may take a call now, else seconds until it may."""
        sent = self._sent.get(channel_id)
        if sent is None:
            return 0.0
        while sent and sent[0] <= now - limits.channel_window:
            sent.popleft()
        if len(sent) < limits.channel_limit:
            return 0.0
        return sent[-limits.channel_limit] + limits.channel_window - now

    def prune(self, limits: Limits, now: float) -> None:
        """Forget channels with no call left in their window."""
        for channel_id in list(self._sent):
            self.channel_room(channel_id, limits, now)
            if not self._sent[channel_id]:
                del self._sent[channel_id]
