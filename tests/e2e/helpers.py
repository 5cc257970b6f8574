"""Shared moves for end-to-end tests: open tables, advance time, read what members see."""

from __future__ import annotations

import asyncio
import json
import time

from bot.discord.client import HokmBot
from bot.service.table import Table
from tests.double.models import StoredMessage, User
from tests.double.server import DiscordDouble


async def open_table(
    double: DiscordDouble, bot: HokmBot, host: User, options: dict[str, object] | None = None
) -> Table:
    channel = double.channel
    assert channel is not None
    await double.slash(host, channel, "hokm new", options or {})
    table = bot.service.table_in_channel(channel.id)
    assert table is not None, "the table did not open"
    # A channel takes 5 messages or edits per window: a table opened where a match has just
    # ended (its summary, last report and table edit) waits its turn (seen under load).
    await double.wait_until(
        lambda: message_id(bot, table) is not None,
        timeout=double.limiter.config.channel_window + 3.0,
        what="the table message",
    )
    return table


def message_id(bot: HokmBot, table: Table) -> int | None:
    """The table's message as the bot knows it (its ``Delivery``, kept apart from the game
    table; forgotten once the table has ended: see ``table_message``)."""
    return bot.service.delivery(table.table_id).now.message_id


def dm_closed(bot: HokmBot, table: Table, seat: int) -> bool:
    """Whether the bot knows the seat's DMs are closed (its ``Delivery``)."""
    return bot.service.delivery(table.table_id).now.closed(seat)


def table_message(double: DiscordDouble, table: Table) -> StoredMessage:
    """The table's message in its channel: the first public message any version of which had
    a button of this table (the bot forgets where it is once the table has ended)."""
    channel = double.world.channels[table.channel_id]
    for message_id in channel.message_ids:
        message = double.message(message_id)
        if message.ephemeral:
            continue
        if table.table_id in json.dumps([message.components, message.history], default=str):
            return message
    raise AssertionError(f"no message of table {table.table_id} in its channel")


async def seat_everyone(
    double: DiscordDouble, bot: HokmBot, table: Table, users: list[User]
) -> None:
    for user in users:
        record = await double.click(user, table_message(double, table), label="Join")
        assert record.response_type == 7, record.response_name


def skip_time(bot: HokmBot, table: Table, seconds: float) -> None:
    """Move the service's clock forward and let the table's timers fire."""
    offset = seconds + getattr(bot.service, "_test_offset", 0.0)
    bot.service._test_offset = offset  # type: ignore[attr-defined]
    bot.service.clock = lambda: time.time() + offset
    bot.service.rearm(table.table_id)


def all_visible_text(double: DiscordDouble, user: User) -> str:
    """Everything ``user`` could read in the channel (public + own ephemerals)."""
    channel = double.channel
    assert channel is not None
    return "\n".join(m.text for m in double.visible_to(user, channel))


async def until_match_stored(bot: HokmBot, table: Table, *, timeout: float = 10.0) -> None:
    """Wait until the store holds ``table``'s finished match: a computer's last card ends the
    match in memory before the service has recorded it, so a test that reads the store (or
    asks ``/hokm history``) right after the last move could find nothing yet."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while await bot.store.match_replay(table.guild_id, table.table_id) is None:
        assert loop.time() < deadline, f"{table.table_id} was not stored within {timeout:g} s"
        await asyncio.sleep(0.02)
