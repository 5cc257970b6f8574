"""The table's ``GameFormat`` is the one source of seats, teams and points (R1, R2, R11)."""

from __future__ import annotations

import dataclasses

import pytest

from engine import MATCH_OVER, STANDARD, TRUMP, GreedyPlayer, HandResult, Match, seat_view
from engine.errors import InvalidSetting, InvalidState
from engine.games import check_target, load_match
from engine.rules import FAMILIES, FORMATS, SHELEM_FORMAT, GameFormat, hokm_format, hokm_formats
from engine.search import match_equity, outcome_values
from engine.shelem import ShelemMatch, ShelemOptions

#: Same seating as the standard table, richer points: only the carried format can explain them.
RICH: GameFormat = dataclasses.replace(
    STANDARD, name="test_rich", points_win=2, points_kot=4, points_hakem_kot=6
)


def test_r2_seats_of_lists_each_teams_seats() -> None:
    assert [STANDARD.seats_of(team) for team in (0, 1)] == [(0, 2), (1, 3)]
    assert all(STANDARD.team_of[s] == team for team in (0, 1) for s in STANDARD.seats_of(team))


def test_r1_a_saved_match_restores_with_its_own_format(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(FORMATS, RICH.name, RICH)
    restored = Match.from_dict(Match(7, fmt=RICH).to_dict())
    assert restored.fmt is RICH
    assert seat_view(restored, 0).fmt is RICH


def test_r11_search_values_outcomes_with_the_views_format() -> None:
    """A win worth 2 in this format moves the match further than the standard 1 does."""
    standard = outcome_values(seat_view(Match(7), 0))
    rich = outcome_values(seat_view(Match(7, fmt=RICH), 0))
    assert rich[0] > standard[0]
    assert rich[2] < standard[2]


def _played_out(seed: int) -> list[HandResult]:
    """Every hand of a whole match between greedy players."""
    match = Match(seed)
    players = [GreedyPlayer() for _ in range(STANDARD.seats)]
    while match.phase != MATCH_OVER:
        seat = match.to_act
        view = seat_view(match, seat)
        if match.phase == TRUMP:
            match.choose_trump(seat, players[seat].choose_trump(view))
        else:
            match.play(seat, players[seat].choose_card(view))
    return list(match.hand_results)


def test_r11_hand_result_says_who_dealt_and_who_suffered_a_kot() -> None:
    results = [r for seed in range(40) for r in _played_out(seed)]
    assert {r.kind for r in results} == {"win", "kot", "hakem_kot"}
    for r in results:
        loser_tricks = sum(n for team, n in enumerate(r.tricks) if team != r.winner_team)
        assert r.is_kot == (loser_tricks == 0)
        suffered = r.hakem_kot_suffered_by(STANDARD)
        if r.kind == "hakem_kot":
            assert suffered == STANDARD.team_of[r.hakem] != r.winner_team
        else:
            assert suffered is None


def test_r11_match_equity_scores_hands_as_the_format_does() -> None:
    """Every point value doubled, and the target with them: the same match, the same odds."""
    for us, them, hakem in ((0, 0, True), (2, 1, False), (3, 5, True), (6, 6, False)):
        assert match_equity(2 * us, 2 * them, 14, hakem, RICH) == match_equity(us, them, 7, hakem)
    assert match_equity(5, 0, 7, True, RICH) != match_equity(5, 0, 7, True)


def test_v6_shelem_is_a_format_of_formats_with_its_family() -> None:
    """One registry: Shelem's default shape is ``FORMATS["shelem"]``, the very object its
    default options make, and every other format is the Hokm family's."""
    shelem = FORMATS[SHELEM_FORMAT]
    assert shelem is ShelemOptions().fmt
    assert shelem.family == "shelem" and shelem.kitty == 4 and shelem.target_score == 1165
    assert ShelemOptions(joker=True).fmt.family == "shelem"
    assert {f.family for n, f in FORMATS.items() if n != SHELEM_FORMAT} == {"hokm"}
    assert SHELEM_FORMAT not in hokm_formats() and set(hokm_formats()) | {SHELEM_FORMAT} == set(
        FORMATS
    )
    assert hokm_format(SHELEM_FORMAT) is None and hokm_format("standard") is STANDARD
    assert [f.name for f in FORMATS.values() if f.is_default] == ["standard"]


def test_v6_a_format_names_one_of_the_known_families() -> None:
    """A format of a family nobody registered is refused where it is made."""
    assert {f.family for f in FORMATS.values()} == set(FAMILIES)
    with pytest.raises(ValueError, match="no game family 'bridge'"):
        dataclasses.replace(STANDARD, name="bridge_like", family="bridge")  # type: ignore[arg-type]


def test_v6_a_shelem_record_is_no_hokm_match() -> None:
    """``Match`` reads only its own family's formats, though ``FORMATS`` holds Shelem's."""
    data = Match(7).to_dict() | {"format": SHELEM_FORMAT}
    with pytest.raises(InvalidState, match="unknown game format"):
        Match.from_dict(data)
    assert isinstance(load_match(ShelemMatch(3).to_dict()), ShelemMatch)
    assert isinstance(load_match(Match(3).to_dict()), Match)


def test_a_target_is_checked_by_the_formats_family() -> None:
    check_target("standard", 5)
    check_target("joker_six", 0)
    check_target(SHELEM_FORMAT, 1000)
    for name, target in (("standard", 50), ("joker_six", 7), (SHELEM_FORMAT, 7)):
        with pytest.raises(InvalidSetting):
            check_target(name, target)
