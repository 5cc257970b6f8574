"""``/hokm rules``: the rules of the server's format, or of the one asked for (every Hokm
format and V6 Shelem), in the server's language, to the member alone."""

from __future__ import annotations

import pytest

from bot.discord.client import HokmBot
from bot.store.guild_settings import hosted_formats
from tests.double.server import DiscordDouble


async def _rules(double: DiscordDouble, options: dict[str, object] | None = None) -> str:
    rec = await double.slash(double.members[1], double.channel, "hokm rules", options or {})
    assert rec.ephemeral and rec.message is not None
    return rec.message.text


async def test_rules_follow_the_servers_format_or_the_one_asked_for(
    discord_double: DiscordDouble, hokm_bot: HokmBot
) -> None:
    double = discord_double
    text = await _rules(double)
    assert "Hokm in short" in text and "First team to 7 points" in text
    shelem = await _rules(double, {"format": "shelem"})
    assert "Shelem in short" in shelem and "165" in shelem and "to 1165" in shelem
    assert "sar-shelem" in shelem and "kitty" in shelem
    joker = await _rules(double, {"format": "joker_six"})
    assert "Joker six" in joker and "124" in joker and "burnt" in joker
    admin = double.members[0]
    await double.slash(
        admin, double.channel, "hokm settings", {"format": "three", "target_score": 5}
    )
    three = await _rules(double)
    assert "Hokm for three" in three and "17 each" in three
    assert "follow the led suit" in three and "First to 5 points" in three
    await double.slash(admin, double.channel, "hokm settings", {"shelem_joker": True})
    assert "to 1400" in await _rules(double, {"format": "shelem"})


@pytest.mark.parametrize("name", hosted_formats())
async def test_every_format_has_rules_in_persian(
    discord_double: DiscordDouble, hokm_bot: HokmBot, name: str
) -> None:
    double = discord_double
    await double.slash(double.members[0], double.channel, "hokm settings", {"language": "fa"})
    english = "Hokm" if name != "shelem" else "Shelem"
    text = await _rules(double, {"format": name})
    assert english not in text and ("حکم" in text or "شلم" in text)
    assert "**" in text.splitlines()[0]  # a title line first
