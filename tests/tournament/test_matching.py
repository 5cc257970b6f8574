"""The matching layer: lexicographic penalties kept exact, and the block-by-block fast path
never keeping a hard penalty (a rematch, a second bye) that one whole matching avoids."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament.matching import Penalty, group_up, pair_up

from .test_swiss import matchings


def test_an_earlier_component_outweighs_any_sum_of_later_ones() -> None:
    """Pairing 0-1 and 2-3 costs one rematch; any other pairing costs none but huge gaps."""

    def cost(a: int, b: int) -> Penalty:
        return (1 if {a, b} in ({0, 1}, {2, 3}) else 0, 0 if {a, b} in ({0, 1}, {2, 3}) else 10**6)

    pairs, bye = pair_up(4, cost, hard=1)
    assert bye is None
    assert sum(cost(a, b)[0] for a, b in pairs) == 0


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 10), st.data())
def test_the_fast_path_keeps_no_avoidable_hard_penalty(count: int, data: st.DataObject) -> None:
    """Random clashes and gaps, blocks of 2 and 4: the hard total is the brute-force least."""
    clash = data.draw(st.sets(st.tuples(st.integers(0, count - 1), st.integers(0, count - 1))))
    gaps = data.draw(st.lists(st.integers(0, 5), min_size=count, max_size=count))
    had_bye = data.draw(st.sets(st.integers(0, count - 1)))

    def cost(a: int, b: int) -> Penalty:
        return (0, int((a, b) in clash or (b, a) in clash), 0, abs(gaps[a] - gaps[b]))

    def bye(a: int) -> Penalty:
        return (int(a in had_bye), 0, count - a, 0)

    units = list(range(count)) + ([count] if count % 2 else [])

    def hard(pairs: list[tuple[int, int]]) -> tuple[int, int]:
        costs = [bye(a) if b == count else cost(a, b) for a, b in pairs]
        return (sum(c[0] for c in costs), sum(c[1] for c in costs))

    least = min(hard(m) for m in matchings(units))
    for block in (2, 4, 32):
        pairs, alone = pair_up(count, cost, hard=2, bye=bye if count % 2 else None, block=block)
        every = pairs + ([(alone, count)] if alone is not None else [])
        assert sorted(u for p in every for u in p) == units
        assert hard(every) == least


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 6), st.sampled_from([3, 5]), st.data())
def test_groups_cover_everyone_and_avoid_a_clash_when_blocks_allow(
    tables: int, size: int, data: st.DataObject
) -> None:
    count = tables * size
    clash = data.draw(st.sets(st.tuples(st.integers(0, count - 1), st.integers(0, count - 1))))

    def cost(a: int, b: int) -> Penalty:
        return (int((a, b) in clash or (b, a) in clash), 0, abs(a - b))

    groups = group_up(count, size, cost, hard=1, block_tables=1)
    assert sorted(u for g in groups for u in g) == list(range(count))
    assert all(len(g) == size for g in groups)
    if not clash:
        assert groups == [tuple(range(i, i + size)) for i in range(0, count, size)]


def test_swaps_repair_a_clash_the_seat_by_seat_grouping_left() -> None:
    """Nine units in threes: filling seat by seat from the heads 0, 3, 6 leaves a clash (the
    check fails without ``_improve``); swaps between groups find a grouping without one."""
    clash = {(0, 3), (0, 4), (1, 5), (2, 7), (2, 8), (3, 4), (4, 7), (4, 8), (5, 7), (7, 8)}

    def cost(a: int, b: int) -> Penalty:
        return (int((min(a, b), max(a, b)) in clash), 0, abs(a - b))

    groups = group_up(9, 3, cost, hard=1)
    assert sorted(u for g in groups for u in g) == list(range(9))
    assert all((min(a, b), max(a, b)) not in clash for g in groups for a in g for b in g if a != b)
