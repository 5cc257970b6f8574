"""Seats the host knows to be greedy computer players (``greedy_seats``): their plays are facts.

A greedy seat's card rules out, for good, every card it would have played instead
(``telltale``); ``PlayModel.exclusions`` keeps those per seat, and ``Sampler`` deals around
them. Budgets here are tiny: these tests check behaviour, never strength.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import SearchPlayer, seat_view
from engine.fastsim import to_rm
from engine.match import PLAY
from engine.rules import FORMATS
from engine.sampling import PlayModel, Sampler, knowledge
from engine.search import SearchSettings

from .test_players_formats import NAMES, TINY, in_play

fast = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
DEALT = [n for n in NAMES if not FORMATS[n].discards]
"""Formats whose hands are dealt, not built: at two (V2) a greedy seat's telltales are not
facts (``PlayModel``), so it has none."""


@fast
@given(name=st.sampled_from(DEALT), seed=st.integers(0, 2**40), plays=st.integers(0, 60))
def test_a_greedy_seats_exclusions_hold_in_the_real_deal(name: str, seed: int, plays: int) -> None:
    """Exclusions are facts, not guesses: the real hands of truly greedy seats never hold an
    excluded card, and every deal drawn around them explains each of their cards (weight 1
    under a model that forgives nothing)."""
    fmt = FORMATS[name]
    everyone = frozenset(range(fmt.seats))
    m = in_play(fmt, seed, plays, everyone)
    seat = m.to_act
    view = seat_view(m, seat)
    others = everyone - {seat}
    model = PlayModel(view, 1.0, 1.0, others)
    for s in others:
        assert not to_rm(m.hand_of(s)) & model.exclusions[s]
    assert model.exclusions[seat] == 0
    strict = PlayModel(view, 0.0, 0.0)  # every unexplained card weighs the deal to 0
    sampler = Sampler(knowledge(view), None, model.exclusions)
    rng = random.Random(seed)
    for _ in range(5):
        assert strict.weight(sampler.sample(rng)) == 1.0


def test_at_two_a_greedy_seat_has_no_exclusions() -> None:
    """V2: the greedy seat knows only its own laid-down cards are out of play, where
    ``telltale`` counts all of them live, so its cards are weighed, never excluded."""
    fmt = FORMATS["two"]
    for seed in range(8):
        m = in_play(fmt, seed, 12, frozenset({0, 1}))
        view = seat_view(m, m.to_act)
        assert PlayModel(view, 1.0, 1.0, frozenset({0, 1})).exclusions == (0, 0)


def test_exclusions_grow_as_greedy_seats_play() -> None:
    """Six seats, three teams of two (V5), all greedy: by the fourth trick the model knows
    cards the opponents cannot hold, and the deals it draws place the opponents' cards right
    more often than deals drawn without it."""
    fmt = FORMATS["six_pairs"]
    everyone = frozenset(range(fmt.seats))
    right_plain = right_known = 0
    for seed in range(6):
        m = in_play(fmt, seed, 4 * fmt.seats, everyone)
        view = seat_view(m, m.to_act)
        others = everyone - {view.seat}
        model = PlayModel(view, 1.0, 1.0, others)
        assert any(model.exclusions)
        know = knowledge(view)
        truth = [to_rm(m.hand_of(s)) for s in range(fmt.seats)]
        rng = random.Random(seed)
        plain, known = Sampler(know), Sampler(know, None, model.exclusions)
        for _ in range(40):
            a, b = plain.sample(rng), known.sample(rng)
            right_plain += sum((a[s] & truth[s]).bit_count() for s in others)
            right_known += sum((b[s] & truth[s]).bit_count() for s in others)
    assert right_known > right_plain * 1.1


def test_a_seat_that_did_not_play_greedily_is_not_believed() -> None:
    """Seats said to be greedy but playing at random: where a later card contradicts an
    earlier one's telltale, that seat gets no exclusions and its telltales are weighed softly
    instead; the search still plays legal cards (with no deal agreeing, it draws without
    them)."""
    fmt = FORMATS["standard"]
    contradicted = 0
    for seed in range(40):
        m = in_play(fmt, seed, 30, frozenset())  # nobody greedy
        view = seat_view(m, m.to_act)
        said = frozenset(range(4)) - {view.seat}
        model = PlayModel(view, 0.5, 0.5, said)
        weighed = {seat for seat, _, _ in model._checks}  # only a contradicted seat's
        for s in said:
            if s in weighed:
                assert model.exclusions[s] == 0
                contradicted += 1
        player = SearchPlayer(seed, TINY, greedy_seats=said)
        assert player.choose_card(view) in view.legal
    assert contradicted > 0


@fast
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 2**40), plays=st.integers(0, 60))
def test_search_with_greedy_seats_is_legal_and_reproducible(
    name: str, seed: int, plays: int
) -> None:
    fmt = FORMATS[name]
    rng = random.Random(seed)
    greedy = frozenset(s for s in range(fmt.seats) if rng.random() < 0.5)
    m = in_play(fmt, seed, plays, greedy)
    view = seat_view(m, m.to_act)
    said = greedy - {view.seat}
    first = SearchPlayer(seed, TINY, greedy_seats=said).choose_card(view)
    assert first in view.legal
    assert SearchPlayer(seed, TINY, greedy_seats=said).choose_card(view) == first


@pytest.mark.parametrize("name", NAMES)
def test_without_greedy_seats_nothing_changes(name: str) -> None:
    """No seat said greedy is the default: no exclusions, and the same cards as a player
    built without the argument, at every decision of a first hand. (That the default plays as
    before the option existed was checked on the arena: docs/experiments/six-pairs-greedy-seats.md.)"""
    fmt = FORMATS[name]
    m = in_play(fmt, 5, 0, frozenset())
    settings_ = SearchSettings(card_budget=300, min_deals=2, max_deals=4)
    a = SearchPlayer(9, settings_)
    b = SearchPlayer(9, settings_, greedy_seats=frozenset())
    while m.phase == PLAY and m.hand_number == 1:
        view = seat_view(m, m.to_act)
        assert PlayModel(view, 0.3, 0.5).exclusions == (0,) * fmt.seats
        card = a.choose_card(view)
        assert b.choose_card(view) == card
        m.play(m.to_act, card)
