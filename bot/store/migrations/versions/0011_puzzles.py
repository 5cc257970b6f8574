"""Double-dummy puzzles: positions from finished matches where one card alone kept
the best outcome, and members' answers to them.

Revision ID: 0011_puzzles
Revises: 0010_match_rated
Create Date: 2026-12-06

``puzzles.puzzle`` holds the puzzle as JSON (``engine.dd_puzzles``: the position, its one
card, every legal card's outcome, the line that follows); one row per decision of a match at
most (``uq_puzzles_decision``), removed with its match. ``puzzle_attempts``: a member's first
answer to a puzzle. Nothing existed before: the tables start empty.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011_puzzles"
down_revision: str | None = "0010_match_rated"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "puzzles",
        sa.Column("puzzle_id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column(
            "match_id",
            sa.String(64),
            sa.ForeignKey("matches.match_id", ondelete="CASCADE", name="fk_puzzles_match"),
            nullable=False,
        ),
        sa.Column("hand_no", sa.Integer, nullable=False),
        sa.Column("move_no", sa.Integer, nullable=False),
        sa.Column("game_format", sa.String(32), nullable=False),
        sa.Column("puzzle", sa.Text, nullable=False),
        sa.UniqueConstraint("match_id", "hand_no", "move_no", name="uq_puzzles_decision"),
    )
    op.create_index("ix_puzzles_guild", "puzzles", ["guild_id", "puzzle_id"])
    op.create_table(
        "puzzle_attempts",
        sa.Column(
            "puzzle_id",
            sa.Integer,
            sa.ForeignKey(
                "puzzles.puzzle_id", ondelete="CASCADE", name="fk_puzzle_attempts_puzzle"
            ),
            primary_key=True,
            autoincrement=False,
        ),
        sa.Column("user_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("card", sa.SmallInteger, nullable=False),
        sa.Column("solved", sa.Boolean, nullable=False),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_puzzle_attempts_member", "puzzle_attempts", ["guild_id", "user_id"])


def downgrade() -> None:
    op.drop_index("ix_puzzle_attempts_member", table_name="puzzle_attempts")
    op.drop_table("puzzle_attempts")
    op.drop_index("ix_puzzles_guild", table_name="puzzles")
    op.drop_table("puzzles")
