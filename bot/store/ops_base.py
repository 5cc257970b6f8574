"""What every part of the store's SQL shares: the dialect, whether it upserts natively, and
the clock rows are stamped with.

``Ops`` (in ``ops.py``) is assembled from one class per kind of record (tables, settings,
matches, standings); each builds its own prepared statements on top of this base.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite


def utcnow() -> datetime:
    """The time rows are stamped with. Callers look it up on this module when they run
    (``ops_base.utcnow()``), so a test can move the clock in one place."""
    return datetime.now(UTC)


class OpsBase:
    """The dialect the statements are built for."""

    dialect_name: str
    native_upsert: bool
    """INSERT ... ON CONFLICT (SQLite, PostgreSQL); without it the portable
    update-then-insert path is used."""

    def __init__(self, dialect_name: str, *, native_upsert: bool | None = None) -> None:
        self.dialect_name = dialect_name
        if native_upsert is None:
            native_upsert = dialect_name in ("sqlite", "postgresql")
        self.native_upsert = native_upsert

    def _insert(self, table: sa.Table) -> Any:
        if self.dialect_name == "sqlite":
            return sqlite.insert(table)
        return postgresql.insert(table)
