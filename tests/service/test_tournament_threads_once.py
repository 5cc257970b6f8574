"""T13: a process that stops between making a table's thread and storing the table does not
make the next process open a second thread: the claim records that a thread was asked for,
before the call, and a later claim takes the thread of the table's name in which no table was
ever opened. Through the service on a real SQLite store, the process's death an exception
out of the thread call once the thread exists."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service.tournament_events import TableOpened
from bot.service.tournament_state import TournamentState
from bot.service.tournament_steps import CLAIM_SECONDS
from bot.store import Store

from .fakes import FakeClock
from .tournament_kit import HOST, FakePort, create, make_services, settle

PLAYERS = (11, 12, 13, 14)


class Killed(Exception):
    """The process stops here."""


class DiesAfterTheThread(FakePort):
    """Makes the thread, then the process stops before anything is stored."""

    async def table_thread(
        self, state: TournamentState, round_no: int, table_no: int
    ) -> tuple[int | None, tuple[str, ...]]:
        await super().table_thread(state, round_no, table_no)
        raise Killed


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Store]:
    store = await Store.open(f"sqlite:///{tmp_path / 'hokm.sqlite3'}")
    await store.warmed()
    try:
        yield store
    finally:
        await store.close()


async def test_t13_a_thread_made_before_a_crash_is_taken_not_made_again(
    db: Store, clock: FakeClock
) -> None:
    dying = DiesAfterTheThread()
    _, tournaments, _ = make_services(db, clock, dying)
    state = await create(tournaments, clock, rounds=1)
    tid = state.tournament_id
    for member in PLAYERS:
        await tournaments.join(tid, member, {member: f"m{member}"})
    await tournaments.start(tid, HOST, is_admin=False)  # its sweep opens the table
    done = await asyncio.gather(*list(tournaments._tasks), return_exceptions=True)
    assert any(isinstance(d, Killed) for d in done)
    assert dying.made == 5001  # its thread exists, nothing stored of it
    stored = await tournaments.load(tid)
    slot = stored.slots[(1, 0)]
    assert slot.asked and not slot.opened
    await tournaments.close()

    # another process, once the claim is old, with the same threads on Discord's side
    port = FakePort()
    port.made, port.names = dying.made, dict(dying.names)
    tables2, tournaments2, _ = make_services(db, clock, port)
    await clock.advance(CLAIM_SECONDS + 1)
    await tournaments2.sweep_one(tid)
    await settle(tournaments2, clock)
    state = await tournaments2.load(tid)
    assert state.slots[(1, 0)].opened and state.slots[(1, 0)].channel_id == 5001
    assert port.made == 5001  # no second thread
    (opened,) = port.events(TableOpened)
    assert opened.channel_id == 5001
    assert tables2.tables[state.slots[(1, 0)].table_id].channel_id == 5001


async def test_t13_a_thread_a_table_was_opened_in_is_never_taken_again(
    db: Store, clock: FakeClock
) -> None:
    """A thread of the same name that already holds a table (an earlier tournament's, say)
    is not the one a dead process made: a new thread is made."""
    port = FakePort()
    _, tournaments, _ = make_services(db, clock, port)
    state = await create(tournaments, clock, rounds=1)
    tid = state.tournament_id
    for member in PLAYERS:
        await tournaments.join(tid, member, {member: f"m{member}"})
    await tournaments.start(tid, HOST, is_admin=False)
    await settle(tournaments, clock)
    state = await tournaments.load(tid)
    assert state.slots[(1, 0)].channel_id == 5001
    # its slot is taken up again as if the claim had died: the thread holds a table
    thread = await tournaments._channel(state, 1, 0, retry=True)
    assert thread == 5002 and port.made == 5002
