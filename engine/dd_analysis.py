"""Every decision of a played hand against the double-dummy solver.

What a bridge site shows a player after a hand: for each card played, what each legal card
would have led to with every hand known and best play from then on, so a card that cost its
side something is marked with what it cost. ``analyse_hand`` takes the position at the hand's
first lead (or any later one) and the cards played from there; one ``Solver`` is shared by
every decision, so the later positions reuse the earlier searches.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .dd import Solver
from .dd_position import InvalidPosition, Position
from .dd_rules import legal_cards, step
from .dd_value import Outcome


@dataclass(frozen=True, slots=True)
class Decision:
    """One card of the hand: the position before it, the card, and every legal card's
    outcome (best play by everyone afterwards)."""

    position: Position
    card: int
    values: dict[int, Outcome]

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
    def forced(self) -> bool:
        """Only one legal card (nothing to decide)."""
        return len(self.values) == 1


def analyse_hand(
    start: Position, cards: Sequence[int], solver: Solver | None = None
) -> list[Decision]:
    """The decisions of the cards played from ``start`` on, in order (a card that is not
    legal is refused with the engine's ``IllegalMove``, a card after the hand's end with
    ``InvalidPosition``)."""
    solver = solver or Solver(start.fmt, start.trump)
    out: list[Decision] = []
    position: Position | Outcome = start
    value: Outcome | None = None
    for k, card in enumerate(cards):
        if isinstance(position, Outcome):
            raise InvalidPosition("hand_over", f"card {k + 1} comes after the hand's end")
        legal = legal_cards(position.hands[position.to_play], position.trick, position.trump)
        if len(legal) == 1 and value is not None:
            values = {legal[0]: value}
        else:
            values = solver.card_values(position, value)
        nxt = step(position, card)  # refuses an illegal card
        out.append(Decision(position, card, values))
        value = values[card]
        position = nxt
    return out
