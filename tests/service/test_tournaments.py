"""Tournaments through the service on a real SQLite store and the fake clock:
registration, the tables of each round opened with their players' seats kept, results taken
from the finished matches, a no-show's forfeit at the end of the grace time, a restart in the
middle of a round, the host's refusals that change nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.service.errors import ActionError
from bot.service.tournament_events import (
    Cancelled,
    Finished,
    NoThreads,
    RoundOver,
    TableOpened,
)
from bot.store import Store

from .fakes import FakeClock
from .tournament_kit import (
    CHANNEL,
    HOST,
    create,
    join_all,
    make_services,
    open_tables,
    play_out,
    play_round,
    settle,
)

PLAYERS = tuple(range(11, 19))


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Store]:
    store = await Store.open(f"sqlite:///{tmp_path / 'hokm.sqlite3'}")
    await store.warmed()
    try:
        yield store
    finally:
        await store.close()


async def test_an_individual_swiss_of_eight_plays_three_rounds_to_its_winners(
    db: Store, clock: FakeClock
) -> None:
    tables, tournaments, port = make_services(db, clock)
    state = await create(tournaments, clock)
    tid = state.tournament_id
    for member in PLAYERS:
        await tournaments.join(tid, member, {member: f"m{member}"})
    await clock.advance(601)  # registration closes: the sweep starts it
    await tournaments.sweep()
    state = await tournaments.load(tid)
    assert state.status == "running" and state.core.current_round == 1
    opened = port.events(TableOpened)
    assert len(opened) == 2 and {c.channel_id for c in opened} == {5001, 5002}
    assert sorted(m for e in opened for m in e.members) == list(PLAYERS)
    for table in open_tables(tables, state):  # every seat kept for its player
        assert table.status == "lobby" and len(table.reserved) == 4
    for _ in range(3):
        state = await play_round(tables, tournaments, clock, tid)
    assert state.status == "finished"
    assert [e.round_no for e in port.events(RoundOver)] == [1, 2, 3]
    (finished,) = port.events(Finished)
    assert len(finished.winners) == 1 and finished.winners[0] in PLAYERS
    for r in state.core.rounds:  # every match played, none forfeited
        assert all(t.result is not None and t.result.played for t in r.tables)
    partners = [  # individual Swiss: nobody has the same partner twice when it can be avoided
        tuple(sorted(side)) for r in state.core.rounds for t in r.tables for side in t.sides
    ]
    assert len(partners) == len(set(partners))
    record = await db.load_tournament(tid)
    assert record is not None and record.status == "finished" and record.due_at is None
    history = await db.history(state.guild_id, 1, per_page=10)
    assert len(history.rows) == 6  # every match in the server's history


async def test_a_no_show_forfeits_when_the_grace_time_ends(db: Store, clock: FakeClock) -> None:
    tables, tournaments, port = make_services(db, clock)
    state = await create(tournaments, clock, rounds=1)
    tid = state.tournament_id
    for member in PLAYERS[:4]:
        await tournaments.join(tid, member, {member: f"m{member}"})
    await tournaments.start(tid, HOST, is_admin=False)  # the host starts early
    await settle(tournaments, clock)
    state = await tournaments.load(tid)
    (table,) = open_tables(tables, state)
    absent = table.reserved[0].user_id
    assert absent is not None
    await join_all(tables, table, absent=[absent])
    assert table.status == "lobby"
    await clock.advance(119)
    await tournaments.sweep()
    assert (await tournaments.load(tid)).core.rounds[0].tables[0].result is None
    await clock.advance(2)  # the grace time is over
    await tournaments.sweep()
    await settle(tournaments, clock)
    state = await tournaments.load(tid)
    assert table.status == "cancelled"
    result = state.core.rounds[0].tables[0].result
    assert result is not None and not result.played
    side = next(i for i, s in enumerate(state.table_members(1, 0)) if absent in s)
    assert result.forfeits == (side,)
    assert state.status == "finished"
    assert absent not in port.events(Finished)[0].winners


async def test_a_restart_in_the_middle_of_a_round_loses_nothing(
    db: Store, clock: FakeClock
) -> None:
    tables, tournaments, _port = make_services(db, clock)
    state = await create(tournaments, clock, rounds=2)
    tid = state.tournament_id
    for member in PLAYERS:
        await tournaments.join(tid, member, {member: f"m{member}"})
    await tournaments.start(tid, HOST, is_admin=False)
    await settle(tournaments, clock)
    state = await tournaments.load(tid)
    first, second = open_tables(tables, state)
    await join_all(tables, first)
    await play_out(tables, first)  # one table done, the other mid-match
    await join_all(tables, second)
    await settle(tournaments, clock)
    await tables.close()
    await tournaments.close()
    # the process is gone; another starts on the same database
    tables2, tournaments2, port2 = make_services(db, clock)
    await tables2.restore()
    await tournaments2.restore()
    state = await tournaments2.load(tid)
    assert state.core.current_round == 1 and state.core.rounds[0].pending == 1
    assert port2.events(TableOpened) == []  # nothing opened twice
    resumed = tables2.tables[second.table_id]
    await play_out(tables2, resumed)
    await settle(tournaments2, clock)
    state = await tournaments2.load(tid)
    assert state.core.current_round == 2
    assert [e.round_no for e in port2.events(RoundOver)] == [1]
    state = await play_round(tables2, tournaments2, clock, tid)
    assert state.status == "finished"


async def test_without_threads_the_tables_take_turns_in_the_channel(
    db: Store, clock: FakeClock
) -> None:
    tables, tournaments, port = make_services(db, clock)
    port.threads = False
    state = await create(tournaments, clock, rounds=1)
    tid = state.tournament_id
    for member in PLAYERS:
        await tournaments.join(tid, member, {member: f"m{member}"})
    await tournaments.start(tid, HOST, is_admin=False)
    await settle(tournaments, clock)
    assert port.events(NoThreads)[0].missing == ("create_public_threads",)
    state = await tournaments.load(tid)
    (first,) = open_tables(tables, state)
    assert first.channel_id == CHANNEL and len(port.events(TableOpened)) == 1
    await join_all(tables, first)
    await play_out(tables, first)
    await settle(tournaments, clock)
    state = await tournaments.load(tid)
    (second,) = open_tables(tables, state)  # the channel is free: the next table opens there
    assert second.channel_id == CHANNEL and second is not first
    await join_all(tables, second)
    await play_out(tables, second)
    await settle(tournaments, clock)
    assert (await tournaments.load(tid)).status == "finished"


async def test_refusals_change_nothing(db: Store, clock: FakeClock) -> None:
    _tables, tournaments, _port = make_services(db, clock)
    state = await create(tournaments, clock)
    tid = state.tournament_id
    await tournaments.join(tid, 11, {11: "m11"})
    before = await db.load_tournament(tid)
    with pytest.raises(ActionError) as again:
        await tournaments.join(tid, 11, {11: "m11"})
    assert again.value.code == "error.t_already_registered"
    with pytest.raises(ActionError) as early:
        await tournaments.start(tid, 11, is_admin=False)  # not the host
    assert early.value.code == "error.t_not_host"
    with pytest.raises(ActionError) as few:
        await tournaments.start(tid, HOST, is_admin=False)
    assert few.value.code == "error.t_too_few_entrants"
    with pytest.raises(ActionError) as busy:  # one live tournament a channel
        await create(tournaments, clock)
    assert busy.value.code == "error.t_channel_busy"
    with pytest.raises(ActionError) as bad:
        await create(tournaments, clock, system="round_robin", partners="individual")
    assert bad.value.code == "error.t_invalid_config"
    after = await db.load_tournament(tid)
    assert after == before


async def test_too_few_at_the_close_cancel_it_and_say_so(db: Store, clock: FakeClock) -> None:
    _tables, tournaments, port = make_services(db, clock)
    state = await create(tournaments, clock)
    await tournaments.join(state.tournament_id, 11, {11: "m11"})
    await clock.advance(601)
    await tournaments.sweep()
    state = await tournaments.load(state.tournament_id)
    assert state.status == "cancelled"
    assert port.events(Cancelled) == [Cancelled("too_few")]
    later = datetime.fromtimestamp(clock.now + 10_000, UTC)
    assert await db.overdue_tournaments(later) == []  # nothing left for any process to do
