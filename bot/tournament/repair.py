"""Player swaps that remove repeated meetings a round's tables still hold (docs/rules.md T6),
with individual partners.

The round is formed in stages (sides of players, then tables of sides), each stage exact for
what it sees; with three sides a table (``six_pairs``) the second stage can only keep or break
whole sides, so a repeated opponent the players' own arrangement could avoid may remain. This
pass looks at players: while a table holds a repeated partner or opponent, it swaps one of its
players with a player of another side (of any table) when that lowers the repeats of the
tables touched, choosing among such swaps the one whose players' match points are closest (so
score groups stay together) and then the nearest in the standings. It never adds a repeat, and
it stops when nothing improves, so it ends. Single swaps can stop at a local minimum, so
then the table and its neighbours in the standings are reseated at random (seeded by the
round: the same round is paired the same) and swapped again, kept only when that helps.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .history import History, pair

Sides = list[list[int]]
"""One table: its sides, each a list of entrant numbers (one member each)."""
MAX_SWAPS = 512
"""Swaps one round makes at most (each removes at least one repeat)."""
PARTNER = 1_000
"""A repeated partner's weight against one repeated opponent's."""
SHAKES = 60
"""Reseatings of a neighbourhood tried when single swaps leave repeats (deterministic: the
random order is seeded by the round)."""
NEIGHBOURS = 2
"""Tables on each side of a table with repeats (in standings order) reseated with it."""


def repeats(table: Sides, past: History) -> int:
    """Repeated partners and repeated opponents at one table, a partner weighing more than
    every opponent of a table together (T6: a repeated partner is avoided first), so a swap
    never trades an opponent for a partner."""
    found = 0
    for i, side in enumerate(table):
        for k, a in enumerate(side):
            found += PARTNER * sum(past.partnered[pair(a, b)] for b in side[k + 1 :])
            for other in table[i + 1 :]:
                found += sum(past.opposed[pair(a, b)] for b in other)
    return found


def repair(
    tables: Sequence[Sequence[Sequence[int]]],
    past: History,
    points: dict[int, int],
    rank: dict[int, int],
    seed: int | None = None,
) -> list[list[list[int]]]:
    """The tables with repeats swapped away where one swap of two players lowers them; with a
    ``seed``, then neighbourhoods reseated at random (``shake``) while repeats remain."""
    out = swap_away(tables, past, points, rank)
    if seed is not None and any(repeats(t, past) for t in out):
        out = shake(out, past, points, rank, random.Random(seed))
    return out


def shake(
    tables: list[Sides],
    past: History,
    points: dict[int, int],
    rank: dict[int, int],
    rng: random.Random,
) -> list[Sides]:
    """Single swaps stop at a local minimum: the players of a table with repeats and of its
    ``NEIGHBOURS`` on each side (close in the standings, so close in points) are seated anew
    at random and swapped again; kept only when their repeats fall."""
    out = [[list(side) for side in table] for table in tables]
    for attempt in range(SHAKES):
        bad = [a for a, table in enumerate(out) if repeats(table, past)]
        if not bad:
            break
        a = bad[attempt % len(bad)]
        near = list(range(max(0, a - NEIGHBOURS), min(len(out), a + NEIGHBOURS + 1)))
        before = sum(repeats(out[k], past) for k in near)
        pool = [e for k in near for side in out[k] for e in side]
        rng.shuffle(pool)
        seats = iter(pool)
        fresh = [[[next(seats) for _ in side] for side in out[k]] for k in near]
        fresh = swap_away(fresh, past, points, rank)
        if sum(repeats(t, past) for t in fresh) < before:
            for k, table in zip(near, fresh, strict=True):
                out[k] = table
    return out


def swap_away(
    tables: Sequence[Sequence[Sequence[int]]],
    past: History,
    points: dict[int, int],
    rank: dict[int, int],
) -> list[list[list[int]]]:
    """Single swaps of two players while one lowers the repeats (the best such swap each
    time)."""
    out = [[list(side) for side in table] for table in tables]
    cost = [repeats(t, past) for t in out]
    for _ in range(MAX_SWAPS):
        best: tuple[tuple[int, int, int], tuple[int, int, int, int, int, int]] | None = None
        for a, table in enumerate(out):
            if not cost[a]:
                continue
            for s, side in enumerate(table):
                for i, p in enumerate(side):
                    for b, other in enumerate(out):
                        for t, other_side in enumerate(other):
                            if a == b and s == t:
                                continue
                            for j, q in enumerate(other_side):
                                gain = _gain(out, cost, past, (a, s, i), (b, t, j))
                                if gain <= 0:
                                    continue
                                key = (-gain, abs(points[p] - points[q]), abs(rank[p] - rank[q]))
                                if best is None or key < best[0]:
                                    best = (key, (a, s, i, b, t, j))
        if best is None:
            break
        a, s, i, b, t, j = best[1]
        _swap(out, (a, s, i), (b, t, j))
        cost[a], cost[b] = repeats(out[a], past), repeats(out[b], past)
    return out


def _swap(tables: list[Sides], x: tuple[int, int, int], y: tuple[int, int, int]) -> None:
    (a, s, i), (b, t, j) = x, y
    tables[a][s][i], tables[b][t][j] = tables[b][t][j], tables[a][s][i]


def _gain(
    tables: list[Sides],
    cost: list[int],
    past: History,
    x: tuple[int, int, int],
    y: tuple[int, int, int],
) -> int:
    """How many repeats swapping the players at ``x`` and ``y`` removes (negative: adds)."""
    a, b = x[0], y[0]
    before = cost[a] + (cost[b] if b != a else 0)
    _swap(tables, x, y)
    after = repeats(tables[a], past) + (repeats(tables[b], past) if b != a else 0)
    _swap(tables, x, y)
    return before - after
