"""V6 Shelem, random seeds and random legal decisions (hypothesis): the invariants hold at
every step, a seat's view holds no card it may not see, and points total the hand's 165 (200
with jokers) every hand (docs/rules.md V6)."""

from __future__ import annotations

import dataclasses
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Card, IllegalMove
from engine.shelem import (
    BID,
    DISCARD,
    MATCH_OVER,
    PASS,
    PASSED_DEALS_MAX,
    PLAY,
    SAR_SHELEM,
    SHELEM,
    DealerMustOpen,
    ShelemHandResult,
    ShelemMatch,
    ShelemOptions,
    ShelemView,
    replay,
    seat_view,
)

from .shelem_helpers import random_move

seeds = st.integers(min_value=0, max_value=2**63 - 1)
few = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
OPTIONS = [
    ShelemOptions(),
    ShelemOptions(joker=True),
    ShelemOptions(nars=True, ace_nars=True, sars=True),
    ShelemOptions(target_score=300),
]
options_st = st.sampled_from(OPTIONS)


def _cards_in(value: object) -> set[Card]:
    """Every card anywhere in a view field, however nested."""
    if isinstance(value, Card):
        return {value}
    if isinstance(value, tuple | list):
        return {c for v in value for c in _cards_in(v)}
    return set()


def check_views(m: ShelemMatch) -> None:
    """V6.6.4: a seat's view holds its own hand, the public tricks, and for the hakem once the
    bidding is over the kitty and his laid-down cards: never another hand, the kitty before
    the bidding ends or for anyone else, nor another seat's laid-down cards."""
    public = {c for t in m.tricks for c in t.cards} | set(m.trick)
    kitty = {Card.parse(c) for c in m.to_dict()["kitty"]}
    for seat in range(4):
        view = seat_view(m, seat)
        own = set(m.hand_of(seat))
        if seat == m.hakem and m.phase != BID:
            own |= kitty | set(m.discards_of(seat))
        seen: set[Card] = set()
        for f in dataclasses.fields(ShelemView):
            seen |= _cards_in(getattr(view, f.name))
        assert seen <= own | public, (seat, sorted(seen - own - public))
        assert set(view.hand) == set(m.hand_of(seat))
        if seat != m.hakem or m.phase == BID:
            assert view.kitty == () and view.discards == () and view.own_set_points == 0
        if m.phase == BID:
            assert not kitty & seen  # V6.6.4: nobody sees the kitty during the bidding


def legal_by_rule(view: ShelemView) -> set[Card]:
    """V6.8.2 and V6.13, from the view alone: follow the led suit (a joker follows trump)."""
    if view.phase != PLAY or view.to_act != view.seat:
        return set()
    hand = set(view.hand)
    if not view.trick:
        return {c for c in hand if not c.is_joker} if view.names_trump else hand
    led = view.led_suit
    follow = {c for c in hand if (view.trump if c.is_joker else c.suit) == led}
    return follow or hand


def check_bid_refusals(m: ShelemMatch) -> None:
    """V6.3.2, V6.5.2: every bid outside ``legal_bids`` and every other seat's bid is refused,
    and a refusal changes nothing."""
    if m.phase != BID:
        return
    seat = m.to_act
    before = json.dumps(m.to_dict())
    legal = set(m.legal_bids(seat))
    for value in (*range(0, 210, 5), 1, 99, SHELEM, SAR_SHELEM):
        for who in range(4):
            if who == seat and value in legal:
                continue
            try:
                m.bid(who, value)
            except IllegalMove:
                pass
            else:
                raise AssertionError(f"seat {who} bid {value} against the rules")
    assert json.dumps(m.to_dict()) == before


def check_play_rules(m: ShelemMatch) -> None:
    """The engine's legal cards are the rule's, and every other card is refused untouched."""
    check_bid_refusals(m)
    if m.phase != PLAY:
        return
    seat = m.turn
    view = seat_view(m, seat)
    legal = set(m.legal_cards(seat))
    assert legal == legal_by_rule(view)
    before = json.dumps(m.to_dict())
    for card in set(m.hand_of(seat)) - legal:
        try:
            m.play(seat, card)
        except IllegalMove:
            pass
        else:
            raise AssertionError(f"{card} was played against the rules")
    assert json.dumps(m.to_dict()) == before


@few
@given(seeds, options_st)
def test_v6_2_every_deal_partitions_the_deck_into_four_twelves_and_the_kitty(
    seed: int, options: ShelemOptions
) -> None:
    m = ShelemMatch(seed, options)
    hands = [set(m.hand_of(s)) for s in range(4)]
    kitty = {Card.parse(c) for c in m.to_dict()["kitty"]}
    assert [len(h) for h in hands] == [12] * 4 and len(kitty) == options.kitty_size
    assert set().union(*hands, kitty) == set(options.deck)
    assert sum(len(h) for h in hands) + len(kitty) == len(options.deck)


@few
@given(seeds, options_st, st.floats(min_value=0.3, max_value=0.9))
def test_v6_random_matches_keep_every_invariant(
    seed: int, options: ShelemOptions, pass_rate: float
) -> None:
    """Views hide what they must (V6.6.4), plays obey V6.8.2/V6.13, a refused move changes
    nothing, each hand's points total the hand's (V6.9) and its score follows V6.10–V6.12, the
    JSON form round-trips and ``replay`` rebuilds the match, and the match ends (V6.14). A
    hand is dealt at most ``PASSED_DEALS_MAX + 1`` times and a dealer who must open cannot
    pass (V6.4.1)."""
    rng = random.Random(seed)
    m = ShelemMatch(seed, options)
    steps = 0
    first_deal = (m.hand_number, m.deal_number)
    while not m.is_over and steps < 30_000:
        if steps % 7 == 0:
            check_views(m)
            check_play_rules(m)
        if m.hand_number != first_deal[0]:
            first_deal = (m.hand_number, m.deal_number)
        assert m.deal_number - first_deal[1] == m.passed_deals <= PASSED_DEALS_MAX
        if m.must_open:
            before = m.to_dict()
            try:
                m.bid(m.to_act, PASS)
            except DealerMustOpen:
                pass
            else:
                raise AssertionError("a dealer who must open passed")
            assert m.to_dict() == before
        scores_before = tuple(m.scores)
        events = random_move(m, rng, pass_rate)
        for event in events:
            if isinstance(event, ShelemHandResult):
                assert sum(event.points) == options.hand_total
                assert sum(event.tricks) == 12
                assert tuple(a + b for a, b in zip(scores_before, event.changes, strict=True)) == (
                    event.scores_after
                )
                assert (
                    event.changes[1 - event.hakem % 2] + event.withheld[1 - event.hakem % 2]
                    == (event.points[1 - event.hakem % 2])
                )
        if steps % 53 == 0:
            again = ShelemMatch.from_dict(json.loads(json.dumps(m.to_dict())))
            assert again == m
        steps += 1
    assert m.is_over, "a random match did not end"
    assert m.phase == MATCH_OVER and m.winner_team in (0, 1)
    assert replay(seed, json.loads(json.dumps(m.to_dict()["actions"])), options) == m


@few
@given(seeds)
def test_v6_6_4_discards_stay_hidden_through_the_hand(seed: int) -> None:
    rng = random.Random(seed)
    m = ShelemMatch(seed)
    while m.phase == BID:  # (a sar-shelem goes straight to play: no discard phase)
        random_move(m, rng, 0.3)
    hakem = m.hakem
    if m.phase == DISCARD:
        random_move(m, rng)
    laid = set(m.discards_of(hakem))
    assert len(laid) == 4
    while m.hand_number == 1:
        for seat in range(4):
            view = seat_view(m, seat)
            shown = set().union(
                *(_cards_in(getattr(view, f.name)) for f in dataclasses.fields(view))
            )
            if seat == hakem:
                assert set(view.discards) == laid
            else:
                assert not laid & shown
        random_move(m, rng)
