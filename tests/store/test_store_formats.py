"""Every format's finished matches are recorded (up to six seats and six teams, each
team's results kept), standings are kept per format, and the migration that makes room for
them keeps every older match, player and standings row as the standard game."""

from __future__ import annotations

import logging
import sqlite3
from argparse import Namespace
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config

from bot.store import FinishedMatch, MatchPlayer, Store, TeamStats
from bot.store.migrate import MIGRATIONS_DIR

from .conftest import BASE_TIME


def solo_match(match_id: str, users: tuple[int | None, ...], winner: int) -> FinishedMatch:
    """Everyone alone (V3/V4): a team per seat; ``None`` is a computer."""
    scores = tuple(3 if team == winner else team % 2 for team in range(len(users)))
    return FinishedMatch(
        match_id=match_id,
        guild_id=1,
        channel_id=500,
        started_at=BASE_TIME,
        finished_at=BASE_TIME + timedelta(minutes=int(match_id[1:] or 0)),
        target_score=3,
        scores=scores,
        winner_team=winner,
        hands=[],
        players=tuple(
            MatchPlayer(seat, seat, uid, uid is None, f"user{uid}")
            for seat, uid in enumerate(users)
        ),
        team_stats=tuple(TeamStats(hands_won=s) for s in scores),
        game_format="test-solo",
    )


async def test_a_five_seat_solo_match_is_recorded_with_every_team(store: Store) -> None:
    match = solo_match("m1", (1, 2, None, 3, 4), winner=3)
    assert await store.finish_match(match) is True
    recent = await store.recent_matches(1, 3)
    assert [(m.scores, m.won, m.game_format) for m in recent] == [
        ((0, 1, 0, 3, 0), True, "test-solo")
    ]
    page = await store.standings(1, 1, game_format="test-solo")
    assert page.game_format == "test-solo" and page.total_players == 4
    assert [(r.user_id, r.matches_won, r.rank) for r in page.rows][:1] == [(3, 1, 1)]
    # the standard game's standings know nothing of it
    assert (await store.standings(1, 1)).total_players == 0
    assert await store.member_record(1, 3) is None
    record = await store.member_record(1, 3, "test-solo")
    assert record is not None and record.game_format == "test-solo" and record.hands_won == 3


async def test_standings_are_kept_per_format(store: Store, make_match: object) -> None:
    assert callable(make_match)
    await store.finish_match(make_match())  # standard: users 1, 2 win against 3, 4
    await store.finish_match(solo_match("m2", (1, 3, 5), winner=1))
    await store.finish_match(solo_match("m3", (1, 3, 5), winner=1))
    standard = await store.member_record(1, 3)
    solo = await store.member_record(1, 3, "test-solo")
    assert standard is not None and (standard.matches_played, standard.matches_won) == (1, 0)
    assert solo is not None and (solo.matches_played, solo.matches_won, solo.rank) == (2, 2, 1)


def test_a_match_names_its_teams_consistently() -> None:
    with pytest.raises(ValueError, match="winner_team"):
        solo_match("m1", (1, 2, 3), winner=3)
    with pytest.raises(ValueError, match="seat must be 0-5"):
        MatchPlayer(6, 0, 1, False, "x")
    match = solo_match("m1", (1, 2, 3), winner=0)
    with pytest.raises(ValueError, match="one entry per team"):
        replace(match, scores=(*match.scores, 0, 0, 0, 0))


def test_the_migration_keeps_older_matches_players_and_standings(tmp_path: Path) -> None:
    """A database at 0002 with a match, its four players and a standings row, upgraded: all
    of it is the standard game now (the players survive the rebuild of their table); a
    downgrade keeps the standard game's rows and leaves the other formats' behind."""
    db = tmp_path / "old.db"
    config = Config(
        str(MIGRATIONS_DIR / "alembic.ini"), cmd_opts=Namespace(x=[f"url=sqlite:///{db}"])
    )
    root = logging.getLogger()
    saved = list(root.handlers), root.level  # alembic's ini configures logging
    stamp = BASE_TIME.isoformat(" ")[:-6]
    try:
        command.upgrade(config, "0002_match_hints")
        with sqlite3.connect(db) as raw:
            raw.execute(
                "INSERT INTO matches VALUES "
                "('old', 1, 2, ?, ?, 7, 7, 3, 0, 7, 0, 0, 3, 0, 0, '[]', 0)",
                (stamp, stamp),
            )
            for seat in range(4):
                raw.execute(
                    "INSERT INTO match_players VALUES ('old', ?, ?, ?, 0, 'n', 1, ?)",
                    (seat, seat % 2, 10 + seat, stamp),
                )
            raw.execute(
                "INSERT INTO standings VALUES (1, 10, 'n', 1, 1, 1.0, 7, 0, 0, ?)", (stamp,)
            )
        command.upgrade(config, "head")
        with sqlite3.connect(db) as raw:
            assert raw.execute("SELECT match_id, game_format FROM matches").fetchall() == [
                ("old", "standard")
            ]
            assert raw.execute("SELECT count(*) FROM match_players").fetchone() == (4,)
            assert raw.execute("SELECT game_format, user_id FROM standings").fetchall() == [
                ("standard", 10)
            ]
            assert raw.execute("PRAGMA foreign_key_check").fetchall() == []
            raw.execute(
                "INSERT INTO matches (match_id, guild_id, channel_id, started_at, finished_at, "
                "target_score, team0_score, team1_score, winner_team, team0_hands_won, "
                "team0_kots_dealt, team0_hakem_kots_suffered, team1_hands_won, team1_kots_dealt, "
                "team1_hakem_kots_suffered, hands, game_format, team_results) "
                "VALUES ('solo', 1, 2, ?, ?, 3, 0, 0, 2, 0, 0, 0, 0, 0, 0, '[]', 'test-solo', "
                "'[[0,0,0,0],[0,0,0,0],[3,3,0,0]]')",
                (stamp, stamp),
            )
            raw.execute(
                "INSERT INTO match_players VALUES ('solo', 2, 2, 10, 0, 'n', 1, ?)", (stamp,)
            )
        command.downgrade(config, "0002_match_hints")
        with sqlite3.connect(db) as raw:
            assert raw.execute("SELECT match_id FROM matches").fetchall() == [("old",)]
            assert raw.execute("SELECT count(*) FROM match_players").fetchone() == (4,)
            assert raw.execute("SELECT count(*) FROM standings").fetchone() == (1,)
        command.upgrade(config, "head")
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])
