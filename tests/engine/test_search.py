"""The searching player: legal, reproducible, blind to hidden cards; its simulator and sampler.

Budgets here are tiny: these tests check behaviour, never strength or speed.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    PLAY,
    TRUMP,
    Card,
    GreedyPlayer,
    Match,
    SearchPlayer,
    SeatView,
    Suit,
    make_player,
    parse_cards,
    parse_difficulty,
    seat_view,
)
from engine.fastsim import (
    FROM_RM,
    RM_SUIT,
    TO_RM,
    from_rm,
    greedy_card,
    legal_mask,
    rollout,
    to_rm,
    trick_winner,
)
from engine.sampling import PlayModel, Sampler, knowledge
from engine.search import SearchSettings, distinct_cards, match_equity

from .helpers import greedy_hand_out, rigged_match, spade_lead_hands

fast = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


TINY = SearchSettings(card_budget=300, min_deals=2, max_deals=4, trump_deals=2)


def tiny(seed: int = 0) -> SearchPlayer:
    return SearchPlayer(seed, TINY)


def random_position(seed: int, plays: int) -> Match:
    """A match in the play phase of its first hand after up to ``plays`` random cards."""
    rng = random.Random(seed)
    m = Match(seed)
    m.choose_trump(m.hakem, Suit(rng.randrange(4)))
    for _ in range(plays):
        legal = m.legal_cards(m.turn)
        m.play(m.turn, rng.choice(legal))
        if m.hand_number != 1:  # the hand ended: start over with fewer plays
            return random_position(seed + 1_000_003, plays // 2)
    return m


# ------------------------------------------------------------------ the simulator


def test_rank_major_conversion_round_trips() -> None:
    assert sorted(from_rm(to_rm(range(52)))) == list(range(52))
    assert all(FROM_RM[TO_RM[c]] == c for c in range(52))
    assert to_rm(parse_cards("AS KS 2H")) & RM_SUIT[Suit.SPADES] == to_rm(parse_cards("AS KS"))


@pytest.mark.parametrize("seed", range(25))
def test_rollout_agrees_with_match(seed: int) -> None:
    """Same cards, same trick winners, same result as ``Match`` with ``GreedyPlayer``s."""
    m = random_position(seed, random.Random(seed).randrange(45))
    hands = [to_rm(m.hand_of(s)) for s in range(4)]
    trace: list[tuple[int, tuple[int, ...], int]] = []
    assert m.trump is not None
    trump = int(m.trump)
    trick = [TO_RM[c] for c in m.trick]
    result = rollout(hands, trump, m.leader, trick, (m.team_tricks[0], m.team_tricks[1]), 7, trace)
    seen, final = greedy_hand_out(m)
    assert [(t.leader, t.cards, t.winner) for t in seen] == [
        (leader, tuple(Card(FROM_RM[c]) for c in cards), winner) for leader, cards, winner in trace
    ]
    for t in seen:
        assert trick_winner(t.leader, [TO_RM[c] for c in t.cards], trump) == t.winner
    assert result == final.tricks


@fast
@given(seed=st.integers(0, 2**40), plays=st.integers(0, 45))
def test_legal_mask_agrees_with_match(seed: int, plays: int) -> None:
    m = random_position(seed, plays)
    led = m.trick[0].suit if m.trick else -1
    assert legal_mask(to_rm(m.hand_of(m.turn)), led) == to_rm(m.legal_cards(m.turn))


# --------------------------------------------------------------------- sampling


def _check_deal(m: Match, seat: int, deals: list[list[int]]) -> None:
    view = seat_view(m, seat)
    know = knowledge(view)
    for hands in deals:
        assert hands[seat] == to_rm(view.hand)
        for a, b in itertools.combinations(range(4), 2):
            assert not hands[a] & hands[b]
        assert sum(h.bit_count() for h in hands) == sum(view.cards_left)
        for s in range(4):
            assert hands[s].bit_count() == view.cards_left[s]
            for suit in range(4):
                if know.voids[s] >> suit & 1:
                    assert not hands[s] & RM_SUIT[suit]
        assert hands[0] | hands[1] | hands[2] | hands[3] == to_rm(view.hand) | know.unseen


@fast
@given(seed=st.integers(0, 2**40), plays=st.integers(0, 48), seat=st.integers(0, 3))
def test_sampled_deals_respect_hand_sizes_and_voids(seed: int, plays: int, seat: int) -> None:
    m = random_position(seed, plays)
    view = seat_view(m, seat)
    know = knowledge(view)
    # the real deal is one of the deals the seat must consider possible
    for s in range(4):
        for suit in range(4):
            if know.voids[s] >> suit & 1:
                assert not any(c.suit == suit for c in m.hand_of(s))
    rng = random.Random(seed)
    _check_deal(m, seat, [Sampler(know).sample(rng) for _ in range(3)])
    biased = Sampler(know, SearchPlayer._trump_bias(view))  # the hakem's trump prior
    _check_deal(m, seat, [biased.sample(rng) for _ in range(3)])


def test_trump_prior_deals_the_hakem_more_trumps() -> None:
    m = Match(8)
    m.choose_trump(m.hakem, Suit.HEARTS)
    view = seat_view(m, (m.hakem + 1) % 4)
    know = knowledge(view)
    rng = random.Random(2)
    hearts = RM_SUIT[Suit.HEARTS]
    plain, biased = Sampler(know), Sampler(know, SearchPlayer._trump_bias(view))
    mean_plain = sum((plain.sample(rng)[m.hakem] & hearts).bit_count() for _ in range(400))
    mean_biased = sum((biased.sample(rng)[m.hakem] & hearts).bit_count() for _ in range(400))
    assert mean_biased > mean_plain * 1.15


@fast
@given(seed=st.integers(0, 2**40), plays=st.integers(0, 45))
def test_greedy_card_is_greedy_player(seed: int, plays: int) -> None:
    m = random_position(seed, plays)
    assert m.trump is not None
    rest = to_rm(c for s in range(4) for c in m.hand_of(s))
    trick = [TO_RM[c] for c in m.trick]
    hand = to_rm(m.hand_of(m.turn))
    card = greedy_card(hand, m.turn, m.leader, trick, int(m.trump), rest)
    assert FROM_RM[card] == GreedyPlayer().choose_card(seat_view(m, m.turn))


@fast
@given(seed=st.integers(0, 2**40), plays=st.integers(4, 40), greedy_share=st.floats(0, 1))
def test_play_model_weighs_deals_as_a_greedy_replay_would(
    seed: int, plays: int, greedy_share: float
) -> None:
    """``telltale`` masks give the same weights as replaying the hand with ``greedy_card``."""
    rng = random.Random(seed)
    m = Match(seed)
    m.choose_trump(m.hakem, Suit(rng.randrange(4)))
    greedy = GreedyPlayer()
    for _ in range(plays):
        if rng.random() < greedy_share:
            card = greedy.choose_card(seat_view(m, m.turn))
        else:
            card = rng.choice(m.legal_cards(m.turn))
        m.play(m.turn, card)
        if m.hand_number != 1:
            return
    view = seat_view(m, m.turn)
    model = PlayModel(view, 0.5, 0.25)
    sampler = Sampler(knowledge(view))
    ratios = set()
    for _ in range(6):
        hands = sampler.sample(rng)
        ratios.add(round(_replayed_weight(view, hands) / model.weight(hands), 9))
    assert len(ratios) == 1  # equal up to a factor that is the same for every deal


def _replayed_weight(view: SeatView, hands: list[int]) -> float:
    assert view.trump is not None
    plays = [(s, TO_RM[c], t.leader) for t in view.tricks for s, c in t.plays()]
    plays += [(s, TO_RM[c], view.leader) for s, c in view.trick]
    weight = 1.0
    for index, (seat, card, leader) in enumerate(plays):
        if seat == view.seat:
            continue
        later = to_rm(FROM_RM[c] for s, c, _ in plays[index:] if s == seat)
        rest = (1 << 52) - 1
        for _, c, _ in plays[:index]:
            rest ^= 1 << c
        before = [c for _, c, _ in plays[index - index % 4 : index]]
        if greedy_card(hands[seat] | later, seat, leader, before, int(view.trump), rest) != card:
            weight *= 0.25 if seat ^ view.seat == 2 else 0.5
    return weight


def test_voids_come_from_failing_to_follow() -> None:
    hands = spade_lead_hands()
    m = rigged_match(0, hands, trump=Suit.CLUBS)
    for code in ("AS", "3S", "QS", "4C"):  # seat 3 cannot follow spades
        m.play(m.turn, parse_cards(code)[0])
    know = knowledge(seat_view(m, 1))
    assert know.voids == (0, 0, 0, 1 << Suit.SPADES)
    rng = random.Random(3)
    sampler = Sampler(know)
    for _ in range(50):
        assert not sampler.sample(rng)[3] & RM_SUIT[Suit.SPADES]


def test_trump_phase_deals_complete_the_five() -> None:
    m = Match(11)
    view = seat_view(m, m.hakem)
    assert view.can_choose_trump and len(view.hand) == 5
    hands = Sampler(knowledge(view)).sample(random.Random(1))
    assert [h.bit_count() for h in hands] == [13] * 4
    assert hands[m.hakem] & to_rm(view.hand) == to_rm(view.hand)
    assert hands[0] | hands[1] | hands[2] | hands[3] == (1 << 52) - 1


def test_sampling_is_uniform_over_consistent_deals() -> None:
    """A late position with few unseen cards: every consistent deal turns up equally often."""
    hands = spade_lead_hands()
    m = rigged_match(0, hands, trump=Suit.CLUBS)
    for code in ("AS", "3S", "QS", "4C"):
        m.play(m.turn, parse_cards(code)[0])
    know = knowledge(seat_view(m, 1))
    from engine.sampling import Knowledge

    # keep it small: pretend only 6 cards are unseen, seat 3 void in spades
    unseen = to_rm(parse_cards("KS 2C 3C 5C 6C 7C"))
    small = Knowledge(1, (0, know.known[1], 0, 0), unseen, (0, 0, 3, 3), (0, 0, 0, 1))
    sampler = Sampler(small)
    rng = random.Random(5)
    counts = Counter(tuple(sampler.sample(rng)) for _ in range(4000))
    # KS must go to seat 2 with 2 of the 5 clubs: C(5, 2) = 10 deals
    assert len(counts) == 10
    assert all(h[2] & to_rm(parse_cards("KS")) for h in counts)
    assert min(counts.values()) > 300 and max(counts.values()) < 500


# ------------------------------------------------------------------ the player


@pytest.mark.parametrize("seed", range(6))
def test_search_player_plays_only_legal_cards(seed: int) -> None:
    m = Match(seed)
    players = [tiny(seed * 4 + s) for s in range(4)]
    decisions = 0
    while not m.is_over and decisions < 150:
        seat = m.to_act
        view = seat_view(m, seat)
        if m.phase == TRUMP:
            suit = players[seat].choose_trump(view)
            assert isinstance(suit, Suit)
            m.choose_trump(seat, suit)
        else:
            card = players[seat].choose_card(view)
            assert card in view.legal
            m.play(seat, card)
        decisions += 1


@fast
@given(seed=st.integers(0, 2**40), plays=st.integers(0, 48))
def test_search_player_legal_from_random_positions(seed: int, plays: int) -> None:
    m = random_position(seed, plays)
    view = seat_view(m, m.turn)
    assert tiny(seed).choose_card(view) in view.legal


def _play_match(seed: int, player_seed: int, limit: int) -> list[object]:
    m = Match(seed)
    players = [tiny(player_seed + s) for s in range(4)]
    actions: list[object] = []
    while not m.is_over and len(actions) < limit:
        seat = m.to_act
        view = seat_view(m, seat)
        if m.phase == TRUMP:
            choice: object = players[seat].choose_trump(view)
            m.choose_trump(seat, choice)  # type: ignore[arg-type]
        else:
            choice = players[seat].choose_card(view)
            m.play(seat, choice)  # type: ignore[arg-type]
        actions.append(choice)
    return actions


def test_search_player_is_deterministic_under_a_seed() -> None:
    assert _play_match(4, 10, 80) == _play_match(4, 10, 80)


def test_search_player_decides_from_the_view_alone() -> None:
    """Two deals that differ only in cards seat 0 cannot see: the same decisions."""
    a = spade_lead_hands()
    b = [  # 2D and 2H, 4D and 10D change hands
        "AS 2S 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
        "3S 4S 5S 6S 7S 8S 9S 10S JS 2H 3D 10D 5D",
        "KS QS 6D 7D 8D 9D 4D JD QD KD AD 2C 3C",
        "4C 5C 6C 7C 8C 9C 10C JC QC KC AC 2D AH",
    ]
    trump_views = [seat_view(rigged_match(0, h), 0) for h in (a, b)]
    assert trump_views[0] == trump_views[1] and trump_views[0].can_choose_trump
    matches = [rigged_match(0, h, trump=Suit.CLUBS) for h in (a, b)]
    card_views = [seat_view(m, 0) for m in matches]
    for m in matches:  # a trick seat 0 sees fall identically in both deals, then a new lead
        for code in ("AS", "3S", "QS", "4C", "5C"):
            m.play(m.turn, parse_cards(code)[0])
    later_views = [seat_view(m, 0) for m in matches]
    assert matches[0].hand_of(1) != matches[1].hand_of(1)
    for views in (card_views, later_views):
        assert views[0] == views[1] and views[0].legal
    for seed in range(3):
        assert len({tiny(seed).choose_trump(v) for v in trump_views}) == 1
        for views in (card_views, later_views):
            assert len({tiny(seed).choose_card(v) for v in views}) == 1


def test_equivalent_cards_are_tried_once() -> None:
    hand = parse_cards("2S 3S 5S 9S 10S JS")
    live = to_rm(parse_cards("4S 6S"))  # 7S, 8S already played; 4S and 6S still out
    picks = sorted(FROM_RM[c] for c in distinct_cards(hand, live))
    assert [Card(c).code for c in picks] == ["2S", "5S", "9S"]


def test_match_equity_is_a_probability_that_grows_with_our_score() -> None:
    assert match_equity(7, 3, 7, False) == 1.0
    assert match_equity(3, 7, 7, True) == 0.0
    assert 0.5 < match_equity(0, 0, 7, True) < 0.6
    assert match_equity(5, 0, 7, False) > match_equity(4, 0, 7, False)


def test_make_player_levels() -> None:
    assert isinstance(make_player("easy"), GreedyPlayer)
    assert isinstance(make_player("normal", 1), SearchPlayer)
    assert isinstance(make_player("hard", 1), SearchPlayer)
    with pytest.raises(ValueError):
        make_player("expert", 1)  # type: ignore[arg-type]
    assert PLAY == "play"


def test_parse_difficulty_names_the_levels_make_player_knows() -> None:
    """A seat stores its difficulty as text; the engine turns it back into a level."""
    for name in ("easy", "normal", "hard"):
        assert parse_difficulty(name) == name
        make_player(parse_difficulty(name), 1)
    for bad in ("expert", "Easy", ""):
        with pytest.raises(ValueError, match="unknown difficulty"):
            parse_difficulty(bad)
