"""Swiss pairing (docs/rules.md T6), checked against brute force on small fields.

For fixed partners every perfect pairing of the entries (with the bye as one more "entry"
when their number is odd) is enumerated, and the round the core made must be the best by
the rules' order: fewest second byes, then fewest rematches, then the bye as low as it can
go, then the least squared difference of match points (score groups kept together).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament.history import History, history, pair
from bot.tournament.state import Tournament
from bot.tournament.swiss import ranking

from .helpers import config, entered, rounds_of

BYE = -1


def matchings(units: list[int]) -> Iterator[list[tuple[int, int]]]:
    """Every perfect matching of ``units`` (an even number of them)."""
    if not units:
        yield []
        return
    first, rest = units[0], units[1:]
    for k, other in enumerate(rest):
        for tail in matchings(rest[:k] + rest[k + 1 :]):
            yield [(first, other), *tail]


def quality(
    pairs: list[tuple[int, int]], past: History, points: dict[int, int], rank: dict[int, int]
) -> tuple[int, int, int, int]:
    """(second byes, rematches, the bye's height in the standings, squared point gaps)."""
    repeat_byes = rematches = height = gaps = 0
    for a, b in pairs:
        if BYE in (a, b):
            alone = b if a == BYE else a
            repeat_byes += past.byes[alone]
            height = len(rank) - 1 - rank[alone]
        else:
            rematches += past.opposed[pair(a, b)]
            gaps += (points[a] - points[b]) ** 2
    return repeat_byes, rematches, height, gaps


def made(t: Tournament) -> list[tuple[int, int]]:
    r = t.rounds[-1]
    pairs = [(table.sides[0][0], table.sides[1][0]) for table in r.tables]
    return pairs + [(e, BYE) for e in r.byes]


def check_best(before: Tournament, after: Tournament) -> None:
    order, points = ranking(before)
    rank = {e: i for i, e in enumerate(order)}
    past = history(before.rounds)
    units = order + ([BYE] if len(order) % 2 else [])
    best = min(quality(m, past, points, rank) for m in matchings(units))
    assert quality(made(after), past, points, rank) == best


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 9), st.integers(1, 7), st.integers(0, 10**6))
def test_fixed_pairing_is_the_best_by_brute_force(entries: int, rounds: int, seed: int) -> None:
    """No avoidable rematch, no avoidable second bye, the bye to the lowest entry it can go
    to, and score groups together as far as the rest allows — at every round."""
    rng = random.Random(seed)
    for state in rounds_of(entered(config(rounds=rounds), entries), rng):
        if state.status == "running":
            check_best(without_last(state), state)


def without_last(t: Tournament) -> Tournament:
    """The tournament as it stood before its newest round was paired."""
    return replace(t, rounds=t.rounds[:-1])


def test_equal_scores_meet_when_they_can() -> None:
    """Eight teams, four winners: winners meet winners, losers losers, 1 v 3 and 2 v 4 in
    each group (the fold), and nobody meets an earlier opponent."""
    rng = random.Random(5)
    states = list(rounds_of(entered(config(rounds=3), 8, ratings=range(8, 0, -1)), rng))
    first, second = states[0], states[1]
    assert [sorted(s[0] for s in sides) for sides in _sides(first)] == [
        [0, 4],
        [1, 5],
        [2, 6],
        [3, 7],
    ]
    _, points = ranking(without_last(second))
    for table in second.rounds[-1].tables:
        a, b = (side[0] for side in table.sides)
        assert points[a] == points[b]
        assert history(first.rounds).opposed[pair(a, b)] == 0


def _sides(t: Tournament) -> list[list[tuple[int, ...]]]:
    return [list(table.sides) for table in t.rounds[-1].tables]


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 30), st.integers(1, 8), st.integers(0, 10**6))
def test_nobody_gets_a_second_bye_while_someone_has_none(
    entries: int, rounds: int, seed: int
) -> None:
    """Every format and partners: a bye goes to someone with the fewest byes so far."""
    rng = random.Random(seed)
    for fmt, partners in (("standard", "individual"), ("six_pairs", "fixed"), ("three", "fixed")):
        cfg = config(fmt=fmt, partners=partners, rounds=rounds)
        if entries < cfg.min_entries:
            continue
        for state in rounds_of(entered(cfg, entries), rng):
            if state.status != "running":
                continue
            before = history(state.rounds[:-1])
            active = [e.number for e in state.active()]
            given_to = set(state.rounds[-1].byes)
            if given_to:
                most = max(before.byes[e] for e in given_to)
                assert all(before.byes[e] >= most for e in active if e not in given_to)
