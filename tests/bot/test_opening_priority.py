"""A new table's first message waits for the cards of tables already playing:
an attacker opening tables in bulk must not push other tables' hands and turn markers back."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Hashable
from typing import Any

from bot.discord.outbox import MARKER, OPENING, REPORT, TABLE, URGENT, Job, Outbox
from bot.discord.publisher import DiscordPublisher
from bot.service.events import Opened
from bot.service.service import Update
from bot.service.table import Seat
from tests.bot.helpers import lobby_table


class Recorder:
    def __init__(self) -> None:
        self.submitted: list[tuple[Hashable, int]] = []

    def submit(self, key: Hashable, priority: int, channel_id: int, job: Job, **_: Any) -> None:
        self.submitted.append((key, priority))


def test_an_opened_table_is_posted_at_the_opening_priority() -> None:
    table = lobby_table()
    table.seats[0] = Seat(name="host", user_id=3)
    update = Update(table)
    update.add(Opened(0))
    recorder = Recorder()
    DiscordPublisher(None, recorder).publish(update)  # type: ignore[arg-type]
    assert recorder.submitted == [(("table", table.table_id), OPENING)]
    assert URGENT < REPORT < MARKER < OPENING < TABLE


def test_an_ended_tables_last_edit_goes_at_the_opening_priority() -> None:
    """Not as a mere table edit: the next table's messages in the channel would push it back
    for as long as tables keep coming, and each waiting job keeps its whole table."""
    table = lobby_table()
    table.seats[0] = Seat(name="host", user_id=3)
    recorder = Recorder()
    publisher = DiscordPublisher(None, recorder)  # type: ignore[arg-type]
    publisher.publish(Update(table))  # someone joined
    table.status = "cancelled"
    publisher.publish(Update(table))
    key = ("table", table.table_id)
    assert recorder.submitted == [(key, TABLE), (key, OPENING)]


async def test_a_tables_last_edit_goes_before_the_next_tables_first_message() -> None:
    clock = [0.0]
    outbox = Outbox(rate=1000.0, burst=10.0, concurrency=1, clock=lambda: clock[0])
    ran: list[str] = []

    def job(name: str) -> Job:
        async def run() -> None:
            ran.append(name)

        return run

    outbox.submit(("table", "old"), TABLE, 100, job("old, playing"))  # not sent yet
    clock[0] = 5.0
    outbox.submit(("table", "old"), OPENING, 100, job("old, ended"))  # its last edit
    outbox.submit(("table", "new"), OPENING, 100, job("new"))
    clock[0] = 8.0  # both waited their patience: the one queued first still goes first
    worker = asyncio.create_task(outbox.run())
    try:
        await outbox.drain(within=5.0)
    finally:
        worker.cancel()
        await outbox.close()
    assert ran == ["old, ended", "new"]


async def test_cards_and_turn_markers_go_before_openings() -> None:
    outbox = Outbox(rate=1000.0, burst=1.0, concurrency=1)
    ran: list[str] = []

    def job(name: str) -> Job:
        async def run() -> None:
            ran.append(name)

        return run

    for i in range(3):  # submitted first: the attacker's new tables
        outbox.submit(("table", f"new{i}"), OPENING, 100 + i, job(f"opening{i}"))
    outbox.submit(("dm", 1), MARKER, 200, job("marker"))
    outbox.submit(("dm", 2), URGENT, 201, job("hand"))
    worker = asyncio.create_task(outbox.run())
    try:
        await outbox.drain(within=5.0)
    finally:
        worker.cancel()
        await outbox.close()
    assert ran[:2] == ["hand", "marker"]
    assert sorted(ran[2:]) == ["opening0", "opening1", "opening2"]


async def test_an_opening_is_delayed_by_busy_tables_but_never_starved() -> None:
    """Other tables' turn markers without end (the outbox always has one waiting): the new
    table's message still goes out once it has waited its patience."""
    outbox = Outbox(rate=1000.0, burst=1.0, concurrency=1)
    ran: list[str] = []
    markers = iter(range(10**6))

    def marker() -> Job:
        async def run() -> None:
            await outbox.limiter.acquire()  # its REST call takes a token as it goes
            ran.append("marker")
            n = next(markers)  # the next one waits before this one is done
            outbox.submit(("dm", n), MARKER, 1000 + n, marker())  # DMs: a channel each
            await asyncio.sleep(0.001)

        return run

    appeared = asyncio.Event()

    async def opening() -> None:
        await outbox.limiter.acquire()
        ran.append("opening")
        appeared.set()

    outbox.submit(("dm", -1), MARKER, 999, marker())
    outbox.submit(("table", "new"), OPENING, 100, opening)
    worker = asyncio.create_task(outbox.run())
    try:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(appeared.wait(), timeout=20)
    finally:
        worker.cancel()
        await outbox.close()
    assert "opening" in ran, "the new table never appeared"
    # 1000 calls a second at most: about 2000 markers in its 2 s of patience, not many more
    # (without patience it went out only when the stream hiccuped, after 10 000)
    assert 10 < ran.index("opening") < 5000
