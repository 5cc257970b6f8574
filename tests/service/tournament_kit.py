"""Tournaments through the service on a real store (SQLite file, or PostgreSQL for two
processes) with the fake clock: a port that makes threads, members who join their table and
play it out greedily, and the tasks the tournaments start waited for."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from bot.service.service import TableService
from bot.service.table import Table
from bot.service.tournament_events import TournamentEvent, TournamentUpdate
from bot.service.tournament_state import TournamentState
from bot.service.tournaments import TournamentService, WatchTables
from bot.store import Store

from .fakes import FakeClock
from .helpers import GUILD, HAKEM_0_SEED, Recorder, click_greedy

CHANNEL = 900
HOST = 1


class FakePort:
    """The Discord side of tournaments: every published update kept, a thread per table
    (channel ids from 5001), or none when ``threads`` is off (the permissions missing)."""

    def __init__(self) -> None:
        self.updates: list[TournamentUpdate] = []
        self.threads = True
        self.made = 5000
        self.names: dict[int, tuple[str, int, int]] = {}
        """Each thread made: its tournament, round and table (its name says them)."""

    def publish(self, update: TournamentUpdate) -> None:
        self.updates.append(update)

    async def table_thread(
        self, state: TournamentState, round_no: int, table_no: int
    ) -> tuple[int | None, tuple[str, ...]]:
        if not self.threads:
            return None, ("create_public_threads",)
        self.made += 1
        self.names[self.made] = (state.tournament_id, round_no, table_no)
        return self.made, ()

    async def table_threads_made(
        self, state: TournamentState, round_no: int, table_no: int
    ) -> tuple[int, ...]:
        key = (state.tournament_id, round_no, table_no)
        return tuple(i for i, named in self.names.items() if named == key)

    def events(self, kind: type) -> list[Any]:
        return [e for u in self.updates for e in u.events if isinstance(e, kind)]


def make_services(
    store: Store, clock: FakeClock, port: FakePort | None = None, shared: bool = False
) -> tuple[TableService, TournamentService, FakePort]:
    tables = TableService(
        store,
        publisher=Recorder(),  # type: ignore[arg-type]
        clock=clock,
        call_later=clock.call_later,
        monotonic=clock.monotonic,
        think_grace=0.0,
        seed_source=lambda: HAKEM_0_SEED,
        shared=shared,
    )
    port = port or FakePort()
    tournaments = TournamentService(store, tables, port)
    tables.watch(WatchTables(tournaments))
    return tables, tournaments, port


def settings(clock: FakeClock, **changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "name": "Spring cup",
        "format": "standard",
        "system": "swiss",
        "partners": "individual",
        "registration_closes": int(clock.now) + 600,
        "rounds": 3,
        "target_score": 1,
        "turn_seconds": 20,
        "grace_seconds": 120,
    }
    return base | changes


async def create(
    tournaments: TournamentService, clock: FakeClock, **changes: Any
) -> TournamentState:
    update = await tournaments.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=HOST,
        host_name="host",
        language="en",
        settings=settings(clock, **changes),
    )
    return update.state


async def settle(tournaments: TournamentService, clock: FakeClock) -> None:
    """Every task the tournaments started (a table ended: its tournament swept) done."""
    for _ in range(50):
        await clock.settle()
        if not tournaments._tasks:
            return
        await asyncio.gather(*list(tournaments._tasks))
    raise AssertionError("the tournaments kept starting tasks")


def open_tables(tables: TableService, state: TournamentState) -> list[Table]:
    """The game tables of the tournament's current round that are live in this process."""
    current = state.core.current_round
    found = []
    for (r, _k), slot in sorted(state.slots.items()):
        if r == current and slot.table_id in tables.tables:
            found.append(tables.tables[slot.table_id])
    return found


async def join_all(tables: TableService, table: Table, absent: Sequence[int] = ()) -> None:
    for seat in sorted(table.reserved):
        member = table.reserved[seat].user_id
        assert member is not None
        if member not in absent:
            await tables.join(table.table_id, member, f"m{member}")


async def play_out(tables: TableService, table: Table, limit: int = 400) -> None:
    """Every member clicks the greedy move on their turn until the match is over."""
    for _ in range(limit):
        if table.status != "playing":
            return
        await click_greedy(tables, table)
    raise AssertionError("the match did not end")


async def play_round(
    tables: TableService, tournaments: TournamentService, clock: FakeClock, tid: str
) -> TournamentState:
    """Every table of the current round joined and played out; the tournament swept."""
    state = await tournaments.load(tid)
    for table in open_tables(tables, state):
        await join_all(tables, table)
        await play_out(tables, table)
    await settle(tournaments, clock)
    await tournaments.sweep_one(tid)
    return await tournaments.load(tid)


def kinds(events: Sequence[TournamentEvent]) -> list[str]:
    return [type(e).__name__ for e in events]
