"""V5 joker six: 54 cards with two jokers, 9 each, two teams of three, a bidding round for
hakem (5–9 tricks), scoring by the bid, to 124 (docs/rules.md, engine/joker.py)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    BID,
    JOKERS,
    MATCH_OVER,
    PLAY,
    TRUMP,
    Bid,
    BidNotAllowed,
    Card,
    HandResult,
    IllegalMove,
    JokerMatch,
    Match,
    MustFollowSuit,
    NotYourTurn,
    PassedOut,
    Suit,
    Trick,
    parse_cards,
    replay,
    seat_view,
)
from engine.joker import made_points, set_points
from engine.rules import JOKER_SIX

from .helpers import random_move
from .test_format_properties import check_views

BJ, RJ = JOKERS


def bidding_done(seed: int = 3, bidder_offset: int = 1, tricks: int = 6) -> Match:
    """Everyone passes but the ``bidder_offset``-th seat after the dealer, who bids ``tricks``."""
    m = Match(seed, None, JOKER_SIX)
    assert isinstance(m, JokerMatch)
    for k in range(1, 7):
        m.bid(m.to_act, tricks if k == bidder_offset else 0)
        if m.phase != BID:
            break
    return m


def rigged(hands: list[str], hakem: int = 0, bid: int = 5, trump: Suit = Suit.SPADES) -> Match:
    """A joker-six match whose deal is ``hands`` (9 cards a seat), after ``hakem`` bid ``bid``
    (the others passed) and named ``trump``."""
    data = Match(1, None, JOKER_SIX).to_dict()
    cards = [parse_cards(h) for h in hands]
    assert all(len(c) == 9 for c in cards)
    assert sorted(c for h in cards for c in h) == list(range(54))
    data.update(
        hands=[[c.code for c in h] for h in cards],
        hakem=hakem,
        phase=TRUMP,
        bids=[bid if s == hakem else 0 for s in range(6)],
        dealer=(hakem - 1) % 6,
        actions=[],
    )
    del data["decider"]
    m = Match.from_dict(data)
    m.choose_trump(hakem, trump)
    return m


#: Seat 0: spades 10 down to 2; seat 1: the jokers and hearts; 2: A-K-Q-J of spades and
#: diamonds; 3–5: the rest. Trump spades unless a test says otherwise.
HANDS = [
    "10S 9S 8S 7S 6S 5S 4S 3S 2S",
    "BJ RJ 2H 3H 4H 5H 6H 7H 8H",
    "AS KS QS JS 2D 3D 4D 5D 6D",
    "9H 10H JH QH KH AH 7D 8D 9D",
    "10D JD QD KD AD 2C 3C 4C 5C",
    "6C 7C 8C 9C 10C JC QC KC AC",
]


def trick_winner(m: Match, cards: list[str]) -> int:
    for code in cards:
        m.play(m.turn, Card.parse(code))
    return m.tricks[-1].winner


# ----------------------------------------------------------------------------- deal, bidding


def test_v5_joker_deck_is_54_cards_with_two_jokers_nine_each() -> None:
    assert len(JOKER_SIX.deck) == 54 and JOKER_SIX.jokers == 2 and not JOKER_SIX.removed
    assert [c.code for c in JOKERS] == ["BJ", "RJ"] and Card.parse("rj") is RJ
    for seed in range(10):
        m = Match(seed, None, JOKER_SIX)
        assert m.phase == BID and m.hakem == -1
        assert m.to_act == (m.dealer + 1) % 6  # in the order the cards were received
        hands = [m.hand_of(s) for s in range(6)]
        assert [len(h) for h in hands] == [9] * 6
        assert sorted(c for h in hands for c in h) == list(range(54))


def test_v5_bidding_goes_round_once_higher_or_pass_and_the_highest_bidder_is_hakem() -> None:
    m = Match(3, None, JOKER_SIX)
    first = m.to_act
    order = [(first + k) % 6 for k in range(6)]
    with pytest.raises(NotYourTurn):
        m.bid(order[1], 5)
    for bad in (4, 10, True, "5", 0.0):
        with pytest.raises(BidNotAllowed):
            m.bid(first, bad)  # type: ignore[arg-type]
    assert m.bid(first, 5) == (Bid(first, 5),)
    with pytest.raises(BidNotAllowed):
        m.bid(order[1], 5)  # only higher
    m.bid(order[1], 0)  # "معاف"
    m.bid(order[2], 7)
    for seat in order[3:]:
        m.bid(seat, 0)
    assert m.phase == TRUMP and m.hakem == order[2] and m.bids[order[2]] == 7
    assert seat_view(m, order[2]).can_choose_trump
    m.choose_trump(order[2], Suit.CLUBS)
    assert m.phase == PLAY and m.turn == m.leader == order[2]


def test_v5_a_bid_of_nine_ends_the_bidding() -> None:
    m = bidding_done(bidder_offset=2, tricks=9)
    assert m.phase == TRUMP and m.hakem == (m.dealer + 2) % 6
    assert m.bids.count(-1) == 4  # the seats after it were not asked


def test_v5_all_pass_gives_the_dealers_team_a_point_and_the_same_dealer_deals_again() -> None:
    m = Match(4, None, JOKER_SIX)
    dealer, deal = m.dealer, m.deal_number
    events: list[object] = []
    for _ in range(6):
        events += m.bid(m.to_act, 0)
    team = JOKER_SIX.team_of[dealer]
    assert m.scores[team] == 1 and m.scores[1 - team] == 0
    assert isinstance(events[-1], PassedOut) and events[-1].dealer == dealer
    assert m.phase == BID and m.dealer == dealer and m.deal_number == deal + 1
    assert m.hand_number == 1 and not m.hand_results


def test_v5_target_is_124() -> None:
    m = Match(1, None, JOKER_SIX)
    assert m.target_score == 124 and seat_view(m, 0).target_score == 124


# ------------------------------------------------------------------------------ the jokers


def test_v5_black_joker_beats_the_ace_of_trump() -> None:
    m = rigged(HANDS)
    assert trick_winner(m, ["10S", "BJ", "AS", "9H", "10D", "6C"]) == 1


def test_v5_red_joker_is_burnt_before_the_black_joker_is_played() -> None:
    m = rigged(HANDS, hakem=1, trump=Suit.CLUBS)  # the red joker led: it leads trump, clubs
    assert trick_winner(m, ["RJ", "2D", "9H", "2C", "6C", "2S"]) == 5  # the lowest trumps win
    m = rigged(HANDS, hakem=1, trump=Suit.CLUBS)
    m.play(1, RJ)
    m.play(2, Card.parse("2D"))
    m.play(3, Card.parse("9H"))
    with pytest.raises(MustFollowSuit) as refused:  # a led joker is followed as trump
        m.play(4, Card.parse("10D"))
    assert refused.value.led == Suit.CLUBS


def test_v5_red_joker_is_highest_once_the_black_has_been_played() -> None:
    hands = list(HANDS)
    hands[1], hands[3] = "BJ 2H 3H 4H 5H 6H 7H 8H 9H", "RJ 10H JH QH KH AH 7D 8D 9D"
    m = rigged(hands)
    assert trick_winner(m, ["2S", "BJ", "AS", "RJ", "10D", "6C"]) == 3
    # a later trick: still counts
    hands = list(HANDS)
    m = rigged(hands, hakem=1)
    assert trick_winner(m, ["BJ", "AS", "9H", "10D", "6C", "10S"]) == 1
    assert trick_winner(m, ["RJ", "KS", "10H", "JD", "7C", "9S"]) == 1


def test_v5_a_joker_follows_a_trump_lead_and_must_if_no_other_trump() -> None:
    m = rigged(HANDS)
    m.play(0, Card.parse("10S"))
    assert set(m.legal_cards(1)) == {BJ, RJ}
    before = m.to_dict()
    with pytest.raises(MustFollowSuit):
        m.play(1, Card.parse("2H"))
    assert m.to_dict() == before


def test_v5_a_joker_may_not_be_played_on_a_plain_suit_the_seat_holds() -> None:
    m = rigged(HANDS, hakem=3, trump=Suit.CLUBS)
    m.play(3, Card.parse("9H"))
    m.play(4, Card.parse("10D"))
    m.play(5, Card.parse("6C"))
    m.play(0, Card.parse("10S"))
    assert set(m.legal_cards(1)) == set(parse_cards("2H 3H 4H 5H 6H 7H 8H"))
    with pytest.raises(MustFollowSuit):
        m.play(1, BJ)


def test_v5_a_seat_void_in_the_led_suit_may_cut_with_a_joker() -> None:
    m = rigged(HANDS, hakem=4, trump=Suit.CLUBS)
    m.play(4, Card.parse("10D"))
    m.play(5, Card.parse("6C"))  # a trump cut
    m.play(0, Card.parse("10S"))
    assert BJ in m.legal_cards(1)
    m.play(1, BJ)
    m.play(2, Card.parse("2D"))
    m.play(3, Card.parse("7D"))
    assert m.tricks[-1].winner == 1


def test_v5_a_led_joker_leads_trump() -> None:
    m = rigged(HANDS, hakem=1)
    m.play(1, BJ)
    assert seat_view(m, 2).led_suit == Suit.SPADES
    assert {c.suit for c in m.legal_cards(2)} == {Suit.SPADES}


# ------------------------------------------------------------------------------- scoring


def test_v5_made_bid_scores_the_tricks_taken_nine_doubled_and_a_bid_of_nine_36() -> None:
    assert made_points(5, 7) == 7 and made_points(6, 6) == 6
    assert made_points(5, 9) == 18 and made_points(8, 9) == 18
    assert made_points(9, 9) == 36


def test_v5_failed_bid_pays_the_other_team_by_the_seeds_formula_at_most_18() -> None:
    assert set_points(5, 4) == 10 and set_points(5, 3) == 12 and set_points(7, 5) == 16
    assert set_points(9, 0) == 18 and set_points(9, 8) == 18 and set_points(8, 7) == 16


def test_v5_hand_plays_all_nine_tricks_and_scores_the_bid() -> None:
    m = rigged(HANDS, hakem=0, bid=5)
    while m.hand_number == 1:
        m.play(m.turn, m.legal_cards(m.turn)[-1])
    r = m.hand_results[-1]
    assert sum(r.tricks) == 9 and r.bid == 5 and r.hakem == 0
    took = r.tricks[0]
    if took >= 5:
        assert (r.kind, r.winner_team, r.points) == ("made", 0, made_points(5, took))
    else:
        assert (r.kind, r.winner_team, r.points) == ("set", 1, set_points(5, took))
    assert m.phase == BID  # the next deal, bid for again


# ---------------------------------------------------------------------- random play, storage


def _r9(trick: Trick, trump: Suit, black_before: bool) -> int:
    """R9 with jokers, independently: jokers are trumps above the ace, red over black only once
    the black has been played (this trick or earlier), a burnt red below the 2 of trump."""
    black = black_before
    ranked = []
    led = None
    for seat, card in trick.plays(6):
        if card == BJ:
            black, suit, value = True, trump, 13
        elif card == RJ:
            suit, value = trump, (14 if black else -1)
        else:
            suit, value = card.suit, card.rank
        led = suit if led is None else led
        ranked.append((suit, value, seat))
    trumps = [(v, s) for suit, v, s in ranked if suit == trump]
    if trumps:
        return max(trumps)[1]
    return max((v, s) for suit, v, s in ranked if suit == led)[1]


def play_checked_joker(seed: int, rng: random.Random) -> Match:
    m = Match(seed, None, JOKER_SIX)
    while not m.is_over:
        assert m.phase == BID
        hands = [m.hand_of(s) for s in range(6)]
        assert sorted(c for h in hands for c in h) == list(range(54))
        scores, dealer, hand_no = tuple(m.scores), m.dealer, m.hand_number
        while m.phase == BID:
            high = max(m.bids)
            seat = m.to_act
            events = random_move(m, rng)
            assert m.bids[seat] == 0 or m.bids[seat] > high
        if m.phase != TRUMP:  # passed out
            team = JOKER_SIX.team_of[dealer]
            assert m.scores[team] == scores[team] + 1 and m.hand_number == hand_no
            continue
        hakem = m.hakem
        assert m.bids[hakem] == max(m.bids) >= 5
        check_views(m)
        tricks: list[Trick] = []
        black = False
        result = None
        while m.hand_number == hand_no and not m.is_over:
            if m.phase == PLAY:
                seat = m.turn
                legal, held = m.legal_cards(seat), m.hand_of(seat)
                assert legal and set(legal) <= set(held)
                if m.trick:  # R8, jokers as trumps
                    trump = m.trump
                    assert trump is not None

                    def suit(c: Card, trump: Suit = trump) -> Suit:
                        return trump if c.is_joker else c.suit

                    led = suit(m.trick[0])
                    if any(suit(c) == led for c in held):
                        assert {suit(c) for c in legal} == {led}
                    else:
                        assert set(legal) == set(held)
                for card in held:
                    if card not in legal:
                        with pytest.raises(IllegalMove):
                            m.play(seat, card)
                        break
            if rng.random() < 0.1:
                check_views(m)
            events = random_move(m, rng)
            for e in events:
                if isinstance(e, Trick):
                    assert m.trump is not None or e.number == 9
                    tricks.append(e)
                if isinstance(e, HandResult):
                    result = e
        assert result is not None and len(tricks) == 9
        for t in tricks:
            assert t.winner == _r9(t, result.trump, black)
            black = black or BJ in t.cards
        took = result.tricks[JOKER_SIX.team_of[hakem]]
        bid = result.bid
        if took >= bid:
            assert result.kind == "made" and result.points == made_points(bid, took)
            assert result.winner_team == JOKER_SIX.team_of[hakem]
        else:
            assert result.kind == "set" and result.points == set_points(bid, took)
            assert result.winner_team != JOKER_SIX.team_of[hakem]
        if not m.is_over:  # the team with fewer points deals, else the next seat
            before = result.scores_after
            if before[0] == before[1]:
                assert m.dealer == (dealer + 1) % 6
            else:
                assert JOKER_SIX.team_of[m.dealer] == (0 if before[0] < before[1] else 1)
    assert m.phase == MATCH_OVER and max(m.scores) >= 124 and min(m.scores) < 124
    return m


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**63 - 1), moves=st.integers(0, 2**32))
def test_v5_joker_six_random_matches_keep_every_invariant(seed: int, moves: int) -> None:
    play_checked_joker(seed, random.Random(moves))


def test_v5_joker_six_replays_and_round_trips_json_in_every_phase() -> None:
    rng = random.Random(2)
    m = Match(8, None, JOKER_SIX)
    phases = set()
    while not m.is_over and m.hand_number < 4:
        random_move(m, rng)
        phases.add(m.phase)
        data = json.loads(json.dumps(m.to_dict()))
        restored = Match.from_dict(data)
        assert isinstance(restored, JokerMatch) and restored == m
        assert [seat_view(restored, s) for s in range(6)] == [seat_view(m, s) for s in range(6)]
        if rng.random() < 0.2:
            assert replay(8, data["actions"], None, JOKER_SIX) == m
            assert replay(8, m.actions, None, JOKER_SIX) == m
    assert {BID, TRUMP, PLAY} <= phases
