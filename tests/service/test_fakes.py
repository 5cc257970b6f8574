"""The fakes hold to the contracts they stand in for, or the tests built on them prove
nothing: the store's version check and channel rule, one record per match, failures on
demand; the clock's order of callbacks."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.store import (
    ChannelBusy,
    FinishedMatch,
    MatchPlayer,
    StaleWrite,
    TableRecord,
    TableStatus,
)

from .fakes import FakeClock, FakeStore, InjectedFailure


def record(
    table_id: str = "t1", channel: int = 5, version: int = 1, status: TableStatus = "lobby"
) -> TableRecord:
    return TableRecord(table_id, 1, channel, status, version, {"n": version})


def finished(match_id: str = "t1") -> FinishedMatch:
    at = datetime(2024, 1, 1, tzinfo=UTC)
    players = tuple(
        MatchPlayer(seat=s, team=s % 2, user_id=None, is_computer=True, display_name=f"c{s}")
        for s in range(4)
    )
    return FinishedMatch(match_id, 1, 5, at, at, 7, (7, 3), 0, [], players)


async def test_the_store_takes_only_the_next_version() -> None:
    store = FakeStore()
    await store.save_table(record(version=1))
    for wrong in (1, 3):
        with pytest.raises(StaleWrite):
            await store.save_table(record(version=wrong))
    with pytest.raises(StaleWrite):
        await store.save_table(record("gone", version=2))
    await store.save_table(record(version=2))
    loaded = await store.load_table("t1")
    assert loaded is not None and loaded.version == 2 and loaded.state == {"n": 2}


async def test_one_live_table_per_channel() -> None:
    store = FakeStore()
    await store.save_table(record("t1"))
    with pytest.raises(ChannelBusy):
        await store.save_table(record("t2"))
    await store.save_table(record("t1", version=2, status="cancelled"))
    await store.save_table(record("t2"))  # the channel is free once t1 ended
    assert [r.table_id for r in await store.load_live_tables()] == ["t2"]


async def test_a_match_is_recorded_once_with_its_table() -> None:
    store = FakeStore()
    await store.save_table(record())
    assert await store.finish_match(finished(), record(version=2, status="playing"))
    assert store.rows["t1"].status == "finished"
    assert not await store.finish_match(finished(), record(version=3))  # a retry
    assert store.rows["t1"].version == 2
    # a stale table write keeps the match out too: one transaction
    with pytest.raises(StaleWrite):
        await store.finish_match(finished("t2"), record(version=9))
    assert list(store.matches) == ["t1"]


async def test_failures_on_demand_write_nothing() -> None:
    store = FakeStore()
    store.fail_next(2)
    for _ in range(2):
        with pytest.raises(InjectedFailure):
            await store.save_table(record())
    assert store.rows == {} and store.writes == 2
    await store.save_table(record())
    assert list(store.rows) == ["t1"]


async def test_the_store_keeps_a_copy_not_the_callers_dict() -> None:
    store = FakeStore()
    state = {"seats": [1, 2]}
    await store.save_table(TableRecord("t1", 1, 5, "lobby", 1, state))
    state["seats"].append(3)
    assert store.state("t1") == {"seats": [1, 2]}
    with pytest.raises(TypeError):  # what JSON cannot hold, the database cannot either
        await store.save_table(TableRecord("t2", 1, 6, "lobby", 1, {"x": object()}))


async def test_the_clock_fires_due_callbacks_in_order_each_at_its_time() -> None:
    clock = FakeClock()
    start = clock.now
    fired: list[tuple[str, float]] = []

    def note(name: str) -> None:
        fired.append((name, clock.now - start))

    clock.call_later(2, lambda: note("b"))
    clock.call_later(1, lambda: note("a"))
    clock.call_later(2, lambda: note("c"))  # same time as b: after it
    clock.call_later(3, lambda: note("late")).cancel()
    clock.call_later(5, lambda: note("later"))
    await clock.advance(3)
    assert fired == [("a", 1), ("b", 2), ("c", 2)]
    assert clock.now - start == 3 and clock.monotonic() == 3
    assert [h.when - start for h in clock.pending] == [5]
