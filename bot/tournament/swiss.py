"""A Swiss round (docs/rules.md T6): who sits out, who plays with whom, who meets whom.

Fixed partners at a two-sided table: one maximum-weight matching of the entries in standings
order, a bye node among them when their number is odd, penalties in this order — a second
bye, a rematch, the bye not given to the lowest entry, the squared difference of match
points, the distance from the score group's fold (the top half of a score group meets its
bottom half, 1 v G/2+1). With individual partners the byes go first (the lowest players
without one), then a matching of the players makes the sides (a repeated partner, then match
points, then the fold) and a second one of the sides makes the tables (each earlier meeting
of two of their players, then the sides' match points, then the fold). Tables of three or
more sides (and sides of three) are grouped seat by seat (``matching.group_up``). With
individual partners, player swaps then remove what repeats the stages left (``repair``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .history import History, history
from .matching import BLOCK, Penalty, group_up, pair_up
from .repair import repair
from .standings import standings
from .state import Round, Table, Tournament

Unit = tuple[int, ...]


def ranking(t: Tournament) -> tuple[list[int], dict[int, int]]:
    """The active entrants in standings order, and every entrant's match points."""
    rows = standings(t)
    points = {s.entrant: s.match_points for s in rows}
    return [s.entrant for s in rows if not s.dropped], points


def fold(scores: Sequence[int]) -> Callable[[int, int], int]:
    """Squared distance of positions ``i`` and ``j`` (in a descending list of ``scores``)
    from the fold of their score group: 0 for 1 v G/2+1; 0 across score groups. A group
    larger than a matching block folds by blocks (1 v 17 in blocks of 32): a fold the block
    cannot reach makes every pair nearly as bad and the blossom slow."""
    position: list[int] = []
    size: dict[int, int] = {}
    for i, score in enumerate(scores):
        position.append(i - scores.index(score))
        size[score] = min(BLOCK, size.get(score, 0) + 1)

    def distance(i: int, j: int) -> int:
        if scores[i] != scores[j]:
            return 0
        gap: int = abs(position[i] - position[j]) - size[scores[i]] // 2
        return gap * gap

    return distance


def pick_byes(order: list[int], count: int, past: History) -> list[int]:
    """``count`` byes: the lowest-ranked entrants among those with the fewest byes so far."""
    bottom_up = list(reversed(order))
    return sorted(bottom_up, key=lambda e: past.byes[e])[:count]


def _form(
    units: list[Unit],
    size: int,
    clash: Callable[[Unit, Unit], int],
    points: dict[int, int],
) -> list[tuple[Unit, ...]]:
    """``units`` (standings order) in groups of ``size``: fewest clashes, then closest
    match points, then the fold (pairs) or the standings' distance (groups)."""
    scores = [sum(points[e] for e in u) for u in units]
    if size == 2:
        folded = fold(scores)

        def pair_cost(i: int, j: int) -> Penalty:
            gap = (scores[i] - scores[j]) ** 2
            return (clash(units[i], units[j]), gap, folded(i, j))

        pairs, _ = pair_up(len(units), pair_cost, hard=1)
        return [(units[i], units[j]) for i, j in pairs]

    def group_cost(i: int, j: int) -> Penalty:
        return (clash(units[i], units[j]), (scores[i] - scores[j]) ** 2, abs(i - j))

    groups = group_up(len(units), size, group_cost, hard=1)
    return [tuple(units[i] for i in g) for g in groups]


def _ordered(units: list[Unit], points: dict[int, int], rank: dict[int, int]) -> list[Unit]:
    return sorted(units, key=lambda u: (-sum(points[e] for e in u), min(rank[e] for e in u)))


def swiss_round(t: Tournament, number: int) -> Round:
    order, points = ranking(t)
    past = history(t.rounds)
    rank = {e: i for i, e in enumerate(order)}
    shape = t.config.shape
    if not t.config.individual and shape.sides == 2:
        return _pair_fixed(order, points, past, number)
    per_table = shape.seats if t.config.individual else shape.sides
    byes = pick_byes(order, len(order) % per_table, past)
    playing: list[Unit] = [(e,) for e in order if e not in byes]
    if t.config.individual:
        sides = _form(playing, shape.side_size, past.partners, points)
        teams = _ordered([tuple(e for u in s for e in u) for s in sides], points, rank)
    else:
        teams = playing
    tables = _form(teams, shape.sides, past.met, points)
    if t.config.individual:  # a repeat the stages could not see, swapped away by players
        swapped = repair(tables, past, points, rank, seed=number)
        tables = [tuple(tuple(side) for side in table) for table in swapped]
    return _round(number, tables, byes, rank)


def _pair_fixed(order: list[int], points: dict[int, int], past: History, number: int) -> Round:
    scores = [points[e] for e in order]
    folded = fold(scores)
    last = len(order) - 1

    def cost(i: int, j: int) -> Penalty:
        gap = (scores[i] - scores[j]) ** 2
        return (0, past.met((order[i],), (order[j],)), 0, gap, folded(i, j))

    def bye(i: int) -> Penalty:
        return (past.byes[order[i]], 0, last - i, 0, 0)

    pairs, alone = pair_up(len(order), cost, hard=2, bye=bye)
    tables: list[tuple[Unit, ...]] = [((order[i],), (order[j],)) for i, j in pairs]
    byes = [] if alone is None else [order[alone]]
    return _round(number, tables, byes, {e: i for i, e in enumerate(order)})


def _round(
    number: int, tables: list[tuple[Unit, ...]], byes: list[int], rank: dict[int, int]
) -> Round:
    """The round, its tables from the top of the standings down."""
    tables.sort(key=lambda sides: min(rank[e] for side in sides for e in side))
    return Round(
        number,
        tuple(Table(tuple(tuple(side) for side in sides)) for sides in tables),
        tuple(sorted(byes, key=rank.__getitem__)),
    )
