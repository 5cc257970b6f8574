"""Double-dummy puzzles from played hands (``engine.dd_puzzles``): the decisions where
one card alone keeps the best outcome, their line of best play, the re-check before a puzzle is
shown, and stored puzzles read back strictly."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from engine.dd_analysis import analyse_hand
from engine.dd_position import COVERED, InvalidPosition, Position
from engine.dd_puzzles import (
    MAX_CARDS,
    MAX_HELD,
    MIN_CHOICES,
    Puzzle,
    best_line,
    candidates,
    check,
    from_dict,
    position_from_dict,
    position_to_dict,
)
from engine.dd_reference import minimax
from engine.dd_rules import legal_cards, step
from engine.dd_value import Outcome
from engine.rules import FORMATS

from .dd_helpers import late_deal
from .test_dd_analysis import random_play


def _puzzles(name: str, count: int, cards: int = 4) -> list[Puzzle]:
    """Puzzles of random hands of ``name`` played at random from ``cards`` cards a seat."""
    fmt = FORMATS[name]
    rng = random.Random(f"dd-puzzles-{name}")
    found: list[Puzzle] = []
    for _ in range(200):
        start = late_deal(rng, fmt, cards)
        found += candidates(analyse_hand(start, random_play(rng, start)))
        if len(found) >= count:
            break
    assert found, f"no puzzle in 200 random {name} hands"
    return found


@pytest.mark.parametrize("name", COVERED)
def test_a_puzzle_has_one_best_card_as_a_plain_minimax_says(name: str) -> None:
    for puzzle in _puzzles(name, 6):
        p = puzzle.position
        legal = legal_cards(p.hands[p.to_play], p.trick, p.trump)
        assert len(legal) >= MIN_CHOICES
        assert p.hands[p.to_play].bit_count() <= MAX_CARDS
        assert sum(hand.bit_count() for hand in p.hands) <= MAX_HELD
        side = puzzle.side
        exact: dict[int, Outcome] = {}
        for card in legal:
            nxt = step(p, card)
            exact[card] = nxt if isinstance(nxt, Outcome) else minimax(nxt)
        assert exact == dict(puzzle.values)
        best = max(out.score_for(side) for out in exact.values())
        assert [c for c in legal if exact[c].score_for(side) == best] == [puzzle.answer]


@pytest.mark.parametrize("name", COVERED)
def test_the_line_keeps_the_best_outcome_to_the_hands_end(name: str) -> None:
    for puzzle in _puzzles(name, 4):
        at: Position | Outcome = step(puzzle.position, puzzle.answer)
        for card in puzzle.line:
            assert isinstance(at, Position)
            assert minimax(at) == puzzle.best  # every card of the line keeps the value
            at = step(at, card)
        assert at == puzzle.best
        assert best_line(puzzle.position, puzzle.answer) == puzzle.line  # always the same


def test_decisions_with_two_choices_or_big_hands_are_no_puzzles() -> None:
    rng = random.Random("dd-puzzles-filter")
    fmt = FORMATS["standard"]
    seen_small = seen_big = 0
    for _ in range(30):
        start = late_deal(rng, fmt, 9)
        decisions = analyse_hand(start, random_play(rng, start))
        kept = [p.position for p in candidates(decisions)]
        for d in decisions:
            if len(d.best_cards) != 1:
                continue
            held = sum(hand.bit_count() for hand in d.position.hands)
            big = d.position.hands[d.seat].bit_count() > MAX_CARDS or held > MAX_HELD
            small = d.legal < MIN_CHOICES
            seen_small += small
            seen_big += big and not small
            assert (d.position in kept) == (not big and not small)
    assert seen_small and seen_big


def test_check_re_solves_the_position() -> None:
    puzzle = _puzzles("standard", 1)[0]
    assert check(puzzle)
    other = next(c for c in puzzle.values if c != puzzle.answer)
    values = dict(puzzle.values)
    values[other], values[puzzle.answer] = values[puzzle.answer], values[other]
    forged = Puzzle(puzzle.position, other, puzzle.played, values, puzzle.line)
    assert not check(forged)  # the solver gives another answer than the stored one


def test_a_puzzle_round_trips_through_json() -> None:
    for name in COVERED:
        for puzzle in _puzzles(name, 3):
            data = puzzle.to_dict()
            assert from_dict(copy.deepcopy(data)) == puzzle
            assert position_from_dict(position_to_dict(puzzle.position)) == puzzle.position


def _tamper(data: dict[str, Any], how: str) -> None:
    pos = data["position"]
    if how == "version":
        data["v"] = 99
    elif how == "answer":
        data["answer"] = next(c for c, _ in data["values"] if c != data["answer"])
    elif how == "bool":
        pos["trump"] = True
    elif how == "duplicate":
        pos["hands"][1] |= pos["hands"][0] & -pos["hands"][0]
    elif how == "format":
        pos["format"] = "three"
    elif how == "short_line":
        data["line"] = data["line"][:-1]
    elif how == "long_line":
        data["line"] = [*data["line"], data["line"][-1]]
    elif how == "values":
        data["values"] = data["values"][1:]
    elif how == "outcome":
        data["values"][0][1] = [1, 2, 3]
    elif how == "hands":
        pos["hands"] = "all"


@pytest.mark.parametrize(
    "how",
    [
        "version",
        "answer",
        "bool",
        "duplicate",
        "format",
        "short_line",
        "long_line",
        "values",
        "outcome",
        "hands",
    ],
)
def test_a_tampered_puzzle_is_refused(how: str) -> None:
    puzzle = next(p for p in _puzzles("standard", 4) if len(p.line) >= 2)
    data = puzzle.to_dict()
    _tamper(data, how)
    with pytest.raises(InvalidPosition):
        from_dict(data)
