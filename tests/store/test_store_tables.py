"""Live tables: save/load, optimistic concurrency, live listing, one open table per channel."""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import UTC, datetime, timedelta

import pytest

from bot.store import ChannelBusy, StaleWrite, Store, TableRecord
from tests.store.conftest import RawSQL


def lobby(table_id: str = "t1", guild_id: int = 1, channel_id: int = 10) -> TableRecord:
    return TableRecord(table_id, guild_id, channel_id, "lobby", 1, {"seats": [None] * 4})


async def test_save_and_load_round_trip(store: Store) -> None:
    state = {"seats": [111, None, 333, None], "nested": {"trick": ["AS", "KH"]}, "n": 1.5}
    saved = await store.save_table(TableRecord("t1", 1, 10, "lobby", 1, state))
    assert saved.created_at is not None and saved.created_at.tzinfo is not None
    assert saved.updated_at == saved.created_at
    assert await store.load_table("t1") == saved
    assert await store.load_table("missing") is None


async def test_bump_updates_and_keeps_created_at(store: Store) -> None:
    v1 = await store.save_table(lobby())
    v2 = await store.save_table(v1.bump(state={"trick": 1}, status="playing"))
    v3 = await store.save_table(v2.bump(state={"trick": 2}))
    loaded = await store.load_table("t1")
    assert loaded == v3
    assert (loaded.version, loaded.status, loaded.state) == (3, "playing", {"trick": 2})
    assert loaded.created_at == v1.created_at
    assert loaded.updated_at is not None and loaded.updated_at >= v1.created_at


async def test_stale_writes_are_refused(store: Store) -> None:
    v1 = await store.save_table(lobby())
    v2 = await store.save_table(v1.bump(state={"who": "first"}))
    with pytest.raises(StaleWrite, match="stored version is 2"):
        await store.save_table(v1.bump(state={"who": "second"}))  # also version 2
    with pytest.raises(StaleWrite):
        await store.save_table(v2.bump().bump())  # skips version 3
    with pytest.raises(StaleWrite, match="already exists"):
        await store.save_table(lobby())  # a second "create"
    with pytest.raises(StaleWrite, match="does not exist"):
        await store.save_table(lobby("ghost").bump())
    assert (await store.load_table("t1")) == v2


async def test_concurrent_saves_exactly_one_wins(store: Store) -> None:
    v1 = await store.save_table(lobby())
    attempts = [v1.bump(state={"writer": i}) for i in range(5)]
    results = await asyncio.gather(*(store.save_table(a) for a in attempts), return_exceptions=True)
    winners = [r for r in results if isinstance(r, TableRecord)]
    assert len(winners) == 1
    assert all(isinstance(r, StaleWrite) for r in results if r not in winners)
    assert await store.load_table("t1") == winners[0]


async def test_live_listing(store: Store) -> None:
    a = await store.save_table(lobby("a", guild_id=1, channel_id=1))
    b = await store.save_table(lobby("b", guild_id=1, channel_id=2))
    await store.save_table(b.bump(status="playing"))
    c = await store.save_table(lobby("c", guild_id=2, channel_id=3))
    await store.save_table(c.bump(status="finished"))
    d = await store.save_table(lobby("d", guild_id=2, channel_id=4))
    await store.save_table(d.bump(status="cancelled"))
    e = await store.save_table(lobby("e", guild_id=2, channel_id=5))

    assert [t.table_id for t in await store.load_live_tables()] == ["a", "b", "e"]
    assert [t.table_id for t in await store.load_live_tables(guild_id=1)] == ["a", "b"]
    assert [t.table_id for t in await store.load_live_tables(guild_id=2)] == ["e"]
    assert all(t.is_live for t in await store.load_live_tables())
    assert a.is_live and e.is_live


async def test_one_open_table_per_channel(store: Store) -> None:
    assert await store.open_table_in_channel(10) is None
    first = await store.save_table(lobby("first"))
    assert await store.open_table_in_channel(10) == first
    with pytest.raises(ChannelBusy, match="channel 10"):
        await store.save_table(lobby("second"))
    assert await store.load_table("second") is None

    done = await store.save_table(first.bump(status="finished"))
    assert await store.open_table_in_channel(10) is None
    second = await store.save_table(lobby("second"))
    assert await store.open_table_in_channel(10) == second
    assert await store.load_table("first") == done
    # a finished table cannot be revived while the channel is taken again
    with pytest.raises(ChannelBusy):
        await store.save_table(done.bump(status="playing"))


async def test_tables_are_invisible_across_guilds_and_channels(store: Store) -> None:
    await store.save_table(lobby("g1", guild_id=1, channel_id=10))
    assert await store.open_table_in_channel(11) is None
    assert await store.load_live_tables(guild_id=2) == []


async def test_delete_and_purge(store: Store) -> None:
    a = await store.save_table(lobby("a", channel_id=1))
    await store.save_table(lobby("b", channel_id=2))
    assert await store.delete_table("b") is True
    assert await store.delete_table("b") is False
    assert await store.load_table("b") is None

    await store.save_table(a.bump(status="finished"))
    assert await store.purge_tables(datetime.now(UTC) - timedelta(hours=1)) == 0
    assert await store.purge_tables(datetime.now(UTC) + timedelta(seconds=1)) == 1
    assert await store.load_table("a") is None


async def test_state_is_stored_as_json_text(store: Store, raw_sql: RawSQL) -> None:
    await store.save_table(TableRecord("t1", 1, 10, "lobby", 1, {"a": [1, 2], "b": "ضرب"}))
    [(text,)] = await raw_sql.execute("SELECT state FROM game_tables")
    assert text == '{"a":[1,2],"b":"ضرب"}'


def test_record_validation() -> None:
    with pytest.raises(ValueError, match="table_id"):
        TableRecord("x" * 33, 1, 1, "lobby", 1, {})
    with pytest.raises(ValueError, match="status"):
        TableRecord("t", 1, 1, "paused", 1, {})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="version"):
        TableRecord("t", 1, 1, "lobby", 0, {})
    with pytest.raises(ValueError, match="timezone-aware"):
        TableRecord("t", 1, 1, "lobby", 1, {}, created_at=datetime(2024, 1, 1))
    assert TableRecord("x" * 32, 1, 1, "lobby", 1, {}).bump().version == 2


async def test_overdue_tables_are_found_by_their_nearest_deadline(store: Store) -> None:
    """Every save keeps ``due_at``; ``overdue_tables`` lists the live tables due
    before a time, most overdue first, and none that ended or has no deadline."""
    base = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)
    early = dataclasses.replace(lobby("early", channel_id=1), due_at=base)
    late = dataclasses.replace(lobby("late", channel_id=2), due_at=base + timedelta(seconds=30))
    never = lobby("never", channel_id=3)
    for record in (late, early, never):
        await store.save_table(record)
    loaded = await store.load_table("early")
    assert loaded is not None and loaded.due_at == base
    assert await store.overdue_tables(base) == []
    assert await store.overdue_tables(base + timedelta(seconds=1)) == ["early"]
    assert await store.overdue_tables(base + timedelta(minutes=1)) == ["early", "late"]
    assert await store.overdue_tables(base + timedelta(minutes=1), limit=1) == ["early"]
    # the next save moves the deadline (or clears it); an ended table is never overdue
    await store.save_table(dataclasses.replace(early.bump(), due_at=None))
    await store.save_table(late.bump(status="finished"))
    assert await store.overdue_tables(base + timedelta(minutes=1)) == []
