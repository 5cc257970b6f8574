"""`Prepared` (bot/store/prepared.py): a statement compiled once and run by its SQL text must
write and read what ``Connection.execute`` would, on every backend, keep SQLAlchemy's error
wrapping and events, and fall back to ``execute`` where it cannot be prepared."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy import event

from bot.store import Store
from bot.store.prepared import Prepared
from bot.store.schema import game_tables

from .conftest import RawSQL

T = game_tables.c
WHEN = datetime(2024, 5, 1, 12, 30, 15, 250_000, tzinfo=UTC)
COLUMNS = [c.key for c in game_tables.c]


def row(table_id: str, **changes: Any) -> dict[str, Any]:
    values: dict[str, Any] = {
        "table_id": table_id,
        "guild_id": 2**62,
        "channel_id": 700 + len(table_id),
        "status": "finished",
        "version": 1,
        "state": {"hand": ["AS", "10H"], "name": "دست"},
        "created_at": WHEN,
        # not UTC: stored as UTC, as the store's type does
        "updated_at": WHEN.astimezone(timezone(timedelta(hours=3, minutes=30))),
        "due_at": None,
    }
    return values | changes


INSERT = Prepared(sa.insert(game_tables), COLUMNS)
BUMP = Prepared(
    sa.update(game_tables)
    .where(T.table_id == sa.bindparam("b_table_id"), T.status == "finished")  # a bound literal
    .values(version=T.version + 1, due_at=sa.bindparam("b_due_at", type_=T.due_at.type))
)
SELECT = Prepared(sa.select(T.table_id, T.version).where(T.guild_id == sa.bindparam("guild_id")))
EXPANDING = Prepared(
    sa.select(T.table_id).where(T.table_id.in_(sa.bindparam("ids", expanding=True)))
)


async def test_prepared_writes_and_reads_as_execute_does(store: Store, raw_sql: RawSQL) -> None:
    def write(conn: sa.Connection) -> int:
        INSERT(conn, [row("p2"), row("p3", status="cancelled")])  # executemany
        return INSERT(conn, row("p1")).rowcount

    assert await store._runner.write(write) == 1
    for table_id in ("p1", "p2"):
        loaded = await store.load_table(table_id)
        assert loaded is not None
        assert loaded.state == {"hand": ["AS", "10H"], "name": "دست"}
        assert loaded.created_at == WHEN and loaded.updated_at == WHEN
        assert loaded.created_at.tzinfo is not None and loaded.guild_id == 2**62

    def bump(conn: sa.Connection) -> list[int]:
        params = [{"b_table_id": t, "b_due_at": WHEN} for t in ("p1", "p2", "p3")]
        return [BUMP(conn, p).rowcount for p in params]

    assert await store._runner.write(bump) == [1, 1, 0]  # p3 is not "finished"
    p1 = await store.load_table("p1")
    assert p1 is not None and p1.version == 2 and p1.due_at == WHEN

    def read(conn: sa.Connection) -> tuple[list[tuple[str, int]], list[str]]:
        found = SELECT(conn, {"guild_id": 2**62}).all()
        expanded = EXPANDING(conn, {"ids": ["p1", "p3", "nope"]}).scalars().all()
        return sorted((r.table_id, r.version) for r in found), sorted(expanded)

    assert await store._runner.read(read) == ([("p1", 2), ("p2", 2), ("p3", 1)], ["p1", "p3"])
    assert await raw_sql.execute("SELECT count(*) FROM game_tables") == [(3,)]


async def test_prepared_keeps_sqlalchemy_errors_and_events(store: Store) -> None:
    """The store catches SQLAlchemy's IntegrityError (a duplicate match, a busy channel), and
    a crash test hooks ``before_cursor_execute``: both must still see prepared statements."""
    seen: list[str] = []

    def spy(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        seen.append(statement)

    def insert_twice(conn: sa.Connection) -> None:
        event.listen(conn, "before_cursor_execute", spy)
        try:
            INSERT(conn, row("dup"))
            INSERT(conn, row("dup"))
        finally:
            event.remove(conn, "before_cursor_execute", spy)

    with pytest.raises(sa.exc.IntegrityError):
        await store._runner.write(insert_twice)
    assert len(seen) == 2 and seen[0].startswith("INSERT INTO game_tables")
    assert await store.load_table("dup") is None  # the transaction rolled back


def test_only_what_can_be_prepared_is() -> None:
    """Positional placeholders without expanding parameters are prepared; the rest runs
    through ``Connection.execute`` (psycopg's named placeholders, an ``IN`` list)."""
    from sqlalchemy.dialects import postgresql, sqlite
    from sqlalchemy.dialects.postgresql import asyncpg

    assert INSERT._compile(sqlite.dialect())[1] is not None
    assert INSERT._compile(asyncpg.dialect())[1] is not None
    assert INSERT._compile(postgresql.psycopg2.dialect())[1] is None
    assert EXPANDING._compile(sqlite.dialect())[1] is None


async def test_the_store_compiles_its_statements_when_it_opens(store: Store) -> None:
    """So a process's first match write does not pay for compiling them."""
    ops = store._ops
    found = [v for v in vars(ops).values() if isinstance(v, Prepared)]
    found += list(ops._read_ratings_of.values())
    if ops._match_write is not None:
        found += [ops._match_write.record, ops._match_write.rest]
    assert len(found) >= 15
    dialect = store._runner.dialect
    assert all(p._compiled is not None and p._compiled[0] is dialect for p in found)
