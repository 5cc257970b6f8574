"""SQLite saves that queue behind each other share one hop to the writer's thread and
one transaction, each in its own savepoint: one that fails rolls back alone and raises to its
own caller; the others are stored; a cancelled caller's save is stored all the same."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import ChannelBusy, SeatTaken, StaleWrite, Store, TableRecord
from bot.store.runner import AiosqliteRunner, ThreadRunner

from .conftest import RawSQL
from .test_store_seats import seats, table

pytestmark = pytest.mark.sqlite_only


def _writes(store: Store) -> int:
    """Batches sent to the writer so far (the writer's cache is warmed first: its scans are
    writes of their own)."""
    runner = store._runner
    assert isinstance(runner, ThreadRunner | AiosqliteRunner)
    return runner.writes.batches


async def test_saves_that_queue_together_go_in_one_batch(store: Store) -> None:
    await store.warmed()
    before = _writes(store)
    saved = await asyncio.gather(*(store.save_table(table(f"t{i}", 100 + i)) for i in range(20)))
    assert [r.table_id for r in saved] == [f"t{i}" for i in range(20)]
    assert all(r.updated_at is not None for r in saved)
    assert _writes(store) - before <= 2, "each save went on its own"
    for i in range(20):
        stored = await store.load_table(f"t{i}")
        assert stored is not None and stored.version == 1


async def test_a_failed_save_in_a_batch_rolls_back_alone(store: Store, raw_sql: RawSQL) -> None:
    await store.save_table(table("t1", 100, 7, 8))
    await store.save_table(table("t2", 200, 9))
    await store.warmed()
    before = _writes(store)
    outcomes = await asyncio.gather(
        store.save_table(table("t3", 300, 10)),
        store.save_table(table("t2", 200, 9, 8, version=2)),  # 8 sits at t1: SeatTaken
        store.save_table(table("t1", 100, 7, 8, version=5)),  # not the stored version
        store.save_table(table("t4", 400, 11)),
        store.save_table(table("t5", 400, 12)),  # t4's channel: the database refuses it
        store.save_table(table("t6", 600, 13)),
        return_exceptions=True,
    )
    assert _writes(store) - before == 1
    assert isinstance(outcomes[0], TableRecord) and isinstance(outcomes[3], TableRecord)
    assert isinstance(outcomes[1], SeatTaken) and isinstance(outcomes[2], StaleWrite)
    assert isinstance(outcomes[4], ChannelBusy) and isinstance(outcomes[5], TableRecord)
    assert await store.load_table("t5") is None and await store.load_table("t6") is not None
    t2 = await store.load_table("t2")
    assert t2 is not None and t2.version == 1  # the whole save was refused
    assert await seats(raw_sql) == {7: "t1", 8: "t1", 9: "t2", 10: "t3", 11: "t4", 13: "t6"}


async def test_a_cancelled_callers_save_is_stored(store: Store) -> None:
    await store.save_table(table("t1", 100))
    first = asyncio.ensure_future(store.save_table(table("t2", 200)))
    second = asyncio.ensure_future(store.save_table(table("t3", 300)))
    await asyncio.sleep(0)
    second.cancel()
    await first
    with pytest.raises(asyncio.CancelledError):
        await second
    await store.save_table(table("t4", 400))  # after the batch that held t3
    assert await store.load_table("t3") is not None
