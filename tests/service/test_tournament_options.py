"""The host's tournament options (docs/rules.md T11, T12), through the service on a real
SQLite store: results that leave ratings alone (kept in history and replays all the same,
and left alone by a rebuild of the ratings too), and computers taking an absent player's
seat when the host allowed them, only where every side came."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service.table import Table
from bot.service.tournament_state import TournamentState
from bot.service.tournaments import TournamentService
from bot.store import Store

from .fakes import FakeClock
from .helpers import GUILD, click_greedy, match_of
from .tournament_kit import HOST, create, join_all, make_services, open_tables, play_round, settle

PLAYERS = (11, 12, 13, 14)


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Store]:
    store = await Store.open(f"sqlite:///{tmp_path / 'hokm.sqlite3'}")
    await store.warmed()
    try:
        yield store
    finally:
        await store.close()


async def _started(tournaments: TournamentService, clock: FakeClock, **options: object) -> str:
    state = await create(tournaments, clock, rounds=1, **options)
    for member in PLAYERS:
        await tournaments.join(state.tournament_id, member, {member: f"m{member}"})
    await tournaments.start(state.tournament_id, HOST, is_admin=False)
    await settle(tournaments, clock)
    return state.tournament_id


async def _ratings(db: Store) -> dict[int, float]:
    found = await db.ratings_of(GUILD, PLAYERS)
    return {m: r.ordinal for m, r in found.items()}


@pytest.mark.parametrize("rated", [True, False])
async def test_t12_results_change_ratings_only_when_the_tournament_says(
    db: Store, clock: FakeClock, rated: bool
) -> None:
    tables, tournaments, _ = make_services(db, clock)
    tid = await _started(tournaments, clock, rated=rated)
    (table,) = open_tables(tables, await tournaments.load(tid))
    assert table.settings.rated is rated
    state = await play_round(tables, tournaments, clock, tid)
    assert state.status == "finished"
    assert state.core.rounds[0].tables[0].result.played  # type: ignore[union-attr]
    page = await db.history(GUILD, 1)  # history and the replay keep it either way
    assert [row.match_id for row in page.rows] == [table.table_id]
    replay = await db.match_replay(GUILD, table.table_id)
    assert replay is not None and replay.replay is not None
    assert bool(await _ratings(db)) is rated
    assert bool(await db.match_rating_changes(table.table_id)) is rated
    assert await db.recompute_ratings() == int(rated)  # a rebuild agrees
    assert bool(await _ratings(db)) is rated


async def test_t12_rated_defaults_on_and_a_stored_tournament_without_it_reads_on(
    db: Store, clock: FakeClock
) -> None:
    _, tournaments, _ = make_services(db, clock)
    state = await create(tournaments, clock)
    assert state.core.config.rated and not state.core.config.computers
    data = state.to_dict()
    del data["core"]["config"]["rated"], data["core"]["config"]["computers"]
    again = TournamentState.from_dict(data)
    assert again.core.config.rated and not again.core.config.computers


async def _grace_over(
    tables: object, tournaments: TournamentService, clock: FakeClock, tid: str
) -> None:
    await clock.advance(121)
    await tournaments.sweep()
    await settle(tournaments, clock)


def _absent_one(table: Table) -> int:
    member = table.reserved[0].user_id
    assert member is not None
    return member


async def test_t11_computers_take_an_absent_players_seat_when_allowed(
    db: Store, clock: FakeClock
) -> None:
    tables, tournaments, _ = make_services(db, clock)
    tid = await _started(tournaments, clock, computers=True)
    (table,) = open_tables(tables, await tournaments.load(tid))
    assert table.settings.allow_computer_players
    absent = _absent_one(table)
    await join_all(tables, table, absent=[absent])
    await _grace_over(tables, tournaments, clock, tid)
    assert table.status == "playing"  # the match is played, a computer in the absent's seat
    assert table.seats[0] is not None and table.seats[0].is_computer
    assert not table.reserved
    for _ in range(400):  # played out: members click, the computer after its pause
        if table.status != "playing":
            break
        if table.seat(match_of(table).to_act).computer_plays:
            await clock.advance(tables.computer_delay)
        else:
            await click_greedy(tables, table)
    await settle(tournaments, clock)
    await tournaments.sweep_one(tid)
    state = await tournaments.load(tid)
    result = state.core.rounds[0].tables[0].result
    assert result is not None and result.played  # the result stands, as R14's take-over's
    assert state.status == "finished"


async def test_t11_a_side_nobody_joined_forfeits_even_with_computers(
    db: Store, clock: FakeClock
) -> None:
    tables, tournaments, _ = make_services(db, clock)
    tid = await _started(tournaments, clock, computers=True)
    state = await tournaments.load(tid)
    (table,) = open_tables(tables, state)
    side = state.table_members(1, 0)[0]
    await join_all(tables, table, absent=side)
    await _grace_over(tables, tournaments, clock, tid)
    assert table.status == "cancelled"
    result = (await tournaments.load(tid)).core.rounds[0].tables[0].result
    assert result is not None and not result.played and result.forfeits == (0,)


async def test_t11_without_computers_the_absent_forfeit(db: Store, clock: FakeClock) -> None:
    tables, tournaments, _ = make_services(db, clock)
    tid = await _started(tournaments, clock)
    (table,) = open_tables(tables, await tournaments.load(tid))
    assert not table.settings.allow_computer_players
    await join_all(tables, table, absent=[_absent_one(table)])
    await _grace_over(tables, tournaments, clock, tid)
    assert table.status == "cancelled"
    assert all(s is None or not s.is_computer for s in table.seats)


async def test_t9_a_grace_time_ending_during_a_sweep_stays_the_tournaments_deadline(
    db: Store, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sweep that found the grace time still running, and whose end comes as it passes,
    leaves the grace time as the deadline (not the heartbeat a minute on): the next sweep
    closes the lobby and the absent forfeit."""
    tables, tournaments, _ = make_services(db, clock)
    tid = await _started(tournaments, clock, grace_seconds=30)  # sooner than the heartbeat
    state = await tournaments.load(tid)
    (table,) = open_tables(tables, state)
    await join_all(tables, table, absent=[_absent_one(table)])
    opened_at = state.slots[(1, 0)].opened_at
    assert opened_at is not None
    grace_ends = opened_at + 30
    record = await db.load_tournament(tid)
    assert record is not None and record.due_at is not None
    assert record.due_at.timestamp() == grace_ends
    found_nothing = tournaments._progress

    async def then_the_grace_time_passes(state: TournamentState, now: float) -> bool:
        taken = await found_nothing(state, now)
        if not taken:
            clock.now = grace_ends + 1  # the deadline passes between the look and its keeping
        return taken

    monkeypatch.setattr(tournaments, "_progress", then_the_grace_time_passes)
    await tournaments.sweep_one(tid)
    monkeypatch.undo()
    record = await db.load_tournament(tid)
    assert record is not None and record.due_at is not None
    assert record.due_at.timestamp() == grace_ends
    assert await tournaments.sweep() == 1
    await settle(tournaments, clock)
    assert table.status == "cancelled"
    assert (await tournaments.load(tid)).status == "finished"
