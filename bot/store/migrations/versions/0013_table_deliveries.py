"""Where a table is shown on Discord gets rows of its own (``table_deliveries``), out of the
game table's state: the table's message id (seat -1), each seat's hand DM (channel, message,
the hand it shows) and whether the member's DMs are closed.

Revision ID: 0013_table_deliveries
Revises: 0012_match_analyses
Create Date: 2026-12-06

Saving a DM's id used to rewrite the whole table and bump its version. Here every live
table's ids move to their rows, and every saved state (live or ended) loses those keys; the
downgrade puts them back.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0013_table_deliveries"
down_revision: str | None = "0012_match_analyses"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SEAT_KEYS = ("hand_channel_id", "hand_message_id", "hand_message_for", "dm_closed")
TABLE_MESSAGE = -1


def _states() -> list[tuple[str, str, dict[str, Any]]]:
    rows = op.get_bind().execute(sa.text("SELECT table_id, status, state FROM game_tables"))
    return [
        (table_id, status, json.loads(state) if isinstance(state, str) else state)
        for table_id, status, state in rows
    ]


def _write(table_id: str, state: dict[str, Any]) -> None:
    op.get_bind().execute(
        sa.text("UPDATE game_tables SET state = :state WHERE table_id = :table_id"),
        {"state": json.dumps(state, separators=(",", ":")), "table_id": table_id},
    )


def upgrade() -> None:
    deliveries = op.create_table(
        "table_deliveries",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey(
                "game_tables.table_id", ondelete="CASCADE", name="fk_table_deliveries_table"
            ),
            primary_key=True,
        ),
        sa.Column("seat", sa.SmallInteger, primary_key=True, autoincrement=False),
        sa.Column("channel_id", sa.BigInteger, nullable=True),
        sa.Column("message_id", sa.BigInteger, nullable=True),
        sa.Column("hand", sa.Integer, nullable=False),
        sa.Column("dm_closed", sa.Boolean, nullable=False),
    )
    rows: list[dict[str, Any]] = []
    for table_id, status, state in _states():
        live = status in ("lobby", "playing")
        message_id = state.pop("message_id", None)
        if live and message_id is not None:
            rows.append(_row(table_id, TABLE_MESSAGE, None, message_id, 0, False))
        for i, seat in enumerate(state.get("seats") or []):
            if not isinstance(seat, dict):
                continue
            kept = {k: seat.pop(k, None) for k in SEAT_KEYS}
            if live and (kept["hand_message_id"] or kept["hand_channel_id"] or kept["dm_closed"]):
                rows.append(
                    _row(
                        table_id,
                        i,
                        kept["hand_channel_id"],
                        kept["hand_message_id"],
                        kept["hand_message_for"] or 0,
                        bool(kept["dm_closed"]),
                    )
                )
        for seat in (state.get("reserved") or {}).values():
            for k in SEAT_KEYS:
                seat.pop(k, None)
        _write(table_id, state)
    if rows:
        op.bulk_insert(deliveries, rows)


def _row(
    table_id: str, seat: int, channel: int | None, message: int | None, hand: int, closed: bool
) -> dict[str, Any]:
    return {
        "table_id": table_id,
        "seat": seat,
        "channel_id": channel,
        "message_id": message,
        "hand": hand,
        "dm_closed": closed,
    }


def downgrade() -> None:
    kept: dict[str, dict[int, tuple[Any, ...]]] = {}
    found = op.get_bind().execute(
        sa.text(
            "SELECT table_id, seat, channel_id, message_id, hand, dm_closed FROM table_deliveries"
        )
    )
    for table_id, seat, channel_id, message_id, hand, closed in found:
        kept.setdefault(table_id, {})[seat] = (channel_id, message_id, hand, bool(closed))
    for table_id, _status, state in _states():
        rows = kept.get(table_id, {})
        state["message_id"] = rows.get(TABLE_MESSAGE, (None, None))[1]
        for i, seat in enumerate(state.get("seats") or []):
            if isinstance(seat, dict):
                channel_id, message_id, hand, closed = rows.get(i, (None, None, 0, False))
                seat.update(
                    hand_channel_id=channel_id,
                    hand_message_id=message_id,
                    hand_message_for=hand,
                    dm_closed=closed,
                )
        for seat in (state.get("reserved") or {}).values():
            seat.update(
                hand_channel_id=None, hand_message_id=None, hand_message_for=0, dm_closed=False
            )
        _write(table_id, state)
    op.drop_table("table_deliveries")
