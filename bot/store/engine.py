"""Engine construction shared by the store and the hand-run migrations.

Both paths must get the same SQLite pragmas, so both build their engine here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

__all__ = ["create_store_engine", "normalize_url", "safe_url", "sqlite_path"]

DEFAULT_BUSY_TIMEOUT_MS = 5000
_ASYNC_DRIVERS = {"sqlite": "sqlite+aiosqlite", "postgresql": "postgresql+asyncpg"}


def normalize_url(url: str | URL) -> URL:
    """Accept plain `sqlite:///` / `postgresql://` URLs and pick the async driver for them."""
    u = make_url(url)
    backend = "postgresql" if u.drivername in ("postgres", "postgresql") else u.drivername
    if backend in _ASYNC_DRIVERS:
        u = u.set(drivername=_ASYNC_DRIVERS[backend])
    return u


def safe_url(url: str | URL) -> str:
    """The URL as it may appear in logs and error messages: password masked."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # an unparsable URL may still hold a password: show nothing of it
        return "<unparsable database URL>"


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


def _sqlite_pragmas(busy_timeout_ms: int) -> Any:
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
        finally:
            cursor.close()

    return on_connect


def create_store_engine(
    url: str | URL, *, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS, **kwargs: Any
) -> AsyncEngine:
    """An async engine; for SQLite every new connection gets WAL, NORMAL sync, FKs, a timeout."""
    u = normalize_url(url)
    engine = create_async_engine(u, **kwargs)
    if u.get_backend_name() == "sqlite":
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas(busy_timeout_ms))
    return engine
