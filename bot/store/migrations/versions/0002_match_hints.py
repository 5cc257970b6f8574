"""Finished matches say whether hints were on: ratings leave those out.

Revision ID: 0002_match_hints
Revises: 0001_initial
Create Date: 2026-12-01

Every match recorded before this revision was played without hints (there were none), so
the column's default fills them in; ``batch_alter_table`` keeps the downgrade working on
SQLite, which cannot drop a column in place on older versions.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002_match_hints"
down_revision: str | None = "0001_initial"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "matches",
        sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("hints")
