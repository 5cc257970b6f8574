"""V5 joker six: the computer players bid, name trump and play jokers, legally, in whole
matches (docs/rules.md, "V5 joker six"); the simulator the search plays out hands with
agrees with ``JokerMatch``; the time-out's bid passes.

Searching players run on the real ``normal`` and ``hard`` settings, cut short by a
``should_stop`` that counts its calls (so the tests stay fast and reproducible): the cut is
the host's time budget, the path through the search is the real one.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    BID,
    JOKERS,
    PLAY,
    TRUMP,
    GreedyPlayer,
    JokerMatch,
    Match,
    RandomPlayer,
    SearchPlayer,
    Suit,
    VariantPlayer,
    auto_bid,
    auto_trump,
    hint,
    parse_cards,
    seat_view,
)
from engine.fastsim import (
    RM_SUIT,
    card_of,
    joker_bit,
    rollout_joker,
    seating,
    to_rm_any,
    trick_winner_joker,
)
from engine.players import bid_estimate, black_joker_gone, greedy_bid, hand_tricks
from engine.rules import JOKER_SIX
from engine.sampling import Sampler, knowledge
from engine.search import LEVELS, JokerValues, SearchSettings, joker_equity, make_player
from tests.engine.helpers import greedy_hand_out

from .test_joker_six import HANDS, rigged

BJ, RJ = JOKERS
fast = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TINY = SearchSettings(card_budget=300, min_deals=2, max_deals=4, trump_deals=2)


def budget(calls: int) -> Callable[[], bool]:
    """A ``should_stop`` that stops the search after ``calls`` batches of deals."""
    asked = [0]

    def stop() -> bool:
        asked[0] += 1
        return asked[0] > calls

    return stop


def players(seed: int) -> dict[str, VariantPlayer]:
    """One of each: random, greedy, and the normal and hard levels (cut short)."""
    return {
        "random": RandomPlayer(seed),
        "greedy": GreedyPlayer(),
        "normal": make_player("normal", seed, budget(3)),
        "hard": make_player("hard", seed, budget(3)),
    }


def act(match: Match, player: VariantPlayer) -> None:
    """One decision of the seat the table waits for, checked legal first."""
    seat = match.to_act
    view = seat_view(match, seat)
    if match.phase == BID:
        assert view.can_bid and view.legal_bids[0] == 0
        tricks = player.choose_bid(view)
        assert tricks in view.legal_bids
        match.bid(seat, tricks)
    elif match.phase == TRUMP:
        suit = player.choose_trump(view)
        assert isinstance(suit, Suit)
        match.choose_trump(seat, suit)
    else:
        assert match.phase == PLAY
        card = player.choose_card(view)
        assert card in view.legal
        match.play(seat, card)


def in_play(seed: int, plays: int) -> Match:
    """A joker six match in the play phase of its first played hand after up to ``plays``
    random cards (greedy bids and trump before)."""
    rng = random.Random(seed)
    m = Match(seed, fmt=JOKER_SIX)
    greedy = GreedyPlayer()
    while m.phase != PLAY:
        if m.phase == BID and m.to_act == m.dealer and max(m.bids) <= 0:
            m.bid(m.to_act, 5)  # somebody plays this hand
        else:
            act(m, greedy)
    hand = m.hand_number
    for _ in range(plays):
        probe = Match.from_dict(m.to_dict())
        card = rng.choice(probe.legal_cards(probe.turn))
        probe.play(probe.turn, card)
        if probe.hand_number != hand or probe.phase != PLAY:
            break
        m.play(m.turn, card)
    return m


# -------------------------------------------------------------------------- whole matches


@pytest.mark.parametrize("seed", range(3))
def test_v5_every_player_bids_and_plays_legally_through_a_whole_joker_six_match(
    seed: int,
) -> None:
    """Random, greedy, normal and hard at one table, every decision legal, to 124."""
    kinds = ["random", "greedy", "normal", "hard", "greedy", "random"]
    rng = random.Random(seed)
    rng.shuffle(kinds)
    table = [players(seed * 6 + s)[kinds[s]] for s in range(6)]
    m = Match(seed, fmt=JOKER_SIX)
    phases: set[str] = set()
    for _ in range(5000):
        if m.is_over:
            break
        phases.add(m.phase)
        act(m, table[m.to_act])
    assert m.is_over and max(m.scores) >= 124
    assert {BID, TRUMP, PLAY} <= phases
    assert any(r.bid for r in m.hand_results)


@fast
@given(seed=st.integers(0, 2**40), plays=st.integers(0, 53), kind=st.sampled_from(range(4)))
def test_v5_every_player_plays_a_legal_card_from_any_position(
    seed: int, plays: int, kind: int
) -> None:
    m = in_play(seed, plays)
    name = ("random", "greedy", "normal", "hard")[kind]
    view = seat_view(m, m.turn)
    assert players(seed)[name].choose_card(view) in view.legal


@fast
@given(seed=st.integers(0, 2**40), speakers=st.integers(0, 5))
def test_v5_every_player_bids_one_of_the_legal_bids(seed: int, speakers: int) -> None:
    rng = random.Random(seed)
    m = Match(seed, fmt=JOKER_SIX)
    for _ in range(speakers):  # a few random bids first, so higher bids are needed
        view = seat_view(m, m.to_act)
        if m.phase != BID or 9 in view.legal_bids[1:2]:
            break
        m.bid(m.to_act, rng.choice(view.legal_bids))
    if m.phase != BID:
        return
    view = seat_view(m, m.to_act)
    for player in players(seed).values():
        assert player.choose_bid(view) in view.legal_bids
    assert auto_bid(view) == 0


def test_v5_legal_bids_are_pass_and_every_bid_above_the_highest() -> None:
    m = Match(3, fmt=JOKER_SIX)
    first = m.to_act
    assert seat_view(m, first).legal_bids == (0, 5, 6, 7, 8, 9)
    assert seat_view(m, (first + 1) % 6).legal_bids == ()  # not its turn
    m.bid(first, 7)
    assert seat_view(m, m.to_act).legal_bids == (0, 8, 9)


# ---------------------------------------------------------------------------- bidding


def test_v5_auto_bid_passes_and_only_for_the_seat_bidding() -> None:
    m = Match(3, fmt=JOKER_SIX)
    assert auto_bid(seat_view(m, m.to_act)) == 0
    with pytest.raises(ValueError, match="not bidding"):
        auto_bid(seat_view(m, (m.to_act + 1) % 6))


def test_v5_greedy_bids_the_lowest_bid_on_a_strong_hand_and_passes_a_weak_one() -> None:
    strong = parse_cards("BJ RJ AS KS QS JS 10S AH AD")
    weak = parse_cards("2S 3H 4D 5C 6S 7H 8D 9C 3C")
    assert hand_tricks(strong) >= 8
    assert bid_estimate(strong) >= 8 > 5 > bid_estimate(weak)
    m = Match(3, fmt=JOKER_SIX)
    view = seat_view(m, m.to_act)
    assert greedy_bid(view) in (0, 5)  # never above the lowest it may bid
    assert greedy_bid(view) == (5 if bid_estimate(view.hand) >= 5.1 else 0)


def test_v5_auto_trump_leaves_the_jokers_out() -> None:
    """A joker is a trump whatever suit is named: it counts for no suit (R14)."""
    hand = parse_cards("BJ RJ AS 2H 3H 4D 5D 6D 7C")
    assert auto_trump(hand) == Suit.DIAMONDS


# --------------------------------------------------------------------------- the search


def test_v5_search_plays_the_black_joker_to_make_its_red_one_count() -> None:
    """Seat 1 holds both jokers; a card of each is legal: every choice is legal and the
    searcher's view maps both jokers among the trumps of its deals."""
    m = rigged(HANDS, hakem=1, bid=5, trump=Suit.SPADES)
    view = seat_view(m, 1)
    know = knowledge(view)
    assert know.known[1] & to_rm_any(JOKERS, int(Suit.SPADES)) == to_rm_any(
        JOKERS, int(Suit.SPADES)
    )
    assert SearchPlayer(1, TINY).choose_card(view) in view.legal


@fast
@given(seed=st.integers(0, 2**40), plays=st.integers(0, 53), pick=st.integers(0, 5))
def test_v5_sampled_deals_put_the_jokers_among_the_trumps_and_respect_voids(
    seed: int, plays: int, pick: int
) -> None:
    """A seat that did not follow a trump lead holds no joker in any deal drawn for it."""
    m = in_play(seed, plays)
    assert m.trump is not None
    trump = int(m.trump)
    seat = pick % 6
    view = seat_view(m, seat)
    know = knowledge(view)
    for s in range(6):  # the real deal is one the seat must think possible
        real = to_rm_any(m.hand_of(s), trump)
        for suit in range(4):
            if know.voids[s] >> suit & 1:
                assert not real & RM_SUIT[suit]
    deck = seating(JOKER_SIX).deck_with(trump)
    hands = Sampler(know, SearchPlayer._trump_bias(view)).sample(random.Random(seed))
    assert hands[seat] == to_rm_any(view.hand, trump)
    union = 0
    for s, h in enumerate(hands):
        assert h.bit_count() == view.cards_left[s]
        assert not union & h and not h & ~deck
        union |= h
        for suit in range(4):
            if know.voids[s] >> suit & 1:
                assert not h & RM_SUIT[suit]


@pytest.mark.parametrize("seed", range(12))
def test_v5_rollout_joker_agrees_with_joker_match(seed: int) -> None:
    """Same tricks and winners as ``JokerMatch`` played by ``GreedyPlayer``s from a random
    position to the end of the hand: the jokers' R8 and R9 (burnt red included) and the
    greedy policy are the engine's."""
    m = in_play(seed, random.Random(seed).randrange(54))
    assert isinstance(m, JokerMatch) and m.trump is not None
    trump = int(m.trump)
    view = seat_view(m, m.turn)
    trace: list[tuple[int, tuple[int, ...], int]] = []
    result = rollout_joker(
        [to_rm_any(m.hand_of(s), trump) for s in range(6)],
        trump,
        m.leader,
        [to_rm_any((c,), trump).bit_length() - 1 for c in m.trick],
        tuple(m.team_tricks),
        seating(JOKER_SIX),
        black_joker_gone(view),
        trace,
    )
    seen, final = greedy_hand_out(m)
    assert [(t.leader, tuple(map(int, t.cards)), t.winner) for t in seen] == [
        (leader, tuple(card_of(c) for c in cards), winner) for leader, cards, winner in trace
    ]
    assert result[:-1] == final.tricks


def test_v5_trick_winner_joker_burns_the_red_before_the_black() -> None:
    """Trump spades: the red joker led before the black loses to the 2 of trump; after the
    black (earlier in the trick, or in an earlier trick) it wins."""
    t = int(Suit.SPADES)
    red, black = joker_bit(RJ, t), joker_bit(BJ, t)
    two = to_rm_any(parse_cards("2S"), t).bit_length() - 1
    ace_h = to_rm_any(parse_cards("AH"), t).bit_length() - 1
    assert trick_winner_joker(0, [red, two], t, 6, False) == 1
    assert trick_winner_joker(0, [red, ace_h], t, 6, False) == 0  # a trump still beats hearts
    assert trick_winner_joker(0, [black, red], t, 6, False) == 1
    assert trick_winner_joker(0, [red, two], t, 6, True) == 0


def test_v5_joker_values_score_by_the_bid() -> None:
    """Made: the tricks taken go to the hakem's team; set: ``set_points`` to the others."""
    m = rigged(HANDS, hakem=0, bid=6)
    view = seat_view(m, 0)  # team 0, the hakem's
    worth = JokerValues(view, 0.0)
    assert worth((6, 3, -1)) == pytest.approx(joker_equity(6, 0, 124))
    assert worth((4, 5, -1)) == pytest.approx(joker_equity(0, 14, 124))  # 2·6 + 2·(6-4-1)
    assert worth((6, 3, -1)) > worth((5, 4, -1))
    assert joker_equity(124, 0, 124) == 1.0 and joker_equity(0, 124, 124) == 0.0
    assert joker_equity(50, 50, 124) == pytest.approx(0.5)


def test_v5_hints_in_joker_six() -> None:
    """The Hint button's trump and card for a seat holding jokers are legal."""
    m = rigged(HANDS, hakem=1, bid=5, trump=Suit.HEARTS)
    view = seat_view(m, 1)
    assert hint(view).choice in view.legal


def test_v5_normal_and_hard_levels_exist_for_the_joker_six() -> None:
    assert {"normal", "hard"} <= set(LEVELS)
