"""Item 5: the outbox forgets channels and job keys once they no longer matter, and not before
(a channel's recent calls still limit it; a key's last run still spaces its next one)."""

from __future__ import annotations

import asyncio

from bot.discord.outbox import Outbox


async def test_prune_forgets_only_what_no_longer_limits_anything() -> None:
    now = [100.0]
    outbox = Outbox(clock=lambda: now[0], channel_limit=1, channel_window=5.0)
    ran: list[str] = []

    async def job() -> None:
        ran.append("x")

    worker = asyncio.create_task(outbox.run())
    try:
        outbox.submit(("table", "t1"), 3, 42, job, every=1.0)
        for _ in range(200):
            if ran and not outbox._inflight:
                break
            await asyncio.sleep(0.001)
        assert ran == ["x"]
        assert set(outbox._sent) == {42} and set(outbox._last_run) == {("table", "t1")}

        outbox.prune(100.5)  # within both windows: nothing is forgotten
        assert set(outbox._sent) == {42} and set(outbox._last_run) == {("table", "t1")}
        assert outbox._channel_room(42, 100.5) > 0  # the channel is still at its limit

        outbox.prune(101.5)  # the key's spacing is over; the channel's window is not
        assert outbox._last_run == {} and set(outbox._sent) == {42}

        outbox.prune(105.5)
        assert outbox._sent == {} and outbox._last_run == {}
        assert outbox._channel_room(42, 105.5) == 0.0
    finally:
        worker.cancel()
        await asyncio.gather(worker, return_exceptions=True)
