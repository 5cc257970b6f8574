"""One table per member, a table limit per server, Add
computer is the host's, and no table opens where the bot cannot show it."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.discord.client import HokmBot
from bot.discord.cogs.hokm import missing_permissions
from tests.double.models import (
    ALL_PERMISSIONS,
    EMBED_LINKS,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
)
from tests.double.server import DiscordDouble

from .conftest import BotFactory
from .helpers import message_id, open_table, table_message


def text_of(record: Any) -> str:
    assert record.ephemeral, "a refusal is private"
    return str(record.message.text)


def pings(text: str) -> bool:
    return "<@" in text or "@everyone" in text or "@here" in text


# --------------------------------------------------------------------------- item 4a


async def test_a_member_sits_at_one_table_at_a_time(
    discord_double: DiscordDouble, hokm_bot: HokmBot
) -> None:
    double, bot = discord_double, hokm_bot
    assert double.guild is not None and double.channel is not None
    host, other, *_ = double.members
    first = await open_table(double, bot, host)
    second_channel = double.add_text_channel(double.guild, "second")
    rec = await double.slash(host, second_channel, "hokm new")
    text = text_of(rec)
    assert f"<#{double.channel.id}>" in text and "already at a table" in text
    assert not pings(text)  # a channel mention notifies nobody
    assert bot.service.table_in_channel(second_channel.id) is None

    # the other member opens there; the host cannot join it, by button or command
    rec = await double.slash(other, second_channel, "hokm new")
    theirs = bot.service.table_in_channel(second_channel.id)
    assert theirs is not None
    await double.wait_until(lambda: message_id(bot, theirs) is not None, what="the table message")
    click = await double.click(host, double.message(message_id(bot, theirs) or 0), label="Join")
    assert f"<#{double.channel.id}>" in text_of(click)
    rec = await double.slash(host, second_channel, "hokm join")
    assert f"<#{double.channel.id}>" in text_of(rec)
    assert theirs.seat_of(host.id) is None and first.seat_of(host.id) == 0

    # after leaving the first table the host may join
    await double.click(host, table_message(double, first), label="Leave")
    click = await double.click(host, double.message(message_id(bot, theirs) or 0), label="Join")
    assert click.response_type == 7 and theirs.seat_of(host.id) is not None


async def test_a_table_in_another_server_is_named_as_such(
    discord_double: DiscordDouble, make_bot: BotFactory
) -> None:
    double = discord_double
    assert double.guild is not None and double.channel is not None
    elsewhere = double.create_guild("Second Club")
    cards = double.add_text_channel(elsewhere, "cards")
    host = double.members[0]
    double.add_member(elsewhere, host)
    bot = await make_bot(dev_guild_ids=[double.guild.id, elsewhere.id])
    await open_table(double, bot, host)
    rec = await double.slash(host, cards, "hokm new")
    text = text_of(rec)
    assert "another server" in text and f"<#{double.channel.id}>" in text
    assert bot.service.table_in_channel(cards.id) is None


# --------------------------------------------------------------------------- item 4b


async def test_a_server_opens_at_most_its_limit_of_tables(
    discord_double: DiscordDouble, hokm_bot: HokmBot
) -> None:
    double, bot = discord_double, hokm_bot
    assert double.guild is not None and double.manager is not None
    rec = await double.slash(
        double.manager, double.channel, "hokm settings", {"max_open_tables": 1}
    )
    assert "Open tables at most: 1" in text_of(rec)
    await open_table(double, bot, double.members[1])
    extra = double.add_text_channel(double.guild, "extra")
    rec = await double.slash(double.members[2], extra, "hokm new")
    assert "already has 1 open tables" in text_of(rec)
    assert bot.service.table_in_channel(extra.id) is None
    rec = await double.slash(
        double.manager, double.channel, "hokm settings", {"max_open_tables": 0}
    )
    assert "max_open_tables" in text_of(rec)  # out of range: refused, nothing changed
    assert (await bot.store.get_guild_settings(double.guild.id)).max_open_tables == 1
    rec = await double.slash(
        double.manager, double.channel, "hokm settings", {"max_open_tables": 2, "language": "fa"}
    )
    rec = await double.slash(double.members[2], extra, "hokm new")
    assert bot.service.table_in_channel(extra.id) is not None
    third = double.add_text_channel(double.guild, "third")
    rec = await double.slash(double.members[3], third, "hokm new")
    assert "میز باز دارد" in text_of(rec)


# --------------------------------------------------------------------------- item 6


async def test_only_the_host_adds_computers(
    discord_double: DiscordDouble, hokm_bot: HokmBot
) -> None:
    double, bot = discord_double, hokm_bot
    host, guest, *_ = double.members
    table = await open_table(double, bot, host)
    click = await double.click(guest, table_message(double, table), label="Join")
    assert click.response_type == 7
    for _ in range(2):
        click = await double.click(guest, table_message(double, table), label="Add computer")
        assert "Only the host" in text_of(click)
    assert table.status == "lobby" and len(table.free_seats()) == 2
    assert not any(s and s.is_computer for s in table.seats)
    for _ in range(2):
        click = await double.click(host, table_message(double, table), label="Add computer")
        assert click.response_type == 7
    assert table.status == "playing"


# --------------------------------------------------------------------------- item 7


@pytest.mark.parametrize(
    ("denied", "named"),
    [
        (SEND_MESSAGES, "Send Messages"),
        (EMBED_LINKS, "Embed Links"),
        (VIEW_CHANNEL | SEND_MESSAGES, "View Channel, Send Messages"),
    ],
)
async def test_no_table_opens_where_it_cannot_be_shown(
    discord_double: DiscordDouble, hokm_bot: HokmBot, denied: int, named: str
) -> None:
    double, bot = discord_double, hokm_bot
    channel = double.channel
    assert channel is not None
    double.set_bot_permissions(channel, ALL_PERMISSIONS & ~denied)
    rec = await double.slash(double.members[0], channel, "hokm new")
    text = text_of(rec)
    assert "I am missing" in text and named in text
    assert bot.service.table_in_channel(channel.id) is None
    assert await bot.store.load_live_tables() == []
    double.set_bot_permissions(channel, None)
    await open_table(double, bot, double.members[0])


async def test_send_denied_is_named_in_persian_too(
    discord_double: DiscordDouble, hokm_bot: HokmBot
) -> None:
    double, bot = discord_double, hokm_bot
    channel = double.channel
    assert channel is not None and double.manager is not None
    await double.slash(double.manager, channel, "hokm settings", {"language": "fa"})
    double.deny_send(channel)
    rec = await double.slash(double.members[0], channel, "hokm new")
    assert "ارسال پیام" in text_of(rec)
    assert bot.service.table_in_channel(channel.id) is None


def test_in_a_thread_posting_needs_send_messages_in_threads() -> None:
    def interaction(kind: discord.ChannelType, perms: int) -> Any:
        return SimpleNamespace(
            channel=SimpleNamespace(type=kind), app_permissions=discord.Permissions(perms)
        )

    base = VIEW_CHANNEL | EMBED_LINKS
    thread = discord.ChannelType.public_thread
    assert missing_permissions(interaction(thread, base | SEND_MESSAGES)) == [
        "send_messages_in_threads"
    ]
    assert missing_permissions(interaction(thread, base | SEND_MESSAGES_IN_THREADS)) == []
    assert missing_permissions(interaction(discord.ChannelType.text, base | SEND_MESSAGES)) == []
