"""Every decision of a played hand against the double-dummy solver, and a finished
match graded from its record (``analyse_match``: the bot stores its ``MatchAnalysis``).

What a bridge site shows a player after a hand: for each card played, what it led to with
every hand known and best play from then on, against the best any legal card could reach, so
a card that cost its side something is marked with what it cost and the cards that kept the
best. ``analyse_hand`` takes the position at the hand's first lead (or any later one) and the
cards played from there; one ``Solver`` is shared by every decision, so the later positions
reuse the earlier searches.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from .cards import ANY_CARDS, BY_CODE
from .dd import Solver
from .dd_position import COVERED, InvalidPosition, Position
from .dd_rules import legal_cards, step
from .dd_value import Outcome
from .rules import GameFormat, hokm_format
from .story import HandStory, story

KINDS: Final = frozenset({"win", "kot", "hakem_kot", "made", "set"})
"""The kinds of outcome the solver gives (``dd_value.final``)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One card of the hand: the position before it, the card, and the legal cards' outcomes
    (best play by everyone afterwards) as grading needs them (``Solver.grades``)."""

    position: Position
    card: int
    values: dict[int, Outcome]
    """The outcomes found exactly: every card that keeps the best, and the card played."""
    worse: frozenset[int] = frozenset()
    """The other legal cards: shown to do worse than the best, their outcomes not sought."""

    @property
    def seat(self) -> int:
        return self.position.to_play

    @property
    def side(self) -> int:
        return self.position.fmt.team_of[self.seat]

    @property
    def best(self) -> Outcome:
        """The best outcome the seat could still reach: the position's value."""
        return max(self.values.values(), key=lambda out: out.score_for(self.side))

    @property
    def best_cards(self) -> tuple[int, ...]:
        """The legal cards that keep the best outcome."""
        best = self.best
        return tuple(sorted(c for c, out in self.values.items() if out == best))

    @property
    def outcome(self) -> Outcome:
        """The outcome after the card played."""
        return self.values[self.card]

    @property
    def cost(self) -> tuple[int, int]:
        """What the card played cost its side against the best card: points of the hand,
        then tricks (``Outcome.score``); ``(0, 0)`` for a best card."""
        best = self.best.score_for(self.side)
        got = self.outcome.score_for(self.side)
        return best[0] - got[0], best[1] - got[1]

    @property
    def legal(self) -> int:
        """How many legal cards the seat had."""
        return len(self.values) + len(self.worse)

    @property
    def forced(self) -> bool:
        """Only one legal card (nothing to decide)."""
        return self.legal == 1


def analyse_hand(
    start: Position, cards: Sequence[int], solver: Solver | None = None
) -> list[Decision]:
    """The decisions of the cards played from ``start`` on, in order (a card that is not
    legal is refused with the engine's ``IllegalMove``, a card after the hand's end with
    ``InvalidPosition``). A card not played that does worse than the best is only shown to do
    worse (``Decision.worse``): no grade uses its own outcome, which would cost a climb down
    the ladder of races for each such card (``Solver.card_values`` gives it where wanted)."""
    solver = solver or Solver(start.fmt, start.trump)
    out: list[Decision] = []
    position: Position | Outcome = start
    value: Outcome | None = None
    for k, card in enumerate(cards):
        if isinstance(position, Outcome):
            raise InvalidPosition("hand_over", f"card {k + 1} comes after the hand's end")
        legal = legal_cards(position.hands[position.to_play], position.trick, position.trump)
        if len(legal) == 1 and value is not None:
            decision = Decision(position, card, {legal[0]: value})
        else:
            grades = solver.grades(position, value, (card,))
            decision = Decision(position, card, grades.exact, grades.worse)
        nxt = step(position, card)  # refuses an illegal card
        out.append(decision)
        value = decision.values[card]
        position = nxt
    return out


# ---------------------------------------------------------------- a finished match, graded

ANALYSIS_VERSION: Final = 1
"""The stored form's version (``MatchAnalysis.to_dict``)."""

SOLVER_VERSION: Final = 2
"""The solver's version a stored analysis was graded by (kept beside it, not in its form):
raised when a fix could change a grade, so that the analyses an older solver made are made
again (``python -m bot --analyse-missing`` and the start-up catch-up). 2: a table entry no
longer answers for a run of equal cards the search tried as one (``dd_core.run_below``)."""

NOT_COVERED: Final = "format"
"""``MatchAnalysis.skipped``: the format has more than two sides (docs/rules.md, "Double
dummy"): best play by everyone is not one value, so nothing is graded."""
BAM_HAND: Final = "bam"
"""``HandAnalysis.skipped`` of an analysis stored before bam hands were graded up to the bam:
a bam (V1) was declared and nothing of the hand was graded (still read back)."""
AFTER_BAM: Final = "after_bam"
"""``HandAnalysis.skipped``: a bam (V1) was declared after the hand's seventh trick. The cards
up to it are graded (the hand's value as R10 ends it; ``played`` is the outcome then); the
cards after it are not: the solver's hand ends at that trick (a position past it is refused),
and what a bam is worth is the match's score, not the cards'."""


@dataclass(frozen=True, slots=True)
class Graded:
    """One card decision of a finished hand, with every hand known: the card played, how many
    legal cards there were, the cards that kept the best outcome, the outcome after the card
    played and the best one (best play by everyone afterwards)."""

    index: int
    """The card's place in the hand's play, from 0 (trick ``index // seats``)."""
    seat: int
    card: int
    legal: int
    best_cards: tuple[int, ...]
    outcome: Outcome
    best: Outcome
    side: int

    @property
    def cost(self) -> tuple[int, int]:
        """Points of the hand, then tricks, the card cost its side; ``(0, 0)`` kept the best."""
        best, got = self.best.score_for(self.side), self.outcome.score_for(self.side)
        return best[0] - got[0], best[1] - got[1]

    @property
    def kept(self) -> bool:
        return self.cost == (0, 0)

    @property
    def costly(self) -> bool:
        """The card cost points of the hand (a won hand lost, a kot missed): marked in the
        Replay with the best card beside it."""
        return self.cost[0] > 0


@dataclass(frozen=True, slots=True)
class TrumpGrade:
    """The hakem's trump against every other (each solved from the first lead)."""

    seat: int
    side: int
    chosen: int
    outcomes: tuple[Outcome, ...]
    """The outcome with each suit as trump, by suit number."""

    @property
    def best(self) -> Outcome:
        return max(self.outcomes, key=lambda out: out.score_for(self.side))

    @property
    def best_trumps(self) -> tuple[int, ...]:
        return tuple(s for s, out in enumerate(self.outcomes) if out == self.best)

    @property
    def cost(self) -> tuple[int, int]:
        best = self.best.score_for(self.side)
        got = self.outcomes[self.chosen].score_for(self.side)
        return best[0] - got[0], best[1] - got[1]

    @property
    def kept(self) -> bool:
        return self.cost == (0, 0)


@dataclass(frozen=True, slots=True)
class HandAnalysis:
    """One played hand: its value at the first lead, what was played, every decision."""

    number: int
    hakem: int
    trump: int
    best: Outcome | None
    """The hand's value with every hand known at the first lead (``None``: skipped)."""
    played: Outcome | None
    trumps: TrumpGrade | None
    decisions: tuple[Graded, ...]
    skipped: str = ""


@dataclass(frozen=True, slots=True)
class SeatGrade:
    """A seat's decisions over a match: how many, how many kept the best outcome, the
    costliest (its hand number and the card's decision, or the trump's)."""

    decisions: int
    kept: int
    costliest: tuple[int, Graded | TrumpGrade] | None

    @property
    def accuracy(self) -> float:
        return self.kept / self.decisions if self.decisions else 1.0


@dataclass(frozen=True, slots=True)
class MatchAnalysis:
    """Every hand of a finished match graded with every hand known; ``skipped``
    ``NOT_COVERED`` for a format the solver does not value (no hands then)."""

    fmt: str
    hands: tuple[HandAnalysis, ...]
    skipped: str = ""

    def seat_grade(self, seat: int) -> SeatGrade:
        """A seat's accuracy over its decisions with a choice (two legal cards or more, and
        the trump it named) and its costliest one (points first, then tricks; the first)."""
        decisions = kept = 0
        worst: tuple[int, Graded | TrumpGrade] | None = None
        worst_cost = (0, 0)
        for hand in self.hands:
            graded: list[Graded | TrumpGrade] = []
            if hand.trumps is not None and hand.trumps.seat == seat:
                graded.append(hand.trumps)
            graded += [d for d in hand.decisions if d.seat == seat and d.legal > 1]
            for g in graded:
                decisions += 1
                kept += g.kept
                if g.cost > worst_cost:
                    worst, worst_cost = (hand.number, g), g.cost
        return SeatGrade(decisions, kept, worst)

    def to_dict(self) -> dict[str, Any]:
        """The stored form: JSON-able, cards by their codes."""
        return {
            "v": ANALYSIS_VERSION,
            "format": self.fmt,
            "skipped": self.skipped,
            "hands": [_hand_to_json(h) for h in self.hands],
        }

    @classmethod
    def from_dict(cls, data: object) -> MatchAnalysis:
        """``to_dict`` read back; ``ValueError`` for anything else (a stored row is checked,
        never trusted)."""
        if not isinstance(data, dict) or data.get("v") != ANALYSIS_VERSION:
            raise ValueError("not a match analysis of this version")
        name, hands, skipped = data.get("format"), data.get("hands"), data.get("skipped")
        if skipped == NOT_COVERED and isinstance(name, str) and name and hands == []:
            return cls(name, (), NOT_COVERED)  # any game the solver does not value (Shelem)
        fmt = hokm_format(name)
        if fmt is None or not isinstance(hands, list) or skipped != "":
            raise ValueError("a match analysis needs its format, hands and skipped")
        try:
            return cls(fmt.name, tuple(_hand_from_json(fmt, h) for h in hands), skipped)
        except (TypeError, KeyError, IndexError) as exc:
            raise ValueError(f"not a match analysis: {exc}") from exc


def analyse_match(record: object, solver_for: SolverFactory | None = None) -> MatchAnalysis:
    """Grade every decision of a finished match's ``engine.story.record`` with every hand
    known: each hand's cards (``analyse_hand``) and its hakem's trump (the value of the first
    lead with each suit as trump). ``InvalidState`` when the record does not replay."""
    return analyse_match_decisions(record, solver_for)[0]


def analyse_match_decisions(
    record: object, solver_for: SolverFactory | None = None
) -> tuple[MatchAnalysis, tuple[tuple[Decision, ...], ...]]:
    """``analyse_match``, and every graded hand's ``Decision``s with their positions (what
    ``engine.dd_puzzles`` finds puzzles in)."""
    told = story(record)
    fmt = told.fmt
    if fmt.name not in COVERED:
        return MatchAnalysis(fmt.name, (), NOT_COVERED), ()
    make = solver_for or Solver
    hands: list[HandAnalysis] = []
    decided: list[tuple[Decision, ...]] = []
    for hand in told.hands:
        graded, decisions = _analyse(fmt, hand, make)
        hands.append(graded)
        if decisions:
            decided.append(decisions)
    return MatchAnalysis(fmt.name, tuple(hands)), tuple(decided)


SolverFactory = Callable[[GameFormat, int], Solver]


def _grades_trump(fmt: GameFormat) -> bool:
    """V2 (two) is not graded: its hands are drawn after trump is named, each player keeping
    cards for that trump, so the same hands under another trump are not what that trump led
    to, and the draw's choices are beyond the solver (docs/rules.md)."""
    return not fmt.discards


def _analyse(
    fmt: GameFormat, hand: HandStory, make: SolverFactory
) -> tuple[HandAnalysis, tuple[Decision, ...]]:
    trump = int(hand.trump)
    dealt = tuple(sum(1 << int(c) for c in cards) for cards in hand.dealt)
    start = Position.deal(fmt, trump, dealt, hand.hakem, hand.bid)
    tricks = hand.tricks
    if hand.result.bam:  # V1: declared at 7 tricks to none; graded up to there
        tricks = tricks[: fmt.tricks_to_win]
    cards = [int(c) for trick in tricks for c in trick.cards]
    decisions = analyse_hand(start, cards, make(fmt, trump))
    side = fmt.team_of[hand.hakem]
    trumps = None
    if _grades_trump(fmt):
        outcomes = []
        for suit in range(4):
            if suit == trump:
                outcomes.append(decisions[0].best)
            else:
                other = Position.deal(fmt, suit, dealt, hand.hakem, hand.bid)
                outcomes.append(make(fmt, suit).value(other))
        trumps = TrumpGrade(hand.hakem, side, trump, tuple(outcomes))
    grades = tuple(
        Graded(k, d.seat, d.card, d.legal, d.best_cards, d.outcome, d.best, d.side)
        for k, d in enumerate(decisions)
    )
    graded = HandAnalysis(
        hand.number,
        hand.hakem,
        trump,
        decisions[0].best,
        decisions[-1].outcome,
        trumps,
        grades,
        AFTER_BAM if hand.result.bam else "",
    )
    return graded, tuple(decisions)


def _out_json(out: Outcome | None) -> list[Any] | None:
    if out is None:
        return None
    return [out.tricks[0], out.tricks[1], out.winner, out.points, out.kind]


def _out_read(data: Any) -> Outcome | None:
    if data is None:
        return None
    t0, t1, winner, points, kind = data
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (t0, t1, winner, points)):
        raise TypeError("an outcome's numbers")
    if winner not in (0, 1) or kind not in KINDS:
        raise TypeError(f"an outcome's side or kind: {winner!r}, {kind!r}")
    return Outcome((t0, t1), winner, points, kind)


def _code(card: int) -> str:
    return ANY_CARDS[card].code


def _card(code: Any) -> int:
    card = BY_CODE.get(code) if isinstance(code, str) else None
    if card is None:
        raise TypeError(f"not a card: {code!r}")
    return int(card)


def _hand_to_json(h: HandAnalysis) -> dict[str, Any]:
    return {
        "n": h.number,
        "hakem": h.hakem,
        "trump": h.trump,
        "best": _out_json(h.best),
        "played": _out_json(h.played),
        "trumps": None if h.trumps is None else [_out_json(o) for o in h.trumps.outcomes],
        "cards": [_decision_json(d) for d in h.decisions],
        "skipped": h.skipped,
    }


def _decision_json(d: Graded) -> list[Any]:
    best = [_code(c) for c in d.best_cards]
    return [d.seat, _code(d.card), d.legal, best, _out_json(d.outcome), _out_json(d.best)]


def _hand_from_json(fmt: GameFormat, data: Any) -> HandAnalysis:
    number, hakem, trump = data["n"], data["hakem"], data["trump"]
    if not all(isinstance(v, int) for v in (number, hakem, trump)):
        raise TypeError("a hand's number, hakem and trump")
    if not 0 <= hakem < fmt.seats or not 0 <= trump < 4:
        raise TypeError(f"a hand's hakem or trump: {hakem!r}, {trump!r}")
    side = fmt.team_of[hakem]
    trumps = None
    # analyses stored before `two`'s trump went ungraded still hold four outcomes there,
    # read as none rather than shown
    if data["trumps"] is not None and _grades_trump(fmt):
        outs = tuple(_out_read(o) for o in data["trumps"])
        if len(outs) != 4 or None in outs:
            raise TypeError("four trumps' outcomes")
        trumps = TrumpGrade(hakem, side, trump, outs)  # type: ignore[arg-type]
    decisions = []
    for k, (seat, code, legal, best_cards, outcome, best) in enumerate(data["cards"]):
        if not isinstance(seat, int) or not 0 <= seat < fmt.seats or not isinstance(legal, int):
            raise TypeError(f"a decision's seat: {seat!r}")
        out, top = _out_read(outcome), _out_read(best)
        if out is None or top is None:
            raise TypeError("a decision's outcomes")
        cards = tuple(_card(c) for c in best_cards)
        decisions.append(Graded(k, seat, _card(code), legal, cards, out, top, fmt.team_of[seat]))
    skipped = data.get("skipped", "")
    if skipped not in ("", BAM_HAND, AFTER_BAM):
        raise TypeError(f"a hand's skipped: {skipped!r}")
    return HandAnalysis(
        number,
        hakem,
        trump,
        _out_read(data["best"]),
        _out_read(data["played"]),
        trumps,
        tuple(decisions),
        skipped,
    )
