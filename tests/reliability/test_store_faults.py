"""Guarantee 7, store faults at start-up: a missing database directory, a read-only or corrupt
database file, or a schema newer than the code give one clear error line and a non-zero exit
of ``python -m bot``, never a half-started bot (it never reaches the gateway).

The other half, a match result written once even if the bot dies while writing it, is the
"result" kill point of test_crash_safety.py (a bot that SIGKILLs itself inside the result's
transaction); tests/store/test_store_matches.py covers ``finish_match``'s idempotency.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path

from bot.store import Store
from tests.double.process import BotProcess
from tests.double.server import DiscordDouble


async def migrated(db: Path) -> None:
    async with await Store.open(f"sqlite+aiosqlite:///{db}"):
        pass


def corrupt(db: Path) -> None:
    db.write_bytes(b"this is not a database\x00" * 512)


def from_the_future(db: Path) -> None:
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE alembic_version SET version_num = '0099_from_the_future'")


INFO = re.compile(r"^\d{4}-\d\d-\d\d [\d:,]+ INFO ")

CASES: dict[str, tuple[str, Callable[[Path], None] | None, str]] = {
    # name: (how the URL names the file, what to do to a migrated file first, expected text)
    "missing directory": ("{tmp}/no/such/hokm.sqlite3", None, "does not exist"),
    "read-only file": ("file:{db}?mode=ro&uri=true", lambda db: None, "read-only"),
    "corrupt file": ("{db}", corrupt, "corrupt or not a SQLite database"),
    "schema newer than the code": ("{db}", from_the_future, "newer than this code"),
}


async def test_store_faults_stop_the_bot_with_one_line_before_it_connects(
    discord_double: DiscordDouble, tmp_path: Path
) -> None:
    double = discord_double
    runs: dict[str, BotProcess] = {}
    for name, (where, prepare, _) in CASES.items():
        folder = tmp_path / name.replace(" ", "-")
        folder.mkdir()
        db = folder / "hokm.sqlite3"
        if prepare is not None:
            await migrated(db)
            prepare(db)
        url = "sqlite+aiosqlite:///" + where.format(tmp=folder, db=db)
        env = {
            "HOKM_DATABASE_URL": url,
            "HOKM_COMMAND_SYNC_FILE": str(folder / "sync"),
            "HOKM_DEV_GUILD_IDS": f"[{double.guild.id if double.guild else 0}]",
        }
        runs[name] = await BotProcess.start(double, env=env, ready=None)
    try:
        codes = await asyncio.gather(*(proc.wait(timeout=60) for proc in runs.values()))
        for (name, proc), code in zip(runs.items(), codes, strict=True):
            output = proc.output()
            # apart from routine INFO log records ("Context impl SQLiteImpl."), one line
            lines = [line for line in output.splitlines() if line.strip() and not INFO.match(line)]
            expected = CASES[name][2]
            assert code == 2, (name, code, output)
            assert len(lines) == 1, (name, output)
            assert lines[0].startswith("error: database:") and expected in lines[0], (name, output)
            assert "Traceback" not in output
        assert double.gateway.stats.connections == 0, "a bot reached the gateway"
        assert double.requests == [], "a bot called Discord"
    finally:
        for proc in runs.values():
            await proc.kill()
            proc.close_log()
    assert not (tmp_path / "missing-directory" / "no").exists()  # nothing created behind our back
