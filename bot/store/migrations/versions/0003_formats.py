"""Every Hokm format: a match names its format and keeps every team's results;
seats and teams go up to six; standings are kept per format.

Revision ID: 0003_formats
Revises: 0002_match_hints
Create Date: 2026-12-01

Every match and standings row from before this revision is the standard game, so the new
``game_format`` columns default to ``standard``; ``team_results`` is NULL for them (their two
teams are in the ``team0_``/``team1_`` columns, as before).

Three CHECK constraints and the standings key change. PostgreSQL alters them in place.
SQLite cannot, so each table is rebuilt: renamed aside (SQLite then points
``match_players``' foreign key at the renamed ``matches``), created anew, filled, and the old
one dropped child first, so the ``ON DELETE CASCADE`` of the foreign key never fires on the
rows being moved (foreign keys are on in every connection of the store).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_formats"
down_revision: str | None = "0002_match_hints"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TS = sa.DateTime(timezone=True)
MAX_SEAT = 5
_MATCH_COLUMNS = (
    "match_id, guild_id, channel_id, started_at, finished_at, target_score, team0_score, "
    "team1_score, winner_team, team0_hands_won, team0_kots_dealt, team0_hakem_kots_suffered, "
    "team1_hands_won, team1_kots_dealt, team1_hakem_kots_suffered, hands, hints"
)
_PLAYER_COLUMNS = "match_id, seat, team, user_id, is_computer, display_name, guild_id, finished_at"
_STANDINGS_COLUMNS = (
    "guild_id, user_id, display_name, matches_played, matches_won, win_rate, hands_won, "
    "kots_dealt, hakem_kots_suffered, last_played_at"
)


def _create_matches(formats: bool) -> None:
    extra: list[sa.Column[str] | sa.CheckConstraint] = []
    if formats:
        extra = [
            sa.Column("game_format", sa.String(32), nullable=False, server_default="standard"),
            sa.Column("team_results", sa.Text, nullable=True),
            sa.CheckConstraint(
                f"winner_team BETWEEN 0 AND {MAX_SEAT}", name="ck_matches_winner_team"
            ),
        ]
    else:
        extra = [sa.CheckConstraint("winner_team IN (0, 1)", name="ck_matches_winner_team")]
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
        sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.false()),
        *extra,
    )
    op.create_index("ix_matches_guild_finished", "matches", ["guild_id", "finished_at"])


def _player_checks(formats: bool) -> list[sa.CheckConstraint]:
    if formats:
        seat = f"seat BETWEEN 0 AND {MAX_SEAT}"
        team = f"team BETWEEN 0 AND {MAX_SEAT}"
    else:
        seat, team = "seat BETWEEN 0 AND 3", "team = seat % 2"
    return [
        sa.CheckConstraint(seat, name="ck_match_players_seat"),
        sa.CheckConstraint(team, name="ck_match_players_team"),
    ]


def _create_match_players(formats: bool) -> None:
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
        *_player_checks(formats),
        sa.CheckConstraint("is_computer OR user_id IS NOT NULL", name="ck_match_players_human_id"),
        sqlite_with_rowid=False,
    )
    op.create_index(
        "ix_match_players_member", "match_players", ["guild_id", "user_id", "finished_at"]
    )


def _create_standings(formats: bool) -> None:
    key = [sa.Column("game_format", sa.String(32), primary_key=True)] if formats else []
    op.create_table(
        "standings",
        sa.Column("guild_id", sa.BigInteger, primary_key=True, autoincrement=False),
        *key,
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
    _rank_index(formats)


def _rank_index(formats: bool) -> None:
    columns: list[str | sa.TextClause] = ["guild_id"]
    if formats:
        columns.append("game_format")
    columns += [sa.text("matches_won DESC"), sa.text("win_rate DESC"), "matches_played", "user_id"]
    op.create_index("ix_standings_rank", "standings", columns)


def _rebuild_sqlite(formats: bool) -> None:
    """Move every table aside, create it in the target shape, copy, drop the old child first.

    Going down, only the standard game's rows fit the old shape; the rest are left behind.
    """
    standard_only = "" if formats else " WHERE game_format = 'standard'"
    op.rename_table("matches", "_matches_old")
    op.drop_index("ix_matches_guild_finished", table_name="_matches_old")
    op.rename_table("match_players", "_match_players_old")
    op.drop_index("ix_match_players_member", table_name="_match_players_old")
    op.rename_table("standings", "_standings_old")
    op.drop_index("ix_standings_rank", table_name="_standings_old")
    _create_matches(formats)
    op.execute(
        f"INSERT INTO matches ({_MATCH_COLUMNS}) "
        f"SELECT {_MATCH_COLUMNS} FROM _matches_old{standard_only}"
    )
    _create_match_players(formats)
    op.execute(
        f"INSERT INTO match_players ({_PLAYER_COLUMNS}) SELECT {_PLAYER_COLUMNS} "
        "FROM _match_players_old WHERE match_id IN (SELECT match_id FROM matches)"
    )
    _create_standings(formats)
    into, values = _STANDINGS_COLUMNS, _STANDINGS_COLUMNS
    if formats:  # every standings row so far is the standard game's
        into, values = f"game_format, {into}", f"'standard', {values}"
    op.execute(f"INSERT INTO standings ({into}) SELECT {values} FROM _standings_old{standard_only}")
    op.drop_table("_match_players_old")
    op.drop_table("_matches_old")
    op.drop_table("_standings_old")


def _alter_in_place(formats: bool) -> None:
    """PostgreSQL: constraints and keys change without moving a row."""
    if formats:
        op.add_column(
            "matches",
            sa.Column("game_format", sa.String(32), nullable=False, server_default="standard"),
        )
        op.add_column("matches", sa.Column("team_results", sa.Text, nullable=True))
        op.add_column(
            "standings",
            sa.Column("game_format", sa.String(32), nullable=False, server_default="standard"),
        )
        op.alter_column("standings", "game_format", server_default=None)
    else:
        op.execute("DELETE FROM matches WHERE game_format <> 'standard'")
        op.execute("DELETE FROM standings WHERE game_format <> 'standard'")
    op.drop_constraint("ck_matches_winner_team", "matches", type_="check")
    winner = f"winner_team BETWEEN 0 AND {MAX_SEAT}" if formats else "winner_team IN (0, 1)"
    op.create_check_constraint("ck_matches_winner_team", "matches", winner)
    for check in _player_checks(formats):
        op.drop_constraint(str(check.name), "match_players", type_="check")
        op.create_check_constraint(str(check.name), "match_players", str(check.sqltext))
    op.drop_index("ix_standings_rank", table_name="standings")
    op.drop_constraint("standings_pkey", "standings", type_="primary")
    key = ["guild_id", "game_format", "user_id"] if formats else ["guild_id", "user_id"]
    op.create_primary_key("standings_pkey", "standings", key)
    _rank_index(formats)
    if not formats:
        op.drop_column("standings", "game_format")
        op.drop_column("matches", "team_results")
        op.drop_column("matches", "game_format")


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        _rebuild_sqlite(formats=True)
    else:
        _alter_in_place(formats=True)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        _rebuild_sqlite(formats=False)
    else:
        _alter_in_place(formats=False)
