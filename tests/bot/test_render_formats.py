"""The table message follows the table's ``GameFormat``: one trick count and one score per
team, however many teams the format has, each team by its players (the
standard game's lines are pinned elsewhere)."""

from __future__ import annotations

import dataclasses

import pytest

from bot.present import render
from bot.service.table import Seat
from engine import STANDARD, Match

from .helpers import lobby_table

#: Every seat its own team: only the carried format can explain four counts.
EACH_ALONE = dataclasses.replace(STANDARD, name="test_each_alone", teams=((0,), (1,), (2,), (3,)))


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_tricks_and_score_name_every_team_of_the_format(lang: str) -> None:
    table = lobby_table()
    table.settings = dataclasses.replace(table.settings, language=lang)
    table.seats = [Seat(name=f"p{i}", user_id=10 + i) for i in range(4)]
    table.match = Match(7, fmt=EACH_ALONE)
    table.status = "playing"
    table.match.team_tricks[:] = [1, 2, 3, 4]
    table.match.scores[:] = [5, 6, 0, 1]
    embed = render.table_message(table).embed
    assert embed is not None
    per_team = [line for line in embed.description.splitlines() if line.count(" · ") == 3]
    assert len(per_team) == 2  # the tricks line and the score line, four teams each
    if lang == "en":
        assert per_team == [
            "Tricks — p0: 1 · p1: 2 · p2: 3 · p3: 4",
            "Score — p0: 5 · p1: 6 · p2: 0 · p3: 1 (to 7)",
        ]
    else:
        assert all(all(f"\u2068p{i}\u2069" in line for i in range(4)) for line in per_team)
    assert len(embed.fields) == 4
