"""What the bot creates on disk: a private SQLite file (and WAL/SHM), the default ``data/``
folder, and an honest ``--migrate-only``; the README's manual Alembic command works."""

from __future__ import annotations

import stat
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

from bot.store import Store
from bot.store.migrate import head_revision
from tests.double.process import REPO_ROOT

from .helpers import clean_env, run_bot


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


async def test_the_sqlite_file_and_its_wal_and_shm_are_owner_only(tmp_path: Path) -> None:
    db = tmp_path / "hokm.sqlite3"
    store = await Store.open(f"sqlite+aiosqlite:///{db}")
    try:
        await store.purge_tables(finished_before=datetime.now(UTC))  # a write: WAL in use
        wal, shm = db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")
        assert wal.exists() and shm.exists()  # WAL mode, store open
        assert [mode(p) for p in (db, wal, shm)] == [0o600, 0o600, 0o600]
    finally:
        await store.close()


async def test_an_existing_file_keeps_the_mode_its_operator_gave_it(tmp_path: Path) -> None:
    db = tmp_path / "hokm.sqlite3"
    db.touch(mode=0o640)
    db.chmod(0o640)
    store = await Store.open(f"sqlite:///{db}")
    await store.close()
    assert mode(db) == 0o640


def test_migrate_only_creates_data_folder_and_says_what_it_did(tmp_path: Path) -> None:
    first = run_bot("--migrate-only", cwd=tmp_path)  # default URL: data/hokm.sqlite3
    assert first.returncode == 0, first.stderr
    data = tmp_path / "data"
    assert mode(data) == 0o700 and mode(data / "hokm.sqlite3") == 0o600
    head = head_revision()
    assert first.stdout.strip().endswith(f"migrated from none to {head}"), first.stdout
    again = run_bot("--migrate-only", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert again.stdout.strip().endswith(f"already at {head}"), again.stdout
    assert "alembic" not in (first.stderr + again.stderr).lower()


def test_the_readme_alembic_command_works_and_creates_a_private_file(tmp_path: Path) -> None:
    db = tmp_path / "hokm.sqlite3"
    env = clean_env({"HOKM_DATABASE_URL": f"sqlite+aiosqlite:///{db}"})
    command = [sys.executable, "-m", "alembic", "-c", "bot/store/migrations/alembic.ini"]
    done = subprocess.run(
        [*command, "upgrade", "head"], cwd=REPO_ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert mode(db) == 0o600
    after = run_bot("--migrate-only", env={"HOKM_DATABASE_URL": f"sqlite:///{db}"})
    assert after.stdout.strip().endswith(f"already at {head_revision()}"), after.stdout
    readme = (REPO_ROOT / "README.md").read_text()
    assert "alembic -c bot/store/migrations/alembic.ini upgrade head" in readme
