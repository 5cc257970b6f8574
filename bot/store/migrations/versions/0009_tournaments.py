"""Tournaments: one row per tournament, and which game table plays which table of
which round.

Revision ID: 0009_tournaments
Revises: 0008_seated_members
Create Date: 2026-12-08

``tournaments.state`` holds the whole tournament as JSON (``bot.tournament``'s document and
what the service keeps beside it), saved under ``version`` like a table: a save that finds
another version stored is refused, so a round is advanced once across processes. ``due_at``
is its nearest deadline (registration closing, a round's grace time), by which any process
finds it. One live tournament per channel (a partial unique index, as for tables).
``tournament_tables`` links a game table to its tournament's round and table, written in the
save that claims the table. Nothing existed before: the tables start empty.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009_tournaments"
down_revision: str | None = "0008_seated_members"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LIVE = sa.text("status IN ('registration', 'running')")


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("tournament_id", sa.String(32), primary_key=True),
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("channel_id", sa.BigInteger, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(
            "status IN ('registration', 'running', 'finished', 'cancelled')",
            name="ck_tournaments_status",
        ),
        sa.CheckConstraint("version >= 1", name="ck_tournaments_version"),
    )
    op.create_index("ix_tournaments_guild", "tournaments", ["guild_id", "created_at"])
    op.create_index("ix_tournaments_due", "tournaments", ["due_at"])
    op.create_index(
        "uq_tournaments_live_channel",
        "tournaments",
        ["channel_id"],
        unique=True,
        sqlite_where=LIVE,
        postgresql_where=LIVE,
    )
    op.create_table(
        "tournament_tables",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column(
            "tournament_id",
            sa.String(32),
            sa.ForeignKey(
                "tournaments.tournament_id",
                ondelete="CASCADE",
                name="fk_tournament_tables_tournament",
            ),
            nullable=False,
        ),
        sa.Column("round_no", sa.Integer, nullable=False),
        sa.Column("table_no", sa.Integer, nullable=False),
        sa.UniqueConstraint(
            "tournament_id", "round_no", "table_no", name="uq_tournament_tables_slot"
        ),
    )


def downgrade() -> None:
    op.drop_table("tournament_tables")
    op.drop_index("uq_tournaments_live_channel", table_name="tournaments")
    op.drop_index("ix_tournaments_due", table_name="tournaments")
    op.drop_index("ix_tournaments_guild", table_name="tournaments")
    op.drop_table("tournaments")
