"""The schema on PostgreSQL: start-up migrates a fresh database to what ``schema.py`` describes,
the Alembic migrations go up and down by hand, a newer schema is refused, and processes
starting at once migrate it once (the SQLite twins of these are in test_store_migrations.py)."""

from __future__ import annotations

import asyncio
import logging
from argparse import Namespace
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

from bot.store import SchemaTooNew, StaleWrite, Store, StoreError, TableRecord
from bot.store.migrate import MIGRATIONS_DIR, head_revision
from bot.store.schema import metadata
from tests.postgres import run_coroutine
from tests.store.conftest import MatchMaker, RawSQL

TABLES = {
    "alembic_version",
    "guild_settings",
    "game_tables",
    "seated_members",
    "matches",
    "match_players",
    "match_replays",
    "standings",
    "ratings",
    "rating_changes",
    "tournaments",
    "tournament_tables",
    "puzzles",
    "puzzle_attempts",
    "match_analyses",
    "table_deliveries",
    "match_summaries",
}


@pytest.fixture
def pg(pg_url: str, tmp_path: Path) -> RawSQL:
    return RawSQL(pg_url, tmp_path / "unused.sqlite3")


async def _inspect(url: str) -> tuple[set[str], list[Any]]:
    """The tables there, and how they differ from ``schema.py`` (Alembic's autogenerate)."""

    def look(conn: Connection) -> tuple[set[str], list[Any]]:
        names = set(sa.inspect(conn).get_table_names())
        return names, compare_metadata(MigrationContext.configure(conn), metadata)

    engine = create_async_engine(url, poolclass=NullPool)
    try:
        async with engine.connect() as conn:
            return await conn.run_sync(look)
    finally:
        await engine.dispose()


async def _revision(pg: RawSQL) -> list[str]:
    return [r[0] for r in await pg.execute("SELECT version_num FROM alembic_version")]


async def test_a_fresh_database_is_migrated_to_the_table_definitions(
    pg_url: str, pg: RawSQL
) -> None:
    async with await Store.open(pg_url) as s:
        saved = await s.save_table(TableRecord("t1", 1, 2, "lobby", 1, {"k": "v"}))
    assert await _revision(pg) == [head_revision()]
    tables, diffs = await _inspect(pg_url)
    assert tables == TABLES
    assert diffs == []  # the hand-written migrations and schema.py describe one database
    async with await Store.open(pg_url) as s:  # reopening migrates nothing and keeps the rows
        assert s.migration is not None and not s.migration.changed
        assert await s.load_table("t1") == saved


@pytest.fixture
def by_hand(pg_url: str) -> Iterator[Config]:
    """``alembic -c bot/store/migrations/alembic.ini -x url=… …``, through the API."""
    root = logging.getLogger()
    saved = list(root.handlers), root.level  # alembic's ini configures logging
    try:
        yield Config(str(MIGRATIONS_DIR / "alembic.ini"), cmd_opts=Namespace(x=[f"url={pg_url}"]))
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])


def test_migrations_go_up_and_down_on_postgresql(pg_url: str, pg: RawSQL, by_hand: Config) -> None:
    """Base → 0001 with an old match in it → head (the match reads ``hints`` false) → down to
    0001 (the column goes) → down to nothing → up to head, and the bot starts on it."""
    command.upgrade(by_hand, "0001_initial")
    run_coroutine(
        lambda: pg.execute(
            "INSERT INTO matches VALUES "
            "('old', 1, 2, now(), now(), 7, 7, 3, 0, 7, 0, 0, 3, 0, 0, '[]')"
        )
    )
    command.upgrade(by_hand, "head")
    assert run_coroutine(lambda: pg.execute("SELECT match_id, hints FROM matches")) == [
        ("old", False)
    ]
    command.downgrade(by_hand, "0001_initial")
    columns = run_coroutine(
        lambda: pg.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = 'matches'"
        )
    )
    assert ("hints",) not in columns and ("hands",) in columns
    command.downgrade(by_hand, "base")
    tables, _ = run_coroutine(lambda: _inspect(pg_url))
    assert tables == {"alembic_version"}
    command.upgrade(by_hand, "head")
    tables, diffs = run_coroutine(lambda: _inspect(pg_url))
    assert tables == TABLES and diffs == []

    async def start() -> None:
        async with await Store.open(pg_url) as s:
            assert s.migration is not None
            assert s.migration.describe() == f"already at {head_revision()}"

    run_coroutine(start)


async def test_a_schema_newer_than_the_code_is_refused(pg_url: str, pg: RawSQL) -> None:
    async with await Store.open(pg_url):
        pass
    await pg.execute("UPDATE alembic_version SET version_num = '0099_from_the_future'")
    with pytest.raises(SchemaTooNew, match="0099_from_the_future") as info:
        await Store.open(pg_url)
    assert isinstance(info.value, StoreError) and "newer than this code" in str(info.value)


async def test_processes_starting_at_once_migrate_once(pg_url: str, pg: RawSQL) -> None:
    """Several bot processes on one database start together: the advisory lock lets one
    create the schema; the others find it done."""
    stores = await asyncio.gather(*(Store.open(pg_url) for _ in range(4)))
    try:
        changed = [s.migration is not None and s.migration.changed for s in stores]
        assert changed.count(True) == 1
        assert await _revision(pg) == [head_revision()]
    finally:
        for s in stores:
            await s.close()


async def test_every_table_save_notifies_its_version_once_and_a_refused_save_never(
    pg_url: str, make_match: MatchMaker
) -> None:
    """Other processes learn of each save by ``NOTIFY hokm_tables`` ('<id> <version>'),
    sent in the save's own statement; a save refused as stale sends nothing. The final save
    that comes with the match's write too."""
    heard: list[tuple[str, int]] = []
    async with await Store.open(pg_url) as s:
        saves = s.listen_tables(lambda table_id, version: heard.append((table_id, version)))
        assert saves is not None
        try:
            await asyncio.wait_for(saves.listening.wait(), 10)
            first = await s.save_table(TableRecord("t1", 1, 2, "lobby", 1, {"k": "v"}))
            second = await s.save_table(replace(first, version=2, status="playing"))
            with pytest.raises(StaleWrite):
                await s.save_table(replace(first, version=2))  # over version 2: stale
            third = await s.save_table(replace(second, version=3))
            with pytest.raises(StaleWrite):
                await s.finish_match(make_match(), replace(third, version=5))
            assert await s.finish_match(make_match(), replace(third, version=4))
            for _ in range(100):
                if len(heard) >= 4:
                    break
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.2)  # anything more would arrive now
        finally:
            await saves.close()
    assert heard == [("t1", 1), ("t1", 2), ("t1", 3), ("t1", 4)]
