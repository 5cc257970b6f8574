"""A button answered by editing the table message drops the publisher's queued edit of it,
but only when nothing changed while the answer was on its way (found under churn: a
Cancel right after a Start left the cancelled table's message showing the live lobby)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

from bot.discord.actions import show_table
from bot.discord.cogs.bot_api import CogBot
from bot.discord.outbox import TABLE, Outbox
from bot.service.delivery import Delivery
from bot.service.ports import Update
from bot.service.service import TableService

from .helpers import lobby_table


class _Response:
    def __init__(self, during: Any) -> None:
        self.during = during
        self.edits = 0

    async def edit_message(self, **kwargs: Any) -> None:
        self.edits += 1
        self.during()


async def _answer_with(during: Any, *, moved_on: bool = False) -> tuple[Outbox, str]:
    table = lobby_table()
    update = Update(table, snapshot=table.snapshot())  # as committed
    if moved_on:
        table.version += 1  # a later change was stored before the answer was rendered
    outbox = Outbox()
    service = TableService(cast(Any, None))
    service.deliveries.shown(table.table_id).now = Delivery(message_id=77)
    bot = cast(CogBot, SimpleNamespace(service=service, outbox=outbox))
    key = ("table", table.table_id)

    async def job() -> None:
        return None

    outbox.submit(key, TABLE, table.channel_id, job)  # the publisher's edit for this update

    def change() -> None:
        during(table, outbox, key, job)

    interaction = SimpleNamespace(message=SimpleNamespace(id=77), response=_Response(change))
    await show_table(bot)(cast(Any, interaction), update)
    return outbox, table.table_id


async def test_the_queued_edit_is_dropped_when_the_answer_showed_the_newest_table() -> None:
    outbox, _ = await _answer_with(lambda *_: None)
    assert outbox.backlog == 0


async def test_a_change_committed_meanwhile_keeps_its_queued_edit() -> None:
    def cancel_meanwhile(table: Any, outbox: Outbox, key: Any, job: Any) -> None:
        table.version += 1  # another action committed (the store bumps the version)
        outbox.submit(key, TABLE, table.channel_id, job)

    outbox, _ = await _answer_with(cancel_meanwhile)
    assert outbox.backlog == 1


async def test_an_answer_showing_its_own_change_keeps_the_edit_of_a_later_one() -> None:
    """The answer renders its update's snapshot, without the table's lock: a change stored
    before it went is not in it, and that change's queued edit still runs."""
    outbox, _ = await _answer_with(lambda *_: None, moved_on=True)
    assert outbox.backlog == 1
