"""``/hokm history``'s store: a server's or a member's finished matches, newest first,
ten a page; one match with its replay record, only within its own server."""

from __future__ import annotations

import dataclasses
import logging
import sqlite3
from argparse import Namespace
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.dialects import postgresql
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

from bot.service.errors import ActionError
from bot.service.match_history import MatchHistory
from bot.store import FinishedMatch, Store
from bot.store import history_ops as history_module
from bot.store.migrate import MIGRATIONS_DIR
from engine.shelem.story import ShelemStory
from engine.shelem.story import record as shelem_record
from engine.shelem.story import story as shelem_story
from tests.matches import played_shelem

from .conftest import MatchMaker, RawSQL
from .test_store_standings import query_plan

REPLAY = {"v": 1, "format": "standard", "seed": 5, "rules": {}, "actions": ["AS KS", ["x", 1]]}


async def record(store: Store, *matches: FinishedMatch) -> None:
    for m in matches:
        assert await store.finish_match(m)


async def test_a_servers_matches_newest_first_ten_a_page(store: Store) -> None:
    make = MatchMaker()
    ours = [make(guild_id=1, team0=(1, 2), team1=(3, None)) for _ in range(23)]
    theirs = make(guild_id=2)
    await record(store, *ours, theirs)
    first = await store.history(1, 1)
    assert (first.total, first.pages, first.deeper) == (23, 3, False)
    newest = sorted(ours, key=lambda m: m.finished_at, reverse=True)
    assert [e.match_id for e in first.rows] == [m.match_id for m in newest[:10]]
    third = await store.history(1, 3)
    assert [e.match_id for e in third.rows] == [m.match_id for m in newest[20:]]
    assert (await store.history(1, 4)).rows == ()  # past the end: nothing, no error
    # each row: players in seat order (a computer too), the format, every team's score
    row = first.rows[0]
    m = newest[0]
    assert row.players == m.players and row.scores == m.scores == (7, 3)
    assert (row.winner_team, row.game_format, row.target_score) == (0, "standard", 7)
    assert (row.finished_at, row.channel_id, row.hints) == (m.finished_at, 500, False)
    other = await store.history(2, 1)
    assert [e.match_id for e in other.rows] == [theirs.match_id]
    empty = await store.history(3, 1)
    assert (empty.total, empty.pages, empty.rows) == (0, 1, ())
    with pytest.raises(ValueError):
        await store.history(1, 0)


async def test_matches_finished_in_the_same_instant_keep_one_order(store: Store) -> None:
    """Ties of ``finished_at`` are broken by match id, so no match shows on two pages."""
    make = MatchMaker()
    base = make()
    same = [dataclasses.replace(make(), finished_at=base.finished_at) for _ in range(5)]
    await record(store, base, *same)
    seen = [e.match_id for p in (1, 2, 3) for e in (await store.history(1, p, per_page=2)).rows]
    assert seen == sorted(seen, reverse=True) and len(set(seen)) == 6


async def test_a_members_matches_only(store: Store) -> None:
    make = MatchMaker()
    with_5 = [make(team0=(5, 2), team1=(3, 4)) for _ in range(12)]
    without = [make(team0=(1, 2), team1=(3, 4)) for _ in range(3)]
    elsewhere = make(guild_id=9, team0=(5, 2))
    await record(store, *with_5, *without, elsewhere)
    page = await store.history(1, 1, user_id=5)
    assert (page.total, page.pages, page.user_id) == (12, 2, 5)
    expected = [m.match_id for m in reversed(with_5)]
    assert [e.match_id for e in page.rows] == expected[:10]
    assert [e.match_id for e in (await store.history(1, 2, user_id=5)).rows] == expected[10:]
    assert all(5 in [p.user_id for p in e.players] for e in page.rows)
    assert (await store.history(1, 1, user_id=77)).total == 0


async def test_the_pages_reach_back_a_bounded_depth(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The count stops past ``HISTORY_DEPTH``: its cost does not grow with the server's age,
    and the footer says "more" instead of a number it did not count."""
    monkeypatch.setattr(history_module, "HISTORY_DEPTH", 5)
    make = MatchMaker()
    await record(store, *(make() for _ in range(8)))
    first = await store.history(1, 1, per_page=2)
    assert (first.total, first.pages, first.deeper) == (5, 3, True)
    last = await store.history(1, 3, per_page=2)
    assert len(last.rows) == 1  # the fifth newest, not the sixth
    assert (await store.history(1, 4, per_page=2)).rows == ()
    exact = await store.history(1, 1, per_page=2, user_id=1)
    assert exact.deeper and exact.total == 5


async def test_a_replay_is_read_only_within_its_own_server(store: Store) -> None:
    make = MatchMaker()
    kept = dataclasses.replace(make(guild_id=1), replay=REPLAY)
    old = make(guild_id=1)  # as recorded before replays were kept
    await record(store, kept, old)
    found = await store.match_replay(1, kept.match_id)
    assert found is not None and found.replay == REPLAY
    assert found.entry.match_id == kept.match_id and found.entry.players == kept.players
    before = await store.match_replay(1, old.match_id)
    assert before is not None and before.replay is None
    assert await store.match_replay(2, kept.match_id) is None  # another server's id
    assert await store.match_replay(1, "nosuchmatch") is None


async def test_v6_a_shelem_matchs_record_round_trips_through_the_store_and_replays(
    store: Store,
) -> None:
    """The record ``finished_match`` keeps for a Shelem match is read back as it was
    written and replays, through ``MatchHistory``, to the match that was played; a Shelem match
    stored without one keeps saying its replay is unavailable, and a record that does not end
    as the stored match did is refused."""
    kept, match = played_shelem(3, (1, 2, None, 4), 1, 1)
    other, _ = played_shelem(4, (1, 2, None, 4), 1, 2)
    assert kept.replay is not None and kept.replay["format"] == "shelem"
    old = dataclasses.replace(kept, match_id="old", replay=None)
    swapped = dataclasses.replace(kept, match_id="swapped", replay=other.replay)
    await record(store, kept, old, swapped)
    found = await store.match_replay(1, kept.match_id)
    assert found is not None and found.replay == kept.replay
    assert found.entry.game_format == "shelem" and found.entry.scores == tuple(match.scores)
    assert shelem_story(found.replay) == shelem_story(shelem_record(match))
    history = MatchHistory(store)
    replay = await history.replay(1, kept.match_id)
    assert isinstance(replay.story, ShelemStory)
    assert [h.result for h in replay.story.hands] == match.hand_results
    assert (replay.story.scores, replay.story.winner_team) == (kept.scores, kept.winner_team)
    with pytest.raises(ActionError, match="replay_unavailable"):
        await history.replay(1, "old")
    with pytest.raises(ActionError, match="replay_broken"):
        await history.replay(1, "swapped")
    with pytest.raises(ActionError, match="replay_unknown"):
        await history.replay(2, kept.match_id)  # another server's


async def test_a_match_recorded_twice_keeps_one_replay(store: Store, raw_sql: RawSQL) -> None:
    m = dataclasses.replace(MatchMaker()(), replay=REPLAY)
    assert await store.finish_match(m)
    assert not await store.finish_match(dataclasses.replace(m, replay={"v": 1, "other": 1}))
    assert await store.finish_matches([dataclasses.replace(m, match_id="b2")]) == [True]
    assert await raw_sql.counts("match_replays") == {"match_replays": 2}
    found = await store.match_replay(1, m.match_id)
    assert found is not None and found.replay == REPLAY


async def test_history_pages_walk_their_indexes(store: Store, db_path: Path, db_url: str) -> None:
    """No sort of a server's matches, whatever their number: the page of ids walks
    ``ix_matches_guild_history`` (a server) or ``ix_match_players_history`` (a member) in the
    page's order; only the ten matches of the page are then joined to their players."""
    ops = store._ops
    if store.backend == "sqlite":
        server = query_plan(db_path, ops._history_pages[False], guild_id=1, limit=10, offset=0)
        assert "ix_matches_guild_history (guild_id=?)" in server, server
        member = query_plan(
            db_path, ops._history_pages[True], guild_id=1, user_id=2, limit=10, offset=0
        )
        assert "COVERING INDEX ix_match_players_history (guild_id=? AND user_id=?)" in member
        for plan in (server, member):
            assert "SCAN matches" not in plan and "SCAN match_players" not in plan, plan
        count = query_plan(db_path, ops._history_counts[True], guild_id=1, user_id=2, cap=10)
        assert "COVERING INDEX ix_match_players_history" in count
        return
    make = MatchMaker()
    await store.finish_matches([make(team0=(i, 2)) for i in range(5, 40)])
    engine = create_async_engine(db_url, poolclass=NullPool)
    try:
        for member, index in (
            (False, "ix_matches_guild_history"),
            (True, "ix_match_players_history"),
        ):
            stmt = ops._history_pages[member].params(guild_id=1, user_id=3, limit=10, offset=0)
            sql = stmt.compile(dialect=postgresql.dialect(), compile_kwargs={"literal_binds": True})
            async with engine.begin() as conn:  # tiny tables: tell it to prefer the indexes
                await conn.execute(sa.text("SET LOCAL enable_seqscan = off"))
                plan = "\n".join(r[0] for r in await conn.execute(sa.text(f"EXPLAIN {sql}")))
            assert f"Scan Backward using {index}" in plan, plan
    finally:
        await engine.dispose()


@pytest.mark.sqlite_only
async def test_matches_from_before_replays_are_listed_without_one(
    db_url: str, db_path: Path
) -> None:
    """Down to 0004 (no replays, the old indexes) and up again with matches stored: they are
    all still listed, and none has a replay (a downgrade drops them); new ones keep theirs."""
    make = MatchMaker()
    async with await Store.open(db_url) as store:
        await record(store, dataclasses.replace(make(), replay=REPLAY), make())
    config = Config(
        str(MIGRATIONS_DIR / "alembic.ini"), cmd_opts=Namespace(x=[f"url=sqlite:///{db_path}"])
    )
    root = logging.getLogger()
    saved = list(root.handlers), root.level  # alembic's ini configures logging
    try:
        command.downgrade(config, "0004_ratings")
        with sqlite3.connect(db_path) as raw:
            names = {r[0] for r in raw.execute("SELECT name FROM sqlite_master")}
        assert "match_replays" not in names and "ix_matches_guild_finished" in names
        command.upgrade(config, "head")
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])
    async with await Store.open(db_url) as store:
        page = await store.history(1, 1)
        assert [e.match_id for e in page.rows] == ["m2", "m1"]
        for entry in page.rows:
            found = await store.match_replay(1, entry.match_id)
            assert found is not None and found.replay is None
        await record(store, dataclasses.replace(make(), replay=REPLAY))
        found = await store.match_replay(1, "m3")
        assert found is not None and found.replay == REPLAY
