"""V6.15 the searching Shelem player: deals it imagines agree with what its seat saw (the
hidden pile included), its decisions are legal and reproducible from its seed, and its bid
follows the sampled outcomes."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Card, mask_of, parse_cards
from engine.shelem import BID, DISCARD, PASS, PLAY, SHELEM, ShelemMatch, ShelemOptions, seat_view
from engine.shelem.fastsim import suit_mask
from engine.shelem.players import GreedyShelemPlayer, act
from engine.shelem.search import (
    BidModel,
    ShelemSampler,
    ShelemSearchPlayer,
    ShelemSearchSettings,
    distinct_cards,
    make_shelem_player,
)

from .shelem_helpers import ONE_SUIT, ONE_SUIT_KITTY, PLAYER_HANDS, auction, rigged

C = Card.parse
seeds = st.integers(min_value=0, max_value=2**63 - 1)
few = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
QUICK = ShelemSearchSettings(card_budget=600, min_deals=2, max_deals=10, bid_deals=8)


def advance(m: ShelemMatch, rng: random.Random, steps: int) -> None:
    greedy = GreedyShelemPlayer()
    for _ in range(steps):
        if m.is_over:
            return
        act(m, greedy)


@few
@given(seeds, st.integers(min_value=0, max_value=60), st.booleans())
def test_v6_15_sampled_deals_agree_with_the_seats_view(seed: int, steps: int, joker: bool) -> None:
    m = ShelemMatch(seed, ShelemOptions(joker=joker))
    advance(m, random.Random(seed), steps)
    if m.is_over:
        return
    for seat in range(4):
        view = seat_view(m, seat)
        sampler = ShelemSampler(view)
        deal = sampler.sample(random.Random(seed + seat))
        assert deal[seat] == 0
        hidden = deal[0] | deal[1] | deal[2] | deal[3] | deal[4]
        assert hidden == sampler.pool  # every unseen card placed once
        assert sum(d.bit_count() for d in deal) == sampler.pool.bit_count()
        for other in range(4):
            if other != seat:
                assert deal[other].bit_count() == view.cards_left[other]
                assert not deal[other] & mask_of(view.hand)
        # a seat that did not follow a suit holds none of it (a trump lead: no joker either)
        trump = -1 if view.trump is None else int(view.trump)
        for trick in [t.plays(4) for t in view.tricks] + ([view.trick] if view.trick else []):
            first = trick[0][1]
            led = trump if first.is_joker else first.suit
            for who, card in trick:
                follows = suit_mask(led, trump) >> card & 1
                if not follows and who != seat:
                    assert not deal[who] & suit_mask(led, trump)
        if view.phase == BID:
            assert deal[4].bit_count() == view.kitty_size  # the kitty
        elif seat == view.hakem or view.phase == DISCARD:
            assert deal[4] == 0  # he knows his face-down cards; or they are still in his hand
        else:
            assert deal[4].bit_count() == view.kitty_size  # the hakem's face-down cards


@few
@given(seeds)
def test_v6_15_the_searching_player_plays_a_match_legally_and_reproducibly(seed: int) -> None:
    def run() -> list[object]:
        m = ShelemMatch(seed, ShelemOptions(target_score=300))
        players = [
            ShelemSearchPlayer(seed, QUICK) if s % 2 == 0 else GreedyShelemPlayer()
            for s in range(4)
        ]
        while not m.is_over:
            act(m, players[m.to_act])
        return m.actions

    assert run() == run()


def test_v6_15_distinct_cards_tries_one_of_each_run() -> None:
    legal = parse_cards("2H 3H 4H 9H 10H")
    live = mask_of(parse_cards("7H KH"))  # 5 and 6 gone, 7 still out
    tried = distinct_cards(legal, live, "hokm")
    assert sorted(tried) == sorted(parse_cards("2H 9H 10H"))  # 2-3-4 one run; 10 has points


def test_v6_15_bid_model_prefers_hands_that_explain_the_bids() -> None:
    m = rigged(PLAYER_HANDS, "10C JC QC KC")
    auction(m, 140, PASS)  # seat 0 bid 140, seat 1 passed
    model = BidModel(seat_view(m, 2))
    strong = mask_of(parse_cards(PLAYER_HANDS[0]))
    weak = mask_of(parse_cards(PLAYER_HANDS[1]))
    assert model.weight(0, strong) > 5 * model.weight(0, weak)
    assert model.weight(1, weak) > model.weight(1, strong)
    assert model.weight(3, weak) == 1.0  # seat 3 has not spoken


def test_v6_15_search_bids_shelem_on_a_hand_that_takes_every_trick() -> None:
    m = rigged(ONE_SUIT, ONE_SUIT_KITTY, dealer=3)
    player = ShelemSearchPlayer(1, ShelemSearchSettings(bid_deals=20))
    assert player.choose_bid(seat_view(m, 0)) == SHELEM  # twelve spades to the ace


def test_v6_15_search_passes_a_hopeless_hand() -> None:
    m = rigged(PLAYER_HANDS, "10C JC QC KC")
    m.bid(0, 100)
    player = ShelemSearchPlayer(1, ShelemSearchSettings(bid_deals=40))
    assert player.choose_bid(seat_view(m, 1)) == PASS


def test_v6_15_make_shelem_player_levels() -> None:
    assert isinstance(make_shelem_player("easy"), GreedyShelemPlayer)
    assert isinstance(make_shelem_player("hard", 1), ShelemSearchPlayer)
    m = rigged(PLAYER_HANDS, "10C JC QC KC")
    auction(m, 100, PASS, PASS, PASS)
    hard = make_shelem_player("normal", 3)
    act(m, hard)
    assert m.phase == PLAY
    card = hard.choose_card(seat_view(m, 0))
    assert card in m.legal_cards(0)


def test_v6_15_a_host_stop_plays_the_greedy_card_and_bids_from_what_was_drawn() -> None:
    m = rigged(PLAYER_HANDS, "10C JC QC KC")
    auction(m, 100, PASS, PASS, PASS)
    act(m, GreedyShelemPlayer())
    view = seat_view(m, 0)
    stopped = ShelemSearchPlayer(1, QUICK, should_stop=lambda: True)
    assert stopped.choose_card(view) == GreedyShelemPlayer().choose_card(view)
    m2 = rigged(PLAYER_HANDS, "10C JC QC KC")
    assert stopped.choose_bid(seat_view(m2, 0)) == GreedyShelemPlayer().choose_bid(seat_view(m2, 0))
