"""Match analyses: a finished match graded with every hand known.

Revision ID: 0012_match_analyses
Revises: 0011_puzzles
Create Date: 2026-12-06

``match_analyses`` holds, per finished match, ``engine.dd_analysis.MatchAnalysis`` as JSON,
written by the analysis worker once the match has ended (``bot.service.analysis``). Matches
finished before this revision have none; ``python -m bot --analyse-missing`` makes them.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012_match_analyses"
down_revision: str | None = "0011_puzzles"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "match_analyses",
        sa.Column(
            "match_id",
            sa.String(64),
            sa.ForeignKey("matches.match_id", ondelete="CASCADE", name="fk_match_analyses_match"),
            primary_key=True,
        ),
        sa.Column("analysis", sa.Text, nullable=False),
        sa.Column("analysed_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("match_analyses")
