"""The computer partners' signal (``engine.signals``): played exactly, read exactly.

A searching seat with ``signals`` follows suit with a losing card by a public rule (the second
lowest of its losing cards when it holds a side suit's master, else the lowest); a seat that
reads its partners as ``signal_seats`` weighs down every deal that would have made them play
another card. Budgets here are tiny: these tests check behaviour, never strength.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Match, SearchPlayer, seat_view
from engine.cards import parse_cards
from engine.fastsim import TO_RM, to_rm
from engine.match import BID, PLAY
from engine.rules import FORMATS, hokm_formats
from engine.sampling import PlayModel
from engine.signals import losing_follows, side_masters, signal_card, winning_card

from .test_players_formats import TINY, act

SIGNALLING = dataclasses.replace(TINY, signals=True)
TEAM_FORMATS = [n for n, f in hokm_formats().items() if not f.solo and not f.jokers]
"""Formats where a seat has a partner to signal to (the joker six's jokers are not read)."""

SPADES, HEARTS, DIAMONDS, CLUBS = range(4)


def rm(text: str) -> int:
    return to_rm(parse_cards(text))


def card(text: str) -> int:
    return TO_RM[parse_cards(text)[0]]


def test_losing_follows_are_the_suit_led_below_the_winning_card() -> None:
    hand = rm("2H 9H QH AS")
    assert losing_follows(hand, HEARTS, card("10H"), trump=CLUBS) == rm("2H 9H")
    assert losing_follows(hand, HEARTS, card("3C"), trump=CLUBS) == rm("2H 9H QH")  # trumped
    assert losing_follows(hand, SPADES, card("KS"), trump=CLUBS) == 0  # A♠ wins


def test_side_masters_leave_out_the_suit_led_and_trump() -> None:
    rest = rm("KS 4S AH 3H QD 2D AC")
    assert side_masters(rest, led=HEARTS, trump=CLUBS) == rm("KS QD")


def test_the_signal_plays_the_second_lowest_with_a_side_master() -> None:
    rest = rm("2H 9H QH KS 4S AC 5D")
    hand = rm("2H 9H QH KS")  # K♠ is the highest spade left
    assert signal_card(hand, HEARTS, card("KH"), CLUBS, rest) == card("9H")
    assert signal_card(hand & ~rm("KS"), HEARTS, card("KH"), CLUBS, rest) == card("2H")


def test_the_signal_has_no_choice_with_fewer_than_two_losing_cards() -> None:
    rest = rm("2H QH KS")
    assert signal_card(rm("2H QH KS"), HEARTS, card("10H"), CLUBS, rest) == -1
    assert signal_card(rm("KS"), HEARTS, card("10H"), CLUBS, rest) == -1


def test_a_trump_master_is_not_signalled() -> None:
    rest = rm("2H 9H AC 5D AD")
    assert signal_card(rm("2H 9H AC"), HEARTS, card("KH"), CLUBS, rest) == card("2H")


def test_winning_card_is_r9() -> None:
    assert winning_card(2, [card("5H"), card("KH"), card("AS")], CLUBS, 4) == card("KH")
    assert winning_card(2, [card("5H"), card("KH"), card("2C")], CLUBS, 4) == card("2C")
    assert winning_card(5, [card("5H"), card("KH"), card("2C")], CLUBS, 6) == card("2C")


def _signalling_match(name: str, seed: int, plays: int) -> tuple[Match, list[SearchPlayer]]:
    """A match of ``name`` after up to ``plays`` cards of its first hand, every seat a
    signalling searcher that reads its partners."""
    fmt = FORMATS[name]
    players = [
        SearchPlayer(
            seed * 31 + s,
            SIGNALLING,
            signal_seats=frozenset(
                p for p in range(fmt.seats) if p != s and fmt.team_of[p] == fmt.team_of[s]
            ),
        )
        for s in range(fmt.seats)
    ]
    m = Match(seed, fmt=fmt)
    while m.phase != PLAY:
        act(m, players[m.to_act])
    for _ in range(plays):
        probe = Match.from_dict(m.to_dict())
        act(probe, players[probe.to_act])
        if probe.hand_number != 1 or probe.phase != PLAY:
            break
        m = probe
    return m, players


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(TEAM_FORMATS), seed=st.integers(0, 2**40), plays=st.integers(1, 40))
def test_the_real_deal_always_explains_a_signalling_partners_cards(
    name: str, seed: int, plays: int
) -> None:
    """Played exactly, read exactly: with every other card forgiven (eps 1) and a signal the
    deal contradicts weighing it to 0, the real hands still weigh 1 at every seat."""
    m, players = _signalling_match(name, seed, plays)
    view = seat_view(m, m.to_act)
    assert view.trump is not None
    model = PlayModel(view, 1.0, 1.0, signal_seats=players[m.to_act].signal_seats, eps_signal=0.0)
    truth = [to_rm(m.hand_of(s)) for s in range(view.seats)]
    assert model.weight(truth) == 1.0


def test_a_contradicted_signal_weighs_the_deal_down() -> None:
    """The same model on the real deal with the partner's hand swapped for an opponent's:
    somewhere in a few hands of six pairs a signal tells them apart."""
    fmt = FORMATS["six_pairs"]
    told = 0
    for seed in range(6):
        m, _ = _signalling_match("six_pairs", seed, 30)
        view = seat_view(m, m.to_act)
        partner = (m.to_act + 3) % fmt.seats
        model = PlayModel(view, 1.0, 1.0, signal_seats=frozenset({partner}), eps_signal=0.0)
        truth = [to_rm(m.hand_of(s)) for s in range(fmt.seats)]
        for other in range(fmt.seats):
            if fmt.team_of[other] != fmt.team_of[m.to_act] and truth[other]:
                swapped = list(truth)
                swapped[partner], swapped[other] = truth[other], truth[partner]
                told += model.weight(swapped) == 0.0
    assert told > 0


@pytest.mark.parametrize("name", ["six_pairs", "standard"])
def test_a_losing_follow_is_the_signals_card(name: str) -> None:
    """Whatever its search prefers, a signalling seat that follows suit with a losing card
    plays the one the signal names."""
    seen = 0
    for seed in range(10):
        rng = random.Random(seed)
        m, players = _signalling_match(name, seed, rng.randrange(1, 30))
        seat = m.to_act
        view = seat_view(m, seat)
        if not view.trick:
            continue
        assert view.trump is not None
        trump = int(view.trump)
        played = TO_RM[players[seat].choose_card(view)]
        trick = [TO_RM[c] for _, c in view.trick]
        led, win = trick[0] & 3, winning_card(view.leader, trick, trump, view.seats)
        if losing_follows(1 << played, led, win, trump):
            hand = to_rm(view.hand)
            rest = to_rm(c for s in range(view.seats) for c in m.hand_of(s))
            expected = signal_card(hand, led, win, trump, rest)
            assert played == (expected if expected >= 0 else played)
            seen += 1
    assert seen > 0


@pytest.mark.parametrize("name", ["three", "joker_six"])
def test_no_signal_without_a_partner_or_with_jokers(name: str) -> None:
    """Everyone alone (V3), or the joker six (V5, whose jokers the play model does not read):
    the seat's card is its search's, signals or not."""
    for seed in range(4):
        m = Match(seed, fmt=FORMATS[name])
        plain = SearchPlayer(seed, TINY)
        while m.phase != PLAY:
            if m.phase == BID:
                m.bid(m.to_act, plain.choose_bid(seat_view(m, m.to_act)))
            else:
                act(m, plain)
        for _ in range(seed + 1):
            act(m, plain)
        view = seat_view(m, m.to_act)
        a = SearchPlayer(7, SIGNALLING).choose_card(view)
        b = SearchPlayer(7, TINY).choose_card(view)
        assert a == b
