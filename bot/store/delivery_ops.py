"""The store's ``table_deliveries``: where a live table is shown on Discord (its message, each
seat's hand DM, a seat's closed DMs), one row per surface, written on its own: never with the
game table's state, never bumping its version, so learning a DM's id costs one small row
instead of a whole table's save. ``DeliveryStore`` is ``Store``'s part for them (its
``_runner``); the rows go with their table (a foreign key, ``ON DELETE CASCADE``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Final

import sqlalchemy as sa
from sqlalchemy import Connection

from .records import MAX_TABLE_ID
from .runner import Runner
from .schema import game_tables, metadata

# (0013) One row per surface of a table: seat -1 its message, a seat's row its hand's DM.
table_deliveries = sa.Table(
    "table_deliveries",
    metadata,
    sa.Column(
        "table_id",
        sa.String(MAX_TABLE_ID),
        sa.ForeignKey("game_tables.table_id", ondelete="CASCADE", name="fk_table_deliveries_table"),
        primary_key=True,
    ),
    sa.Column("seat", sa.SmallInteger, primary_key=True, autoincrement=False),
    sa.Column("channel_id", sa.BigInteger, nullable=True),
    sa.Column("message_id", sa.BigInteger, nullable=True),
    sa.Column("hand", sa.Integer, nullable=False),
    sa.Column("dm_closed", sa.Boolean, nullable=False),
)

TABLE_MESSAGE: Final = -1
"""The seat number of a table's own message in its channel (a seat's row is its DM)."""


@dataclass(frozen=True, slots=True)
class DeliveryRow:
    """One surface of a table: the table's message (``seat`` -1) or a seat's hand DM."""

    table_id: str
    seat: int
    channel_id: int | None = None
    message_id: int | None = None
    hand: int = 0
    """The hand number the DM shows (a new hand gets a new message)."""
    dm_closed: bool = False


class DeliveryOps:
    """The synchronous unit of work of each delivery call, on one connection."""

    def save(self, conn: Connection, row: DeliveryRow) -> bool:
        """Replace the row; ``False`` when its table is gone (nothing written)."""
        c = table_deliveries.c
        conn.execute(
            sa.delete(table_deliveries).where(c.table_id == row.table_id, c.seat == row.seat)
        )
        values = sa.select(
            sa.literal(row.table_id, sa.String),
            sa.literal(row.seat, sa.SmallInteger),
            sa.literal(row.channel_id, sa.BigInteger),
            sa.literal(row.message_id, sa.BigInteger),
            sa.literal(row.hand, sa.Integer),
            sa.literal(row.dm_closed, sa.Boolean),
        ).where(sa.exists().where(game_tables.c.table_id == row.table_id))
        names = ["table_id", "seat", "channel_id", "message_id", "hand", "dm_closed"]
        written = conn.execute(sa.insert(table_deliveries).from_select(names, values))
        return written.rowcount == 1  # 0: the table was purged meanwhile

    def load(self, conn: Connection, table_ids: Sequence[str]) -> list[DeliveryRow]:
        c = table_deliveries.c
        found = conn.execute(
            sa.select(table_deliveries)
            .where(c.table_id.in_(list(table_ids)))
            .order_by(c.table_id, c.seat)
        )
        return [
            DeliveryRow(r.table_id, r.seat, r.channel_id, r.message_id, r.hand, bool(r.dm_closed))
            for r in found
        ]


class DeliveryStore:
    """``Store``'s delivery calls (its ``_runner``)."""

    _runner: Runner

    @cached_property
    def _delivery_ops(self) -> DeliveryOps:
        return DeliveryOps()

    async def save_delivery(self, row: DeliveryRow) -> bool:
        """Write one surface of a table; ``False`` when the table is gone."""
        return await self._runner.write(self._delivery_ops.save, row)

    async def load_deliveries(self, table_ids: Sequence[str]) -> list[DeliveryRow]:
        """Every surface of these tables, by table then seat."""
        if not table_ids:
            return []
        return await self._runner.read(self._delivery_ops.load, tuple(table_ids))
