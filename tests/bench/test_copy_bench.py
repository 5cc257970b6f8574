"""``bench/copy_bench.py`` measures the snapshot on the tables it says: mid-match, exact."""

from __future__ import annotations

import pytest

from bench.copy_bench import mid_match


@pytest.mark.parametrize("shelem", [False, True])
def test_the_bench_snapshots_a_mid_match_table_exactly(shelem: bool) -> None:
    table = mid_match(shelem, seed=3)
    match = table.match
    assert match is not None and match.hand_number >= 4 and len(match.trick) == 1
    assert table.snapshot().to_dict() == table.to_dict()
