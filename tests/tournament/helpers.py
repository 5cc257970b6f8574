"""Tournaments made and played for the tests: entries registered, results at random."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from bot.tournament import Tournament, TournamentConfig, advance, record_result, register, start
from bot.tournament.state import Round

CLOSES = 1_000


def config(
    system: str = "swiss",
    partners: str = "fixed",
    fmt: str = "standard",
    rounds: int = 5,
    bye: str = "win",
) -> TournamentConfig:
    return TournamentConfig(
        name="Cup",
        format=fmt,
        system=system,  # type: ignore[arg-type]
        partners=partners,  # type: ignore[arg-type]
        registration_closes=CLOSES,
        rounds=rounds if system == "swiss" else 0,
        bye=bye,  # type: ignore[arg-type]
    )


def entered(cfg: TournamentConfig, count: int, ratings: Sequence[float] = ()) -> Tournament:
    """``count`` entries of members 100, 101, … (a fixed team's members in a row)."""
    t = Tournament(cfg)
    size = cfg.entry_size
    for i in range(count):
        members = tuple(100 + i * size + k for k in range(size))
        rating = ratings[i] if i < len(ratings) else 0.0
        t = register(t, members, now=0, rating=rating)
    return t


def play_round(t: Tournament, rng: random.Random, target: int = 7) -> Tournament:
    """Every open table of the current round gets a random played result."""
    r = t.rounds[-1]
    for index, table in enumerate(r.tables):
        if table.result is None:
            sides = len(table.sides)
            winner = rng.randrange(sides)
            scores = [rng.randrange(target) for _ in range(sides)]
            scores[winner] = target
            t = record_result(t, r.number, index, scores, winner)
    return t


def rounds_of(t: Tournament, rng: random.Random) -> Iterator[Tournament]:
    """Start ``t`` and yield it at every round, played then advanced, to the end."""
    t = start(t, now=CLOSES)
    while t.status == "running":
        yield t
        t = play_round(t, rng)
        t = advance(t, t.current_round)
    yield t


def sides_of(r: Round) -> list[tuple[tuple[int, ...], ...]]:
    return [table.sides for table in r.tables]


def first_member(t: Tournament, entrant: int) -> int:
    return t.entrants[entrant].members[0]
