"""Tournaments in the store: saved whole under a version, one live tournament a
channel, the links of a claimed table written with the save that claims it (or not at all),
the overdue ones found by their deadline; on every backend."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest

from bot.store import ChannelBusy, StaleWrite, Store
from bot.store.tournament_ops import TableLink, TournamentRecord

from .conftest import BASE_TIME, RawSQL


def record(tid: str = "t1", channel_id: int = 100, **changes: Any) -> TournamentRecord:
    return TournamentRecord(
        tournament_id=tid,
        guild_id=changes.pop("guild_id", 1),
        channel_id=channel_id,
        status=changes.pop("status", "registration"),
        version=changes.pop("version", 1),
        state=changes.pop("state", {"round": 0}),
        due_at=changes.pop("due_at", None),
    )


async def test_saves_are_version_checked(store: Store) -> None:
    await store.save_tournament(record())
    saved = await store.save_tournament(record(version=2, state={"round": 1}, status="running"))
    assert saved.version == 2
    with pytest.raises(StaleWrite):  # another process saved version 2 first
        await store.save_tournament(record(version=2, state={"round": 9}))
    with pytest.raises(StaleWrite):  # an insert of an id that exists
        await store.save_tournament(record())
    stored = await store.load_tournament("t1")
    assert stored is not None
    assert (stored.version, stored.status, dict(stored.state)) == (2, "running", {"round": 1})
    assert stored.created_at is not None and stored.updated_at is not None
    assert await store.load_tournament("nope") is None


async def test_two_advances_of_one_round_at_once_store_one(store: Store) -> None:
    """Two processes save the same next version at once: one is stored, one is refused."""
    await store.save_tournament(record(status="running"))
    results = await asyncio.gather(
        store.save_tournament(record(version=2, status="running", state={"by": "a"})),
        store.save_tournament(record(version=2, status="running", state={"by": "b"})),
        return_exceptions=True,
    )
    assert sum(isinstance(r, StaleWrite) for r in results) == 1
    assert sum(isinstance(r, TournamentRecord) for r in results) == 1
    stored = await store.load_tournament("t1")
    assert stored is not None and stored.version == 2


async def test_one_live_tournament_a_channel(store: Store) -> None:
    await store.save_tournament(record("t1", 100))
    with pytest.raises(ChannelBusy):
        await store.save_tournament(record("t2", 100))
    await store.save_tournament(record("t3", 200))  # another channel
    await store.save_tournament(record("t1", 100, version=2, status="finished"))
    await store.save_tournament(record("t2", 100))  # the channel is free again
    live = await store.tournament_in_channel(100)
    assert live is not None and live.tournament_id == "t2"
    await store.save_tournament(record("t2", 100, version=2, status="cancelled"))
    newest = await store.tournament_in_channel(100)
    assert newest is not None and newest.tournament_id in ("t1", "t2")
    assert await store.tournament_in_channel(999) is None
    assert [r.tournament_id for r in await store.live_tournaments()] == ["t3"]


async def test_links_go_with_their_save_or_not_at_all(store: Store, raw_sql: RawSQL) -> None:
    await store.save_tournament(record(status="running"))
    links = [TableLink("g1", "t1", 1, 0), TableLink("g2", "t1", 1, 1)]
    await store.save_tournament(record(version=2, status="running"), links)
    assert await store.tournament_link("g2") == links[1]
    assert await store.tournament_links("t1") == links
    with pytest.raises(StaleWrite):  # a stale save's links are not written either
        await store.save_tournament(
            record(version=2, status="running"), [TableLink("g3", "t1", 1, 2)]
        )
    assert await store.tournament_link("g3") is None
    with pytest.raises(StaleWrite):  # a slot already claimed: the whole save is refused
        await store.save_tournament(
            record(version=3, status="running"), [TableLink("g4", "t1", 1, 0)]
        )
    stored = await store.load_tournament("t1")
    assert stored is not None and stored.version == 2
    assert await raw_sql.counts("tournament_tables") == {"tournament_tables": 2}


async def test_overdue_tournaments_are_found_by_their_deadline(store: Store) -> None:
    await store.save_tournament(record("a", 1, due_at=BASE_TIME + timedelta(seconds=10)))
    await store.save_tournament(record("b", 2, due_at=BASE_TIME + timedelta(seconds=5)))
    await store.save_tournament(record("c", 3, due_at=None))
    done = BASE_TIME + timedelta(seconds=1)
    await store.save_tournament(record("d", 4, status="finished", due_at=done))
    found = await store.overdue_tournaments(BASE_TIME + timedelta(seconds=20))
    assert found == ["b", "a"]
    assert await store.overdue_tournaments(BASE_TIME + timedelta(seconds=7)) == ["b"]
    assert [r.tournament_id for r in await store.guild_tournaments(1)] == ["d", "c", "b", "a"]


def test_records_are_checked_on_construction() -> None:
    with pytest.raises(ValueError):
        record(status="paused")
    with pytest.raises(ValueError):
        record(version=0)
    with pytest.raises(ValueError):
        record("x" * 40)
