"""Standings: order, paging, member records with rank, guild isolation, index use."""

from __future__ import annotations

import random
import sqlite3
from collections import defaultdict
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.dialects import sqlite

from bot.store import FinishedMatch, Store, TeamStats

MakeMatch = Callable[..., FinishedMatch]


def expected_standings(batch: list[FinishedMatch], guild_id: int) -> list[tuple[int, ...]]:
    """Aggregate and order independently of the store: (user, played, won, hands, kots, hk)."""
    agg: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    for m in batch:
        if m.guild_id != guild_id:
            continue
        for p in m.players:
            if p.is_computer or p.user_id is None:
                continue
            t = m.team_stats[p.team]
            row = agg[p.user_id]
            row[0] += 1
            row[1] += m.winner_team == p.team
            row[2] += t.hands_won
            row[3] += t.kots_dealt
            row[4] += t.hakem_kots_suffered
    rows = [(uid, *vals) for uid, vals in agg.items()]
    rows.sort(key=lambda r: (-r[2], -r[2] / r[1], r[1], r[0]))
    return rows


def expected_ranks(rows: list[tuple[int, ...]]) -> list[int]:
    """Standard competition ranks (1, 1, 3), computed apart from the store: a row's rank is one
    more than the number of rows with a better record (more wins, then a higher win rate,
    then fewer matches); equal records share it."""

    def record(r: tuple[int, ...]) -> tuple[float, ...]:
        return (-r[2], -r[2] / r[1], r[1])

    return [1 + sum(record(o) < record(r) for o in rows) for r in rows]


def random_matches(make_match: MakeMatch, n: int, seed: int) -> list[FinishedMatch]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        guild = rng.choice([1, 2, 3])
        people: list[int | None] = rng.sample(range(1, 40), 4)
        for seat in range(4):
            if rng.random() < 0.15:
                people[seat] = None  # a computer player
        winner = rng.randint(0, 1)
        kot = rng.random() < 0.2
        stats = [TeamStats(rng.randint(0, 13), 0, 0), TeamStats(rng.randint(0, 13), 0, 0)]
        if kot:
            stats[winner] = TeamStats(stats[winner].hands_won, 1, 0)
            stats[1 - winner] = TeamStats(stats[1 - winner].hands_won, 0, rng.randint(0, 1))
        out.append(
            make_match(
                guild_id=guild,
                team0=(people[0], people[2]),
                team1=(people[1], people[3]),
                winner=winner,
                team_stats=(stats[0], stats[1]),
            )
        )
    return out


def as_tuple(r: Any) -> tuple[int, ...]:
    return (
        r.user_id,
        r.matches_played,
        r.matches_won,
        r.hands_won,
        r.kots_dealt,
        r.hakem_kots_suffered,
    )


async def test_order_paging_and_ranks(store: Store, make_match: MakeMatch) -> None:
    batch = random_matches(make_match, 400, seed=7)
    await store.finish_matches(batch[:150])
    for m in batch[150:200]:
        await store.finish_match(m)
    await store.finish_matches(batch[200:])

    for guild in (1, 2, 3):
        expected = expected_standings(batch, guild)
        first = await store.standings(guild, 1, per_page=7, order="wins")
        assert first.total_players == len(expected)
        assert first.pages == -(-len(expected) // 7)
        got = []
        for page in range(1, first.pages + 1):
            p = await store.standings(guild, page, per_page=7, order="wins")
            assert p.page == page and len(p.rows) <= 7
            got.extend(p.rows)
        assert [as_tuple(r) for r in got] == expected
        assert [r.rank for r in got] == expected_ranks(expected)
        assert any(a.rank == b.rank for a, b in pairwise(got)), "no tie seen"
        for r in got:
            assert r.win_rate == pytest.approx(r.matches_won / r.matches_played)
            assert await store.member_record(guild, r.user_id, order="wins") == r


async def test_the_leaderboard_by_rating(store: Store, make_match: MakeMatch) -> None:
    """Highest conservative rating first (the mirror of ``ratings`` in each
    standings row), then the record; ranks shared by equal ratings and records, across pages
    too, and a member's own rank agrees with the page."""
    batch = random_matches(make_match, 120, seed=11)
    await store.finish_matches(batch[:60])
    for m in batch[60:]:
        await store.finish_match(m)
    first = await store.standings(1, 1, per_page=5)
    got = []
    for page in range(1, first.pages + 1):
        got.extend((await store.standings(1, page, per_page=5)).rows)
    ratings = await store.ratings_of(1, [r.user_id for r in got])
    for r in got:  # the standings row carries the rating (0 for a member never rated)
        assert r.rating == (ratings[r.user_id].ordinal if r.user_id in ratings else 0.0)
    keys = [(-r.rating, -r.matches_won, -r.win_rate, r.matches_played, r.user_id) for r in got]
    assert keys == sorted(keys)
    assert len({r.rating for r in got}) > 5 and any(r.rating == 0.0 for r in got)
    by_wins = (await store.standings(1, 1, per_page=100, order="wins")).rows
    assert [r.user_id for r in got] != [r.user_id for r in by_wins]  # the order is the rating's
    for i, r in enumerate(got):
        assert r.rank == 1 + sum(1 for o in got[:i] if not keys_equal(o, r))
        assert await store.member_record(1, r.user_id) == r
    # after a rebuild the mirror is the same
    await store.recompute_ratings()
    again = []
    for page in range(1, first.pages + 1):
        again.extend((await store.standings(1, page, per_page=5)).rows)
    assert again == got


def keys_equal(a: Any, b: Any) -> bool:
    return (a.rating, a.matches_won, a.win_rate, a.matches_played) == (
        b.rating,
        b.matches_won,
        b.win_rate,
        b.matches_played,
    )


async def test_tie_breaks(store: Store, make_match: MakeMatch) -> None:
    """Wins, then win rate, then fewer matches, then user id for the listing; the user id
    orders equal records but does not rank them (equal records share a
    rank, 1, 1, 3)."""

    async def play(user: int, wins: int, losses: int) -> None:
        for i in range(wins + losses):
            won = i < wins
            await store.finish_match(
                make_match(team0=(user, None), team1=(None, None), winner=0 if won else 1)
            )

    await play(50, 2, 2)  # 2 wins, 0.50
    await play(40, 2, 0)  # 2 wins, 1.00
    await play(30, 2, 2)  # 2 wins, 0.50: same record as 50 -> listed first, same rank
    await play(20, 3, 9)  # most wins beats any rate
    await play(10, 0, 3)  # no wins: fewer matches first
    await play(11, 0, 1)
    await play(12, 0, 1)
    page = await store.standings(1, 1)
    assert [r.user_id for r in page.rows] == [20, 40, 30, 50, 11, 12, 10]
    assert [r.rank for r in page.rows] == [1, 2, 3, 3, 5, 5, 7]
    for user, rank in ((50, 3), (30, 3), (11, 5), (12, 5), (10, 7), (20, 1)):
        rec = await store.member_record(1, user)
        assert rec is not None and rec.rank == rank, user
    # a tie split across pages keeps its shared rank on the later page
    second = await store.standings(1, 2, per_page=3)
    assert [(r.user_id, r.rank) for r in second.rows] == [(50, 3), (11, 5), (12, 5)]
    third = await store.standings(1, 3, per_page=3)
    assert [(r.user_id, r.rank) for r in third.rows] == [(10, 7)]


async def test_paging_edges(store: Store, make_match: MakeMatch) -> None:
    empty = await store.standings(9, 1)
    assert (empty.total_players, empty.pages, empty.rows) == (0, 1, ())
    for i in range(5):
        await store.finish_match(make_match(team0=(10 + i, None), team1=(None, None)))
    assert len((await store.standings(1, 1, per_page=2)).rows) == 2
    assert len((await store.standings(1, 3, per_page=2)).rows) == 1
    past = await store.standings(1, 4, per_page=2)
    assert (past.rows, past.pages, past.total_players) == ((), 3, 5)
    with pytest.raises(ValueError):
        await store.standings(1, 0)
    with pytest.raises(ValueError):
        await store.standings(1, 1, per_page=0)
    with pytest.raises(ValueError):
        await store.standings(1, 1, per_page=101)


async def test_guild_isolation(store: Store, make_match: MakeMatch) -> None:
    await store.finish_match(make_match(guild_id=1, team0=(1, 2), team1=(3, 4)))
    await store.finish_match(make_match(guild_id=2, team0=(1, 5), team1=(6, 7), winner=1))
    g1 = await store.standings(1, 1)
    g2 = await store.standings(2, 1)
    assert {r.user_id for r in g1.rows} == {1, 2, 3, 4}
    assert {r.user_id for r in g2.rows} == {1, 5, 6, 7}
    one_in_1 = await store.member_record(1, 1)
    one_in_2 = await store.member_record(2, 1)
    assert one_in_1 is not None and one_in_2 is not None
    assert (one_in_1.matches_won, one_in_2.matches_won) == (1, 0)
    assert await store.member_record(2, 2) is None
    assert await store.member_record(3, 1) is None
    assert [m.match_id for m in await store.recent_matches(2, 1)] == ["m2"]
    assert await store.recent_matches(2, 2) == []


async def test_recent_matches_newest_first(store: Store, make_match: MakeMatch) -> None:
    for _ in range(7):
        await store.finish_match(make_match())
    recent = await store.recent_matches(1, 1, limit=3)
    assert [m.match_id for m in recent] == ["m7", "m6", "m5"]


def query_plan(db_path: Path, stmt: Any, **params: Any) -> str:
    compiled = stmt.compile(dialect=sqlite.dialect())
    args = [params.get(name, compiled.params.get(name)) for name in compiled.positiontup]
    with sqlite3.connect(db_path) as raw:
        rows = raw.execute(f"EXPLAIN QUERY PLAN {compiled}", args).fetchall()
    return " | ".join(r[3] for r in rows)


@pytest.mark.sqlite_only
async def test_hot_queries_use_their_indexes(store: Store, db_path: Path) -> None:
    """Page 1 must be an index walk (no sort), whatever the number of matches."""
    key = {"guild_id": 1, "game_format": "standard"}
    page = query_plan(db_path, store._ops.standings_pages["wins"], **key, limit=10, offset=0)
    assert "ix_standings_rank" in page and "TEMP B-TREE" not in page
    rank = query_plan(db_path, store._ops.member_ranks["wins"], **key, user_id=1)
    # a range within the guild's format, not the whole guild
    assert "ix_standings_rank (guild_id=? AND game_format=? AND matches_won>?)" in rank
    # by rating, the same
    page = query_plan(db_path, store._ops.standings_pages["rating"], **key, limit=10, offset=0)
    assert "ix_standings_rating" in page and "TEMP B-TREE" not in page
    rank = query_plan(db_path, store._ops.member_ranks["rating"], **key, user_id=1)
    assert "ix_standings_rating (guild_id=? AND game_format=? AND rating>?)" in rank
    channel = query_plan(db_path, store._ops.select_open_in_channel, channel_id=1)
    assert "uq_game_tables_open_channel" in channel
