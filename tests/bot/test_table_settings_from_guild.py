"""A table's settings are built from the server's in one place (``TableSettings.from_guild``)."""

from __future__ import annotations

from dataclasses import fields

from bot.service.table import TABLE_ONLY, TableSettings
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
    copied = [f.name for f in fields(TableSettings) if f.name not in TABLE_ONLY]
    assert {name: getattr(made, name) for name in copied} == {
        name: getattr(guild, name) for name in copied
    }
    assert all(not hasattr(guild, name) for name in TABLE_ONLY)
    assert made != TableSettings()
