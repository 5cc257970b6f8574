"""V2 two players: five each, the hakem names trump, two discards each, then the draw: in
turn, from the hakem, keep the stock's top card and lay the next face down, or lay the top card
face down and keep the next, until both hold 13 (docs/rules.md)."""

from __future__ import annotations

import json
import random

import pytest

from engine import (
    DISCARD,
    DRAW,
    PLAY,
    TRUMP,
    CardNotInHand,
    Discarded,
    Drew,
    IllegalMove,
    Match,
    NotYourTurn,
    Suit,
    WrongPhase,
    auto_discard,
    auto_draw,
    replay,
    seat_view,
)
from engine.rules import TWO

from .helpers import random_move


def after_trump(seed: int = 5) -> Match:
    m = Match(seed, None, TWO)
    m.choose_trump(m.hakem, Suit.HEARTS)
    return m


def discard_all(m: Match) -> None:
    while m.phase == DISCARD:
        m.discard(m.to_act, m.hand_of(m.to_act)[0])


def test_v2_two_seats_each_alone_51_cards() -> None:
    assert TWO.seats == 2 and TWO.solo and len(TWO.deck) == 51
    assert TWO.deal == (5,) and TWO.discards == 2 and TWO.hand_size == 13
    assert TWO.draws == 10  # 5 - 2 + 10 = 13; 2 seats x 10 turns x 2 cards = 40 of the 41


def test_v2_hakem_names_trump_on_five_then_both_hold_five_and_the_hakem_discards_first() -> None:
    m = Match(5, None, TWO)
    assert m.phase == TRUMP and len(m.hand_of(m.hakem)) == 5
    assert len(m.hand_of(1 - m.hakem)) == 0
    m.choose_trump(m.hakem, Suit.HEARTS)
    assert m.phase == DISCARD and m.to_act == m.hakem
    assert [len(m.hand_of(s)) for s in (0, 1)] == [5, 5]
    assert m.stock_left == 41
    assert m.legal_cards(m.hakem) == ()


def test_v2_each_seat_discards_two_hakem_first() -> None:
    m = after_trump()
    hakem, other = m.hakem, 1 - m.hakem
    with pytest.raises(NotYourTurn):
        m.discard(other, m.hand_of(other)[0])
    card = m.hand_of(hakem)[2]
    assert m.discard(hakem, card) == (Discarded(hakem),)
    assert m.to_act == hakem and m.discards_of(hakem) == (card,)
    with pytest.raises(CardNotInHand):
        m.discard(hakem, card)
    m.discard(hakem, m.hand_of(hakem)[0])
    assert m.to_act == other and len(m.hand_of(hakem)) == 3
    m.discard(other, m.hand_of(other)[0])
    m.discard(other, m.hand_of(other)[0])
    assert m.phase == DRAW and m.to_act == hakem
    assert [len(m.discards_of(s)) for s in (0, 1)] == [2, 2]


def test_v2_draw_keep_takes_the_top_card_and_lays_the_next_face_down() -> None:
    m = after_trump()
    discard_all(m)
    hakem = m.hakem
    top = seat_view(m, hakem).drawn
    assert top is not None and top == m.drawn
    before = set(m.discards_of(hakem))
    assert m.draw(hakem, True) == (Drew(hakem),)
    assert top in m.hand_of(hakem)
    (thrown,) = set(m.discards_of(hakem)) - before
    assert thrown != top and m.stock_left == 39


def test_v2_draw_pass_lays_the_top_card_down_and_keeps_the_next() -> None:
    m = after_trump()
    discard_all(m)
    hakem = m.hakem
    top = m.drawn
    hand = set(m.hand_of(hakem))
    m.draw(hakem, False)
    assert top in m.discards_of(hakem)
    (kept,) = set(m.hand_of(hakem)) - hand
    assert kept != top and m.to_act == 1 - hakem


def test_v2_draw_alternates_until_both_hold_13_then_the_hakem_leads() -> None:
    m = after_trump()
    discard_all(m)
    turns = []
    while m.phase == DRAW:
        turns.append(m.to_act)
        m.draw(m.to_act, len(turns) % 3 == 0)
    assert turns == [m.hakem, 1 - m.hakem] * 10
    assert m.phase == PLAY and m.turn == m.leader == m.hakem
    assert [len(m.hand_of(s)) for s in (0, 1)] == [13, 13]
    assert [len(m.discards_of(s)) for s in (0, 1)] == [12, 12]
    assert m.stock_left == 1  # the 51st card stays face down, seen by nobody
    cards = {c for s in (0, 1) for c in m.hand_of(s) + m.discards_of(s)}
    assert len(cards) == 50 and {int(c) for c in cards} <= set(TWO.deck)


def test_v2_seat_view_hides_the_stock_and_the_other_seats_discards() -> None:
    m = after_trump()
    discard_all(m)
    m.draw(m.hakem, True)
    other = 1 - m.hakem
    mine, theirs = seat_view(m, other), seat_view(m, m.hakem)
    assert mine.can_draw and mine.drawn == m.drawn and not theirs.can_draw
    assert theirs.drawn is None  # the stock's top card is the drawer's alone
    assert set(theirs.discards) == set(m.discards_of(m.hakem))
    assert not set(theirs.discards) & set(m.discards_of(other))
    assert theirs.discard_counts == (3, 2)[:: 1 if m.hakem == 0 else -1]
    assert theirs.stock_left == mine.stock_left == 39


def test_v2_wrong_phase_and_bad_values_are_refused_untouched() -> None:
    m = Match(5, None, TWO)
    with pytest.raises(WrongPhase):
        m.discard(m.hakem, m.hand_of(m.hakem)[0])
    m.choose_trump(m.hakem, Suit.SPADES)
    with pytest.raises(WrongPhase):
        m.draw(m.hakem, True)
    discard_all(m)
    before = m.to_dict()
    for bad in ("yes", None, 2, 1.0):
        with pytest.raises(IllegalMove):
            m.draw(m.hakem, bad)  # type: ignore[arg-type]
    with pytest.raises(WrongPhase):
        m.discard(m.hakem, m.hand_of(m.hakem)[0])
    assert m.to_dict() == before


def test_v2_seven_of_thirteen_tricks_take_the_hand() -> None:
    for seed in range(10):
        m = Match(seed, None, TWO)
        rng = random.Random(seed)
        while m.hand_number == 1:
            random_move(m, rng)
        r = m.hand_results[0]
        assert max(r.tricks) == 7 and r.tricks[r.winner_team] == 7


def test_v2_replay_and_json_rebuild_the_draw() -> None:
    m = after_trump()
    discard_all(m)
    for keep in (True, False, True):
        m.draw(m.to_act, keep)
    data = json.loads(json.dumps(m.to_dict()))
    assert data["actions"][1][0] == "discard" and ["draw", m.hakem, 1] in data["actions"]
    assert Match.from_dict(data) == m
    assert replay(m.seed, data["actions"], None, TWO) == m
    assert replay(m.seed, m.actions, None, TWO) == m


def test_v2_timeout_defaults_discard_the_lowest_off_trump_and_keep_good_cards() -> None:
    m = after_trump()
    view = seat_view(m, m.hakem)
    card = auto_discard(view)
    off = [c for c in view.hand if c.suit != Suit.HEARTS]
    assert card == (min(off, key=lambda c: c.rank) if off else min(view.hand))
    discard_all(m)
    view = seat_view(m, m.hakem)
    assert view.drawn is not None
    assert auto_draw(view) == (view.drawn.suit == Suit.HEARTS or view.drawn.rank >= 9)
