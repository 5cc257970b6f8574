"""Measures how late the event loop wakes up, so blocking code shows up in the log.

A task sleeps a fixed interval and records how much later than asked it woke: that overshoot
is the time something else held the loop. Every ``report_every`` seconds one line sums it up
(``loop lag: p50=… p99=… max=…``); the load benchmark reads these lines.
"""

from __future__ import annotations

import asyncio
import logging
import time

log = logging.getLogger(__name__)


class LoopLagMonitor:
    def __init__(self, *, interval: float = 0.05, report_every: float = 10.0) -> None:
        self.interval = interval
        self.report_every = report_every
        self.samples: list[float] = []

    async def run(self) -> None:
        last_report = time.perf_counter()
        while True:
            start = time.perf_counter()
            await asyncio.sleep(self.interval)
            self.samples.append(max(0.0, time.perf_counter() - start - self.interval))
            if start - last_report >= self.report_every and self.samples:
                log.info("loop lag: %s", self.summary())
                self.samples.clear()
                last_report = start

    def summary(self) -> str:
        ordered = sorted(self.samples)
        n = len(ordered)

        def pct(p: float) -> float:
            return ordered[min(n - 1, int(p * n))] * 1000

        return f"p50={pct(0.5):.1f}ms p99={pct(0.99):.1f}ms max={ordered[-1] * 1000:.1f}ms n={n}"
