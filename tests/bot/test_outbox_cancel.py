"""``Outbox.run`` ends when cancelled, even in the loop turn its wake-up is set (a job
submitted, or a job in flight ending, just as the bot closes)."""

from __future__ import annotations

import asyncio

from bot.discord.outbox import URGENT, Outbox


async def _job() -> None:
    return None


async def test_a_cancel_in_the_turn_the_outbox_wakes_up_still_stops_it() -> None:
    outbox = Outbox()
    worker = asyncio.create_task(outbox.run())
    await asyncio.sleep(0)  # idle: waiting for work
    outbox.submit(("hand", 1), URGENT, 1, _job)  # wakes it up ...
    worker.cancel()  # ... in the same turn as the bot's close cancels it
    done, _ = await asyncio.wait({worker}, timeout=2.0)
    assert worker in done and worker.cancelled(), "the cancel was swallowed: run goes on"


async def test_drain_ends_when_cancelled_as_the_outbox_goes_idle() -> None:
    outbox = Outbox()
    outbox.submit(("hand", 1), URGENT, 1, _job)  # pending: drain waits for it
    drain = asyncio.create_task(outbox.drain(within=30.0))
    await asyncio.sleep(0)
    outbox._idle.set()
    drain.cancel()
    done, _ = await asyncio.wait({drain}, timeout=2.0)
    assert drain in done and drain.cancelled()
