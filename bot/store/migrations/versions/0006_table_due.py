"""Every live table's nearest deadline in a column: when a bot process dies,
another finds its overdue tables by it and plays on.

Revision ID: 0006_table_due
Revises: 0005_match_replays
Create Date: 2026-12-02

``game_tables.due_at`` is written by every save (None for a table with no deadline, and for
an ended one). Rows saved before this revision have none until their next save; a process
that restores them re-arms their timers from their state as before.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_table_due"
down_revision: str | None = "0005_match_replays"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("due_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_game_tables_due", "game_tables", ["due_at"])


def downgrade() -> None:
    op.drop_index("ix_game_tables_due", table_name="game_tables")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("due_at")
