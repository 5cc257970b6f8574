"""Skill ratings: each member's μ and σ per server and format, and what each rated
match changed.

Revision ID: 0004_ratings
Revises: 0003_formats
Create Date: 2026-12-02

``standings.rating`` mirrors each member's conservative rating (0 until rated) so
``/standings``, ranked by it, is an index walk. ``ratings`` holds the current rating (``ordinal`` = μ − 3σ is stored so the leaderboard is an
index scan); ``rating_changes`` one row per member of a rated match, before and after. Both
are derived from the finished matches and rebuilt from them by ``python -m bot
--recompute-ratings``. A match also records ``rate_computers``, the server setting it was
played under, so a rebuild rates it as it was rated live; matches from before this revision
read false (not a rated match if a computer sat at it). Matches recorded before this revision
are not rated until the first rebuild.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_ratings"
down_revision: str | None = "0003_formats"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.add_column(
        "standings",
        sa.Column("rating", sa.Float, nullable=False, server_default="0"),
    )
    op.create_index(
        "ix_standings_rating",
        "standings",
        [
            "guild_id",
            "game_format",
            sa.text("rating DESC"),
            sa.text("matches_won DESC"),
            sa.text("win_rate DESC"),
            "matches_played",
            "user_id",
        ],
    )
    op.add_column(
        "matches",
        sa.Column("rate_computers", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "ratings",
        sa.Column("guild_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("game_format", sa.String(32), primary_key=True),
        sa.Column("user_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("ordinal", sa.Float, nullable=False),
        sa.Column("matches_rated", sa.Integer, nullable=False),
        sqlite_with_rowid=False,
    )
    op.create_index(
        "ix_ratings_rank",
        "ratings",
        ["guild_id", "game_format", sa.text("ordinal DESC"), "user_id"],
    )
    op.create_table(
        "rating_changes",
        sa.Column(
            "match_id",
            sa.String(64),
            sa.ForeignKey("matches.match_id", ondelete="CASCADE", name="fk_rating_changes_match"),
            primary_key=True,
        ),
        sa.Column("user_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("game_format", sa.String(32), nullable=False),
        sa.Column("finished_at", _TS, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sqlite_with_rowid=False,
    )
    op.create_index(
        "ix_rating_changes_member",
        "rating_changes",
        ["guild_id", "game_format", "user_id", "finished_at"],
    )


def downgrade() -> None:
    op.drop_table("rating_changes")
    op.drop_table("ratings")
    op.drop_column("matches", "rate_computers")  # SQLite 3.35+ drops a column in place
    op.drop_index("ix_standings_rating", table_name="standings")
    op.drop_column("standings", "rating")
