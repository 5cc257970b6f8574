"""Match history and replays: a finished match keeps its replay record, and the
server's and a member's matches are listed newest first from an index.

Revision ID: 0005_match_replays
Revises: 0004_ratings
Create Date: 2026-12-03

``match_replays`` holds, per finished match, the engine's record of it (format, seed, rules,
actions; ``engine.story.record``), which ``/hokm history``'s Replay plays again. It is a
table of its own so the rows of ``matches`` stay narrow; matches recorded before this
revision have no row there, and their Replay says so.

The two history indexes replace the ones they extend (``match_id`` appended, so pages
ordered by ``finished_at, match_id`` need no sort): every other query that used the old ones
uses their prefix.

``ix_ratings_rank`` (0004) goes: no query reads ``ratings`` by ``ordinal`` (the leaderboard by
rating walks ``ix_standings_rating``), and keeping it cost every rated match's write a delete
and an insert in it per member (``bench/store_bench.py``, ``docs/benchmarks.md``).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_match_replays"
down_revision: str | None = "0004_ratings"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "match_replays",
        sa.Column(
            "match_id",
            sa.String(64),
            sa.ForeignKey("matches.match_id", ondelete="CASCADE", name="fk_match_replays_match"),
            primary_key=True,
        ),
        sa.Column("replay", sa.Text, nullable=False),
    )
    op.create_index("ix_matches_guild_history", "matches", ["guild_id", "finished_at", "match_id"])
    op.drop_index("ix_matches_guild_finished", table_name="matches")
    op.create_index(
        "ix_match_players_history",
        "match_players",
        ["guild_id", "user_id", "finished_at", "match_id"],
    )
    op.drop_index("ix_match_players_member", table_name="match_players")
    op.drop_index("ix_ratings_rank", table_name="ratings")


def downgrade() -> None:
    op.create_index(
        "ix_ratings_rank",
        "ratings",
        ["guild_id", "game_format", sa.text("ordinal DESC"), "user_id"],
    )
    op.create_index(
        "ix_match_players_member", "match_players", ["guild_id", "user_id", "finished_at"]
    )
    op.drop_index("ix_match_players_history", table_name="match_players")
    op.create_index("ix_matches_guild_finished", "matches", ["guild_id", "finished_at"])
    op.drop_index("ix_matches_guild_history", table_name="matches")
    op.drop_table("match_replays")
