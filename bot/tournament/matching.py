"""Pairs and groups of units by maximum-weight matching (networkx, Edmonds' blossom).

Why a library: pairing a Swiss round is a maximum-weight perfect matching on the graph of
who may meet whom, which the blossom algorithm solves exactly in polynomial time; a hand-made
search (backtracking over score groups) is exponential in its worst case and is where Swiss
programs grow their bugs. networkx is maintained, pure Python and BSD-licensed.

Units are numbered 0…n-1 in standings order. Each possible pair has a *penalty*, a tuple
compared lexicographically (the first component matters most: e.g. repeated byes, then
rematches, then score differences). ``_weights`` turns the tuples into integer weights so
large that no sum of a later component can outweigh one unit of an earlier one, and
networkx's integer arithmetic keeps the optimum exact.

Speed: networkx's blossom is O(n³) in Python (about 11 s for 256 units on a complete graph
here), so ``pair_up`` first matches the standings block by block (each block exact, the
unpaired floating down to the next block) and keeps that only when it repeats nothing hard
(no rematch, no second bye); otherwise it tries blocks twice as large, and at last the whole
field in one exact matching. The result never holds an avoidable hard penalty.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import networkx as nx  # type: ignore[import-untyped]

Penalty = tuple[int, ...]
BLOCK = 32
"""Units in one block of the fast path (an exact matching of 32 takes a few ms)."""
GROUP_BLOCK = 8
"""Tables formed per block when grouping in threes or more."""


def _weights(edges: dict[tuple[int, int], Penalty], slots: int) -> dict[tuple[int, int], int]:
    """Integer weights that order matchings of up to ``slots`` edges lexicographically."""
    width = len(next(iter(edges.values())))
    maxima = [max(p[c] for p in edges.values()) for c in range(width)]
    scale = [0] * width
    unit = 1
    for c in reversed(range(width)):
        scale[c] = unit
        unit *= maxima[c] * slots + 1
    return {e: unit - sum(x * s for x, s in zip(p, scale, strict=True)) for e, p in edges.items()}


def _match(nodes: Sequence[int], edges: dict[tuple[int, int], Penalty]) -> list[tuple[int, int]]:
    """A maximum-cardinality matching of ``nodes`` of least lexicographic penalty."""
    if not edges:
        return []
    graph: Any = nx.Graph()
    graph.add_nodes_from(nodes)
    weights = _weights(edges, len(nodes) // 2 + 1)
    graph.add_weighted_edges_from((a, b, w) for (a, b), w in weights.items())
    found: Iterable[tuple[int, int]] = nx.max_weight_matching(graph, maxcardinality=True)
    return sorted((min(a, b), max(a, b)) for a, b in found)


def hard_total(edges: Iterable[Penalty], hard: int) -> int:
    return sum(sum(p[:hard]) for p in edges)


class _Costs:
    """Penalties computed once per pair, however many attempts look at them."""

    def __init__(self, cost: Callable[[int, int], Penalty], bye: Callable[[int], Penalty] | None):
        self._cost, self._bye, self._seen = cost, bye, dict[tuple[int, int], Penalty]()

    def __call__(self, a: int, b: int, bye_node: int) -> Penalty:
        key = (a, b)
        if key not in self._seen:
            if b == bye_node:
                assert self._bye is not None
                self._seen[key] = self._bye(a)
            else:
                self._seen[key] = self._cost(a, b)
        return self._seen[key]


def pair_up(
    count: int,
    cost: Callable[[int, int], Penalty],
    hard: int,
    bye: Callable[[int], Penalty] | None = None,
    block: int = BLOCK,
) -> tuple[list[tuple[int, int]], int | None]:
    """Units 0…count-1 in pairs; with an odd count one unit gets the bye (``bye`` its
    penalty, same width as ``cost``'s). Returns the pairs (low, high) and the bye's unit."""
    if count % 2 and bye is None:
        raise ValueError("an odd count needs a bye penalty")
    bye_node = count if count % 2 else -1
    costs = _Costs(cost, bye)
    size = block
    while True:
        whole = size >= count
        if whole:
            pairs = _exact(count, costs, bye_node)
        else:
            pairs = _blocks(count, costs, bye_node, size, hard)
        if whole or hard_total((costs(a, b, bye_node) for a, b in pairs), hard) == 0:
            break
        size *= 2
    got = next((a for a, b in pairs if b == bye_node), None)
    return [(a, b) for a, b in pairs if b != bye_node], got


def _edges(nodes: Sequence[int], costs: _Costs, bye_node: int) -> dict[tuple[int, int], Penalty]:
    ordered = sorted(nodes)  # the bye's node is ``count``, after every unit
    return {
        (a, b): costs(a, b, bye_node)
        for i, a in enumerate(ordered)
        for b in ordered[i + 1 :]
        if a != bye_node
    }


def _exact(count: int, costs: _Costs, bye_node: int) -> list[tuple[int, int]]:
    nodes = list(range(count)) + ([bye_node] if bye_node >= 0 else [])
    return _match(nodes, _edges(nodes, costs, bye_node))


def _blocks(
    count: int, costs: _Costs, bye_node: int, size: int, hard: int
) -> list[tuple[int, int]]:
    """Block by block down the standings: all but the last block pair only without a hard
    penalty, their unpaired float into the next block; the last pairs everyone left."""
    pairs: list[tuple[int, int]] = []
    carry: list[int] = []
    for start in range(0, count, size):
        last = start + size >= count
        nodes = carry + list(range(start, min(count, start + size)))
        if last and bye_node >= 0:
            nodes.append(bye_node)
        edges = _edges(nodes, costs, bye_node)
        if not last:
            edges = {e: p for e, p in edges.items() if sum(p[:hard]) == 0}
        found = _match(nodes, edges)
        pairs += found
        matched = {n for e in found for n in e}
        carry = [n for n in nodes if n not in matched]
        if last:
            break
    return pairs


def _add(a: Penalty, b: Penalty) -> Penalty:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def group_up(
    count: int,
    size: int,
    cost: Callable[[int, int], Penalty],
    hard: int,
    block_tables: int = GROUP_BLOCK,
) -> list[tuple[int, ...]]:
    """Units 0…count-1 (a multiple of ``size``) in groups of ``size`` ≥ 3.

    Grouping in threes is 3-dimensional matching, NP-hard, and no library solves it exactly;
    this builds groups one seat at a time, each seat an exact bipartite matching: the heads
    are every ``size``-th unit of the standings, and each step gives every group the unit of
    those left that adds the least penalty against its members. Blocks of ``block_tables``
    groups down the standings, widened to the whole field while a block repeats a hard
    penalty; when the whole field still does, swaps between groups repair what they can."""
    tables = count // size
    span = block_tables
    while True:
        groups: list[tuple[int, ...]] = []
        for first in range(0, tables, span):
            units = list(range(first * size, min(tables, first + span) * size))
            groups += _group_block(units, size, cost)
        if _clash(groups, cost, hard) == 0:
            return groups
        if span >= tables:
            return _improve(groups, cost, hard)
        span *= 2


def _clash(groups: list[tuple[int, ...]], cost: Callable[[int, int], Penalty], hard: int) -> int:
    return sum(
        sum(cost(g[i], g[j])[:hard]) for g in groups for i in range(len(g)) for j in range(i)
    )


def _group_penalty(group: Sequence[int], cost: Callable[[int, int], Penalty]) -> Penalty:
    pairs = [cost(group[i], group[j]) for i in range(len(group)) for j in range(i)]
    total = pairs[0]
    for p in pairs[1:]:
        total = _add(total, p)
    return total


def _improve(
    groups: list[tuple[int, ...]], cost: Callable[[int, int], Penalty], hard: int, passes: int = 8
) -> list[tuple[int, ...]]:
    """Swaps of one unit between two groups while a swap lowers their hard penalty (then
    the rest): seat-by-seat matching cannot look ahead, and this bounded pass repairs the
    clashes it left. Only groups holding a clash are looked at."""
    out = [list(g) for g in groups]
    for _ in range(passes):
        changed = False
        for a, first in enumerate(out):
            if sum(_group_penalty(first, cost)[:hard]) == 0:
                continue
            for b, second in enumerate(out):
                if a == b:
                    continue
                changed |= _try_swaps(first, second, cost)
        if not changed:
            break
    return [tuple(g) for g in out]


def _try_swaps(first: list[int], second: list[int], cost: Callable[[int, int], Penalty]) -> bool:
    before = _add(_group_penalty(first, cost), _group_penalty(second, cost))
    for i in range(len(first)):
        for j in range(len(second)):
            first[i], second[j] = second[j], first[i]
            after = _add(_group_penalty(first, cost), _group_penalty(second, cost))
            if after < before:
                return True
            first[i], second[j] = second[j], first[i]
    return False


def _group_block(
    units: list[int], size: int, cost: Callable[[int, int], Penalty]
) -> list[tuple[int, ...]]:
    groups = [[u] for u in units[::size]]
    rest = [u for u in units if u not in set(units[::size])]
    offset = max(units) + 1
    for _ in range(1, size):
        edges = {}
        for g, members in enumerate(groups):
            for u in rest:
                penalty = cost(members[0], u)
                for m in members[1:]:
                    penalty = _add(penalty, cost(m, u))
                edges[(u, offset + g)] = penalty
        nodes = rest + [offset + g for g in range(len(groups))]
        for a, b in _match(nodes, edges):
            unit, g = (a, b - offset) if b >= offset else (b, a - offset)
            groups[g].append(unit)
        placed = {u for members in groups for u in members}
        rest = [u for u in rest if u not in placed]
    return [tuple(g) for g in groups]
