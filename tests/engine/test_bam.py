"""V1 bam (house rule, off by default): a side at 7 tricks to none may play on; every trick of
the hand wins the match at once, otherwise the kot it had stands (docs/rules.md)."""

from __future__ import annotations

import json

import pytest

from engine import (
    BAM,
    MATCH_OVER,
    PLAY,
    TRUMP,
    BamDeclared,
    BamOffered,
    HandResult,
    IllegalMove,
    Match,
    MatchCompleted,
    NotYourTurn,
    Rules,
    Suit,
    WrongPhase,
    auto_bam,
    seat_view,
)
from engine.rules import STANDARD, THREE, GameFormat

from .helpers import rigged_format_match
from .test_variant_formats import SPADES_DOWN, fill

BAM_RULES = Rules(bam=True)


def high_first(m: Match) -> None:
    """The seat to play plays its highest spade, else its highest card."""
    m.play(m.turn, max(m.legal_cards(m.turn), key=lambda c: (c.suit == Suit.SPADES, c.rank)))


def to_seven(m: Match) -> None:
    """Seat 0 leads its spades (the highest card each turn) until a hand-ending trick."""
    hand = m.hand_number
    while m.phase == PLAY and m.hand_number == hand:
        high_first(m)


def spades_match(
    hakem: int = 0, rules: Rules = BAM_RULES, fmt: GameFormat = STANDARD, seat0: str = SPADES_DOWN
) -> Match:
    return rigged_format_match(fmt, hakem, fill(fmt, {0: seat0}), rules=rules, trump=Suit.SPADES)


def test_v1_bam_is_off_by_default() -> None:
    assert Rules().bam is False and "bam" not in Rules().to_dict()
    m = spades_match(rules=Rules())
    to_seven(m)
    r = m.hand_results[-1]
    assert (r.kind, r.points, r.bam, r.tricks) == ("kot", 2, False, (7, 0))
    assert m.phase == TRUMP and m.hand_number == 2


def test_v1_bam_is_offered_to_the_seat_that_took_the_seventh_trick_at_seven_to_none() -> None:
    m = spades_match()
    events: list[object] = []
    while m.phase == PLAY:
        events += m.play(m.turn, m.legal_cards(m.turn)[-1])
    assert m.phase == BAM and m.to_act == 0 and m.team_tricks == [7, 0]
    assert events[-1] == BamOffered(0)
    assert not m.hand_results  # the hand is not scored yet
    views = [seat_view(m, s) for s in range(4)]
    assert views[0].can_bam and views[0].my_turn
    assert not any(v.can_bam for v in views[1:])
    assert m.legal_cards(0) == ()
    with pytest.raises(WrongPhase):
        m.play(0, m.hand_of(0)[0])
    with pytest.raises(NotYourTurn):
        m.declare_bam(2, True)  # the partner does not decide
    with pytest.raises(IllegalMove):
        m.declare_bam(0, "yes")  # type: ignore[arg-type]
    assert Match.from_dict(json.loads(json.dumps(m.to_dict()))) == m


def test_v1_stop_scores_the_kot() -> None:
    m = spades_match()
    to_seven(m)
    events = m.declare_bam(0, False)
    r = events[0]
    assert isinstance(r, HandResult)
    assert (r.kind, r.points, r.bam, r.tricks) == ("kot", 2, False, (7, 0))
    assert m.actions[-1] == ("stop", 0) and m.hand_number == 2


def test_v1_bam_taking_all_13_wins_the_match_at_once() -> None:
    m = spades_match()
    to_seven(m)
    assert m.declare_bam(0, True) == (BamDeclared(0),)
    assert m.phase == PLAY and m.turn == 0
    restored = Match.from_dict(json.loads(json.dumps(m.to_dict())))
    events: list[object] = []
    while m.phase == PLAY:
        events += m.play(m.turn, m.legal_cards(m.turn)[-1])
        restored.play(restored.turn, restored.legal_cards(restored.turn)[-1])
    assert restored == m
    r = m.hand_results[-1]
    assert (r.kind, r.bam, r.tricks, r.winner_team) == ("bam", True, (13, 0), 0)
    assert m.phase == MATCH_OVER and m.winner_team == 0
    assert m.scores == [7, 0] and r.points == 7
    assert events[-1] == MatchCompleted(0, (7, 0))


def test_v1_hakem_bam_when_the_defenders_take_every_trick() -> None:
    m = spades_match(hakem=3)  # seat 3 holds clubs, leads one; seat 0 cuts and leads spades
    while m.phase == PLAY:
        high_first(m)
    assert m.phase == BAM and m.to_act == 0
    m.declare_bam(0, True)
    while m.phase == PLAY:
        high_first(m)
    r = m.hand_results[-1]
    assert (r.kind, r.winner_team, r.hakem, r.tricks) == ("hakem_bam", 0, 3, (13, 0))
    assert m.is_over


def test_v1_bam_that_loses_a_trick_scores_the_kot_it_had() -> None:
    m = spades_match(seat0="AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2H")
    to_seven(m)
    m.declare_bam(0, True)
    while m.phase == PLAY:
        high_first(m)
    r = m.hand_results[-1]
    assert (r.kind, r.points, r.bam, r.tricks) == ("kot", 2, True, (12, 1))
    assert m.scores == [2, 0] and m.phase == TRUMP
    assert m.hakem == 0  # the hakem's side won the hand: he stays (R13)


def test_v1_no_bam_offer_at_seven_to_one() -> None:
    hands = fill(STANDARD, {0: "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 2H 3H", 1: "AH"})
    m = rigged_format_match(STANDARD, 1, hands, rules=BAM_RULES, trump=Suit.SPADES)
    m.play(1, m.legal_cards(1)[-1])  # seat 1 leads A♥ and takes the first trick
    while m.phase == PLAY and m.hand_number == 1:
        high_first(m)
    assert not m.hand_results[-1].bam and m.hand_results[-1].tricks[0] == 7


def test_v1_no_bam_offer_when_the_kot_already_wins_the_match() -> None:
    m = spades_match(rules=Rules(bam=True, target_score=2))
    to_seven(m)
    assert m.is_over and m.hand_results[-1].kind == "kot"


def test_v1_bam_in_a_solo_format_means_every_trick_of_the_hand() -> None:
    m = spades_match(fmt=THREE, seat0=SPADES_DOWN + " AH KH QH JH")
    to_seven(m)
    assert m.phase == BAM
    m.declare_bam(0, True)
    while m.phase == PLAY:
        high_first(m)
    r = m.hand_results[-1]
    assert (r.kind, r.tricks) == ("bam", (17, 0, 0)) and m.is_over


def test_v1_default_decision_is_stop() -> None:
    m = spades_match()
    to_seven(m)
    assert auto_bam(seat_view(m, 0)) is False


def test_v1_replay_rebuilds_bam_decisions() -> None:
    m = spades_match(seat0="AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2H")
    to_seven(m)
    m.declare_bam(0, True)
    high_first(m)
    data = json.loads(json.dumps(m.to_dict()))
    assert ["bam", 0] in data["actions"]
    assert Match.from_dict(data) == m
