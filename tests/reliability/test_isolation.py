"""Guarantee 6, permissions and isolation: settings refuse members without Manage Server even
when Discord shows them the command, and one server's settings, tables and standings are
invisible to another's (two guilds in one double, one member in both)."""

from __future__ import annotations

import pytest

from bot.discord.client import HokmBot
from tests.double.models import Channel, Guild, User
from tests.double.server import DiscordDouble
from tests.e2e.conftest import BotFactory

from .inproc import fast_forward, seated_table

MANAGE_MESSAGES = 1 << 13
KICK_MEMBERS = 1 << 1


class SecondServer:
    """ "Second Club" with #cards: its manager kaveh, and bahar, a plain member of the first
    server who manages this one."""

    def __init__(self, double: DiscordDouble) -> None:
        self.guild: Guild = double.create_guild("Second Club")
        self.channel: Channel = double.add_text_channel(self.guild, "cards")
        self.manager: User = double.add_member(self.guild, "kaveh", manage_guild=True)
        self.shared: User = double.members[1]  # bahar
        double.add_member(self.guild, self.shared, manage_guild=True)


@pytest.fixture
async def two_servers(
    discord_double: DiscordDouble, make_bot: BotFactory
) -> tuple[DiscordDouble, HokmBot, SecondServer]:
    second = SecondServer(discord_double)
    assert discord_double.guild is not None
    bot = await make_bot(
        dev_guild_ids=[discord_double.guild.id, second.guild.id], match_seed_base=3
    )
    return discord_double, bot, second


async def test_settings_refuse_members_without_manage_server(
    two_servers: tuple[DiscordDouble, HokmBot, SecondServer],
) -> None:
    double, bot, second = two_servers
    guild, channel = double.guild, double.channel
    assert guild is not None and channel is not None
    moderator = double.add_member(
        guild, "mod", roles=[double.add_role(guild, "Mods", MANAGE_MESSAGES | KICK_MEMBERS)]
    )
    before = await bot.store.get_guild_settings(guild.id)
    # The double, like a server that overrode the command's permissions, lets anyone run it.
    for user in (double.members[2], moderator, second.shared):
        rec = await double.slash(user, channel, "hokm settings", {"turn_seconds": 45})
        assert rec.ephemeral and "Manage Server" in rec.message.text  # type: ignore[union-attr]
    assert await bot.store.get_guild_settings(guild.id) == before
    # bahar manages the second server: there, and only there, she may
    rec = await double.slash(second.shared, second.channel, "hokm settings", {"turn_seconds": 45})
    assert rec.ephemeral and "Turn time: 45 s" in rec.message.text  # type: ignore[union-attr]
    assert (await bot.store.get_guild_settings(second.guild.id)).turn_seconds == 45
    assert await bot.store.get_guild_settings(guild.id) == before


async def test_settings_tables_and_standings_stay_in_their_server(
    two_servers: tuple[DiscordDouble, HokmBot, SecondServer],
) -> None:
    double, bot, second = two_servers
    guild, channel = double.guild, double.channel
    assert guild is not None and channel is not None and double.manager is not None
    rec = await double.slash(
        second.manager, second.channel, "hokm settings", {"language": "fa", "target_score": 3}
    )
    assert rec.ephemeral
    assert (await bot.store.get_guild_settings(guild.id)).language == "en"

    table = await seated_table(double, bot, {"target_score": 1, "turn_seconds": 60})
    assert table.guild_id == guild.id and table.settings.language == "en"
    assert table.settings.target_score == 1
    for command in ("hokm join", "hokm hand", "hokm cancel"):
        rec = await double.slash(second.shared, second.channel, command)
        assert rec.ephemeral and "میز بازی در این کانال نیست" in rec.message.text  # type: ignore[union-attr]
    assert bot.service.tables_of_user(second.guild.id, second.shared.id) == []
    assert bot.service.table_in_channel(second.channel.id) is None

    rec = await double.slash(second.manager, second.channel, "hokm new", {})
    other = bot.service.table_in_channel(second.channel.id)
    assert rec.ephemeral and other is not None
    assert other.settings.language == "fa" and other.settings.target_score == 3
    assert table.status == "playing" and bot.service.table_in_channel(channel.id) is table

    await fast_forward(bot, table, lambda: False)
    assert table.status == "finished"
    mine = await bot.store.standings(guild.id, 1)
    theirs = await bot.store.standings(second.guild.id, 1)
    assert mine.total_players == 4 and theirs.total_players == 0 and not theirs.rows
    rec = await double.slash(second.manager, second.channel, "standings")
    assert "هنوز بازی تمام‌شده‌ای نیست" in rec.message.text  # type: ignore[union-attr]
    rec = await double.slash(second.manager, second.channel, "standings", {"member": second.shared})
    assert "<@" in rec.message.text and "هنوز" in rec.message.text  # type: ignore[union-attr]
    rec = await double.slash(double.manager, channel, "standings", {"member": second.shared})
    assert f"<@{second.shared.id}>" in rec.message.text and "rank" in rec.message.text  # type: ignore[union-attr]
    assert other.status == "lobby"  # untouched by the first server's match
