"""Where a table is shown on Discord has rows of its own (``table_deliveries``): written
without the game table's state or version, gone with the table, and moved out of the states
saved before them by migration 0013."""

from __future__ import annotations

import json
import logging
from argparse import Namespace
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config

from bot.store import TABLE_MESSAGE, DeliveryRow, Store, TableRecord
from bot.store.migrate import MIGRATIONS_DIR

from .conftest import RawSQL


def record(table_id: str, channel_id: int, status: str = "playing") -> TableRecord:
    return TableRecord(
        table_id=table_id,
        guild_id=1,
        channel_id=channel_id,
        status=status,  # type: ignore[arg-type]
        version=1,
        state={"seats": [{"user_id": 7}, None]},
        members=(7,),
    )


def facts(rows: list[DeliveryRow]) -> list[tuple[object, ...]]:
    return [(r.table_id, r.seat, r.channel_id, r.message_id, r.hand, r.dm_closed) for r in rows]


async def test_a_delivery_is_written_without_the_table_and_goes_with_it(store: Store) -> None:
    await store.save_table(record("t1", 100))
    assert await store.save_delivery(DeliveryRow("t1", TABLE_MESSAGE, None, 555))
    assert await store.save_delivery(DeliveryRow("t1", 0, 77, 88, 1))
    assert await store.save_delivery(DeliveryRow("t1", 0, 77, None, 1, dm_closed=True))
    assert facts(await store.load_deliveries(["t1"])) == [
        ("t1", TABLE_MESSAGE, None, 555, 0, False),
        ("t1", 0, 77, None, 1, True),
    ]
    stored = await store.load_table("t1")
    assert stored is not None and stored.version == 1  # the game table untouched
    assert not await store.save_delivery(DeliveryRow("gone", 0, 1, 2, 1))  # no such table
    assert await store.load_deliveries(["gone"]) == []
    assert await store.delete_table("t1")
    assert await store.load_deliveries(["t1"]) == []


@pytest.mark.sqlite_only
async def test_migration_0013_moves_where_live_tables_are_shown_out_of_their_state(
    db_url: str, db_path: Path, raw_sql: RawSQL
) -> None:
    config = Config(
        str(MIGRATIONS_DIR / "alembic.ini"), cmd_opts=Namespace(x=[f"url=sqlite:///{db_path}"])
    )
    root = logging.getLogger()
    saved = list(root.handlers), root.level  # alembic's ini configures logging
    async with await Store.open(db_url) as store:
        await store.save_table(record("live", 100))
        await store.save_table(record("done", 200, status="finished"))
    seat = {"hand_channel_id": 77, "hand_message_id": 88, "hand_message_for": 2, "dm_closed": True}
    old = {
        "message_id": 555,
        "seats": [{"user_id": 7, "name": "a"} | seat, None],
        "reserved": {"1": {"user_id": 8, "name": "b"} | seat},
    }
    try:
        command.downgrade(config, "0012_match_analyses")
        for table_id in ("live", "done"):
            await raw_sql.execute(
                "UPDATE game_tables SET state = :state WHERE table_id = :table_id",
                state=json.dumps(old),
                table_id=table_id,
            )
        command.upgrade(config, "head")
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])
    async with await Store.open(db_url) as store:
        assert facts(await store.load_deliveries(["live", "done"])) == [
            ("live", TABLE_MESSAGE, None, 555, 0, False),
            ("live", 0, 77, 88, 2, True),
        ]
        for table_id in ("live", "done"):
            stored = await store.load_table(table_id)
            assert stored is not None
            assert dict(stored.state) == {
                "seats": [{"user_id": 7, "name": "a"}, None],
                "reserved": {"1": {"user_id": 8, "name": "b"}},
            }
