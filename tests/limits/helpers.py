"""Driving limiters hard from several clients and reading what they granted."""

from __future__ import annotations

import asyncio
import time

from bot.limits import Limiter


async def hammer(
    limiter: Limiter,
    until: float,
    times: list[float],
    channel: int | None = None,
    workers: int = 4,
    priority: int = 0,
) -> None:
    """``workers`` callers that each ask for a call of ``priority`` again as soon as the last
    was granted, until ``until`` (monotonic); every grant's time goes into ``times``."""

    async def worker() -> None:
        while time.monotonic() < until:
            await limiter.acquire(channel, priority)
            times.append(time.monotonic())

    await asyncio.gather(*(worker() for _ in range(workers)))


def most_in_window(times: list[float], window: float) -> int:
    """The most grants within any ``window`` seconds (a sliding window over every start)."""
    ordered = sorted(times)
    best = start = 0
    for end, t in enumerate(ordered):
        while ordered[start] <= t - window:
            start += 1
        best = max(best, end - start + 1)
    return best
