"""A job replaced by a newer state of the same message does not wake the outbox to
choose again, and a choice looks at the channel of an entry only when it is more urgent than
the best so far. At 200 tables every card replaced its table message's job, and each
replacement made the worker look at every pending job's channel (7 % of the bot's CPU)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.discord.outbox import TABLE, URGENT, Outbox


async def _settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


async def test_newer_states_of_waiting_jobs_cost_no_new_choice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    now = [100.0]
    outbox = Outbox(clock=lambda: now[0], rate=0.001, burst=3.0)  # two table calls, then none
    looked: list[int] = []
    room = outbox._channel_room

    def counted(channel_id: int, at: float) -> float:
        looked.append(channel_id)
        return room(channel_id, at)

    monkeypatch.setattr(outbox, "_channel_room", counted)
    sent: list[int] = []

    def job(channel: int) -> Callable[[], Awaitable[None]]:
        async def run() -> None:
            await outbox.limiter.acquire(channel)
            sent.append(channel)

        return run

    worker = asyncio.create_task(outbox.run())
    try:
        for channel in range(1, 201):
            outbox.submit(("table", channel), TABLE, channel, job(channel))
        await _settle()
        assert sent == [1]  # the next ones wait for the budget, the rest behind them
        waiting = [key[1] for key in outbox._pending]
        assert len(waiting) > 150
        looked.clear()
        for _ in range(5):  # every waiting table's newest state, five times over
            for channel in waiting:
                outbox.submit(("table", channel), TABLE, channel, job(channel))
            await _settle()
        assert len(looked) < 20, f"{len(looked)} channels looked at for nothing"
        outbox.submit(("hand", 1), URGENT, 999, job(999))  # an urgent job still goes at once
        await _settle()
        assert sent == [1, 999]
    finally:
        worker.cancel()
        await asyncio.gather(worker, return_exceptions=True)
        await outbox.close()
        await outbox.limiter.close()


async def test_a_budget_held_back_is_waited_for_not_each_message_coming_due(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Table messages are spaced (``every``), so under load most wait for their time as well
    as for the budget; the worker woke for each one's time (every few milliseconds at 200
    tables), only to find the budget still empty."""
    outbox = Outbox(rate=0.001, burst=3.0)  # the real clock: the worker's waits are real
    choices: list[object] = []
    choose = outbox._next

    def counted() -> Any:
        choices.append(None)
        return choose()

    monkeypatch.setattr(outbox, "_next", counted)

    def job(channel: int) -> Callable[[], Awaitable[None]]:
        async def run() -> None:
            await outbox.limiter.acquire(channel)

        return run

    worker = asyncio.create_task(outbox.run())
    try:
        for channel in range(1, 3):  # the budget's last table call, then one held back
            outbox.submit(("table", channel), TABLE, channel, job(channel))
        await _settle()
        now = outbox.clock()
        for channel in range(3, 193):  # each due a millisecond after the one before
            outbox._last_run[("table", channel)] = now - 1.0 + channel / 1000
            outbox.submit(("table", channel), TABLE, channel, job(channel), every=1.0)
        choices.clear()
        await asyncio.sleep(0.3)
        assert len(choices) < 15, f"{len(choices)} choices in 0.3 s"
    finally:
        worker.cancel()
        await asyncio.gather(worker, return_exceptions=True)
        await outbox.close()
        await outbox.limiter.close()
