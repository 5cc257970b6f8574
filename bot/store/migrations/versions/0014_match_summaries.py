"""Match summaries: where a finished match's summary message is, and whether its analysis
lines are shown there yet.

Revision ID: 0014_match_summaries
Revises: 0013_table_deliveries
Create Date: 2026-12-06

The analysis of a match comes after its summary, maybe in another process or after a
restart: ``match_summaries`` lets whichever process has the analysis find the message and
edit it once (a claim with a lease, then ``shown_at``). Summaries posted before this
revision have no row and are left as they are (their Replay shows the analysis).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014_match_summaries"
down_revision: str | None = "0013_table_deliveries"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "match_summaries",
        sa.Column(
            "match_id",
            sa.String(32),
            sa.ForeignKey(
                "game_tables.table_id", ondelete="CASCADE", name="fk_match_summaries_table"
            ),
            primary_key=True,
        ),
        sa.Column("channel_id", sa.BigInteger, nullable=False),
        sa.Column("message_id", sa.BigInteger, nullable=False),
        sa.Column("shown_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_match_summaries_shown", "match_summaries", ["shown_at"])


def downgrade() -> None:
    op.drop_index("ix_match_summaries_shown", table_name="match_summaries")
    op.drop_table("match_summaries")
