"""A double-dummy position is checked when built: an impossible one is refused
with an ``InvalidPosition`` naming the check that failed, never solved."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engine import JokerMatch, Match, parse_cards
from engine.dd import Solver, solve
from engine.dd_position import InvalidPosition, Position, UnsupportedFormat
from engine.errors import HokmError
from engine.rules import FORMATS, JOKER_SIX, SIX_TEAMS, STANDARD

from .dd_helpers import played_hand


def mask(text: str) -> int:
    out = 0
    for card in parse_cards(text):
        out |= 1 << card
    return out


#: Two cards a seat, 11 tricks played (5–6); spades trump, all with team 0.
HANDS = (mask("AS KS"), mask("AH KH"), mask("QS JS"), mask("QH JH"))


def position(**changes: Any) -> Position:
    fields: dict[str, Any] = {
        "fmt": STANDARD,
        "trump": 0,
        "hands": HANDS,
        "leader": 0,
        "tricks": (5, 6),
        "hakem": 0,
    }
    fields.update(changes)
    return Position(**fields)


def refused(problem: str, **changes: Any) -> InvalidPosition:
    with pytest.raises(InvalidPosition) as caught:
        position(**changes)
    assert caught.value.problem == problem, caught.value
    assert isinstance(caught.value, HokmError) and caught.value.code
    return caught.value


def test_a_possible_position_is_accepted() -> None:
    p = position()
    assert p.to_play == 0 and p.cards_left == 2
    assert solve(p).tricks == (7, 6)  # team 0 holds every trump left


@pytest.mark.parametrize("name", ["three", "five", "six_pairs"])
def test_more_than_two_sides_is_not_one_value(name: str) -> None:
    fmt = FORMATS[name]
    with pytest.raises(UnsupportedFormat) as caught:
        position(fmt=fmt)
    assert caught.value.code == "unsupported_format"
    assert "sides" in str(caught.value)
    with pytest.raises(UnsupportedFormat):
        Solver(fmt, 0)


def test_duplicate_card() -> None:
    error = refused("duplicate_card", hands=(mask("AS KS"), mask("AS KH"), *HANDS[2:]))
    assert "AS" in str(error)


def test_card_played_and_held() -> None:
    error = refused(
        "played_and_held", hands=(mask("KS"), *HANDS[1:]), trick=tuple(parse_cards("KS"))
    )
    assert "KS" in str(error)


def test_card_not_in_the_deck() -> None:
    refused("not_in_deck", hands=(HANDS[0] | 1 << 52, *HANDS[1:]))
    six = (mask("AS KS"), mask("AH KH"), mask("QS JS"), mask("QH JH"), mask("AD KD"))
    with pytest.raises(InvalidPosition) as caught:
        Position(SIX_TEAMS, 0, (*six, mask("2C 3C")), 0, (3, 3), 0, first=0)
    assert caught.value.problem == "not_in_deck"  # the six-player deck has no 2


def test_wrong_card_counts() -> None:
    error = refused("card_count", hands=(mask("AS"), *HANDS[1:]))
    assert "seat 0" in str(error)
    refused("card_count", tricks=(5, 5))


def test_trick_with_the_wrong_seat_to_play() -> None:
    """Seat 1 led the card: seat 0 still holds two cards, seat 1 one."""
    trick = tuple(parse_cards("AH"))
    hands = (HANDS[0], mask("KH"), *HANDS[2:])
    refused("card_count", hands=hands, trick=trick, leader=0)
    p = position(hands=hands, trick=trick, leader=1)
    assert p.to_play == 2
    refused("wrong_turn", hands=hands, trick=trick, leader=1, turn=0)


def test_void_contradicted() -> None:
    """Seat 1 threw a club on a spade lead while holding a spade."""
    hands = (mask("KS"), mask("QS KH"), mask("AH JS"), mask("QH JH"))
    trick = tuple(parse_cards("AS 2C"))
    with pytest.raises(InvalidPosition) as caught:
        Position(STANDARD, 0, (mask("KS"), mask("QS"), *hands[2:]), 0, (5, 6), 0, trick)
    assert caught.value.problem == "void_contradicted"


def test_hand_already_over() -> None:
    refused("hand_over", tricks=(7, 4))
    refused("hand_over", hands=(0, 0, 0, 0), tricks=(6, 7))


def test_bad_fields() -> None:
    refused("trump", trump=4)
    refused("seat", leader=4)
    refused("seat", hakem=-1)
    refused("hands", hands=HANDS[:3])
    refused("trick", trick=tuple(parse_cards("2C 3C 4C 5C")))
    refused("bid", bid=6)
    refused("tricks", tricks=(5, 6, 0))


def test_joker_six_needs_its_bid() -> None:
    _, positions, _, _ = played_hand(JOKER_SIX, 1)
    p = positions[0]
    with pytest.raises(InvalidPosition) as caught:
        replace(p, bid=0)
    assert caught.value.problem == "bid"


def test_tie_needs_who_got_there_first() -> None:
    """R10 at six seats: 4–4 goes to the side first to 4, so a tied count must say which."""
    _, positions, _, _ = played_hand(SIX_TEAMS, 4)
    tied = next(p for p in positions if p.tricks[0] == p.tricks[1] > 0 and not p.trick)
    with pytest.raises(InvalidPosition) as caught:
        replace(tied, first=-1)
    assert caught.value.problem == "first"
    assert replace(tied, first=1 - tied.first).first != tied.first


def test_from_match_reads_a_live_table() -> None:
    _, positions, cards, _ = played_hand(STANDARD, 4)
    assert positions[0].tricks == (0, 0) and positions[0].leader == positions[0].hakem
    with pytest.raises(InvalidPosition) as caught:
        Position.from_match(Match(9))  # trump not named yet
    assert caught.value.problem == "phase"
    assert len(cards) == len(positions)
    assert isinstance(played_hand(JOKER_SIX, 3)[0], JokerMatch)


def test_solver_refuses_a_position_of_another_trump() -> None:
    p = position()
    with pytest.raises(InvalidPosition) as caught:
        Solver(STANDARD, 1).value(p)
    assert caught.value.problem == "solver"
    with pytest.raises(InvalidPosition) as caught:
        Solver(STANDARD, 4)
    assert caught.value.problem == "trump"
    with pytest.raises(UnsupportedFormat):
        Solver(replace(STANDARD, name="standard", seats=4, points_kot=5), 0)
