"""Run the packaged Alembic migrations in-process on an open connection.

Used by `Store.open` at start-up; `migrations/alembic.ini` exists only for running them
by hand. No subprocess, no ini file needed here: the config is built in code.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, text

from .errors import StoreError

__all__ = [
    "MIGRATIONS_DIR",
    "Migration",
    "SchemaTooNew",
    "alembic_config",
    "head_revision",
    "migrate",
]

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_PG_MIGRATION_LOCK = 0x686F6B6D  # "hokm": serializes concurrent start-ups on PostgreSQL


class SchemaTooNew(StoreError):
    """The database was migrated by a newer version of the bot than this one."""


class Migration(NamedTuple):
    """What start-up found and left: `before` is None for a fresh database."""

    before: str | None
    after: str

    @property
    def changed(self) -> bool:
        return self.before != self.after

    def describe(self) -> str:
        """``migrated from none to 0001_initial`` or ``already at 0001_initial``."""
        if self.changed:
            return f"migrated from {self.before or 'none'} to {self.after}"
        return f"already at {self.after}"


def alembic_config(url: str | None = None) -> Config:
    """An Alembic config pointing at the packaged migrations (no ini file involved)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    if url is not None:
        cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def head_revision() -> str:
    """The newest revision this code knows."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None, "no migrations packaged"
    return head


def _upgrade(sync_conn: Connection, where: str) -> Migration:
    cfg = alembic_config()
    script = ScriptDirectory.from_config(cfg)
    known = {s.revision for s in script.walk_revisions()}
    current = MigrationContext.configure(sync_conn).get_current_heads()
    unknown = [rev for rev in current if rev not in known]
    if unknown:
        raise SchemaTooNew(
            f"database {where} has schema revision {', '.join(unknown)}, which is newer than "
            f"this code (newest known: {script.get_current_head()}); upgrade the bot"
        )
    cfg.attributes["connection"] = sync_conn
    command.upgrade(cfg, "head")
    head = script.get_current_head()
    assert head is not None, "no migrations packaged"
    return Migration(",".join(current) or None, head)


def migrate(conn: Connection, where: str) -> Migration:
    """Bring the schema to head in one transaction, failing early if the DB is read-only;
    returns the revisions before and after, so `--migrate-only` can say what it did.

    Synchronous on purpose: the store runs it in its SQLite thread, or through
    `AsyncConnection.run_sync` for async drivers. On SQLite, BEGIN IMMEDIATE takes the write
    lock up front (so two processes starting at once cannot both create the schema) and
    rewriting `user_version` in place proves the file is writable even when there is
    nothing to migrate.
    """
    backend = conn.dialect.name
    if backend == "sqlite":
        conn.exec_driver_sql("BEGIN IMMEDIATE")
        user_version = conn.exec_driver_sql("PRAGMA user_version").scalar_one()
        conn.exec_driver_sql(f"PRAGMA user_version = {int(user_version)}")
    elif backend == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _PG_MIGRATION_LOCK})
    done = _upgrade(conn, where)
    conn.commit()
    return done
