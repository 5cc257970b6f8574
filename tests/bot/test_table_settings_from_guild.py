"""A table's settings are built from the server's in one place (``TableSettings.from_guild``)."""

from __future__ import annotations

from dataclasses import fields

from bot.service.table import TableSettings
from bot.store.guild_settings import GuildSettings


def test_table_settings_copy_every_matching_server_setting() -> None:
    guild = GuildSettings().with_changes(
        target_score=5,
        turn_seconds=40,
        trump_seconds=60,
        lobby_timeout_minutes=3,
        hakem_selection="random",
        allow_computer_players=False,
        language="fa",
        computer_difficulty="hard",
    )
    made = TableSettings.from_guild(guild)
    assert {f.name: getattr(made, f.name) for f in fields(made)} == {
        f.name: getattr(guild, f.name) for f in fields(TableSettings)
    }
    assert made != TableSettings()
