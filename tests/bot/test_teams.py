"""A team is named by its players, in the table's language."""

from __future__ import annotations

from bot.present.teams import team_label
from bot.service.table import Seat

from .helpers import lobby_table


def test_a_team_is_its_players_names_joined_in_the_tables_language() -> None:
    table = lobby_table()
    table.seats[0] = Seat(name="amir", user_id=10)
    table.seats[2] = Seat(name="🤖 Rostam")
    table.seats[1] = Seat(name="**bahar**", user_id=11)
    assert team_label(table, "en", 0) == "amir & `🤖 Rostam`"
    assert team_label(table, "fa", 0) == "\u2068amir\u2069 و \u2068`🤖 Rostam`\u2069"
    assert team_label(table, "en", 1) == "\\*\\*bahar\\*\\* & ?"  # escaped; an empty seat is ?
