"""The default ``sqlite+aiosqlite`` store: each unit of work in one of aiosqlite's threads, in one
hop, with a write that stays whole and a reader beside the writer.

SQLAlchemy's asyncio adaptation awaited each cursor, execute, fetch, close and commit on its
own: a table save was 5 hops to aiosqlite's thread, a new table 22, each a loop iteration or
more on a busy loop, under the store's write lock. These tests count the hops.
"""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import aiosqlite
import pytest
import sqlalchemy as sa

from bot.store import Store, TableRecord
from bot.store.runner import AiosqliteRunner


@pytest.fixture
def hops(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The name of each function handed to an aiosqlite thread, and that thread's name."""
    seen: list[str] = []
    original = aiosqlite.Connection._execute

    async def counting(self: aiosqlite.Connection, fn: Callable[..., Any], *a: Any) -> Any:
        def named() -> Any:
            seen.append(threading.current_thread().name)
            return fn(*a)

        return await original(self, named)

    monkeypatch.setattr(aiosqlite.Connection, "_execute", counting)
    yield seen


def _record(version: int, **state: Any) -> TableRecord:
    members = (11, 12, 13, 14) if version == 1 else None
    return TableRecord("t-hop", 1, 2, "playing", version, state, members=members)


async def test_each_store_call_is_one_hop_to_an_aiosqlite_thread(
    tmp_path: Path, hops: list[str]
) -> None:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'hokm.sqlite3'}")
    try:
        assert isinstance(store._runner, AiosqliteRunner)
        await store.warmed()  # the writer's cache is filled in the background first
        hops.clear()
        await store.save_table(_record(1, turn=0))  # a new table: 22 hops before
        assert len(hops) == 1
        for version in (2, 3):
            hops.clear()
            await store.save_table(_record(version, turn=version))  # a card: 5 before
            assert len(hops) == 1
        hops.clear()
        loaded = await store.load_table("t-hop")
        assert len(hops) == 1
        assert loaded is not None and loaded.version == 3 and loaded.state == {"turn": 3}
        main = threading.current_thread().name
        assert main not in hops
    finally:
        await store.close()


async def test_reads_go_beside_the_writer_and_in_memory_through_it(
    tmp_path: Path, hops: list[str]
) -> None:
    """A file has reader threads of its own; an in-memory database is one connection, so its
    reads go to the writer's thread."""
    for url, apart in (
        (f"sqlite+aiosqlite:///{tmp_path / 'f.sqlite3'}", True),
        ("sqlite+aiosqlite://", False),
    ):
        store = await Store.open(url)
        try:
            await store.warmed()
            hops.clear()
            await store.save_table(_record(1))
            await store.load_table("t-hop")
            await store.load_table("t-hop")
            writer, *readers = hops
            assert len(readers) == 2
            assert all((r != writer) == apart for r in readers), (url, hops)
            record = await store.load_table("t-hop")
            assert record is not None and record.guild_id == 1
        finally:
            await store.close()


async def test_a_cancelled_write_still_commits_whole(tmp_path: Path) -> None:
    """Cancelling the caller does not stop aiosqlite's thread mid-transaction: the save is
    stored as a whole (its version and its seats), never halfway."""
    path = tmp_path / "hokm.sqlite3"
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    try:
        gate = threading.Event()
        await store._runner.write(lambda conn: None)  # the writer's connection is open

        def blocked(conn: sa.Connection) -> None:
            gate.wait(5)

        blocker = asyncio.create_task(store._runner.write(blocked))
        save = asyncio.create_task(store.save_table(_record(1, turn=1)))
        await asyncio.sleep(0.05)
        save.cancel()
        gate.set()
        await blocker
        with pytest.raises(asyncio.CancelledError):
            await save
        await store._runner.write(lambda conn: None)  # queued behind the cancelled save
        again = await store.load_table("t-hop")
        assert again is not None and again.version == 1
        nxt = dataclasses.replace(_record(2, turn=2))
        assert (await store.save_table(nxt)).version == 2
    finally:
        await store.close()
    check = sa.create_engine(f"sqlite:///{path}")
    try:
        with check.connect() as conn:
            seated = conn.execute(sa.text("SELECT count(*) FROM seated_members")).scalar_one()
        assert seated == 4
    finally:
        check.dispose()


async def test_close_leaves_no_thread_and_a_closed_store_refuses(tmp_path: Path) -> None:
    before = {t.ident for t in threading.enumerate()}
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'hokm.sqlite3'}")
    await store.save_table(_record(1))
    await store.close()
    await asyncio.sleep(0.05)
    left = [
        t
        for t in threading.enumerate()
        if t.ident not in before and t.is_alive() and not t.name.startswith("asyncio_")
    ]  # asyncio_N: the loop's default executor, which opened the file
    assert left == []
    with pytest.raises(Exception, match="closed"):
        await store.load_table("t-hop")
