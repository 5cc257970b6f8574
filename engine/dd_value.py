"""What a hand is worth when it ends, and the ladder of races that finds it.

The value the solver returns is the hand's **outcome**: the side that takes it, its points and
the tricks each side has when it ends. Sides want, in order, more signed points of the hand
(R11: 1, a kot's 2, a hakem-kot's 3; the joker six's bid scoring), then more tricks than the
other side (``Outcome.score``, team 0's key; team 1 wants it low). Only two sides, so best
play by everyone is one minimax value over that order.

Every "the outcome is at least X" is a **race**: team 0 takes ``a`` tricks before team 1
takes ``b`` (``Rung``). For a hand that ends at ``W`` tricks (R10): at least ``W``–``y`` is
"``W`` before ``y + 1``", at least ``x``–``W`` (team 1 taking it) is "``x`` before ``W``";
where a hand can run out (``six_teams``: 8 tricks, nobody at 7), at least ``x``–``y`` on the
count is "``x`` before ``y + 1``" (``x`` of the 8), and a tie ``x``–``x`` won by the side first
to ``x`` is "``x`` before ``x``" for team 0, "``x`` before ``x + 1``" for team 1. The joker
six plays every trick and scores by the bid, monotone in the hakem side's tricks, so at least
``x`` tricks is "``x`` before ``N − x + 1``". Each rung implies the one below it, so the value
is the top rung whose race team 0 wins: the solver climbs the ladder with null-window
searches, one race each (``engine.dd``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from .joker import made_points, set_points
from .rules import GameFormat


class Outcome(NamedTuple):
    """How a hand ends: each side's tricks then, the side that scores, its points, and the
    kind (R11: ``win``, ``kot``, ``hakem_kot``; V5 joker six: ``made``, ``set``)."""

    tricks: tuple[int, int]
    winner: int
    points: int
    kind: str

    @property
    def score(self) -> tuple[int, int]:
        """Team 0's key, higher better: signed points of the hand, then the trick difference."""
        signed = self.points if self.winner == 0 else -self.points
        return (signed, self.tricks[0] - self.tricks[1])

    def score_for(self, side: int) -> tuple[int, int]:
        """``score`` from ``side``'s point of view (team 1's is the negation)."""
        signed, diff = self.score
        return (signed, diff) if side == 0 else (-signed, -diff)

    def describe(self) -> str:
        """E.g. ``team 0 takes the hand 7–3 (win, 1 point)``."""
        t0, t1 = self.tricks
        unit = "point" if self.points == 1 else "points"
        return f"team {self.winner} takes the hand {t0}–{t1} ({self.kind}, {self.points} {unit})"


class Rung(NamedTuple):
    """A rung: the value is at least ``outcome`` when team 0 takes ``need0`` tricks of the
    hand before team 1 takes ``need1`` (counted from the hand's start)."""

    outcome: Outcome
    need0: int
    need1: int


def final(
    fmt: GameFormat, hakem_team: int, bid: int, t0: int, t1: int, first: int
) -> Outcome | None:
    """The outcome when the hand is over at ``t0``–``t1``, else ``None`` (R10, R11, V5).

    ``first``: the side that reached the most tricks first, for a tie on the count."""
    n = fmt.hand_size
    if fmt.bids:  # V5 joker six: every trick is played, scored by the bid
        if t0 + t1 < n:
            return None
        took = t0 if hakem_team == 0 else t1
        if took >= bid:
            return Outcome((t0, t1), hakem_team, made_points(bid, took), "made")
        return Outcome((t0, t1), 1 - hakem_team, set_points(bid, took), "set")
    w = fmt.tricks_to_win
    if t0 >= w or t1 >= w:
        winner = 0 if t0 >= w else 1
        other = t1 if winner == 0 else t0
        if other:
            return Outcome((t0, t1), winner, fmt.points_win, "win")
        if winner != hakem_team:  # the hakem's side took nothing (R11)
            return Outcome((t0, t1), winner, fmt.points_hakem_kot, "hakem_kot")
        return Outcome((t0, t1), winner, fmt.points_kot, "kot")
    if t0 + t1 >= n:  # ran out (V3–V5 generalised): most tricks, ties to the first there
        winner = 0 if t0 > t1 else 1 if t1 > t0 else first
        return Outcome((t0, t1), winner, fmt.points_win, "win")
    return None


@lru_cache(maxsize=256)
def ladder(fmt: GameFormat, hakem_team: int, bid: int) -> tuple[Rung, ...]:
    """Every outcome a hand of ``fmt`` can end in, worst for team 0 first, with its race."""
    n = fmt.hand_size
    rungs: list[Rung] = []
    if fmt.bids:
        for x in range(n + 1):
            out = final(fmt, hakem_team, bid, x, n - x, -1)
            assert out is not None
            rungs.append(Rung(out, x, n - x + 1))
    else:
        w = fmt.tricks_to_win
        for other in range(min(w - 1, n - w) + 1):
            for t0, t1 in ((w, other), (other, w)):
                out = final(fmt, hakem_team, bid, t0, t1, -1)
                assert out is not None
                rungs.append(Rung(out, t0, t1 + 1) if t0 == w else Rung(out, t0, w))
        if fmt.can_run_out:
            for x in range(n - w + 1, w):
                y = n - x
                if x != y:
                    rungs.append(Rung(Outcome((x, y), int(y > x), fmt.points_win, "win"), x, y + 1))
                else:
                    rungs.append(Rung(Outcome((x, x), 0, fmt.points_win, "win"), x, x))
                    rungs.append(Rung(Outcome((x, x), 1, fmt.points_win, "win"), x, x + 1))
    rungs.sort(key=lambda r: r.outcome.score)
    scores = [r.outcome.score for r in rungs]
    assert len(set(scores)) == len(scores), "two outcomes of one value"
    return tuple(rungs)
