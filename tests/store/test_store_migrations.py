"""Start-up: migrations at open and by hand, and one clear StoreError for each bad database."""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
import threading
from argparse import Namespace
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection, create_engine

from bot.store import SchemaTooNew, Store, StoreError, TableRecord
from bot.store.database import normalize_url, safe_url
from bot.store.migrate import MIGRATIONS_DIR, head_revision
from bot.store.schema import metadata

INI = MIGRATIONS_DIR / "alembic.ini"
TABLES = {
    "alembic_version",
    "guild_settings",
    "game_tables",
    "seated_members",
    "matches",
    "match_players",
    "match_replays",
    "match_analyses",
    "standings",
    "ratings",
    "rating_changes",
    "tournaments",
    "tournament_tables",
    "puzzles",
    "puzzle_attempts",
    "table_deliveries",
    "match_summaries",
}


def revision(db_path: Path) -> list[str]:
    with sqlite3.connect(db_path) as raw:
        return [r[0] for r in raw.execute("SELECT version_num FROM alembic_version")]


def tables(db_path: Path) -> set[str]:
    with sqlite3.connect(db_path) as raw:
        return {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def write_garbage(path: Path, data: bytes) -> None:
    path.write_bytes(data)


def pragma(db_path: Path, name: str) -> object:
    with sqlite3.connect(db_path) as raw:
        return raw.execute(f"PRAGMA {name}").fetchone()[0]


@pytest.mark.sqlite_only
async def test_fresh_database_is_migrated_to_head(db_url: str, db_path: Path) -> None:
    async with await Store.open(db_url):
        pass
    assert revision(db_path) == [head_revision()]
    assert tables(db_path) == TABLES
    assert pragma(db_path, "journal_mode") == "wal"


def _pragmas(conn: Connection) -> list[object]:
    names = ("journal_mode", "synchronous", "foreign_keys", "busy_timeout")
    return [conn.exec_driver_sql(f"PRAGMA {p}").scalar() for p in names]


@pytest.mark.sqlite_only
async def test_connection_pragmas(store: Store) -> None:
    """Set by an engine event, so every pooled connection has them, readers and writer."""
    assert await store._runner.read(_pragmas) == ["wal", 1, 1, 5000]  # synchronous 1 = NORMAL
    assert await store._runner.write(_pragmas) == ["wal", 1, 1, 5000]


@pytest.mark.sqlite_only
async def test_reopen_is_a_no_op(db_url: str, db_path: Path) -> None:
    async with await Store.open(db_url) as s:
        await s.save_table(TableRecord("t1", 1, 2, "lobby", 1, {"k": "v"}))
    schema_before = sqlite3.connect(db_path).execute("SELECT sql FROM sqlite_master").fetchall()
    async with await Store.open(db_url) as s:
        assert (await s.load_table("t1")) is not None
    assert sqlite3.connect(db_path).execute("SELECT sql FROM sqlite_master").fetchall() == (
        schema_before
    )
    assert revision(db_path) == [head_revision()]


@pytest.mark.sqlite_only
async def test_migrations_match_the_table_definitions(db_path: Path, store: Store) -> None:
    """The hand-written migration and schema.py must describe the same database."""
    engine = create_engine(f"sqlite:///{db_path}")
    with engine.connect() as conn:
        diffs = compare_metadata(MigrationContext.configure(conn), metadata)
    engine.dispose()
    assert diffs == []


def _keep_logging() -> tuple[list[logging.Handler], int]:
    root = logging.getLogger()
    return list(root.handlers), root.level


def _restore_logging(saved: tuple[list[logging.Handler], int]) -> None:
    root = logging.getLogger()
    root.handlers[:] = saved[0]
    root.setLevel(saved[1])


def test_upgrade_by_hand_with_the_packaged_ini(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`alembic -c bot/store/migrations/alembic.ini upgrade head`, through the API."""
    saved = _keep_logging()
    try:
        by_env = tmp_path / "by_env.db"
        monkeypatch.setenv("HOKM_DATABASE_URL", f"sqlite+aiosqlite:///{by_env}")
        command.upgrade(Config(str(INI)), "head")
        assert revision(by_env) == [head_revision()]

        by_x = tmp_path / "by_x.db"  # -x url=... wins over the environment
        command.upgrade(Config(str(INI), cmd_opts=Namespace(x=[f"url=sqlite:///{by_x}"])), "head")
        assert revision(by_x) == [head_revision()]
        assert tables(by_x) == TABLES
    finally:
        _restore_logging(saved)

    async def reopen() -> None:  # the bot then starts on it without migrating again
        async with await Store.open(f"sqlite:///{by_x}") as s:
            assert await s.load_live_tables() == []

    asyncio.run(reopen())


@pytest.mark.sqlite_only
async def test_schema_newer_than_code(db_url: str, db_path: Path) -> None:
    async with await Store.open(db_url):
        pass
    with sqlite3.connect(db_path) as raw:
        raw.execute("UPDATE alembic_version SET version_num = '0099_from_the_future'")
    with pytest.raises(SchemaTooNew, match="0099_from_the_future") as info:
        await Store.open(db_url)
    assert isinstance(info.value, StoreError)
    assert str(db_path) in str(info.value) and "newer than this code" in str(info.value)


@pytest.mark.sqlite_only
async def test_missing_directory(tmp_path: Path, scheme: str) -> None:
    missing = tmp_path / "no" / "such"
    with pytest.raises(StoreError, match=f"database directory {missing} does not exist"):
        await Store.open(f"{scheme}:///{missing / 'hokm.sqlite3'}")
    assert not missing.exists()  # not created behind the operator's back


@pytest.mark.sqlite_only
async def test_path_is_a_directory(tmp_path: Path, scheme: str) -> None:
    with pytest.raises(StoreError, match="is a directory"):
        await Store.open(f"{scheme}:///{tmp_path}")


@pytest.mark.sqlite_only
async def test_corrupt_file(db_path: Path, db_url: str) -> None:
    write_garbage(db_path, b"this is not a database\x00" * 512)
    with pytest.raises(StoreError, match="corrupt or not a SQLite database") as info:
        await Store.open(db_url)
    assert str(db_path) in str(info.value)


@pytest.mark.sqlite_only
async def test_read_only_uri(db_path: Path, db_url: str, scheme: str) -> None:
    """A database SQLite can only read (here: opened with mode=ro) is refused at start-up."""
    async with await Store.open(db_url):
        pass
    with pytest.raises(StoreError, match="is read-only") as info:
        await Store.open(f"{scheme}:///file:{db_path}?mode=ro&uri=true")
    assert str(db_path) in str(info.value)


_OPEN_AS_NOBODY = textwrap.dedent(
    """
    import asyncio, os, sys
    from bot.store import Store, StoreError
    from bot.store.migrate import MIGRATIONS_DIR

    # Warm every lazy import first: the interpreter may live where nobody cannot read.
    async def warm():
        async with await Store.open("sqlite://"):
            pass
    asyncio.run(warm())
    if os.geteuid() == 0:
        os.setgid(65534)
        os.setuid(65534)
    if not os.access(MIGRATIONS_DIR / "env.py", os.R_OK):
        sys.exit(4)  # this checkout is private to root: the test cannot run here
    for url in sys.argv[1:]:
        try:
            asyncio.run(Store.open(url))
        except StoreError as exc:
            print("refused:", exc)
        else:
            print("opened:", url)
    """
)


@pytest.mark.sqlite_only
def test_read_only_permissions(scheme: str) -> None:
    """Real permissions: a read-only file, and a writable file in a read-only directory.

    Root ignores permissions, so the opens run in one child that drops to nobody. The
    files live in fresh directories under the system temp dir because pytest's own
    tmp_path is private to root and nobody could not even reach it.
    """
    top = Path(tempfile.mkdtemp(prefix="hokm-store-ro-"))
    try:
        for parent in top.parents:
            if os.geteuid() == 0 and not parent.stat().st_mode & 0o001:
                pytest.skip(f"{parent} cannot be traversed by other users")
        dbs = []
        for what in ("file", "directory"):
            home = top / what
            home.mkdir()
            db = home / "hokm.sqlite3"
            asyncio.run(_create(db))
            for extra in home.iterdir():
                extra.chmod(0o644)  # readable by anyone, writable only by the owner
            if what == "file":
                db.chmod(0o444)
            home.chmod(0o555 if what == "directory" else 0o755)
            dbs.append(db)
        top.chmod(0o755)
        result = subprocess.run(
            [sys.executable, "-c", _OPEN_AS_NOBODY, *(f"{scheme}:///{db}" for db in dbs)],
            capture_output=True,
            text=True,
            cwd=Path(__file__).resolve().parents[2],
            check=False,
        )
    finally:
        for d in (top, *top.iterdir()):
            d.chmod(0o755)
        shutil.rmtree(top)
    if result.returncode == 4:
        pytest.skip("the project files are not readable by an unprivileged user here")
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 2, result.stdout
    for db, line in zip(dbs, lines, strict=True):
        assert line.startswith("refused:"), line
        assert "read-only" in line or "writable" in line, line
        assert str(db) in line, line


async def _create(db: Path) -> None:
    async with await Store.open(f"sqlite:///{db}") as s:
        await s.save_table(TableRecord("t1", 1, 2, "lobby", 1, {}))


def _store_threads() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith("hokm-store")]


@pytest.mark.parametrize("driver", ["sqlite", "sqlite+aiosqlite"])
async def test_failed_open_leaves_nothing_behind(db_path: Path, driver: str) -> None:
    write_garbage(db_path, os.urandom(8192))
    before = gc_count_connections()
    for _ in range(3):
        with pytest.raises(StoreError):
            await Store.open(f"{driver}:///{db_path}")
    assert _store_threads() == []
    assert gc_count_connections() == before


def gc_count_connections() -> int:
    """Open sqlite3 connections still reachable (a half-open store would keep one)."""
    gc.collect()
    count = 0
    for obj in gc.get_objects():
        if isinstance(obj, sqlite3.Connection):
            try:
                obj.execute("SELECT 1")
            except sqlite3.ProgrammingError:
                continue  # closed, or owned by another thread (aiosqlite's)
            count += 1
    return count


async def test_closing_stops_worker_threads(db_path: Path) -> None:
    """The thread runner's own threads (aiosqlite's are its own business)."""
    s = await Store.open(f"sqlite:///{db_path}")
    await s.load_live_tables()
    await s.save_table(TableRecord("t1", 1, 2, "lobby", 1, {}))
    assert _store_threads()
    await s.close()
    await s.close()  # twice is fine
    assert _store_threads() == []


@pytest.mark.parametrize("url", ["sqlite://", "sqlite+aiosqlite://", "sqlite:///:memory:"])
async def test_in_memory_database(url: str) -> None:
    """Handy for quick experiments: one database shared by all of the store's threads."""
    async with await Store.open(url) as s:
        saved = await s.save_table(TableRecord("t1", 1, 2, "lobby", 1, {"a": 1}))
        assert await s.load_table("t1") == saved
        assert await s.load_live_tables() == [saved]


async def test_closed_store_refuses_work(db_url: str) -> None:
    s = await Store.open(db_url)
    await s.close()
    with pytest.raises(StoreError, match="closed"):
        await s.load_table("t1")
    with pytest.raises(StoreError, match="closed"):
        await s.save_table(TableRecord("t1", 1, 2, "lobby", 1, {}))


async def test_unknown_backend() -> None:
    with pytest.raises(StoreError, match="nosuchdb"):
        await Store.open("nosuchdb://x/y")


async def test_password_never_shown() -> None:
    url = "postgresql://hokm:s3cret-pw@127.0.0.1:1/hokm"
    assert "s3cret" not in safe_url(url)
    assert normalize_url(url).drivername == "postgresql+asyncpg"
    assert normalize_url("sqlite:///x.db").drivername == "sqlite"  # threads + stdlib sqlite3
    with pytest.raises(StoreError) as info:
        await Store.open(url)  # no driver installed, or nothing listening on port 1
    assert "s3cret" not in str(info.value)
    assert "127.0.0.1" in str(info.value)
