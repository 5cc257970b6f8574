"""Match points and the tie-breaks of docs/rules.md T4–T5, on results worked out by hand."""

from __future__ import annotations

from dataclasses import replace

from bot.tournament import Result, Round, Table, advance, record_result, standings, start
from bot.tournament.standings import games_of

from .helpers import CLOSES, config, entered


def test_two_rounds_of_four_teams_by_hand() -> None:
    """Seeds 0–3. Round 1 (the fold): 0 beats 2 7–3, 3 beats 1 7–5. Round 2: 0 beats 3 7–6,
    2 beats 1 7–0. Then 3 and 2 have 2 points, Buchholz 4, Sonneborn-Berger 0 each, and the
    hand points difference (+1 against +3) puts 2 before 3."""
    t = start(entered(config(rounds=2), 4, [4.0, 3.0, 2.0, 1.0]), now=CLOSES)
    assert [tuple(s[0] for s in x.sides) for x in t.rounds[0].tables] == [(0, 2), (1, 3)]
    t = record_result(t, 1, 0, [7, 3], 0)
    t = record_result(t, 1, 1, [5, 7], 1)
    t = advance(t, 1)
    assert [tuple(s[0] for s in x.sides) for x in t.rounds[1].tables] == [(0, 3), (1, 2)]
    t = record_result(t, 2, 0, [7, 6], 0)
    t = record_result(t, 2, 1, [0, 7], 1)
    t = advance(t, 2)
    rows = [
        (s.entrant, s.match_points, s.buchholz, s.sonneborn_berger, s.hand_diff)
        for s in standings(t)
    ]
    assert rows == [(0, 4, 4, 8, 5), (2, 2, 4, 0, 3), (3, 2, 4, 0, 1), (1, 0, 4, 0, -9)]
    assert [s.rank for s in standings(t)] == [1, 2, 3, 4]


def _manual(entries: int, tables: list[list[tuple[tuple[int, ...], Result]]]) -> object:
    t = start(entered(config(rounds=len(tables)), entries), now=CLOSES)
    rounds = tuple(
        Round(
            n + 1,
            tuple(Table(tuple((e,) for e in sides), res) for sides, res in row),
        )
        for n, row in enumerate(tables)
    )
    return replace(t, rounds=rounds, status="finished")


def test_buchholz_then_sonneborn_berger() -> None:
    """1 and 2 (2 points each) met the leader: Buchholz 6 puts them above 3 and 4 (2)."""
    won = Result((7, 3), 0)
    t = _manual(
        6,
        [
            [((0, 1), won), ((2, 3), won), ((4, 5), won)],
            [((0, 2), won), ((1, 4), won), ((3, 5), won)],
        ],
    )
    rows = {s.entrant: s for s in standings(t)}  # type: ignore[arg-type]
    assert [rows[e].buchholz for e in range(6)] == [4, 6, 6, 2, 2, 4]
    assert [rows[e].sonneborn_berger for e in range(6)] == [8, 4, 4, 0, 0, 0]
    assert [s.entrant for s in standings(t)][:3] == [0, 1, 2]  # type: ignore[arg-type]


def test_three_sides_score_against_each_other() -> None:
    """At a three-sided table the winner takes 2 from each; the two others lost the match
    and are compared by score (2, or 1 each at equal scores); a side that forfeited gets 0."""
    played = Result((7, 4, 5), 0)
    assert [played.against(a, b) for a, b in ((0, 1), (0, 2), (1, 2), (2, 1))] == [2, 2, 0, 2]
    tied = Result((7, 4, 4), 0)
    assert tied.against(1, 2) == tied.against(2, 1) == 1
    lost = Result((0, 0, 0), None, (1,))
    assert [lost.against(0, 1), lost.against(0, 2), lost.against(1, 0)] == [2, 1, 0]
    t = _manual(3, [[((0, 1, 2), tied)]])
    kinds = {e: gs[0] for e, gs in games_of(t).items()}  # type: ignore[arg-type]
    assert [(kinds[e].kind, kinds[e].points, kinds[e].hand_diff) for e in range(3)] == [
        ("win", 4, 3),
        ("loss", 1, -3),
        ("loss", 1, -3),
    ]


def test_a_bye_scores_as_the_tournament_says() -> None:
    for bye, points in (("win", 2), ("half", 1), ("none", 0)):
        t = start(entered(config(bye=bye), 3), now=CLOSES)
        alone = t.rounds[0].byes[0]
        row = next(s for s in standings(t) if s.entrant == alone)
        assert (row.games[0].kind, row.match_points, row.buchholz) == ("bye", points, 0)
