"""Table definitions used by the queries (SQLAlchemy Core).

The migrations in `migrations/versions/` create this schema; they are written out by hand
so they stay frozen, and a test compares them with these definitions.
Everything here is portable between SQLite and PostgreSQL; SQLite-only options
(`sqlite_with_rowid`) are ignored elsewhere, and the partial unique index is understood by both.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import orjson
import sqlalchemy as sa
from sqlalchemy.engine import Dialect

from .records import (
    LIVE_STATUSES,
    MAX_DISPLAY_NAME,
    MAX_FORMAT_NAME,
    MAX_MATCH_ID,
    MAX_SEATS,
    MAX_TABLE_ID,
    TABLE_STATUSES,
)

__all__ = [
    "LIVE_CLAUSE",
    "game_tables",
    "guild_settings",
    "match_players",
    "match_replays",
    "matches",
    "metadata",
    "rating_changes",
    "ratings",
    "standings",
    "tournament_tables",
    "tournaments",
]


class UTCDateTime(sa.TypeDecorator[datetime]):
    """Timezone-aware UTC in and out, whatever the backend stores (SQLite keeps naive text)."""

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"naive datetime {value!r}; the store only takes aware UTC times")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)

    # SQLite fast path: one C-level isoformat/fromisoformat instead of SQLAlchemy's generic
    # two-stage conversion, which dominated the cost of bulk match inserts. The text is the
    # same "YYYY-MM-DD HH:MM:SS.ffffff" that SQLAlchemy's own SQLite DATETIME writes.

    def bind_processor(self, dialect: Dialect) -> Any:
        if dialect.name != "sqlite":
            return super().bind_processor(dialect)

        def process(value: datetime | None) -> str | None:
            if value is None:
                return None
            if value.tzinfo is None:
                raise ValueError(f"naive datetime {value!r}; the store only takes aware UTC times")
            if value.tzinfo is not UTC:
                value = value.astimezone(UTC)
            return value.isoformat(" ", "microseconds")[:-6]  # drop "+00:00"

        return process

    def result_processor(self, dialect: Dialect, coltype: object) -> Any:
        if dialect.name != "sqlite":
            return super().result_processor(dialect, coltype)

        def process(value: str | None) -> datetime | None:
            return None if value is None else datetime.fromisoformat(value).replace(tzinfo=UTC)

        return process


_json_encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
_json_decode = json.JSONDecoder().decode


def _encode_json(value: Any) -> str:
    """Compact JSON text by orjson, ten times the json module's speed on a table's state,
    which is written on every move; what orjson refuses (an int past 64 bits) by
    the json module, as before."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return _json_encode(value)


def _decode_json(value: str) -> Any:
    """The same value either way; text only the json module reads (``NaN``, an int past 64
    bits) by it."""
    try:
        return orjson.loads(value)
    except orjson.JSONDecodeError:
        return _json_decode(value)


class JSONText(sa.TypeDecorator[Any]):
    """JSON kept as compact text: portable, and opaque to the database on purpose."""

    impl = sa.Text
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Dialect) -> str | None:
        return None if value is None else _encode_json(value)

    def process_result_value(self, value: str | None, dialect: Dialect) -> Any:
        return None if value is None else _decode_json(value)


def _in_list(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


LIVE_CLAUSE = sa.text(_in_list("status", LIVE_STATUSES))
"""Literal (not bound) so SQLite's planner can match it to the partial index."""

metadata = sa.MetaData()

guild_settings = sa.Table(
    "guild_settings",
    metadata,
    sa.Column("guild_id", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("settings", JSONText, nullable=False),
    sa.Column("updated_at", UTCDateTime, nullable=False),
    # The server's web page address: set while its ``web`` setting is on, None
    # while it is off (0007_web_secret). Kept out of ``settings``, which is shown back.
    sa.Column("web_secret", sa.String(64), nullable=True),
)

game_tables = sa.Table(
    "game_tables",
    metadata,
    sa.Column("table_id", sa.String(MAX_TABLE_ID), primary_key=True),
    sa.Column("guild_id", sa.BigInteger, nullable=False),
    sa.Column("channel_id", sa.BigInteger, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("state", JSONText, nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("updated_at", UTCDateTime, nullable=False),
    # The table's nearest deadline (a turn's time-out, a computer's pause, a lobby's expiry):
    # a process finds a dead process's overdue tables by it.
    sa.Column("due_at", UTCDateTime, nullable=True),
    sa.CheckConstraint(_in_list("status", TABLE_STATUSES), name="ck_game_tables_status"),
    sa.CheckConstraint("version >= 1", name="ck_game_tables_version"),
    sa.Index("ix_game_tables_status_guild", "status", "guild_id"),
    sa.Index("ix_game_tables_due", "due_at"),
    sa.Index(
        "uq_game_tables_open_channel",
        "channel_id",
        unique=True,
        sqlite_where=LIVE_CLAUSE,
        postgresql_where=LIVE_CLAUSE,
    ),
)

matches = sa.Table(
    "matches",
    metadata,
    sa.Column("match_id", sa.String(MAX_MATCH_ID), primary_key=True),
    sa.Column("guild_id", sa.BigInteger, nullable=False),
    sa.Column("channel_id", sa.BigInteger, nullable=False),
    sa.Column("started_at", UTCDateTime, nullable=False),
    sa.Column("finished_at", UTCDateTime, nullable=False),
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
    sa.Column("hands", JSONText, nullable=False),
    sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.false()),
    # (0002) hints were on: a learners' match, left out of ratings
    sa.Column("game_format", sa.String(MAX_FORMAT_NAME), nullable=False, server_default="standard"),
    sa.Column("team_results", JSONText, nullable=True),
    # (0003) the format played, and every team's [score, hands won, kots dealt, hakem-kots
    # suffered] (NULL before 0003: two teams, all in the team0_/team1_ columns, which still
    # hold the first two teams of any format)
    sa.Column("rate_computers", sa.Boolean, nullable=False, server_default=sa.false()),
    # (0004) the server let a match with computer players change ratings
    sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.true()),
    # (0010) false: a tournament's match that leaves ratings alone (T12)
    sa.CheckConstraint(f"winner_team BETWEEN 0 AND {MAX_SEATS - 1}", name="ck_matches_winner_team"),
    # (0005) the server's history, newest first, is a walk of this index (match_id breaks
    # ties of finished_at, so the pages are stable)
    sa.Index("ix_matches_guild_history", "guild_id", "finished_at", "match_id"),
)

# Who sits at which live table: one row per seated member, so a member sits at one
# live table at a time across every process of the bot. Written in the transaction of the
# table's save that seats them; the rows of a table that ends go in the save that ends it.
seated_members = sa.Table(
    "seated_members",
    metadata,
    sa.Column("user_id", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column(
        "table_id",
        sa.String(MAX_TABLE_ID),
        sa.ForeignKey("game_tables.table_id", ondelete="CASCADE", name="fk_seated_members_table"),
        nullable=False,
    ),
    sa.Index("ix_seated_members_table", "table_id"),
)

# (0005) What a finished match's Replay steps through: the engine's record of it
# (format, seed, rules, actions). A table of its own, so the rows of ``matches`` that every
# listing and the ratings rebuild read stay narrow; a match recorded before 0005 has none.
match_replays = sa.Table(
    "match_replays",
    metadata,
    sa.Column(
        "match_id",
        sa.String(MAX_MATCH_ID),
        sa.ForeignKey("matches.match_id", ondelete="CASCADE", name="fk_match_replays_match"),
        primary_key=True,
    ),
    sa.Column("replay", JSONText, nullable=False),
)

match_players = sa.Table(
    "match_players",
    metadata,
    sa.Column(
        "match_id",
        sa.String(MAX_MATCH_ID),
        sa.ForeignKey("matches.match_id", ondelete="CASCADE", name="fk_match_players_match"),
        primary_key=True,
    ),
    sa.Column("seat", sa.SmallInteger, primary_key=True, autoincrement=False),
    sa.Column("team", sa.SmallInteger, nullable=False),
    sa.Column("user_id", sa.BigInteger, nullable=True),
    sa.Column("is_computer", sa.Boolean, nullable=False),
    sa.Column("display_name", sa.String(MAX_DISPLAY_NAME), nullable=False),
    # Copied from the match so "a member's recent matches" is one index range.
    sa.Column("guild_id", sa.BigInteger, nullable=False),
    sa.Column("finished_at", UTCDateTime, nullable=False),
    sa.CheckConstraint(f"seat BETWEEN 0 AND {MAX_SEATS - 1}", name="ck_match_players_seat"),
    sa.CheckConstraint(f"team BETWEEN 0 AND {MAX_SEATS - 1}", name="ck_match_players_team"),
    sa.CheckConstraint("is_computer OR user_id IS NOT NULL", name="ck_match_players_human_id"),
    # (0005) match_id last, so a member's history is an index-only walk on PostgreSQL too
    # (SQLite's WITHOUT ROWID index carries it anyway)
    sa.Index("ix_match_players_history", "guild_id", "user_id", "finished_at", "match_id"),
    sqlite_with_rowid=False,
)

standings = sa.Table(
    "standings",
    metadata,
    sa.Column("guild_id", sa.BigInteger, primary_key=True, autoincrement=False),
    # (0003) one record per format: a member's three-player wins are not standard-table wins
    sa.Column("game_format", sa.String(MAX_FORMAT_NAME), primary_key=True),
    sa.Column("user_id", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("display_name", sa.String(MAX_DISPLAY_NAME), nullable=False),
    sa.Column("matches_played", sa.Integer, nullable=False),
    sa.Column("matches_won", sa.Integer, nullable=False),
    # Stored (not computed per query) so the ranking order is a plain index scan.
    sa.Column("win_rate", sa.Float, nullable=False),
    sa.Column("hands_won", sa.Integer, nullable=False),
    sa.Column("kots_dealt", sa.Integer, nullable=False),
    sa.Column("hakem_kots_suffered", sa.Integer, nullable=False),
    sa.Column("last_played_at", UTCDateTime, nullable=False),
    sa.Column("rating", sa.Float, nullable=False, server_default="0"),
    # (0004) the member's conservative rating in ``ratings`` (0 until rated), kept here so
    # the leaderboard by rating is an index walk
    sqlite_with_rowid=False,
)

sa.Index(
    "ix_standings_rating",
    standings.c.guild_id,
    standings.c.game_format,
    standings.c.rating.desc(),
    standings.c.matches_won.desc(),
    standings.c.win_rate.desc(),
    standings.c.matches_played,
    standings.c.user_id,
)

sa.Index(
    "ix_standings_rank",
    standings.c.guild_id,
    standings.c.game_format,
    standings.c.matches_won.desc(),
    standings.c.win_rate.desc(),
    standings.c.matches_played,
    standings.c.user_id,
)

# (0004) Skill ratings, derived from the finished matches: rebuilt from them by
# ``python -m bot --recompute-ratings``.
ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("guild_id", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("game_format", sa.String(MAX_FORMAT_NAME), primary_key=True),
    sa.Column("user_id", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    # μ − 3σ, stored so the leaderboard by rating is an index scan
    sa.Column("ordinal", sa.Float, nullable=False),
    sa.Column("matches_rated", sa.Integer, nullable=False),
    sqlite_with_rowid=False,
)

# (0005) no index by ``ordinal``: the leaderboard by rating walks ``ix_standings_rating``
# (``standings.rating`` mirrors it), so one here (``ix_ratings_rank``, 0004) was read by no
# query and only cost every rated match's write.

rating_changes = sa.Table(
    "rating_changes",
    metadata,
    sa.Column(
        "match_id",
        sa.String(MAX_MATCH_ID),
        sa.ForeignKey("matches.match_id", ondelete="CASCADE", name="fk_rating_changes_match"),
        primary_key=True,
    ),
    sa.Column("user_id", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("guild_id", sa.BigInteger, nullable=False),
    sa.Column("game_format", sa.String(MAX_FORMAT_NAME), nullable=False),
    sa.Column("finished_at", UTCDateTime, nullable=False),
    sa.Column("mu_before", sa.Float, nullable=False),
    sa.Column("sigma_before", sa.Float, nullable=False),
    sa.Column("mu_after", sa.Float, nullable=False),
    sa.Column("sigma_after", sa.Float, nullable=False),
    sa.Index("ix_rating_changes_member", "guild_id", "game_format", "user_id", "finished_at"),
    sqlite_with_rowid=False,
)

# (0009) Tournaments: one row each, its whole state (``bot.tournament``'s JSON and
# what the service keeps beside it) saved under a version like a table's, its nearest deadline
# (registration closing, a round's grace time) in ``due_at`` for any process to find.
TOURNAMENT_STATUSES = ("registration", "running", "finished", "cancelled")
LIVE_TOURNAMENT_STATUSES = ("registration", "running")
LIVE_TOURNAMENT_CLAUSE = sa.text(_in_list("status", LIVE_TOURNAMENT_STATUSES))

tournaments = sa.Table(
    "tournaments",
    metadata,
    sa.Column("tournament_id", sa.String(MAX_TABLE_ID), primary_key=True),
    sa.Column("guild_id", sa.BigInteger, nullable=False),
    sa.Column("channel_id", sa.BigInteger, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("state", JSONText, nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("updated_at", UTCDateTime, nullable=False),
    sa.Column("due_at", UTCDateTime, nullable=True),
    sa.CheckConstraint(_in_list("status", TOURNAMENT_STATUSES), name="ck_tournaments_status"),
    sa.CheckConstraint("version >= 1", name="ck_tournaments_version"),
    sa.Index("ix_tournaments_guild", "guild_id", "created_at"),
    sa.Index("ix_tournaments_due", "due_at"),
    sa.Index(
        "uq_tournaments_live_channel",
        "channel_id",
        unique=True,
        sqlite_where=LIVE_TOURNAMENT_CLAUSE,
        postgresql_where=LIVE_TOURNAMENT_CLAUSE,
    ),
)

# (0009) Which game table plays which table of which round: written in the save of the
# tournament that claims the table, so a table's end finds its tournament (and a restart finds
# a claimed table) from either side.
tournament_tables = sa.Table(
    "tournament_tables",
    metadata,
    sa.Column("table_id", sa.String(MAX_TABLE_ID), primary_key=True),
    sa.Column(
        "tournament_id",
        sa.String(MAX_TABLE_ID),
        sa.ForeignKey(
            "tournaments.tournament_id", ondelete="CASCADE", name="fk_tournament_tables_tournament"
        ),
        nullable=False,
    ),
    sa.Column("round_no", sa.Integer, nullable=False),
    sa.Column("table_no", sa.Integer, nullable=False),
    sa.UniqueConstraint("tournament_id", "round_no", "table_no", name="uq_tournament_tables_slot"),
)

# (0011) The puzzles' tables are in ``schema_puzzles``, on this ``metadata``; (0012) the
# match analyses' in ``analysis_ops``.
# (0013) Where a table is shown on Discord (``table_deliveries``) is in ``delivery_ops``.
