"""Opening the database: URL handling and SQLAlchemy engine construction, shared by the
store and the hand-run migrations (named apart from the top-level `engine` rules package).

Both paths must get the same SQLite pragmas, so both build their engine here. A URL's
driver decides how the store drives it: async drivers (asyncpg, aiosqlite) through an
AsyncEngine, sync ones (the stdlib sqlite3 behind plain `sqlite:///`) from worker threads.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO, Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import StaticPool

from ..url_redaction import redact_url

__all__ = [
    "FileInUse",
    "claim_sqlite_file",
    "create_private_sqlite_file",
    "create_store_engine",
    "is_async_url",
    "normalize_url",
    "safe_url",
    "sqlite_path",
]

DEFAULT_BUSY_TIMEOUT_MS = 5000


def normalize_url(url: str | URL) -> URL:
    """Parse a URL; a bare `postgresql://` gets asyncpg (the `postgres` extra)."""
    u = make_url(url)
    if u.drivername in ("postgres", "postgresql"):
        u = u.set(drivername="postgresql+asyncpg")
    return u


def is_async_url(url: URL) -> bool:
    """Whether the URL names an asyncio driver (asyncpg, aiosqlite) rather than a sync one."""
    return bool(url.get_dialect().is_async)


def safe_url(url: str | URL) -> str:
    """The URL as it may appear in logs and error messages: every credential masked, the
    userinfo's password and the query's (``?password=``, ``?sslpassword=``, …: `redact_url`)."""
    try:
        parsed = make_url(url)
    except Exception:  # an unparsable URL may still hold a password: show nothing of it
        return "<unparsable database URL>"
    text = url if isinstance(url, str) else parsed.render_as_string(hide_password=False)
    return redact_url(text)


def sqlite_path(url: URL) -> Path | None:
    """The file behind a SQLite URL, or None for other backends and in-memory databases."""
    if url.get_backend_name() != "sqlite":
        return None
    database = url.database or ""
    if database.startswith("file:"):  # SQLite URI filename, e.g. file:/x/y.db?mode=ro&uri=true
        database = database[len("file:") :].split("?", 1)[0]
        if url.query.get("mode") == "memory":
            return None
    if database in ("", ":memory:"):
        return None
    return Path(database).absolute()


class FileInUse(Exception):
    """Another bot process already serves this SQLite file (``claim_sqlite_file``)."""


def claim_sqlite_file(path: Path) -> IO[str]:
    """Hold ``<file>.lock`` (an exclusive ``flock``) for as long as the returned file is open:
    the whole life of the bot process, which the kernel ends with the process, even a killed
    one. A SQLite file has one bot process (several processes share PostgreSQL),
    and a second one would play every table twice.

    :raises FileInUse: another process holds the lock (its pid, when it wrote one).
    """
    import fcntl

    lock_path = path.with_name(path.name + ".lock")
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
    handle = os.fdopen(fd, "r+", encoding="ascii")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = handle.read().strip()
        handle.close()
        who = f" (pid {holder})" if holder.isdigit() else ""
        raise FileInUse(
            f"{path} is in use by another bot process{who}: one process per SQLite file; "
            "several processes need PostgreSQL (docs/scaling.md)"
        ) from None
    handle.seek(0)
    handle.truncate()
    handle.write(str(os.getpid()))
    handle.flush()
    return handle


def create_private_sqlite_file(path: Path) -> bool:
    """Create an empty database file readable by its owner only; True if it was created.

    The file holds every live hand, and SQLite would create it 0644 (less the umask). An empty
    file is a valid empty database, and SQLite gives the -wal and -shm files the mode of the
    database file, so creating it first with 0600 keeps all three private. An existing file
    is left as the operator made it.
    """
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return False
    os.close(fd)
    return True


def _sqlite_pragmas(busy_timeout_ms: int, wal_autocheckpoint: int) -> Any:
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        try:
            # busy_timeout first: the journal_mode switch itself may have to wait for a lock.
            cursor.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            cursor.execute("PRAGMA journal_mode = WAL")
            cursor.execute("PRAGMA synchronous = NORMAL")
            cursor.execute("PRAGMA foreign_keys = ON")
            cursor.execute("PRAGMA cache_size = -32768")  # 32 MiB per connection
            cursor.execute("PRAGMA journal_size_limit = 67108864")  # trim the WAL to 64 MiB
            cursor.execute(f"PRAGMA wal_autocheckpoint = {int(wal_autocheckpoint)}")
        finally:
            cursor.close()

    return on_connect


def create_store_engine(
    url: str | URL,
    *,
    busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
    wal_autocheckpoint: int = 1000,
    **kwargs: Any,
) -> sa.Engine | AsyncEngine:
    """An engine of the URL's kind; on SQLite every new connection gets WAL, NORMAL sync,
    foreign keys and a busy timeout (an engine event, so pooled reconnects get them too).

    `wal_autocheckpoint` is in pages (SQLite's default 1000); raise it when something
    else checkpoints in the background, so commits stop paying for checkpoint fsyncs.
    """
    u = normalize_url(url)
    engine: sa.Engine | AsyncEngine
    if is_async_url(u):
        engine = create_async_engine(u, **kwargs)
        sync_engine = engine.sync_engine
    else:
        if (
            u.get_backend_name() == "sqlite"
            and sqlite_path(u) is None
            and "poolclass" not in kwargs
        ):
            # One in-memory database shared by the store's threads (the default pool
            # would give every thread its own, empty, database).
            kwargs["poolclass"] = StaticPool
            kwargs.setdefault("connect_args", {})["check_same_thread"] = False
        engine = sync_engine = sa.create_engine(u, **kwargs)
    if u.get_backend_name() == "sqlite":
        pragmas = _sqlite_pragmas(busy_timeout_ms, wal_autocheckpoint)
        event.listen(sync_engine, "connect", pragmas)
    return engine
