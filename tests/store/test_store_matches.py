"""Finished matches: written exactly once, atomically, with standings kept in step."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.store import (
    FinishedMatch,
    MatchPlayer,
    StaleWrite,
    Store,
    StoreError,
    TableRecord,
    TeamStats,
)
from bot.store.ops import Ops
from tests.store.conftest import RawSQL

MakeMatch = Callable[..., FinishedMatch]


async def counts(raw_sql: RawSQL) -> dict[str, int]:
    return await raw_sql.counts("matches", "match_players", "standings")


async def snapshot(store: Store, guild_id: int) -> list[Any]:
    page = await store.standings(guild_id, 1, per_page=100)
    return list(page.rows)


async def test_finish_match_is_idempotent(
    store: Store, make_match: MakeMatch, raw_sql: RawSQL
) -> None:
    match = make_match(team_stats=(TeamStats(9, 1, 0), TeamStats(4, 0, 1)))
    assert await store.finish_match(match) is True
    before = await snapshot(store, 1)
    assert await store.finish_match(match) is False  # the retry after a crash
    assert await store.finish_matches([match, match]) == [False, False]
    assert await snapshot(store, 1) == before
    assert await counts(raw_sql) == {"matches": 1, "match_players": 4, "standings": 4}

    winner = await store.member_record(1, 1)
    loser = await store.member_record(1, 3)
    assert winner is not None and loser is not None
    assert (winner.matches_played, winner.matches_won, winner.win_rate) == (1, 1, 1.0)
    assert (winner.hands_won, winner.kots_dealt, winner.hakem_kots_suffered) == (9, 1, 0)
    assert (loser.matches_played, loser.matches_won, loser.win_rate) == (1, 0, 0.0)
    assert (loser.hands_won, loser.kots_dealt, loser.hakem_kots_suffered) == (4, 0, 1)
    assert winner.last_played_at == match.finished_at


async def test_match_details_are_kept(store: Store, make_match: MakeMatch, raw_sql: RawSQL) -> None:
    match = make_match(team0=(1, None), team1=(3, 4), winner=1)
    await store.finish_match(match)
    [row] = await raw_sql.execute(
        "SELECT team0_score, team1_score, winner_team, hands FROM matches"
    )
    seats = await raw_sql.execute(
        "SELECT seat, team, user_id, is_computer, display_name FROM match_players ORDER BY seat"
    )
    assert row[:3] == (2, 7, 1)
    assert row[3].startswith('[{"hand":1')
    assert seats == [
        (0, 0, 1, 0, "user1"),
        (1, 1, 3, 0, "user3"),
        (2, 0, None, 1, "Computer 2"),
        (3, 1, 4, 0, "user4"),
    ]
    [summary] = await store.recent_matches(1, 3)
    assert (summary.match_id, summary.won, summary.scores, summary.team) == (
        match.match_id,
        True,
        (2, 7),
        1,
    )


async def test_computer_players_get_no_standings(store: Store, make_match: MakeMatch) -> None:
    await store.finish_match(make_match(team0=(1, None), team1=(None, None)))
    page = await store.standings(1, 1)
    assert [r.user_id for r in page.rows] == [1]
    assert page.total_players == 1


async def test_finish_match_saves_the_final_table(store: Store, make_match: MakeMatch) -> None:
    table = await store.save_table(TableRecord("t1", 1, 500, "playing", 1, {"hand": 9}))
    assert await store.finish_match(make_match(), table.bump(state={"over": True})) is True
    final = await store.load_table("t1")
    assert final is not None
    assert (final.status, final.version, final.state) == ("finished", 2, {"over": True})
    assert await store.open_table_in_channel(500) is None


async def test_stale_table_rolls_back_the_match(
    store: Store, make_match: MakeMatch, raw_sql: RawSQL
) -> None:
    table = await store.save_table(TableRecord("t1", 1, 500, "playing", 1, {}))
    await store.save_table(table.bump())  # someone else moved on to version 2
    match = make_match()
    with pytest.raises(StaleWrite):
        await store.finish_match(match, table.bump())
    assert await counts(raw_sql) == {"matches": 0, "match_players": 0, "standings": 0}
    assert await store.finish_match(match) is True  # nothing half-written blocks a retry


async def test_failure_midway_writes_nothing(
    store: Store, make_match: MakeMatch, raw_sql: RawSQL
) -> None:
    await store.finish_match(make_match())
    before = await counts(raw_sql), await snapshot(store, 1)

    # A player row the database rejects (no table has a seventh team), after the match row
    # went in. Built past the dataclass checks on purpose: this is the database's guard.
    bad = make_match()
    players = list(bad.players)
    object.__setattr__(players[1], "team", 6)
    object.__setattr__(bad, "players", tuple(players))
    with pytest.raises(StoreError, match="rejected by the database"):
        await store.finish_match(bad)
    assert (await counts(raw_sql), await snapshot(store, 1)) == before

    # And a failure after the match and player rows, while rating the match (on every
    # backend's write path: PostgreSQL's writes the standings in the statement after it).
    def boom(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("power cut")

    later = make_match()
    store._ops._apply = boom  # type: ignore[method-assign]
    with pytest.raises(RuntimeError, match="power cut"):
        await store.finish_match(later)
    assert (await counts(raw_sql), await snapshot(store, 1)) == before
    del store._ops._apply
    assert await store.finish_match(later) is True


async def test_batch_equals_one_by_one(tmp_path: Path, make_match: MakeMatch, db_url: str) -> None:
    """`finish_matches` must count exactly what the same matches one by one would (one by one
    on SQLite's threads, in batches on each backend)."""
    tables = [((1, 2), (3, 4)), ((1, 3), (2, 4)), ((5, None), (None, 6)), ((6, 1), (5, None))]
    batch = [
        make_match(
            guild_id=1 + i % 2,
            team0=tables[i % len(tables)][0],
            team1=tables[i % len(tables)][1],
            winner=(i * 7) % 3 % 2,
            team_stats=(TeamStats(i % 5, i % 2, 0), TeamStats(3, 0, int(i % 3 == 0))),
            names={1: f"one-{i}"},
        )
        for i in range(40)
    ]
    async with await Store.open(f"sqlite:///{tmp_path / 'single.db'}") as single:
        for m in batch:
            assert await single.finish_match(m) is True
        expected = [await snapshot(single, 1), await snapshot(single, 2)]

    async with await Store.open(db_url) as batched:
        assert await batched.finish_matches(batch[:10]) == [True] * 10
        flags = await batched.finish_matches([*batch[5:], batch[20]])
        assert flags == [False] * 5 + [True] * 30 + [False]
        assert [await snapshot(batched, 1), await snapshot(batched, 2)] == expected
        one = await batched.member_record(1, 1)
        assert one is not None and one.display_name == "one-36"  # newest name wins (i=36)


async def test_portable_fallback_path_agrees(
    tmp_path: Path, make_match: MakeMatch, db_path: Path
) -> None:
    """The non-ON-CONFLICT code path (other databases) gives the same results."""
    batch = [make_match(team0=(1, 2), team1=(3, 4), winner=i % 2) for i in range(6)]
    async with await Store.open(f"sqlite:///{db_path}") as native:
        await native.finish_matches(batch[:3])
        await native.finish_matches(batch)
        expected = await snapshot(native, 1)

    async with await Store.open(f"sqlite:///{tmp_path / 'fallback.db'}") as plain:
        plain._ops = Ops("sqlite", native_upsert=False)
        assert await plain.finish_matches(batch[:3]) == [True] * 3
        assert await plain.finish_matches(batch) == [False] * 3 + [True] * 3
        assert await plain.finish_match(batch[0]) is False
        assert await snapshot(plain, 1) == expected
        settings = (await plain.get_guild_settings(1)).with_changes(language="fa")
        await plain.set_guild_settings(1, settings)
        await plain.set_guild_settings(1, settings.with_changes(target_score=3))
        assert (await plain.get_guild_settings(1)).target_score == 3


def test_match_validation(make_match: MakeMatch) -> None:
    m = make_match()
    with pytest.raises(ValueError, match="timezone-aware"):
        replace(m, finished_at=m.finished_at.replace(tzinfo=None))
    with pytest.raises(ValueError, match="winner_team"):
        replace(m, winner_team=2)
    with pytest.raises(ValueError, match="duplicate seats"):
        replace(m, players=(*m.players[:3], m.players[0]))
    with pytest.raises(ValueError, match="two seats"):
        replace(m, players=(*m.players[:2], replace(m.players[2], user_id=1), m.players[3]))
    wrong_team = replace(m.players[1], team=0)  # the standard table: seat 2 plays for team 2
    with pytest.raises(ValueError, match="does not play for team"):
        replace(m, players=(m.players[0], wrong_team, *m.players[2:]))
    with pytest.raises(ValueError, match="seat must be 0-5"):
        MatchPlayer(seat=6, team=0, user_id=5, is_computer=False, display_name="x")
    with pytest.raises(ValueError, match="needs a user_id"):
        MatchPlayer(seat=1, team=1, user_id=None, is_computer=False, display_name="x")
    assert len(MatchPlayer(0, 0, 1, False, "n" * 500).display_name) == 100
