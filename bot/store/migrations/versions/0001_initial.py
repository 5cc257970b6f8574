"""Initial schema: guild settings, live tables, finished matches, standings.

Revision ID: 0001_initial
Revises:
Create Date: 2024-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001_initial"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Frozen copies of the column types: later edits to bot/store/schema.py must not change
# what this migration creates.
_TS = sa.DateTime(timezone=True)
_LIVE = sa.text("status IN ('lobby', 'playing')")


def upgrade() -> None:
    op.create_table(
        "guild_settings",
        sa.Column("guild_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("updated_at", _TS, nullable=False),
    )

    op.create_table(
        "game_tables",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("channel_id", sa.BigInteger, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("created_at", _TS, nullable=False),
        sa.Column("updated_at", _TS, nullable=False),
        sa.CheckConstraint(
            "status IN ('lobby', 'playing', 'finished', 'cancelled')",
            name="ck_game_tables_status",
        ),
        sa.CheckConstraint("version >= 1", name="ck_game_tables_version"),
    )
    op.create_index("ix_game_tables_status_guild", "game_tables", ["status", "guild_id"])
    op.create_index(
        "uq_game_tables_open_channel",
        "game_tables",
        ["channel_id"],
        unique=True,
        sqlite_where=_LIVE,
        postgresql_where=_LIVE,
    )

    op.create_table(
        "matches",
        sa.Column("match_id", sa.String(64), primary_key=True),
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("channel_id", sa.BigInteger, nullable=False),
        sa.Column("started_at", _TS, nullable=False),
        sa.Column("finished_at", _TS, nullable=False),
        sa.Column("target_score", sa.Integer, nullable=False),
        sa.Column("team0_score", sa.Integer, nullable=False),
        sa.Column("team1_score", sa.Integer, nullable=False),
        sa.Column("winner_team", sa.SmallInteger, nullable=False),
        sa.Column("team0_hands_won", sa.Integer, nullable=False),
        sa.Column("team0_kots_dealt", sa.Integer, nullable=False),
        sa.Column("team0_hakem_kots_suffered", sa.Integer, nullable=False),
        sa.Column("team1_hands_won", sa.Integer, nullable=False),
        sa.Column("team1_kots_dealt", sa.Integer, nullable=False),
        sa.Column("team1_hakem_kots_suffered", sa.Integer, nullable=False),
        sa.Column("hands", sa.Text, nullable=False),
        sa.CheckConstraint("winner_team IN (0, 1)", name="ck_matches_winner_team"),
    )
    op.create_index("ix_matches_guild_finished", "matches", ["guild_id", "finished_at"])

    op.create_table(
        "match_players",
        sa.Column(
            "match_id",
            sa.String(64),
            sa.ForeignKey("matches.match_id", ondelete="CASCADE", name="fk_match_players_match"),
            primary_key=True,
        ),
        sa.Column("seat", sa.SmallInteger, primary_key=True, autoincrement=False),
        sa.Column("team", sa.SmallInteger, nullable=False),
        sa.Column("user_id", sa.BigInteger, nullable=True),
        sa.Column("is_computer", sa.Boolean, nullable=False),
        sa.Column("display_name", sa.String(100), nullable=False),
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("finished_at", _TS, nullable=False),
        sa.CheckConstraint("seat BETWEEN 0 AND 3", name="ck_match_players_seat"),
        sa.CheckConstraint("team = seat % 2", name="ck_match_players_team"),
        sa.CheckConstraint("is_computer OR user_id IS NOT NULL", name="ck_match_players_human_id"),
        sqlite_with_rowid=False,
    )
    op.create_index(
        "ix_match_players_member", "match_players", ["guild_id", "user_id", "finished_at"]
    )

    op.create_table(
        "standings",
        sa.Column("guild_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("user_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("display_name", sa.String(100), nullable=False),
        sa.Column("matches_played", sa.Integer, nullable=False),
        sa.Column("matches_won", sa.Integer, nullable=False),
        sa.Column("win_rate", sa.Float, nullable=False),
        sa.Column("hands_won", sa.Integer, nullable=False),
        sa.Column("kots_dealt", sa.Integer, nullable=False),
        sa.Column("hakem_kots_suffered", sa.Integer, nullable=False),
        sa.Column("last_played_at", _TS, nullable=False),
        sqlite_with_rowid=False,
    )
    op.create_index(
        "ix_standings_rank",
        "standings",
        [
            "guild_id",
            sa.text("matches_won DESC"),
            sa.text("win_rate DESC"),
            "matches_played",
            "user_id",
        ],
    )


def downgrade() -> None:
    op.drop_table("standings")
    op.drop_table("match_players")
    op.drop_table("matches")
    op.drop_table("game_tables")
    op.drop_table("guild_settings")
