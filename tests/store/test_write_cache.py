"""The SQLite writer's own page cache: sized by ``store_cache_mib`` and filled at
start with the b-trees a finished match updates at random places (`bot.store.write_cache`).

That the cache keeps writes off the disk once the OS has dropped the file's pages is a figure,
not a test: ``bench/store_bench.py --idle`` (``docs/benchmarks.md``). These tests pin down what
that figure rests on: each scan reads exactly its b-tree, the writer's connection (only it) gets
the cache, what does not fit is left out smallest-first, and the filling never gets in the way.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.config import Settings
from bot.store import Store
from bot.store.write_cache import HOT, describe, plan

from .conftest import MatchMaker

pytestmark = pytest.mark.sqlite_only


def _root_pages_read(db: Path, statement: str) -> set[int]:
    with sqlite3.connect(db) as conn:
        return {int(row[3]) for row in conn.execute(f"EXPLAIN {statement}") if row[1] == "OpenRead"}


async def test_each_scan_reads_exactly_its_b_tree(db_url: str, db_path: Path) -> None:
    store = await Store.open(db_url)
    await store.close()
    with sqlite3.connect(db_path) as conn:
        roots = dict(conn.execute("SELECT name, rootpage FROM sqlite_master WHERE rootpage > 0"))
    assert len({hot.name for hot in HOT}) == len(HOT)
    for hot in HOT:
        assert hot.name in roots, f"{hot.name}: not in the schema any more"
        assert _root_pages_read(db_path, hot.scan) == {roots[hot.name]}, hot.scan


async def test_the_writer_alone_gets_the_cache_and_it_is_filled(
    db_url: str, make_match: MatchMaker
) -> None:
    store = await Store.open(db_url, writer_cache_mib=48)
    try:
        result = await store.warmed()
        assert result is not None
        assert result.warmed == tuple(hot.name for hot in HOT) and result.skipped == ()
        assert result.pages is not None and result.pages >= len(HOT)  # a root page each
        assert await store.finish_match(make_match("m-1"))  # the writer still writes

        def cache_size(conn: object) -> int:
            return int(conn.exec_driver_sql("PRAGMA cache_size").scalar_one())  # type: ignore[attr-defined]

        assert await store._runner.write(cache_size) == -48 * 1024
        assert await store._runner.read(cache_size) == -32 * 1024  # readers: as before
    finally:
        await store.close()


def test_a_small_cache_holds_the_smallest_first_and_leaves_the_rest() -> None:
    sizes = {hot.name: 10 * (i + 1) for i, hot in enumerate(HOT)}  # 10, 20, … 60 pages
    warmed, skipped = plan(sizes, room=35)
    assert [h.name for h in warmed] == [HOT[0].name, HOT[1].name]  # 10 + 20 fit, + 30 not
    assert [h.name for h in skipped] == [h.name for h in HOT[2:]]
    warmed, skipped = plan(sizes, room=10_000)
    assert warmed == list(HOT) and skipped == []
    assert plan(None, room=0) == (list(HOT), [])  # unsized (no dbstat): everything
    assert plan(sizes, room=0) == ([], list(HOT))


def test_the_log_line_names_what_was_left_and_the_setting(caplog: pytest.LogCaptureFixture) -> None:
    from bot.store.write_cache import WarmResult

    line = describe(WarmResult(("ratings",), ("ix_match_players_history",), 256, 4096, 0.25), 2)
    assert "2 MiB" in line and "1 of 6 b-trees, 1 MiB" in line
    assert "ix_match_players_history" in line and "store_cache_mib" in line


async def test_closing_while_it_fills_is_quiet(
    db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    for _ in range(3):
        store = await Store.open(db_url)
        await store.close()  # at once: the filling is stopped, not failed
        result = await store.warmed()  # None if stopped, or whole if it finished first
        assert result is None or result.skipped == ()
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


async def test_nothing_to_fill_in_memory() -> None:
    store = await Store.open("sqlite+aiosqlite://")
    try:
        assert await store.warmed() is None
    finally:
        await store.close()


def test_the_setting_is_checked() -> None:
    assert Settings().store_cache_mib == 64
    assert Settings(store_cache_mib=1024).store_cache_mib == 1024
    for bad in (0, 1, 65537):
        with pytest.raises(ValidationError, match="store_cache_mib"):
            Settings(store_cache_mib=bad)
