"""Every decision of a played hand against the double-dummy solver
(``engine.dd_analysis``): each legal card's outcome, the best cards and what the card played
cost its side."""

from __future__ import annotations

import random

import pytest

from engine import IllegalMove
from engine.dd_analysis import analyse_hand
from engine.dd_position import COVERED, InvalidPosition, Position
from engine.dd_reference import minimax
from engine.dd_rules import legal_cards, step
from engine.dd_samples import random_end
from engine.dd_value import Outcome
from engine.rules import FORMATS

from .dd_helpers import late_deal


def random_play(rng: random.Random, start: Position) -> list[int]:
    """Random legal cards from ``start`` to the hand's end."""
    cards: list[int] = []
    at: Position | Outcome = start
    while isinstance(at, Position):
        card = rng.choice(legal_cards(at.hands[at.to_play], at.trick, at.trump))
        cards.append(card)
        at = step(at, card)
    return cards


@pytest.mark.parametrize("name", COVERED)
def test_each_decision_is_valued_as_a_plain_minimax_values_it(name: str) -> None:
    fmt = FORMATS[name]
    rng = random.Random(f"dd-analysis-{name}")
    for _ in range(4):
        start = random_end(rng, fmt, 3)
        cards = random_play(rng, start)
        decisions = analyse_hand(start, cards)
        assert [d.card for d in decisions] == cards
        for d in decisions:
            for card, got in d.values.items():
                nxt = step(d.position, card)
                assert got == (nxt if isinstance(nxt, Outcome) else minimax(nxt))
            assert d.best == minimax(d.position)
            for card in d.worse:  # shown worse, not valued: truly below the best
                nxt = step(d.position, card)
                got = nxt if isinstance(nxt, Outcome) else minimax(nxt)
                assert got.score_for(d.side) < d.best.score_for(d.side)
            assert d.card in d.values
            assert all(d.values[c] == d.best for c in d.best_cards)
            assert (d.cost == (0, 0)) == (d.card in d.best_cards)
            assert d.cost >= (0, 0)
            p = d.position
            assert d.legal == len(legal_cards(p.hands[p.to_play], p.trick, p.trump))
            assert d.forced == (d.legal == 1)


def test_cost_is_what_the_card_gave_away() -> None:
    """A losing card's cost is its side's points and tricks below the best outcome."""
    rng = random.Random("dd-analysis-cost")
    seen = 0
    for _ in range(40):
        start = late_deal(rng, FORMATS["standard"], 5)
        for d in analyse_hand(start, random_play(rng, start)):
            if d.cost != (0, 0):
                seen += 1
                best, got = d.best.score_for(d.side), d.outcome.score_for(d.side)
                assert d.cost == (best[0] - got[0], best[1] - got[1])
                assert got < best
    assert seen


def test_an_illegal_card_is_refused() -> None:
    rng = random.Random("dd-analysis-refusal")
    start = late_deal(rng, FORMATS["standard"], 4)
    cards = random_play(rng, start)
    seat_hand = start.hands[start.to_play]
    other = next(c for c in range(52) if not seat_hand >> c & 1)
    with pytest.raises(IllegalMove):
        analyse_hand(start, [other])
    with pytest.raises(InvalidPosition) as caught:
        analyse_hand(start, [*cards, cards[0]])
    assert caught.value.problem == "hand_over"
