"""Fixtures for the store tests: a fresh database per test on each backend, and a match builder.

Every test that uses ``scheme`` (through ``db_url`` or ``store``) runs on the stdlib sqlite3
threads, on aiosqlite and on PostgreSQL (asyncpg, ``tests/postgres.py``); a test about SQLite
itself (its files, pragmas, query plans) is marked ``@pytest.mark.sqlite_only`` and runs on the
two SQLite schemes.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

from bot.store import FinishedMatch, MatchPlayer, Store, TeamStats

BASE_TIME = datetime(2024, 3, 1, 18, 0, tzinfo=UTC)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "hokm.sqlite3"


SQLITE_SCHEMES = ("sqlite", "sqlite+aiosqlite")
POSTGRES = "postgresql+asyncpg"
SCHEMES = (*SQLITE_SCHEMES, POSTGRES)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "sqlite_only: a store test about SQLite itself (not run on PostgreSQL)"
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``scheme``: worker threads (stdlib sqlite3), aiosqlite's threads (the default)
    and PostgreSQL through asyncpg; ``sqlite_only`` tests get the first two."""
    if "scheme" in metafunc.fixturenames:
        sqlite_only = metafunc.definition.get_closest_marker("sqlite_only") is not None
        metafunc.parametrize("scheme", SQLITE_SCHEMES if sqlite_only else SCHEMES)


@pytest.fixture
def db_url(scheme: str, db_path: Path, request: pytest.FixtureRequest) -> str:
    """An empty database of the scheme: a new SQLite file, or the run's PostgreSQL database
    with a clean schema."""
    if scheme == POSTGRES:
        return str(request.getfixturevalue("pg_url"))
    return f"{scheme}:///{db_path}"


class RawSQL:
    """Plain SQL on a test's database behind the store's back, whatever the backend: to look
    at what was stored, or to plant rows the store would not write."""

    def __init__(self, url: str, db_path: Path) -> None:
        self.url = url
        self.db_path = db_path
        self.postgres = url.startswith("postgresql")

    async def execute(self, sql: str, **params: Any) -> list[tuple[Any, ...]]:
        """Run one statement in its own committed transaction; its rows, if any."""
        if not self.postgres:  # a plain sqlite3 connection, as an operator's tool would use
            engine = sa.create_engine(f"sqlite:///{self.db_path}", poolclass=NullPool)
            try:
                with engine.begin() as sync_conn:
                    found = sync_conn.execute(sa.text(sql), params)
                    return [tuple(r) for r in found.all()] if found.returns_rows else []
            finally:
                engine.dispose()
        engine = create_async_engine(self.url, poolclass=NullPool)
        try:
            async with engine.begin() as conn:
                result = await conn.execute(sa.text(sql), params)
                return [tuple(r) for r in result.all()] if result.returns_rows else []
        finally:
            await engine.dispose()

    async def counts(self, *tables: str) -> dict[str, int]:
        return {t: (await self.execute(f"SELECT count(*) FROM {t}"))[0][0] for t in tables}


@pytest.fixture
def raw_sql(db_url: str, db_path: Path) -> RawSQL:
    return RawSQL(db_url, db_path)


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
