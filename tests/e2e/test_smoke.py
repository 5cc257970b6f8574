"""The bot starts against the double, syncs its commands and opens a table."""

from __future__ import annotations

from bot.discord.client import HokmBot
from tests.double.server import DiscordDouble


async def test_commands_sync_and_new_table_round_trip(
    discord_double: DiscordDouble, hokm_bot: HokmBot
) -> None:
    guild, channel = discord_double.guild, discord_double.channel
    assert guild is not None and channel is not None
    names = {c.name for c in discord_double.commands(guild)}
    assert {"hokm", "standings"} <= names
    host = discord_double.members[0]
    record = await discord_double.slash(host, channel, "hokm new", {"target_score": 3})
    assert record.ephemeral
    table_msg = await discord_double.wait_for_message(channel, lambda m: "Hokm table" in m.text)
    assert f"<@{host.id}>" in table_msg.text
    assert {b.label for b in table_msg.buttons()} >= {"Join", "Leave", "Start", "Cancel"}
