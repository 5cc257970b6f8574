"""Skill ratings: OpenSkill's Weng-Lin model, Plackett-Luce, with its defaults.

Pure: no I/O, no Discord, no database. The store calls ``rate_match`` inside the transaction
that records a finished match, and again for every stored match when the ratings are rebuilt
(``python -m bot --recompute-ratings``); the same inputs in the same order give the same floats.

- Every team of the match is a team here; a solo format (one seat per team) is a free-for-all.
  The winning team ranks first, the others by their final score (equal scores share a rank).
- Computer seats are never rated. A match with a computer seat rates its humans only when the
  server allowed it (``rate_computer_matches``); a computer then counts with the model's
  starting rating, which never changes.
- A match played with hints is never rated.
- The conservative rating shown and ranked by is the ordinal, μ − 3σ (0 for a newcomer).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

__all__ = [
    "INITIAL",
    "MODEL",
    "Rating",
    "match_ranks",
    "rate_match",
    "win_chances",
]

MODEL = PlackettLuce()
"""μ 25, σ 25/3, β 25/6, τ 25/300 (openskill's defaults)."""


@dataclass(frozen=True, slots=True)
class Rating:
    """One member's skill in one server and format: mean ``mu``, uncertainty ``sigma``."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative rating, μ − 3σ: the skill is very likely (99.7 %) above it."""
        return self.mu - 3.0 * self.sigma

    def _openskill(self) -> PlackettLuceRating:
        return MODEL.rating(mu=self.mu, sigma=self.sigma)


INITIAL = Rating(MODEL.mu, MODEL.sigma)
"""A member's rating before their first rated match (and a computer's, always)."""

Seat = int | None
"""A seat of a team: the member's user id, or None for a computer player."""


def match_ranks(scores: Sequence[int], winner_team: int) -> list[int]:
    """Each team's place (0 is first): the winner first, the others by final score, higher
    first, equal scores sharing a place."""
    ranks = []
    for team, score in enumerate(scores):
        if team == winner_team:
            ranks.append(0)
        else:
            above = {s for t, s in enumerate(scores) if t != winner_team and s > score}
            ranks.append(1 + len(above))
    return ranks


def is_rated(
    teams: Sequence[Sequence[Seat]], *, hints: bool, rate_computers: bool, rated: bool = True
) -> bool:
    """Whether a match changes anyone's rating: no hints, at least one member, computers
    only where the server allows them, and not a tournament's that leaves ratings alone
    (``rated`` False, T12)."""
    if hints or not rated:
        return False
    seats = [seat for team in teams for seat in team]
    if not any(seat is not None for seat in seats):
        return False
    return rate_computers or all(seat is not None for seat in seats)


def rate_match(
    teams: Sequence[Sequence[Seat]],
    ranks: Sequence[int],
    current: Mapping[int, Rating],
    *,
    hints: bool = False,
    rate_computers: bool = False,
    rated: bool = True,
) -> dict[int, Rating]:
    """The new rating of every member of a finished match, by user id; empty when the match
    is not rated (``is_rated``). ``current`` holds the members' ratings before it (a member
    missing from it starts at ``INITIAL``); ``ranks`` one place per team (``match_ranks``)."""
    if len(teams) != len(ranks) or len(teams) < 2:
        raise ValueError("a rated match needs two or more teams, each with a rank")
    if not is_rated(teams, hints=hints, rate_computers=rate_computers, rated=rated):
        return {}
    before = [
        [
            (current.get(seat, INITIAL) if seat is not None else INITIAL)._openskill()
            for seat in team
        ]
        for team in teams
    ]
    after = MODEL.rate(before, ranks=[float(r) for r in ranks])
    out: dict[int, Rating] = {}
    for team, new_team in zip(teams, after, strict=True):
        for seat, new in zip(team, new_team, strict=True):
            if seat is not None:
                out[seat] = Rating(float(new.mu), float(new.sigma))
    return out


def win_chances(teams: Sequence[Sequence[Seat]], current: Mapping[int, Rating]) -> list[float]:
    """Each team's chance to win (summing to 1), from openskill's ``predict_win``; a computer
    or a member without a rating counts as ``INITIAL``."""
    ratings = [
        [
            (current.get(seat, INITIAL) if seat is not None else INITIAL)._openskill()
            for seat in team
        ]
        for team in teams
    ]
    return [float(p) for p in MODEL.predict_win(ratings)]
