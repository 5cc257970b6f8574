"""EXACTNESS, the suite's short form of ``bench/dd_check.py``: the double-dummy
solver against a plain minimax (no pruning, no table) on 300 random end positions of every
format it covers, and on 10 deals late in a hand against itself with each speed-up turned
off in turn. The long runs (10,000 end positions, 500 whole deals) are the bench's.

The plain Python search is what is checked here (``native=False``), whether or not a
compiled copy was built; when one was, it is checked against the plain one too.
"""

from __future__ import annotations

import random

import pytest

from engine import ANY_CARDS, parse_cards
from engine.dd import Solver
from engine.dd_position import COVERED, Position
from engine.dd_reference import minimax
from engine.dd_rules import legal_cards, step
from engine.dd_samples import random_end
from engine.dd_search import ALL, NAMES, NATIVE
from engine.dd_value import Outcome
from engine.rules import FORMATS

from .dd_helpers import late_deal


@pytest.mark.parametrize("name", COVERED)
def test_end_positions_match_a_plain_minimax(name: str) -> None:
    """75 end positions a format (300 in all): 1–4 cards a seat (1–3 at six seats)."""
    fmt = FORMATS[name]
    rng = random.Random(f"dd-exact-{name}")
    for i in range(75):
        p = random_end(rng, fmt, 3 if fmt.seats > 4 else 4)
        want = minimax(p)
        assert Solver(fmt, p.trump, native=False).value(p) == want, (i, p)
        if NATIVE is not None:
            assert Solver(fmt, p.trump, native=True).value(p) == want, (i, p)


def test_both_jokers_left_match_a_plain_minimax() -> None:
    """V5 joker six, 40 end positions with both jokers still held: the red burnt when it
    falls before the black, in a lead or a follow, in a trick or across tricks."""
    fmt = FORMATS["joker_six"]
    rng = random.Random("dd-exact-jokers")
    done = 0
    while done < 40:
        p = random_end(rng, fmt, 3)
        if not all(any(h >> joker & 1 for h in p.hands) for joker in (52, 53)):
            continue
        done += 1
        assert Solver(fmt, p.trump, native=False).value(p) == minimax(p), p


@pytest.mark.parametrize("name", COVERED)
def test_card_values_match_a_plain_minimax(name: str) -> None:
    """Every legal card's outcome (what the analysis shows) on 60 end positions a format."""
    fmt = FORMATS[name]
    rng = random.Random(f"dd-cards-{name}")
    for _ in range(60):
        p = random_end(rng, fmt, 3 if fmt.seats > 4 else 4)
        values = Solver(fmt, p.trump, native=False).card_values(p)
        for card, got in values.items():
            nxt = step(p, card)
            want = nxt if isinstance(nxt, Outcome) else minimax(nxt)
            assert got == want, (p, card)


@pytest.mark.parametrize("name", COVERED)
def test_grades_match_a_plain_minimax(name: str) -> None:
    """What grading a decision needs (``Solver.grades``) on 60 end positions a format: the
    value, every card that keeps it and the card asked for exactly, every other legal card
    truly worse for the seat's side, each legal card in one or the other."""
    fmt = FORMATS[name]
    rng = random.Random(f"dd-grades-{name}")
    seen_worse = 0
    for _ in range(60):
        p = random_end(rng, fmt, 3 if fmt.seats > 4 else 4)
        legal = legal_cards(p.hands[p.to_play], p.trick, p.trump)
        asked = rng.choice(legal)
        grades = Solver(fmt, p.trump, native=False).grades(p, exact=(asked,))
        side = fmt.team_of[p.to_play]
        assert grades.value == minimax(p), p
        assert sorted([*grades.exact, *grades.worse]) == sorted(legal)
        assert asked in grades.exact
        for card in legal:
            nxt = step(p, card)
            want = nxt if isinstance(nxt, Outcome) else minimax(nxt)
            if card in grades.worse:
                assert want.score_for(side) < grades.value.score_for(side), (p, card)
            else:
                assert grades.exact[card] == want, (p, card)
        keeping = [c for c in legal if c not in grades.worse and grades.exact[c] == grades.value]
        assert keeping  # the value is some card's
        seen_worse += bool(grades.worse)
    assert seen_worse  # the race alone decided some cards


def test_a_card_ending_the_trick_names_its_winner() -> None:
    """Seat 0 ends a trick of 9♥ (led), 2♠, J♥: the 3♥ and the 10♥ lose to the J♥ (7–6),
    the Q♥ takes it (7–4). The 3♥'s answer rests on the J♥ beating a heart, so the Q♥ above
    it is no small card standing in for the 3♥ (a regression: it was valued 7–6)."""
    hands = (mask("3H 10H QH"), mask("AS KD"), mask("7S QC"), mask("3S 6C"))
    trick = tuple(parse_cards("9H 2S JH"))
    p = Position(FORMATS["standard"], 3, hands, 1, (6, 4), 3, trick)
    values = Solver(p.fmt, p.trump, native=False).card_values(p)
    assert {ANY_CARDS[c].code: v.tricks for c, v in values.items()} == {
        "3H": (7, 6),
        "10H": (7, 6),
        "QH": (7, 4),
    }


def mask(text: str) -> int:
    out = 0
    for card in parse_cards(text):
        out |= 1 << card
    return out


#: Ten deals late in a hand, the tricks before split evenly: (format, cards a seat, count).
LATE = (("standard", 8, 3), ("two", 11, 2), ("six_teams", 6, 3), ("joker_six", 6, 2))


@pytest.mark.parametrize(("name", "cards", "count"), LATE)
def test_each_speedup_off_changes_nothing(name: str, cards: int, count: int) -> None:
    fmt = FORMATS[name]
    rng = random.Random(f"dd-speedups-{name}")
    for _ in range(count):
        p = late_deal(rng, fmt, cards)
        want = Solver(fmt, p.trump, native=False).value(p)
        for speedup in NAMES:
            solver = Solver(fmt, p.trump, ALL.without(speedup), native=False)
            assert solver.value(p) == want, (speedup, p)
        if NATIVE is not None:
            assert Solver(fmt, p.trump, native=True).value(p) == want, p


def test_the_solver_is_deterministic() -> None:
    """The same position, the same answer and the same work, twice."""
    p = late_deal(random.Random(7), FORMATS["standard"], 8)
    first, second = Solver(p.fmt, p.trump, native=False), Solver(p.fmt, p.trump, native=False)
    assert first.value(p) == second.value(p)
    assert first.nodes == second.nodes > 0
