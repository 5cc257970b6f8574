"""``python -m bot --recompute-ratings``: every rating rebuilt from the stored
finished matches, exactly the values the live updates left."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

from bot.store import Store
from tests.store.conftest import MatchMaker

from .helpers import run_bot

SNAPSHOT = "SELECT * FROM ratings ORDER BY guild_id, game_format, user_id"
CHANGES = "SELECT * FROM rating_changes ORDER BY match_id, user_id"


def rows(db: Path, sql: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as raw:
        return raw.execute(sql).fetchall()


async def test_recompute_ratings_rebuilds_the_live_values(tmp_path: Path) -> None:
    db = tmp_path / "hokm.sqlite3"
    make = MatchMaker()
    async with await Store.open(f"sqlite:///{db}") as store:
        for i in range(9):
            team0, team1 = ((1, 2), (3, 4)) if i % 2 else ((1, 4), (2, 3))
            await store.finish_match(make(team0=team0, team1=team1, winner=i % 3 % 2))
        await store.finish_match(replace(make(), hints=True))  # never rated
        await store.finish_match(make(guild_id=9, team0=(5, 6), team1=(7, None)))  # not allowed
    live, live_changes = rows(db, SNAPSHOT), rows(db, CHANGES)
    assert len(live) == 4 and len(live_changes) == 9 * 4
    with sqlite3.connect(db) as raw:  # wipe
        raw.execute("DELETE FROM rating_changes")
        raw.execute("DELETE FROM ratings")
    assert rows(db, SNAPSHOT) == []

    done = run_bot("--recompute-ratings", env={"HOKM_DATABASE_URL": f"sqlite:///{db}"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("ratings rebuilt from 9 rated matches"), done.stdout
    assert rows(db, SNAPSHOT) == live
    assert rows(db, CHANGES) == live_changes


def test_recompute_ratings_says_what_is_wrong_with_the_database(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "hokm.sqlite3"
    done = run_bot("--recompute-ratings", env={"HOKM_DATABASE_URL": f"sqlite:///{missing}"})
    assert done.returncode == 2
    assert done.stderr.startswith("error: database") and "Traceback" not in done.stderr
