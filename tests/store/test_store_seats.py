"""``seated_members``: one live table per member, kept by the save that seats them,
on every backend; filled from the live tables' seats by migration 0008."""

from __future__ import annotations

import logging
from argparse import Namespace
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config

from bot.store import SeatTaken, StaleWrite, Store, TableRecord
from bot.store.migrate import MIGRATIONS_DIR

from .conftest import MatchMaker, RawSQL


def table(table_id: str, channel_id: int, *members: int, **changes: Any) -> TableRecord:
    seats: list[dict[str, int] | None] = [{"user_id": m} for m in members]
    return TableRecord(
        table_id=table_id,
        guild_id=changes.pop("guild_id", 1),
        channel_id=channel_id,
        status=changes.pop("status", "lobby"),
        version=changes.pop("version", 1),
        state={"seats": [*seats, None]},
        members=changes.pop("members", members),
    )


async def seats(raw_sql: RawSQL) -> dict[int, str]:
    rows = await raw_sql.execute("SELECT user_id, table_id FROM seated_members")
    return {int(u): str(t) for u, t in rows}


async def test_a_save_seating_a_member_of_another_live_table_writes_nothing(
    store: Store, raw_sql: RawSQL
) -> None:
    await store.save_table(table("t1", 100, 7, 8))
    await store.save_table(table("t2", 200, 9))
    with pytest.raises(SeatTaken) as taken:
        await store.save_table(table("t2", 200, 9, 8, version=2))
    assert (taken.value.user_id, taken.value.table_id, taken.value.channel_id) == (8, "t1", 100)
    assert taken.value.guild_id == 1
    stored = await store.load_table("t2")
    assert stored is not None and stored.version == 1  # the whole save was refused
    with pytest.raises(SeatTaken):  # a new table too: no row of it is left
        await store.save_table(table("t3", 300, 7))
    assert await store.load_table("t3") is None
    assert await seats(raw_sql) == {7: "t1", 8: "t1", 9: "t2"}


async def test_members_who_leave_or_whose_table_ends_are_free(
    store: Store, raw_sql: RawSQL
) -> None:
    first = await store.save_table(table("t1", 100, 7, 8))
    first = await store.save_table(table("t1", 100, 7, version=2))  # 8 left
    await store.save_table(table("t2", 200, 8))
    # a save that does not say who sits there (members=None) leaves the rows alone
    await store.save_table(first.bump(state={"seats": [{"user_id": 7}], "x": 1}))
    assert await seats(raw_sql) == {7: "t1", 8: "t2"}
    ended = table("t1", 100, 7, version=4, status="cancelled", members=None)
    await store.save_table(ended)
    assert await seats(raw_sql) == {8: "t2"}
    await store.save_table(table("t3", 300, 7))
    assert await store.delete_table("t3")  # a purged table's rows go with it
    assert await seats(raw_sql) == {8: "t2"}


async def test_the_match_write_frees_the_seats_of_its_table(
    store: Store, raw_sql: RawSQL, make_match: MatchMaker
) -> None:
    """A table's final save comes with its match's write (``finish_match``, one statement of
    several on PostgreSQL): its members are free again, and only when the write commits."""
    t1 = await store.save_table(table("t1", 100, 1, 2, 3, 4, status="playing"))
    await store.save_table(table("t2", 200, 8, status="playing"))
    await store.save_table(t1.bump(state={"x": 1}))  # someone else moved on to version 2
    with pytest.raises(StaleWrite):
        await store.finish_match(make_match(), t1.bump(state={"final": True}))
    assert await seats(raw_sql) == {1: "t1", 2: "t1", 3: "t1", 4: "t1", 8: "t2"}
    t1 = await store.load_table("t1")  # type: ignore[assignment]
    assert await store.finish_match(make_match(), t1.bump(state={"final": True}))
    assert await seats(raw_sql) == {8: "t2"}
    ended = await store.load_table("t1")
    assert ended is not None and (ended.status, ended.version) == ("finished", 3)
    await store.save_table(table("t3", 300, 1, 2, status="playing"))  # free to sit again
    assert await seats(raw_sql) == {1: "t3", 2: "t3", 8: "t2"}


async def test_a_row_left_by_a_table_that_is_not_live_is_no_seat(
    store: Store, raw_sql: RawSQL
) -> None:
    await store.save_table(table("t1", 100, 6, status="finished", members=None))
    await raw_sql.execute("INSERT INTO seated_members (user_id, table_id) VALUES (7, 't1')")
    await store.save_table(table("t2", 200, 7))
    assert await seats(raw_sql) == {7: "t2"}


@pytest.mark.sqlite_only
async def test_migration_0008_seats_the_members_of_live_tables(
    db_url: str, db_path: Path, raw_sql: RawSQL
) -> None:
    """Tables saved before 0008 (no rows): the upgrade seats the members of live tables; one
    at two (possible before 0008, with two processes) keeps the older."""
    config = Config(
        str(MIGRATIONS_DIR / "alembic.ini"), cmd_opts=Namespace(x=[f"url=sqlite:///{db_path}"])
    )
    root = logging.getLogger()
    saved = list(root.handlers), root.level  # alembic's ini configures logging
    async with await Store.open(db_url) as store:
        await store.save_table(table("old", 100, 7, 8, members=None))
        await store.save_table(table("new", 200, 8, 9, members=None))
        await store.save_table(table("done", 300, 5, status="finished", members=None))
    await raw_sql.execute("UPDATE game_tables SET created_at = '2020-01-01' WHERE table_id = 'old'")
    try:
        command.downgrade(config, "0007_web_secret")
        command.upgrade(config, "head")
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])
    assert await seats(raw_sql) == {7: "old", 8: "old", 9: "new"}
