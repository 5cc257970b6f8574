"""Double-dummy puzzles from played hands: the decisions where one card alone kept
the best outcome.

A decision of an analysed hand (``engine.dd_analysis``) is a puzzle when the seat had at least
``MIN_CHOICES`` legal cards and exactly one of them keeps the best outcome with every hand known
(points, then tricks: ``Outcome.score``), late enough in the hand that a person can read every
hand at once (``MAX_CARDS`` a seat, ``MAX_HELD`` in all) and the solver re-checks it in
milliseconds. A puzzle keeps
its position, the one card, what every legal card leads to and the line of best play that
follows the card; ``check`` solves the position again before it is shown, so a stored puzzle
whose answer the solver no longer gives is never offered. Everything here is deterministic.

A puzzle goes to and from JSON-able data (``to_dict``, ``from_dict``); reading one back checks
every field and the position itself (``Position``), so stored data that is not a puzzle is
refused with ``InvalidPosition``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from .dd import Solver, lane_card
from .dd_analysis import Decision
from .dd_position import InvalidPosition, Position
from .dd_rules import legal_cards, step
from .dd_value import Outcome
from .errors import IllegalMove
from .rules import hokm_format

MIN_CHOICES: Final = 3
"""Legal cards a seat must have had: with two, a coin toss finds the answer half the time."""

MAX_CARDS: Final = 8
"""Cards a seat at most: every hand fits one screen, and the solver re-checks the position in
milliseconds (a whole 13-card deal can take seconds)."""

MAX_HELD: Final = 32
"""Cards in every hand together at most (four seats of 8, six of 5): at six seats, positions of
8 cards a seat took the solver up to a second or two to check again."""

PUZZLE_VERSION: Final = 1


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One position with exactly one best card, and what every legal card leads to."""

    position: Position
    answer: int
    """The one legal card that keeps the best outcome."""
    played: int
    """The card the seat played in the match."""
    values: Mapping[int, Outcome]
    """Each legal card's outcome under best play by everyone afterwards."""
    line: tuple[int, ...]
    """The cards after ``answer`` under best play, to the hand's end (``best_line``)."""

    @property
    def best(self) -> Outcome:
        return self.values[self.answer]

    @property
    def side(self) -> int:
        """The side of the seat to play."""
        return self.position.fmt.team_of[self.position.to_play]

    def is_answer(self, card: int) -> bool:
        return card == self.answer

    def to_dict(self) -> dict[str, Any]:
        return {
            "v": PUZZLE_VERSION,
            "position": position_to_dict(self.position),
            "answer": self.answer,
            "played": self.played,
            "values": [[card, _outcome_to_list(out)] for card, out in sorted(self.values.items())],
            "line": list(self.line),
        }


def only_card(values: Mapping[int, Outcome], side: int) -> int | None:
    """The one card whose outcome is best for ``side``, or None when two or more tie."""
    if not values:
        return None
    best = max(out.score_for(side) for out in values.values())
    cards = [c for c, out in values.items() if out.score_for(side) == best]
    return cards[0] if len(cards) == 1 else None


def is_candidate(decision: Decision) -> bool:
    """A decision that makes a puzzle: enough choice, one best card, a readable position."""
    p = decision.position
    if decision.legal < MIN_CHOICES or p.hands[p.to_play].bit_count() > MAX_CARDS:
        return False
    if sum(hand.bit_count() for hand in p.hands) > MAX_HELD:
        return False
    return len(decision.best_cards) == 1


def candidates(decisions: Iterable[Decision], solver: Solver | None = None) -> list[Puzzle]:
    """The puzzles among a hand's analysed decisions, in play order, each with its line and
    every legal card's outcome (the analysis only showed the worse ones to be worse)."""
    out: list[Puzzle] = []
    for d in decisions:
        if not is_candidate(d):
            continue
        solver = solver or Solver(d.position.fmt, d.position.trump)
        values = solver.card_values(d.position, d.best) if d.worse else dict(d.values)
        answer = only_card(values, d.side)
        assert answer is not None
        line = best_line(d.position, answer, solver)
        out.append(Puzzle(d.position, answer, d.card, values, line))
    return out


def check(puzzle: Puzzle, solver: Solver | None = None) -> bool:
    """Solve the puzzle's position again: True when the solver still finds exactly its answer
    and the same outcome for every legal card (what is shown after a click)."""
    p = puzzle.position
    solver = solver or Solver(p.fmt, p.trump)
    values = solver.card_values(p)
    if len(values) < MIN_CHOICES or dict(values) != dict(puzzle.values):
        return False
    return only_card(values, puzzle.side) == puzzle.answer


def best_line(p: Position, card: int, solver: Solver | None = None) -> tuple[int, ...]:
    """The cards that follow ``card`` from ``p`` to the hand's end when every seat plays a
    card keeping its best outcome (of several such, the lowest: one line, always the same)."""
    solver = solver or Solver(p.fmt, p.trump)
    line: list[int] = []
    at = step(p, card)
    while isinstance(at, Position):
        legal = legal_cards(at.hands[at.to_play], at.trick, at.trump)
        if len(legal) == 1:
            pick = legal[0]
        else:
            values = solver.card_values(at)
            side = at.fmt.team_of[at.to_play]
            best = max(out.score_for(side) for out in values.values())
            keep = [c for c, out in values.items() if out.score_for(side) == best]
            trump = p.trump
            pick = min(keep, key=lambda c: lane_card(c, trump)[::-1])
        line.append(pick)
        at = step(at, pick)
    return tuple(line)


def position_to_dict(p: Position) -> dict[str, Any]:
    """A position as JSON-able data (``position_from_dict`` reads it back)."""
    return {
        "format": p.fmt.name,
        "trump": p.trump,
        "hands": list(p.hands),
        "leader": p.leader,
        "tricks": list(p.tricks),
        "hakem": p.hakem,
        "trick": list(p.trick),
        "bid": p.bid,
        "first": p.first,
    }


def position_from_dict(data: object) -> Position:
    """``position_to_dict`` undone, every field checked (``InvalidPosition`` says which)."""
    if not isinstance(data, dict):
        raise InvalidPosition("data", "a position is a mapping")
    fmt = hokm_format(data.get("format"))
    if fmt is None:
        raise InvalidPosition("format", f"unknown format {data.get('format')!r}")
    hands, tricks, trick = data.get("hands"), data.get("tricks"), data.get("trick")
    if not all(isinstance(x, list) for x in (hands, tricks, trick)):
        raise InvalidPosition("data", "hands, tricks and trick are lists")
    assert isinstance(hands, list) and isinstance(tricks, list) and isinstance(trick, list)
    numbers = [data.get(k) for k in ("trump", "leader", "hakem", "bid", "first")]
    if not all(_int(x) for x in (*numbers, *hands, *tricks, *trick)):
        raise InvalidPosition("data", "a position's fields are whole numbers")
    trump, leader, hakem, bid, first = (int(x) for x in numbers)  # type: ignore[arg-type]
    return Position(
        fmt, trump, tuple(hands), leader, tuple(tricks), hakem, tuple(trick), bid, first
    )


def from_dict(data: object) -> Puzzle:
    """A stored puzzle read back and checked: its position, its cards legal there, its answer
    the one best card of its values, its line playable (``InvalidPosition`` otherwise)."""
    if not isinstance(data, dict) or data.get("v") != PUZZLE_VERSION:
        raise InvalidPosition("data", "not a puzzle of this version")
    p = position_from_dict(data.get("position"))
    answer, played, raw, line = (data.get(k) for k in ("answer", "played", "values", "line"))
    if not _int(answer) or not _int(played) or not isinstance(raw, list):
        raise InvalidPosition("data", "a puzzle needs its answer, card played and values")
    if not isinstance(line, list) or not all(_int(c) for c in line):
        raise InvalidPosition("data", "a puzzle's line is a list of cards")
    values: dict[int, Outcome] = {}
    for item in raw:
        if not isinstance(item, list) or len(item) != 2 or not _int(item[0]):
            raise InvalidPosition("data", "a value is [card, outcome]")
        values[item[0]] = _outcome_from_list(item[1])
    legal = legal_cards(p.hands[p.to_play], p.trick, p.trump)
    if sorted(values) != sorted(legal) or played not in values:
        raise InvalidPosition("data", "a puzzle's values are its legal cards'")
    puzzle = Puzzle(p, answer, played, values, tuple(line))  # type: ignore[arg-type]
    if only_card(values, puzzle.side) != answer:
        raise InvalidPosition("data", "the answer is not the one best card")
    try:
        at: Position | Outcome = step(p, answer)  # type: ignore[arg-type]
        for card in puzzle.line:
            if not isinstance(at, Position):
                raise InvalidPosition("data", "the line goes past the hand's end")
            at = step(at, card)
    except IllegalMove as exc:
        raise InvalidPosition("data", f"a card of the line is not legal: {exc}") from None
    if isinstance(at, Position):
        raise InvalidPosition("data", "the line stops before the hand's end")
    return puzzle


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _outcome_to_list(out: Outcome) -> list[Any]:
    return [out.tricks[0], out.tricks[1], out.winner, out.points, out.kind]


def _outcome_from_list(data: object) -> Outcome:
    if (
        not isinstance(data, list)
        or len(data) != 5
        or not all(_int(x) for x in data[:4])
        or not isinstance(data[4], str)
    ):
        raise InvalidPosition("data", "an outcome is [tricks, tricks, winner, points, kind]")
    return Outcome((data[0], data[1]), data[2], data[3], data[4])
