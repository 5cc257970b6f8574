"""Finished matches say whether they change ratings (T12): a tournament may leave them alone.

Revision ID: 0010_match_rated
Revises: 0009_tournaments
Create Date: 2026-12-06

Every match recorded before this revision changed ratings as the other columns say (there
was no such option), so the column's default, true, fills them in; ``batch_alter_table``
keeps the downgrade working on SQLite.
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
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("rated")
