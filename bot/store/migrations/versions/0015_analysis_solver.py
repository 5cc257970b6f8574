"""Match analyses say which version of the solver graded them.

Revision ID: 0015_analysis_solver
Revises: 0014_match_summaries
Create Date: 2026-12-06

A fix to the double-dummy solver can change a grade (``engine.dd_analysis.SOLVER_VERSION``):
the analyses an older solver made are found by this column and made again, by
``python -m bot --analyse-missing`` and at start-up. Every analysis stored before this
revision was made by version 1, so the column's default fills them in; ``batch_alter_table``
keeps the downgrade working on SQLite.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015_analysis_solver"
down_revision: str | None = "0014_match_summaries"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "match_analyses",
        sa.Column("solver", sa.Integer, nullable=False, server_default="1"),
    )


def downgrade() -> None:
    with op.batch_alter_table("match_analyses") as batch:
        batch.drop_column("solver")
