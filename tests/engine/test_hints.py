"""Hints for learners: one reason per kind, from the seat's view alone."""

from __future__ import annotations

import pytest

from engine import (
    REASONS,
    Card,
    Hint,
    Match,
    Suit,
    explain,
    explain_trump,
    hint,
    seat_view,
    view_seed,
)

from .helpers import rigged_match, spade_lead_hands

C = Card.parse

LAST_SEAT_HANDS = [
    "2S 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
    "3S AH 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD",
    "4S KD AD 2C 3C 4C 5C 6C 7C 8C 9C 10C JC",
    "5S 6S 7S 8S 9S 10S JS QS KS AS QC KC AC",
]
"""Seat 0 leads its one spade and seats 1 and 2 must follow with theirs: seat 3 plays last."""


def spade_lead(*cards: str) -> Match:
    """``spade_lead_hands`` with clubs trump, seat 0 leading, and ``cards`` played in order."""
    match = rigged_match(0, spade_lead_hands(), trump=Suit.CLUBS)
    for code in cards:
        match.play(match.to_act, C(code))
    return match


def why(match: Match, code: str) -> Hint:
    return explain(seat_view(match, match.to_act), C(code))


def test_r7_leading_the_highest_card_left_is_a_master() -> None:
    assert why(spade_lead(), "AS") == Hint(C("AS"), "master", Suit.SPADES)


def test_r7_leading_low_keeps_the_high_card_of_the_suit() -> None:
    assert why(spade_lead(), "2S") == Hint(C("2S"), "keeps_high", card=C("AS"))


def test_r7_leading_the_best_of_a_suit_whose_ace_is_out_draws_it_out() -> None:
    # seat 0's K♥ is its best heart, but A♥ is still out (seat 3 holds it)
    assert why(spade_lead(), "KH") == Hint(C("KH"), "draw_out", Suit.HEARTS)


def test_r7_leading_trump_draws_trumps() -> None:
    match = rigged_match(3, spade_lead_hands(), trump=Suit.CLUBS)  # seat 3: the clubs
    assert why(match, "AC") == Hint(C("AC"), "draw_trumps", Suit.CLUBS)


def test_r8_following_low_under_a_winning_opponent_keeps_the_high_card() -> None:
    assert why(spade_lead("AS"), "3S") == Hint(C("3S"), "keeps_high", card=C("JS"))


def test_r8_a_trick_that_cannot_be_won_gets_the_cheapest_card() -> None:
    assert why(spade_lead("AS"), "JS") == Hint(C("JS"), "cheap")


def test_r9_a_card_that_beats_the_trick_so_far_but_may_be_beaten() -> None:
    # J♠ beats 2♠, but Q♠ and K♠ are still out
    assert why(spade_lead("2S"), "JS") == Hint(C("JS"), "beats_so_far")


def test_r9_the_last_card_that_beats_the_trick_takes_it() -> None:
    match = rigged_match(0, LAST_SEAT_HANDS, trump=Suit.HEARTS)
    for code in ("2S", "3S", "4S"):
        match.play(match.to_act, C(code))
    assert why(match, "5S") == Hint(C("5S"), "takes_trick")


def test_r9_partner_already_winning_gets_a_low_card() -> None:
    # seat 2's partner (seat 0) leads A♠: the partner already wins the trick
    assert why(spade_lead("AS", "3S"), "QS") == Hint(C("QS"), "partner_wins")


def test_r8_r9_out_of_the_led_suit_a_trump_takes_it() -> None:
    assert why(spade_lead("AS", "3S", "QS"), "4C") == Hint(C("4C"), "trump_in", Suit.SPADES)


def test_r8_out_of_the_led_suit_a_non_trump_is_thrown_away() -> None:
    assert why(spade_lead("AS", "3S", "QS"), "2H") == Hint(C("2H"), "discard", Suit.SPADES)


def test_r8_the_only_legal_card() -> None:
    match = rigged_match(0, LAST_SEAT_HANDS, trump=Suit.HEARTS)
    match.play(0, C("2S"))
    assert why(match, "3S") == Hint(C("3S"), "only_card")


def test_r5_the_hakem_is_told_its_longest_suit() -> None:
    match = rigged_match(0, spade_lead_hands())  # five: A♠ 2♠ 3♥ 4♥ 5♥
    view = seat_view(match, 0)
    assert hint(view) == Hint(Suit.HEARTS, "longest_suit", Suit.HEARTS, count=3)
    assert explain_trump(view, Suit.SPADES).count == 2


def test_an_illegal_card_or_another_seats_turn_has_no_hint() -> None:
    match = spade_lead()
    with pytest.raises(ValueError, match="not a legal card"):
        explain(seat_view(match, 0), C("3S"))
    with pytest.raises(ValueError, match="not this seat's turn"):
        hint(seat_view(match, 1))


def test_every_reason_has_a_name() -> None:
    assert len(set(REASONS)) == len(REASONS) == 12


def swap_hidden(match: Match, a: int, b: int) -> Match:
    """The same match with one card exchanged between seats ``a`` and ``b``: what every other
    seat sees is unchanged."""
    data = match.to_dict()
    key = "hands" if any(data["hands"][s] for s in (a, b)) else "rest"
    x, y = data[key][a][-1], data[key][b][-1]
    data[key][a][-1], data[key][b][-1] = y, x
    return Match.from_dict(data)


@pytest.mark.parametrize("seed", [3, 11, 29])
def test_two_deals_that_differ_only_in_hidden_cards_give_the_same_hint(seed: int) -> None:
    """The hint reads the seat's view only: a card swapped between the two other hands of a
    random deal (after a few cards) changes nothing about it."""
    match = Match(seed)
    match.choose_trump(match.hakem, Suit.SPADES)
    for _ in range(5):
        seat = match.to_act
        match.play(seat, seat_view(match, seat).legal[0])
    me = match.to_act
    others = [s for s in range(4) if s != me][:2]
    other = swap_hidden(match, *others)
    assert other.hand_of(others[0]) != match.hand_of(others[0])
    first, second = seat_view(match, me), seat_view(other, me)
    assert first == second
    assert view_seed(first) == view_seed(second)
    assert hint(first) == hint(second)
