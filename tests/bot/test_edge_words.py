"""Every sentence is made in ``bot/present/``: the Discord edge imports no sentence maker
(``present.i18n``); it says what happened and ``present.answers`` (or another presenter
module) says it in the member's language."""

from __future__ import annotations

from bot.present import answers
from bot.service.table import Seat, TableSettings
from bot.store.guild_settings import GuildSettings

from .helpers import lobby_table
from .test_import_cycles import import_graph


def test_no_module_of_the_discord_edge_makes_a_sentence() -> None:
    graph = import_graph()
    found = sorted(
        module
        for module, targets in graph.items()
        if module.startswith("bot.discord") and "bot.present.i18n" in targets
    )
    assert found == []


def test_missing_permissions_are_named_and_joined_in_the_language() -> None:
    assert answers.missing_permissions("en", ["view_channel", "embed_links"]) == (
        "View Channel, Embed Links"
    )
    assert "، " in answers.missing_permissions("fa", ["view_channel", "embed_links"])


def test_a_seat_answer_says_the_seat_one_based_in_the_tables_language() -> None:
    table = lobby_table()
    table.settings = TableSettings.from_guild(GuildSettings(language="fa"))
    table.seats[1] = Seat(user_id=3, name="host")
    assert "۲" in answers.seat_answer(table, 3, "joined")
    table.settings = TableSettings()
    assert answers.seat_answer(table, 3, "joined") == "You joined seat 2."
