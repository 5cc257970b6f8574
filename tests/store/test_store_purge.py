"""Item 5: ended table rows are purged after the retention; nothing else ever is."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

import bot.store.ops_base
from bot.service.housekeeping import purge_once
from bot.store import Store, TableRecord
from tests.store.conftest import MatchMaker

NOW = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)


def record(table_id: str, channel_id: int, status: str = "lobby") -> TableRecord:
    return TableRecord(table_id, 1, channel_id, status, 1, {"seats": [None] * 4})  # type: ignore[arg-type]


async def saved_at(
    store: Store, monkeypatch: pytest.MonkeyPatch, when: datetime, rec: TableRecord
) -> TableRecord:
    """Save ``rec`` as if the clock read ``when`` (the store stamps ``updated_at`` itself)."""
    monkeypatch.setattr(bot.store.ops_base, "utcnow", lambda: when)
    try:
        return await store.save_table(rec)
    finally:
        monkeypatch.undo()


async def test_purge_drops_old_ended_rows_and_keeps_live_recent_and_results(
    store: Store, monkeypatch: pytest.MonkeyPatch, make_match: MatchMaker
) -> None:
    old, recent = NOW - timedelta(days=8), NOW - timedelta(days=6)
    # ended long ago: a cancelled lobby and a finished match (recorded with its result)
    cancelled = await saved_at(store, monkeypatch, old, record("old-cancel", 1))
    await saved_at(store, monkeypatch, old, cancelled.bump(status="cancelled"))
    playing = await saved_at(store, monkeypatch, old, record("old-finish", 2, "playing"))
    finished = make_match(match_id="old-finish")
    monkeypatch.setattr(bot.store.ops_base, "utcnow", lambda: old)
    assert await store.finish_match(finished, playing.bump(status="finished"))
    monkeypatch.undo()
    # ended recently: kept
    young = await saved_at(store, monkeypatch, recent, record("new-cancel", 3))
    await saved_at(store, monkeypatch, recent, young.bump(status="cancelled"))
    # live for a long time (an idle lobby, a long match): never purged, however old
    await saved_at(store, monkeypatch, old - timedelta(days=100), record("old-lobby", 4))
    await saved_at(store, monkeypatch, old, record("old-playing", 5, "playing"))
    standings = await store.standings(1, 1)
    history = await store.recent_matches(1, 1)

    assert await purge_once(store, 7.0, now=lambda: NOW) == 2

    assert await store.load_table("old-cancel") is None
    assert await store.load_table("old-finish") is None
    kept = {t: await store.load_table(t) for t in ("new-cancel", "old-lobby", "old-playing")}
    assert all(r is not None for r in kept.values()), kept
    assert sorted(r.table_id for r in await store.load_live_tables()) == [
        "old-lobby",
        "old-playing",
    ]
    # the match result and the standings are untouched
    assert await store.standings(1, 1) == standings
    assert standings.total_players == 4
    assert await store.recent_matches(1, 1) == history
    assert [m.match_id for m in history] == ["old-finish"]
    # a second purge finds nothing more; a shorter retention takes the recent one too
    assert await purge_once(store, 7.0, now=lambda: NOW) == 0
    assert await purge_once(store, 5.0, now=lambda: NOW) == 1
    assert await store.load_table("new-cancel") is None
    assert len(await store.load_live_tables()) == 2
