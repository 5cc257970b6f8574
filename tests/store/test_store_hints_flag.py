"""A finished match carries whether hints were on, so ratings can leave it
out; the migration that adds the flag keeps every older match as played without hints."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from argparse import Namespace
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from alembic import command
from alembic.config import Config

from bot.store import FinishedMatch, Store
from bot.store.guild_settings import GuildSettings
from bot.store.migrate import MIGRATIONS_DIR, head_revision
from tests.store.conftest import RawSQL

MakeMatch = Callable[..., FinishedMatch]


async def test_hints_setting_is_off_by_default_and_older_stored_settings_read_it_off(
    store: Store,
) -> None:
    assert GuildSettings().hints is False
    assert GuildSettings.from_stored({"language": "fa"}).hints is False
    await store.set_guild_settings(7, GuildSettings().with_changes(hints=True))
    assert (await store.get_guild_settings(7)).hints is True


async def test_a_hinted_match_is_recorded_as_hinted(
    store: Store, make_match: MakeMatch, raw_sql: RawSQL
) -> None:
    plain = make_match()
    hinted = replace(make_match(), hints=True)
    assert plain.hints is False  # the default: a match without hints
    assert await store.finish_matches([plain, hinted]) == [True, True]
    rows = dict(await raw_sql.execute("SELECT match_id, hints FROM matches"))
    assert rows == {plain.match_id: False, hinted.match_id: True}
    summaries = {s.match_id: s.hints for s in await store.recent_matches(1, 1)}
    assert summaries == {plain.match_id: False, hinted.match_id: True}


def test_the_migration_keeps_older_matches_as_played_without_hints(tmp_path: Path) -> None:
    """A database at 0001 (before the flag) with a match in it, upgraded to head: the old
    match reads ``hints`` false, and a downgrade drops the column again."""
    db = tmp_path / "old.db"
    config = Config(
        str(MIGRATIONS_DIR / "alembic.ini"), cmd_opts=Namespace(x=[f"url=sqlite:///{db}"])
    )
    root = logging.getLogger()
    saved = list(root.handlers), root.level  # alembic's ini configures logging
    try:
        command.upgrade(config, "0001_initial")
        stamp = datetime(2024, 1, 1, tzinfo=UTC).isoformat()
        with sqlite3.connect(db) as raw:
            raw.execute(
                "INSERT INTO matches VALUES ('old', 1, 2, ?, ?, 7, 7, 3, 0, 7, 0, 0, 3, 0, 0, '[]')",
                (stamp, stamp),
            )
        command.upgrade(config, "head")
        with sqlite3.connect(db) as raw:
            assert raw.execute("SELECT hints FROM matches").fetchall() == [(0,)]
        command.downgrade(config, "0001_initial")
        with sqlite3.connect(db) as raw:
            columns = [r[1] for r in raw.execute("PRAGMA table_info(matches)")]
        assert "hints" not in columns and "hands" in columns
        command.upgrade(config, "head")
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])

    async def reopen() -> None:
        async with await Store.open(f"sqlite:///{db}") as s:
            assert s is not None

    asyncio.run(reopen())
    with sqlite3.connect(db) as raw:
        assert [r[0] for r in raw.execute("SELECT version_num FROM alembic_version")] == [
            head_revision()
        ]
