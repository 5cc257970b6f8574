"""The store's SQL, as synchronous functions of one SQLAlchemy `Connection`.

Each public method here is one store call's whole unit of work. Keeping them synchronous
lets the store run a call in a single hop to a worker thread (SQLite: a thread hop per
call instead of 3-4 per statement with aiosqlite) or through `AsyncConnection.run_sync`
for async drivers (asyncpg) - the same code either way.

`Ops` is assembled from one class per kind of record, each in its own module:
`table_ops` (live tables), `settings_ops` (guild settings), `match_ops` (recording
finished matches and their standings gains), `standings_ops` (the standings reads) and
`history_ops` (the finished matches listed, and one match's replay).
What spans two of them (a match's end also saves its table) is here.
"""

from __future__ import annotations

import dataclasses

from sqlalchemy import Connection
from sqlalchemy.engine import Dialect

from .history_ops import HistoryOps
from .match_ops import MatchOps
from .match_write import MatchWrite
from .prepared import Prepared
from .records import MAX_SEATS, FinishedMatch, TableRecord
from .settings_ops import SettingsOps
from .standings_ops import MAX_PER_PAGE, StandingsOps
from .table_ops import TableOps

__all__ = ["MAX_PER_PAGE", "Ops"]


class Ops(TableOps, SettingsOps, MatchOps, StandingsOps, HistoryOps):
    """Prepared statements for one dialect plus the sync work of every store call.

    Statements are built once so each call only binds values (compiled-cache hits).
    `native_upsert` uses INSERT ... ON CONFLICT (SQLite, PostgreSQL); without it the
    portable update-then-insert path is used.
    """

    def __init__(self, dialect_name: str, *, native_upsert: bool | None = None) -> None:
        super().__init__(dialect_name, native_upsert=native_upsert)
        self._prepare_tables()
        self._prepare_settings()
        self._prepare_matches()
        self._prepare_ratings()
        self._prepare_standings()
        self._prepare_history()
        # PostgreSQL: the finished match in two statements (round trips), see match_write
        self._match_write = (
            MatchWrite() if self.dialect_name == "postgresql" and self.native_upsert else None
        )

    def compile(self, dialect: Dialect) -> None:
        """Compile every prepared statement for the store's dialect, so the first calls do
        not (at a million matches, the first match write spent ~5 ms compiling)."""
        for n in range(1, MAX_SEATS + 1):
            self._ratings_of(n)
        found = [*vars(self).values(), *self._read_ratings_of.values()]
        if self._match_write is not None:
            found += [self._match_write.record, self._match_write.rest]
        for stmt in found:
            if isinstance(stmt, Prepared):
                stmt.compile(dialect)

    def finish_match(
        self, conn: Connection, match: FinishedMatch, table: TableRecord | None
    ) -> bool:
        if self._match_write is not None and (table is None or table.version > 1):
            return self._match_write.finish(self, conn, match, table)
        (recorded,) = self.record_matches(conn, [match])
        if recorded and table is not None:
            if table.status != "finished":
                table = dataclasses.replace(table, status="finished")
            self.save_table(conn, table)
        return recorded
