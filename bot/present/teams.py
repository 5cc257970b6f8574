"""A team is named by its players ("bahar & dara"), never by a number the players must decode.

Everywhere a team is named (reports, the table message, the match result and
summary) the presenter calls ``team_label``, so one rule decides how a team reads.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..names import seat_name
from ..service.table import Table
from .i18n import isolate, number, t, word


def team_label(table: Table, lang: str, team: int) -> str:
    """The players of ``team`` by their shown names, joined in ``lang`` (``team.join``); an
    empty seat is "?". In Persian each name is isolated, so a Latin name keeps its place in
    the right-to-left list."""
    names = [seat_name(table, i) for i in table.fmt.seats_of(team)]
    if lang == "fa":
        names = [isolate(n) for n in names]
    return word(lang, "team.join").join(names)


def team_counts(
    table: Table, lang: str, counts: Sequence[int], key: str = "table.team_count"
) -> list[str]:
    """One count per team of the table's format, each team by its players
    (``amir & cyrus: 3``, ``bahar & dara: 5``): tricks, points or kots, in sentence ``key``."""
    return [
        t(lang, key, team=team_label(table, lang, team), count=number(lang, counts[team]))
        for team in range(len(table.fmt.teams))
    ]


def score_lines(table: Table, lang: str, scores: Sequence[int], target: int) -> list[str]:
    """The table message's score line, and each team's chance from the ratings while the
    match is played: the same at a Hokm and a Shelem table."""
    lines = [
        t(lang, "table.score", teams=team_counts(table, lang, scores), target=number(lang, target))
    ]
    if table.win_chances and table.status == "playing":
        pcts = [round(100 * p) for p in table.win_chances]
        chances = team_counts(table, lang, pcts, key="table.team_percent")
        lines.append(t(lang, "table.chances", teams=chances))
    return lines
