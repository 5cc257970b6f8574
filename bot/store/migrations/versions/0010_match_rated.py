"""Finished matches say whether they change ratings (T12): a tournament may leave them alone.

Revision ID: 0010_match_rated
Revises: 0009_tournaments
Create Date: 2026-12-06

Every match recorded before this revision changed ratings as the other columns say (there
was no such option), so the column's default, true, fills them in. The downgrade drops the
column in place (SQLite has ALTER TABLE DROP COLUMN since 3.35): ``batch_alter_table`` would
copy ``matches`` and drop the old one, and with the store's ``foreign_keys = ON`` that drop
deletes every match's players, analysis and puzzles by their ON DELETE CASCADE.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010_match_rated"
down_revision: str | None = "0009_tournaments"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "matches",
        sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.true()),
    )


def downgrade() -> None:
    op.drop_column("matches", "rated")
