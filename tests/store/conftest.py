"""Fixtures for the store tests: a fresh SQLite file per test and a match builder."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.store import FinishedMatch, MatchPlayer, Store, TeamStats

BASE_TIME = datetime(2024, 3, 1, 18, 0, tzinfo=UTC)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "hokm.sqlite3"


@pytest.fixture(params=["sqlite", "sqlite+aiosqlite"])
def scheme(request: pytest.FixtureRequest) -> str:
    """Both ways of running: worker threads (stdlib sqlite3) and an AsyncEngine (aiosqlite,
    the default and the same path asyncpg takes); every test that opens a store runs on both."""
    return str(request.param)


@pytest.fixture
def db_url(scheme: str, db_path: Path) -> str:
    return f"{scheme}:///{db_path}"


@pytest.fixture
async def store(db_url: str) -> AsyncIterator[Store]:
    s = await Store.open(db_url)
    try:
        yield s
    finally:
        await s.close()


class MatchMaker:
    """Builds valid matches with fresh ids and increasing finish times.

    `team0`/`team1` are the user ids in seats (0, 2) and (1, 3); None is a computer seat.
    """

    def __init__(self) -> None:
        self.count = 0

    def __call__(
        self,
        guild_id: int = 1,
        team0: tuple[int | None, int | None] = (1, 2),
        team1: tuple[int | None, int | None] = (3, 4),
        winner: int = 0,
        *,
        match_id: str | None = None,
        team_stats: tuple[TeamStats, TeamStats] | None = None,
        names: dict[int, str] | None = None,
        channel_id: int = 500,
    ) -> FinishedMatch:
        self.count += 1
        finished = BASE_TIME + timedelta(minutes=30 * self.count)
        seats = {0: team0[0], 2: team0[1], 1: team1[0], 3: team1[1]}
        players = tuple(
            MatchPlayer(
                seat=seat,
                team=seat % 2,
                user_id=uid,
                is_computer=uid is None,
                display_name=(names or {}).get(uid, f"user{uid}") if uid else f"Computer {seat}",
            )
            for seat, uid in sorted(seats.items())
        )
        scores = (7, 3) if winner == 0 else (2, 7)
        if team_stats is None:
            team_stats = (TeamStats(scores[0], 0, 0), TeamStats(scores[1], 0, 0))
        return FinishedMatch(
            match_id=match_id or f"m{self.count}",
            guild_id=guild_id,
            channel_id=channel_id,
            started_at=finished - timedelta(minutes=25),
            finished_at=finished,
            target_score=7,
            scores=scores,
            winner_team=winner,
            hands=[{"hand": 1, "hakem": 0, "trump": "hearts", "tricks": [7, 0], "points": 2}],
            players=players,
            team_stats=team_stats,
        )


@pytest.fixture
def make_match() -> MatchMaker:
    return MatchMaker()
