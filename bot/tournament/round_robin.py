"""Everyone meets everyone once: the circle method (docs/rules.md T8).

The entries in seed order stand on a circle (with an empty place when their number is odd,
whose partner of the round rests on a bye); the first stays put and the others turn one
place a round, so over ``n - 1`` rounds (``n`` even) every pair meets exactly once. A match
against a dropped entrant is a forfeit: its opponent wins it without playing.
"""

from __future__ import annotations

from .state import Result, Round, Table, Tournament


def rounds_for(entries: int) -> int:
    return entries - 1 if entries % 2 == 0 else entries


def circle(places: list[int | None], index: int) -> list[tuple[int | None, int | None]]:
    """Round ``index`` (from 0) of the circle method on an even number of places."""
    fixed, rest = places[0], places[1:]
    shift = index % len(rest)
    turned = [fixed, *rest[len(rest) - shift :], *rest[: len(rest) - shift]]
    half = len(turned) // 2
    return [(turned[i], turned[-1 - i]) for i in range(half)]


def round_robin_round(t: Tournament, number: int) -> Round:
    places: list[int | None] = list(t.seed_order())
    if len(places) % 2:
        places.append(None)
    dropped = {e.number for e in t.entrants if e.dropped is not None}
    tables, byes = [], []
    for a, b in circle(places, number - 1):
        if a is None or b is None:
            alone = a if a is not None else b
            if alone is not None and alone not in dropped:
                byes.append(alone)
            continue
        gone = tuple(i for i, e in enumerate((a, b)) if e in dropped)
        if len(gone) == 2:
            continue
        result = Result((0, 0), None, gone) if gone else None
        tables.append(Table(((a,), (b,)), result))
    return Round(number, tuple(tables), tuple(byes))
