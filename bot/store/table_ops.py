"""The store's SQL for live tables: one ``game_tables`` row per table, saved whole after every
action under optimistic versioning, loaded back after a restart, purged after it ended.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError

from . import ops_base
from .errors import ChannelBusy, SeatTaken, StaleWrite
from .ops_base import OpsBase
from .prepared import Prepared
from .records import LIVE_STATUSES, TableRecord
from .schema import LIVE_CLAUSE, UTCDateTime, game_tables, seated_members

TABLES_CHANNEL = "hokm_tables"
"""PostgreSQL's notification channel of table saves: ``"<table id> <version>"``."""


def _table_from_row(row: sa.Row[Any]) -> TableRecord:
    return TableRecord(
        table_id=row.table_id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        status=row.status,
        version=row.version,
        state=row.state,
        created_at=row.created_at,
        updated_at=row.updated_at,
        due_at=row.due_at,
    )


class TableOps(OpsBase):
    """Save, load, find, delete and purge table rows."""

    def _prepare_tables(self) -> None:
        t = game_tables.c
        self._insert_table = Prepared(sa.insert(game_tables), [c.key for c in game_tables.c])
        update_table = (
            sa.update(game_tables)
            .where(t.table_id == sa.bindparam("b_table_id"), t.version == sa.bindparam("b_prev"))
            .values(
                status=sa.bindparam("b_status"),
                version=sa.bindparam("b_version"),
                state=sa.bindparam("b_state", type_=game_tables.c.state.type),
                updated_at=sa.bindparam("b_updated_at", type_=UTCDateTime()),
                due_at=sa.bindparam("b_due_at", type_=UTCDateTime()),
            )
        )
        # PostgreSQL: the save and its notification in one statement (one round trip less
        # per save; delivered at commit, as from a separate SELECT pg_notify).
        self._update_table = Prepared(update_table)
        self._update_table_notify = Prepared(
            update_table.returning(
                sa.func.pg_notify(
                    sa.literal(TABLES_CHANNEL), t.table_id + " " + sa.cast(t.version, sa.String)
                )
            )
        )
        self._select_overdue = (
            sa.select(t.table_id)
            .where(LIVE_CLAUSE, t.due_at < sa.bindparam("before", type_=UTCDateTime()))
            .order_by(t.due_at)
            .limit(sa.bindparam("limit"))
        )
        self._select_table = sa.select(game_tables).where(t.table_id == sa.bindparam("table_id"))
        self._select_version = Prepared(
            sa.select(t.version).where(t.table_id == sa.bindparam("table_id"))
        )
        self._free_seats = Prepared(  # a table that ends frees its members (see _seat)
            sa.delete(seated_members).where(seated_members.c.table_id == sa.bindparam("table_id"))
        )
        self._notify_saved = sa.text("SELECT pg_notify(:channel, :payload)")
        self.select_open_in_channel = (
            sa.select(game_tables)
            .where(t.channel_id == sa.bindparam("channel_id"), LIVE_CLAUSE)
            .limit(1)
        )

    def save_table(self, conn: Connection, record: TableRecord) -> TableRecord:
        now = ops_base.utcnow()
        try:
            if record.version == 1:
                # Checked before inserting: after a failed INSERT PostgreSQL refuses further
                # queries in the transaction, and the message should say which conflict it was.
                if self._select_version(conn, {"table_id": record.table_id}).first():
                    raise StaleWrite(f"table {record.table_id} already exists")
                created = record.created_at or now
                self._insert_table(
                    conn,
                    {
                        "table_id": record.table_id,
                        "guild_id": record.guild_id,
                        "channel_id": record.channel_id,
                        "status": record.status,
                        "version": 1,
                        "state": record.state,
                        "created_at": created,
                        "updated_at": now,
                        "due_at": record.due_at,
                    },
                )
                self._seat(conn, record)
                self._saved(conn, record)
                return dataclasses.replace(record, created_at=created, updated_at=now)
            notify = self.dialect_name == "postgresql"
            update = self._update_table_notify if notify else self._update_table
            result = update(
                conn,
                {
                    "b_table_id": record.table_id,
                    "b_prev": record.version - 1,
                    "b_status": record.status,
                    "b_version": record.version,
                    "b_state": record.state,
                    "b_updated_at": now,
                    "b_due_at": record.due_at,
                },
            )
        except IntegrityError as exc:
            if "channel" in str(exc.orig):
                raise ChannelBusy(
                    f"channel {record.channel_id} already has an open table "
                    f"(while saving {record.table_id})"
                ) from exc
            raise StaleWrite(f"table {record.table_id} already exists") from exc
        saved = len(result.all()) if notify else result.rowcount
        if saved != 1:
            raise self._stale(conn, record)
        self._seat(conn, record)  # PostgreSQL's notification went with the UPDATE
        return dataclasses.replace(record, updated_at=now)

    def _stale(self, conn: Connection, record: TableRecord) -> StaleWrite:
        """Why an update of the table found no row of the version before ``record``'s."""
        stored = self._select_version(conn, {"table_id": record.table_id}).scalar_one_or_none()
        if stored is None:
            return StaleWrite(f"table {record.table_id} does not exist (deleted?)")
        return StaleWrite(
            f"table {record.table_id}: stored version is {stored}, "
            f"this save expected {record.version - 1}"
        )

    def _seat(self, conn: Connection, record: TableRecord) -> None:
        """Keep ``seated_members`` as the save leaves the table, in its transaction: a table
        that ends frees its members; one that changes who sits there takes a row for each
        member it seats. A member whose row is another live table's makes the whole save fail
        (``SeatTaken``). On PostgreSQL a second save seating the same member waits on the
        first one's row, then finds it: of two processes racing, one seats the member."""
        s = seated_members.c
        if record.status not in LIVE_STATUSES:
            self._free_seats(conn, {"table_id": record.table_id})
            return
        if record.members is None:
            return
        members = sorted(set(record.members))  # one lock order for every save
        conn.execute(
            sa.delete(seated_members).where(
                s.table_id == record.table_id, s.user_id.not_in(members)
            )
        )
        if not members:
            return
        rows = [{"user_id": u, "table_id": record.table_id} for u in members]
        if self.native_upsert:
            conn.execute(self._insert(seated_members).on_conflict_do_nothing(), rows)
        else:
            had = set(conn.execute(sa.select(s.user_id).where(s.user_id.in_(members))).scalars())
            missing = [r for r in rows if r["user_id"] not in had]
            if missing:
                conn.execute(sa.insert(seated_members), missing)
        g = game_tables.c
        live_there = sa.select(g.table_id).where(g.table_id == s.table_id, LIVE_CLAUSE)
        conn.execute(  # a row left by a table that is no longer live is no seat
            sa.update(seated_members)
            .where(
                s.user_id.in_(members),
                s.table_id != record.table_id,
                ~sa.exists(live_there),
            )
            .values(table_id=record.table_id)
        )
        taken = conn.execute(
            sa.select(s.user_id, g.table_id, g.guild_id, g.channel_id)
            .join(game_tables, g.table_id == s.table_id)
            .where(s.user_id.in_(members), s.table_id != record.table_id)
            .limit(1)
        ).first()
        if taken is not None:
            raise SeatTaken(taken.user_id, taken.table_id, taken.guild_id, taken.channel_id)

    def _saved(self, conn: Connection, record: TableRecord) -> None:
        """PostgreSQL: tell every process listening (``Store.listen_tables``) which table
        now has which version; delivered when the transaction commits, never before."""
        if self.dialect_name == "postgresql":
            payload = f"{record.table_id} {record.version}"
            conn.execute(self._notify_saved, {"channel": TABLES_CHANNEL, "payload": payload})

    def overdue_tables(self, conn: Connection, before: datetime, limit: int) -> list[str]:
        return list(
            conn.execute(self._select_overdue, {"before": before, "limit": limit}).scalars()
        )

    def load_table(self, conn: Connection, table_id: str) -> TableRecord | None:
        row = conn.execute(self._select_table, {"table_id": table_id}).first()
        return None if row is None else _table_from_row(row)

    def load_live_tables(self, conn: Connection, guild_id: int | None) -> list[TableRecord]:
        stmt = sa.select(game_tables).where(LIVE_CLAUSE)
        if guild_id is not None:
            stmt = stmt.where(game_tables.c.guild_id == guild_id)
        stmt = stmt.order_by(game_tables.c.created_at, game_tables.c.table_id)
        return [_table_from_row(r) for r in conn.execute(stmt)]

    def open_table_in_channel(self, conn: Connection, channel_id: int) -> TableRecord | None:
        row = conn.execute(self.select_open_in_channel, {"channel_id": channel_id}).first()
        return None if row is None else _table_from_row(row)

    def newest_table_in_channel(self, conn: Connection, channel_id: int) -> TableRecord | None:
        t = game_tables.c
        stmt = (
            sa.select(game_tables)
            .where(t.channel_id == channel_id)
            .order_by(t.created_at.desc(), t.table_id.desc())
            .limit(1)
        )
        row = conn.execute(stmt).first()
        return None if row is None else _table_from_row(row)

    def delete_table(self, conn: Connection, table_id: str) -> bool:
        stmt = sa.delete(game_tables).where(game_tables.c.table_id == table_id)
        return conn.execute(stmt).rowcount > 0

    def purge_tables(self, conn: Connection, finished_before: datetime) -> int:
        t = game_tables.c
        stmt = sa.delete(game_tables).where(
            t.status.in_(("finished", "cancelled")), t.updated_at < finished_before
        )
        return conn.execute(stmt).rowcount
