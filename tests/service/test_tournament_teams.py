"""Fixed teams: a member names their partner, who confirms; a knockout of four
teams seeded by rating played to its champion; the host's drop between rounds and cancel;
and two processes on one PostgreSQL database moving one tournament on: each round advanced
and each table opened once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service.errors import ActionError
from bot.service.tournament_events import Cancelled, RoundOver, TableOpened
from bot.store import Store

from .fakes import FakeClock
from .tournament_kit import (
    HOST,
    create,
    make_services,
    open_tables,
    play_out,
    play_round,
    settle,
)

TEAMS = ((21, 22), (23, 24), (25, 26), (27, 28))


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Store]:
    store = await Store.open(f"sqlite:///{tmp_path / 'hokm.sqlite3'}")
    await store.warmed()
    try:
        yield store
    finally:
        await store.close()


async def register_teams(tournaments, tid: str) -> None:  # type: ignore[no-untyped-def]
    for a, b in TEAMS:
        await tournaments.join(tid, a, {a: f"m{a}", b: f"m{b}"}, partners=[b])
        await tournaments.join(tid, b, {b: f"m{b}"})  # the partner confirms


async def test_a_partner_confirms_and_the_team_enters(db: Store, clock: FakeClock) -> None:
    _tables, tournaments, _port = make_services(db, clock)
    state = await create(tournaments, clock, partners="fixed")
    tid = state.tournament_id
    with pytest.raises(ActionError) as alone:
        await tournaments.join(tid, 21, {21: "m21"})
    assert alone.value.code == "error.t_name_partner"
    await tournaments.join(tid, 21, {21: "m21", 22: "m22"}, partners=[22])
    state = await tournaments.load(tid)
    assert state.core.entrants == () and state.invitations[0].members == (21, 22)
    with pytest.raises(ActionError) as waiting:
        await tournaments.join(tid, 21, {21: "m21"})
    assert waiting.value.code == "error.t_waiting_partner"
    with pytest.raises(ActionError) as taken:  # 22 is invited by 21 already
        await tournaments.join(tid, 23, {23: "m23"}, partners=[22])
    assert taken.value.code == "error.t_partner_invited"
    await tournaments.join(tid, 22, {22: "m22"})
    state = await tournaments.load(tid)
    assert [e.members for e in state.core.entrants] == [(21, 22)]
    assert state.invitations == ()
    await tournaments.leave(tid, 22)  # the whole team leaves
    assert (await tournaments.load(tid)).core.entrants == ()


async def test_a_knockout_of_four_fixed_teams_finds_its_champion(
    db: Store, clock: FakeClock
) -> None:
    tables, tournaments, port = make_services(db, clock)
    state = await create(tournaments, clock, system="knockout", partners="fixed", rounds=0)
    tid = state.tournament_id
    await register_teams(tournaments, tid)
    await tournaments.start(tid, HOST, is_admin=False)
    await settle(tournaments, clock)
    state = await tournaments.load(tid)
    assert state.core.total_rounds == 2
    assert [t.sides for t in state.core.rounds[0].tables] == [((0,), (3,)), ((1,), (2,))]
    for table in open_tables(tables, state):  # a team sits in its format's team seats
        members = {s.user_id for s in table.reserved.values()}
        assert any(set(team) <= members for team in TEAMS)
        assert table.reserved[0].user_id in TEAMS[0] + TEAMS[1]
    state = await play_round(tables, tournaments, clock, tid)
    assert state.core.current_round == 2 and len(state.core.rounds[1].tables) == 1
    state = await play_round(tables, tournaments, clock, tid)
    assert state.status == "finished"
    final = state.core.rounds[1].tables[0]
    assert final.result is not None and final.result.winner is not None
    champion = final.sides[final.result.winner][0]
    assert port.events(type(port.updates[-1].events[-1]))[0].winners == TEAMS[champion]


async def test_the_host_drops_a_member_when_the_round_ends(db: Store, clock: FakeClock) -> None:
    tables, tournaments, _port = make_services(db, clock)
    state = await create(tournaments, clock, rounds=2)
    tid = state.tournament_id
    for member in range(11, 19):
        await tournaments.join(tid, member, {member: f"m{member}"})
    await tournaments.start(tid, HOST, is_admin=False)
    await settle(tournaments, clock)
    with pytest.raises(ActionError) as stranger:
        await tournaments.drop(tid, 11, 12, is_admin=False)
    assert stranger.value.code == "error.t_not_host"
    await tournaments.drop(tid, HOST, 12, is_admin=False)
    with pytest.raises(ActionError) as twice:
        await tournaments.drop(tid, HOST, 12, is_admin=False)
    assert twice.value.code == "error.t_already_dropped"
    state = await play_round(tables, tournaments, clock, tid)
    assert state.core.current_round == 2
    dropped = state.core.member_entry(12)
    assert dropped is not None and dropped.dropped == 1
    assert 12 not in [m for t in state.core.rounds[1].tables for s in t.sides for m in s]
    assert state.core.rounds[1].byes != ()  # seven left: tables of four, three sit out


async def test_cancel_closes_its_tables_and_says_so(db: Store, clock: FakeClock) -> None:
    tables, tournaments, port = make_services(db, clock)
    state = await create(tournaments, clock)
    tid = state.tournament_id
    for member in range(11, 15):
        await tournaments.join(tid, member, {member: f"m{member}"})
    await tournaments.start(tid, HOST, is_admin=False)
    await settle(tournaments, clock)
    (table,) = open_tables(tables, await tournaments.load(tid))
    with pytest.raises(ActionError):
        await tournaments.cancel(tid, 11, is_admin=False)
    await tournaments.cancel(tid, 11, is_admin=True)  # a server manager
    await settle(tournaments, clock)
    assert table.status == "cancelled"
    assert port.events(Cancelled) == [Cancelled("host")]
    assert (await tournaments.load(tid)).status == "cancelled"


async def test_two_processes_advance_each_round_once(pg_url: str, clock: FakeClock) -> None:
    stores = [await Store.open(pg_url), await Store.open(pg_url)]
    try:
        (tables_a, tour_a, port_a), (tables_b, tour_b, port_b) = (
            make_services(s, clock, shared=True) for s in stores
        )
        port_b.made = 6000  # each process's threads are channels of their own
        state = await create(tour_a, clock, rounds=2)
        tid = state.tournament_id
        for member in range(11, 19):
            await tour_a.join(tid, member, {member: f"m{member}"})
        await clock.advance(601)
        await asyncio.gather(tour_a.sweep(), tour_b.sweep())  # both start it, both open tables
        await settle(tour_a, clock)
        await settle(tour_b, clock)
        opened = port_a.events(TableOpened) + port_b.events(TableOpened)
        assert sorted((e.round_no, e.table_no) for e in opened) == [(1, 0), (1, 1)]
        state = await tour_a.load(tid)
        for (_r, _k), slot in state.slots.items():  # each table opened by one process
            await tables_a.held(slot.table_id)
        for table in open_tables(tables_a, state):
            for seat in sorted(table.reserved):
                member = table.reserved[seat].user_id
                assert member is not None
                await tables_a.join(table.table_id, member, f"m{member}")
        for table in open_tables(tables_a, state):
            await play_out(tables_a, table)
        await settle(tour_a, clock)
        await asyncio.gather(tour_a.sweep_one(tid), tour_b.sweep_one(tid))
        state = await tour_b.load(tid)
        assert state.core.current_round == 2
        overs = port_a.events(RoundOver) + port_b.events(RoundOver)
        assert [e.round_no for e in overs] == [1]
        opened = port_a.events(TableOpened) + port_b.events(TableOpened)
        assert sorted((e.round_no, e.table_no) for e in opened) == [(1, 0), (1, 1), (2, 0), (2, 1)]
        for service in (tables_a, tables_b):
            await service.close()
    finally:
        for store in stores:
            await store.close()
