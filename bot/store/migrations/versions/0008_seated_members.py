"""One row per member seated at a live table: a member sits at one live table at a
time across every process of the bot, not only across one process's tables.

Revision ID: 0008_seated_members
Revises: 0007_web_secret
Create Date: 2026-12-02

Filled here from the live tables' seats (a member found at two, as two processes could seat
them before this revision, keeps the older table's row); kept by every save from then on.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008_seated_members"
down_revision: str | None = "0007_web_secret"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    seated = op.create_table(
        "seated_members",
        sa.Column("user_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey(
                "game_tables.table_id", ondelete="CASCADE", name="fk_seated_members_table"
            ),
            nullable=False,
        ),
    )
    op.create_index("ix_seated_members_table", "seated_members", ["table_id"])
    live = op.get_bind().execute(
        sa.text(
            "SELECT table_id, state FROM game_tables WHERE status IN ('lobby', 'playing')"
            " ORDER BY created_at, table_id"
        )
    )
    rows: dict[int, str] = {}
    for table_id, state in live:
        data = json.loads(state) if isinstance(state, str) else state
        for seat in data.get("seats") or []:
            user = seat.get("user_id") if isinstance(seat, dict) else None
            if isinstance(user, int) and user not in rows:
                rows[user] = table_id
    if rows:
        op.bulk_insert(seated, [{"user_id": u, "table_id": t} for u, t in rows.items()])


def downgrade() -> None:
    op.drop_index("ix_seated_members_table", table_name="seated_members")
    op.drop_table("seated_members")
