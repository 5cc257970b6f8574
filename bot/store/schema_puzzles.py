"""The puzzles' tables, on the schema's ``metadata`` (kept apart from ``schema.py``
for its length); ``bot.store`` imports this module, so the tables are always registered."""

from __future__ import annotations

import sqlalchemy as sa

from .records import MAX_FORMAT_NAME, MAX_MATCH_ID
from .schema import JSONText, UTCDateTime, metadata

__all__ = ["puzzle_attempts", "puzzles"]

# (0011) Double-dummy puzzles: positions of finished matches where one card alone
# kept the best outcome (``engine.dd_puzzles``), harvested from a match's analysis; a match's
# decision is one puzzle at most (the unique key makes a second harvest write nothing). Only
# finished matches have rows in ``matches``, so no puzzle comes from a live table.
puzzles = sa.Table(
    "puzzles",
    metadata,
    sa.Column("puzzle_id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("guild_id", sa.BigInteger, nullable=False),
    sa.Column(
        "match_id",
        sa.String(MAX_MATCH_ID),
        sa.ForeignKey("matches.match_id", ondelete="CASCADE", name="fk_puzzles_match"),
        nullable=False,
    ),
    sa.Column("hand_no", sa.Integer, nullable=False),
    sa.Column("move_no", sa.Integer, nullable=False),
    sa.Column("game_format", sa.String(MAX_FORMAT_NAME), nullable=False),
    sa.Column("puzzle", JSONText, nullable=False),
    sa.UniqueConstraint("match_id", "hand_no", "move_no", name="uq_puzzles_decision"),
    sa.Index("ix_puzzles_guild", "guild_id", "puzzle_id"),
)

# (0011) A member's answer to a puzzle: the first click counts (solved or not), once.
puzzle_attempts = sa.Table(
    "puzzle_attempts",
    metadata,
    sa.Column(
        "puzzle_id",
        sa.Integer,
        sa.ForeignKey("puzzles.puzzle_id", ondelete="CASCADE", name="fk_puzzle_attempts_puzzle"),
        primary_key=True,
        autoincrement=False,
    ),
    sa.Column("user_id", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("guild_id", sa.BigInteger, nullable=False),
    sa.Column("card", sa.SmallInteger, nullable=False),
    sa.Column("solved", sa.Boolean, nullable=False),
    sa.Column("answered_at", UTCDateTime, nullable=False),
    sa.Index("ix_puzzle_attempts_member", "guild_id", "user_id"),
)
