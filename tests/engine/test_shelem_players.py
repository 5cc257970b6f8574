"""V6.15 Shelem computer players: every decision legal, full matches end, and the greedy
player's rules of thumb (bid from the hand, lay down what is weak, count points in play)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Card, mask_of, parse_cards
from engine.shelem import PASS, PLAY, ShelemMatch, ShelemOptions, seat_view
from engine.shelem.fastsim import choose_card
from engine.shelem.players import (
    GreedyShelemPlayer,
    RandomShelemPlayer,
    act,
    auto_bid,
    greedy_bid,
    greedy_discard,
    hand_estimate,
)

from .shelem_helpers import MIXED_KITTY_FOR_PLAYERS, PLAYER_HANDS, auction, rigged

C = Card.parse
seeds = st.integers(min_value=0, max_value=2**63 - 1)
few = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
OPTIONS = st.sampled_from(
    [ShelemOptions(), ShelemOptions(joker=True), ShelemOptions(nars=True, ace_nars=True, sars=True)]
)


@few
@given(seeds, OPTIONS)
def test_v6_15_greedy_players_play_whole_matches_legally_to_the_end(
    seed: int, options: ShelemOptions
) -> None:
    m = ShelemMatch(seed, options)
    players = [GreedyShelemPlayer() for _ in range(4)]
    decisions = 0
    while not m.is_over:
        act(m, players[m.to_act])  # an illegal choice would raise
        decisions += 1
        assert decisions < 20_000
    assert m.winner_team in (0, 1)


@few
@given(seeds)
def test_v6_15_greedy_beats_random_players_and_both_stay_legal(seed: int) -> None:
    m = ShelemMatch(seed, ShelemOptions(target_score=500))
    players = [
        GreedyShelemPlayer(),
        RandomShelemPlayer(seed),
        GreedyShelemPlayer(),
        RandomShelemPlayer(seed + 1),
    ]
    while not m.is_over:
        act(m, players[m.to_act])
    assert m.winner_team is not None


def test_v6_15_greedy_bids_a_strong_hand_and_passes_a_weak_one() -> None:
    strong = mask_of(parse_cards("AS KS QS JS 10S 9S AH AD AC KH 5S 4S"))
    weak = mask_of(parse_cards("2S 3S 6S 2H 3H 4H 2D 3D 4D 2C 3C 4C"))
    assert hand_estimate(strong) > 150 > 100 > hand_estimate(weak)
    m = rigged(PLAYER_HANDS, MIXED_KITTY_FOR_PLAYERS)
    assert greedy_bid(seat_view(m, 0)) == 100  # the strong hand: the lowest bid it may make
    m.bid(0, 100)
    assert greedy_bid(seat_view(m, 1)) == PASS  # the weak one
    assert auto_bid(seat_view(m, 1)) == PASS


def test_v6_15_greedy_discard_keeps_trump_and_aces_and_banks_a_loose_ten() -> None:
    hand = mask_of(parse_cards("AS KS QS JS 9S 8S AH 10D 2D 3C 4C 5H 7H 8H 10C 6D"))
    laid = set(parse_cards_of(greedy_discard(hand, 4)))
    assert len(laid) == 4
    assert not laid & set(parse_cards("AS KS QS JS 9S 8S AH"))
    assert C("10D") in laid or C("10C") in laid  # a 10 without its ace: its points are safe


def parse_cards_of(mask: int) -> list[Card]:
    return [Card.parse(Card(c).code) for c in range(52) if mask >> c & 1]


def test_v6_15_greedy_gives_points_to_a_partner_sure_of_the_trick() -> None:
    # seat 3 plays last; seat 1 (its partner) wins with the ace: seat 3 drops its 10
    hand = mask_of(parse_cards("10H 2H 5C"))
    trick = [C("3H"), C("AH"), C("4H")]
    card = choose_card(hand, 0, trick, 0, 3, "hokm", 0)
    assert card == C("10H")


def test_v6_15_greedy_takes_a_trick_worth_taking_on_the_last_card() -> None:
    hand = mask_of(parse_cards("KH 2H 5C"))
    trick = [C("10H"), C("2S"), C("QH")]  # seat 1 leads the 10, seat 3 is last
    assert choose_card(hand, 0, trick, 1, 0, "sars", -1) == C("KH")


def test_v6_15_the_greedy_hakem_names_his_best_suit_and_never_leads_a_joker_first() -> None:
    m = rigged(PLAYER_HANDS, MIXED_KITTY_FOR_PLAYERS)
    auction(m, 100, PASS, PASS, PASS)
    player = GreedyShelemPlayer()
    act(m, player)  # the discard
    assert m.phase == PLAY
    act(m, player)
    assert m.trump is not None and m.trump == m.trick[0].suit
