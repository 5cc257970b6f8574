"""The store's SQL, as synchronous functions of one SQLAlchemy `Connection`.

Each public method here is one store call's whole unit of work. Keeping them synchronous
lets the store run a call in a single hop to a worker thread (SQLite: a thread hop per
call instead of 3-4 per statement with aiosqlite) or through `AsyncConnection.run_sync`
for async drivers (asyncpg) - the same code either way.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError

from bot.store.guild_settings import GuildSettings

from .errors import ChannelBusy, StaleWrite, StoreError
from .records import (
    FinishedMatch,
    MatchSummary,
    PlayerRecord,
    StandingsPage,
    TableRecord,
)
from .schema import (
    LIVE_CLAUSE,
    UTCDateTime,
    game_tables,
    guild_settings,
    match_players,
    matches,
    standings,
)

__all__ = ["MAX_PER_PAGE", "Ops"]

MAX_PER_PAGE = 100
_STAT_COLUMNS = ("matches_played", "matches_won", "hands_won", "kots_dealt", "hakem_kots_suffered")


def _utcnow() -> datetime:
    return datetime.now(UTC)


def _table_from_row(row: sa.Row[Any]) -> TableRecord:
    return TableRecord(
        table_id=row.table_id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        status=row.status,
        version=row.version,
        state=row.state,
        created_at=row.created_at,
        updated_at=row.updated_at,
    )


def _player_from_row(row: sa.Row[Any], rank: int) -> PlayerRecord:
    return PlayerRecord(
        guild_id=row.guild_id,
        user_id=row.user_id,
        display_name=row.display_name,
        rank=rank,
        matches_played=row.matches_played,
        matches_won=row.matches_won,
        win_rate=row.win_rate,
        hands_won=row.hands_won,
        kots_dealt=row.kots_dealt,
        hakem_kots_suffered=row.hakem_kots_suffered,
        last_played_at=row.last_played_at,
    )


def _match_row(m: FinishedMatch) -> dict[str, Any]:
    t0, t1 = m.team_stats
    return {
        "match_id": m.match_id,
        "guild_id": m.guild_id,
        "channel_id": m.channel_id,
        "started_at": m.started_at,
        "finished_at": m.finished_at,
        "target_score": m.target_score,
        "team0_score": m.scores[0],
        "team1_score": m.scores[1],
        "winner_team": m.winner_team,
        "team0_hands_won": t0.hands_won,
        "team0_kots_dealt": t0.kots_dealt,
        "team0_hakem_kots_suffered": t0.hakem_kots_suffered,
        "team1_hands_won": t1.hands_won,
        "team1_kots_dealt": t1.kots_dealt,
        "team1_hakem_kots_suffered": t1.hakem_kots_suffered,
        "hands": list(m.hands),
    }


def _player_rows(m: FinishedMatch) -> list[dict[str, Any]]:
    return [
        {
            "match_id": m.match_id,
            "seat": p.seat,
            "team": p.team,
            "user_id": p.user_id,
            "is_computer": p.is_computer,
            "display_name": p.display_name,
            "guild_id": m.guild_id,
            "finished_at": m.finished_at,
        }
        for p in m.players
    ]


def _standings_deltas(new: Sequence[FinishedMatch]) -> list[dict[str, Any]]:
    """What each human gains from these matches, summed per (guild, user)."""
    agg: dict[tuple[int, int], dict[str, Any]] = {}
    for m in new:
        for p in m.players:
            if p.is_computer or p.user_id is None:
                continue  # computers appear in the match record only
            team = m.team_stats[p.team]
            gain = {
                "matches_played": 1,
                "matches_won": int(m.winner_team == p.team),
                "hands_won": team.hands_won,
                "kots_dealt": team.kots_dealt,
                "hakem_kots_suffered": team.hakem_kots_suffered,
            }
            key = (m.guild_id, p.user_id)
            row = agg.get(key)
            if row is None:
                agg[key] = {
                    "guild_id": m.guild_id,
                    "user_id": p.user_id,
                    "display_name": p.display_name,
                    "last_played_at": m.finished_at,
                    **gain,
                }
                continue
            for col, value in gain.items():
                row[col] += value
            if m.finished_at >= row["last_played_at"]:
                row["last_played_at"] = m.finished_at
                row["display_name"] = p.display_name
    rows = [agg[key] for key in sorted(agg)]  # key order: fewer page hops, no lock-order surprises
    for row in rows:
        row["win_rate"] = row["matches_won"] / row["matches_played"]
    return rows


def _standings_merge(incoming: Any) -> dict[str, Any]:
    """SET clause adding `incoming` (EXCLUDED row or bind parameters) to a standings row.

    `win_rate` uses the same float division as the insert path so equal ratios tie exactly.
    """
    s = standings.c
    played = s.matches_played + incoming.matches_played
    won = s.matches_won + incoming.matches_won
    newer = incoming.last_played_at >= s.last_played_at
    values: dict[str, Any] = {col: s[col] + getattr(incoming, col) for col in _STAT_COLUMNS}
    values["win_rate"] = sa.cast(won, sa.Float) / played
    values["display_name"] = sa.case((newer, incoming.display_name), else_=s.display_name)
    values["last_played_at"] = sa.case((newer, incoming.last_played_at), else_=s.last_played_at)
    return values


_RANK_ORDER = (
    standings.c.matches_won.desc(),
    standings.c.win_rate.desc(),
    standings.c.matches_played.asc(),
    standings.c.user_id.asc(),
)


def _rank_statement() -> sa.Select[Any]:
    """A member's row plus how many rows sort before it (same order as `_RANK_ORDER`)."""
    me = standings.alias("me")
    o = standings.alias("o")
    ahead = (
        sa.select(sa.func.count())
        .select_from(o)
        .where(
            o.c.guild_id == me.c.guild_id,
            o.c.matches_won >= me.c.matches_won,  # sargable bound: scan only the top part
            sa.or_(
                o.c.matches_won > me.c.matches_won,
                sa.and_(
                    o.c.matches_won == me.c.matches_won,
                    sa.or_(
                        o.c.win_rate > me.c.win_rate,
                        sa.and_(
                            o.c.win_rate == me.c.win_rate,
                            sa.or_(
                                o.c.matches_played < me.c.matches_played,
                                sa.and_(
                                    o.c.matches_played == me.c.matches_played,
                                    o.c.user_id < me.c.user_id,
                                ),
                            ),
                        ),
                    ),
                ),
            ),
        )
        .scalar_subquery()
    )
    return sa.select(me, ahead.label("ahead")).where(
        me.c.guild_id == sa.bindparam("guild_id"), me.c.user_id == sa.bindparam("user_id")
    )


class Ops:
    """Prepared statements for one dialect plus the sync work of every store call.

    Statements are built once so each call only binds values (compiled-cache hits).
    `native_upsert` uses INSERT ... ON CONFLICT (SQLite, PostgreSQL); without it the
    portable update-then-insert path is used.
    """

    def __init__(self, dialect_name: str, *, native_upsert: bool | None = None) -> None:
        self.dialect_name = dialect_name
        if native_upsert is None:
            native_upsert = dialect_name in ("sqlite", "postgresql")
        self.native_upsert = native_upsert
        t = game_tables.c
        self._insert_table = sa.insert(game_tables)
        self._update_table = (
            sa.update(game_tables)
            .where(t.table_id == sa.bindparam("b_table_id"), t.version == sa.bindparam("b_prev"))
            .values(
                status=sa.bindparam("b_status"),
                version=sa.bindparam("b_version"),
                state=sa.bindparam("b_state", type_=game_tables.c.state.type),
                updated_at=sa.bindparam("b_updated_at", type_=UTCDateTime()),
            )
        )
        self._select_table = sa.select(game_tables).where(t.table_id == sa.bindparam("table_id"))
        self._select_version = sa.select(t.version).where(t.table_id == sa.bindparam("table_id"))
        self.select_open_in_channel = (
            sa.select(game_tables)
            .where(t.channel_id == sa.bindparam("channel_id"), LIVE_CLAUSE)
            .limit(1)
        )
        self._insert_players = sa.insert(match_players)
        if native_upsert:
            ins = self._insert(matches)
            self._insert_match = ins.on_conflict_do_nothing(index_elements=[matches.c.match_id])
            self._insert_matches = self._insert_match.returning(matches.c.match_id)
            ins = self._insert(standings)
            self._upsert_standings = ins.on_conflict_do_update(
                index_elements=[standings.c.guild_id, standings.c.user_id],
                set_=_standings_merge(ins.excluded),
            )
            ins = self._insert(guild_settings)
            self._upsert_settings = ins.on_conflict_do_update(
                index_elements=[guild_settings.c.guild_id],
                set_={"settings": ins.excluded.settings, "updated_at": ins.excluded.updated_at},
            )
        else:
            incoming = SimpleNamespace(
                **{c: sa.bindparam(f"in_{c}", type_=sa.Integer()) for c in _STAT_COLUMNS},
                display_name=sa.bindparam("in_display_name", type_=sa.String()),
                last_played_at=sa.bindparam("in_last_played_at", type_=UTCDateTime()),
            )
            self._update_standings = (
                sa.update(standings)
                .where(
                    standings.c.guild_id == sa.bindparam("in_guild_id"),
                    standings.c.user_id == sa.bindparam("in_user_id"),
                )
                .values(_standings_merge(incoming))
            )
        s = standings.c
        self.standings_page = (
            sa.select(standings)
            .where(s.guild_id == sa.bindparam("guild_id"))
            .order_by(*_RANK_ORDER)
            .limit(sa.bindparam("limit"))
            .offset(sa.bindparam("offset"))
        )
        self._standings_count = (
            sa.select(sa.func.count())
            .select_from(standings)
            .where(s.guild_id == sa.bindparam("guild_id"))
        )
        self.member_rank = _rank_statement()

    def _insert(self, table: sa.Table) -> Any:
        if self.dialect_name == "sqlite":
            return sqlite.insert(table)
        return postgresql.insert(table)

    # ----------------------------------------------------------------- guild settings

    def get_guild_settings(self, conn: Connection, guild_id: int) -> GuildSettings:
        stmt = sa.select(guild_settings.c.settings).where(guild_settings.c.guild_id == guild_id)
        stored = conn.execute(stmt).scalar_one_or_none()
        return GuildSettings() if stored is None else GuildSettings.from_stored(stored)

    def set_guild_settings(self, conn: Connection, guild_id: int, settings: GuildSettings) -> None:
        row = {
            "guild_id": guild_id,
            "settings": settings.model_dump(mode="json", exclude_defaults=True),
            "updated_at": _utcnow(),
        }
        if self.native_upsert:
            conn.execute(self._upsert_settings, row)
            return
        g = guild_settings.c
        done = conn.execute(
            sa.update(guild_settings)
            .where(g.guild_id == guild_id)
            .values(settings=row["settings"], updated_at=row["updated_at"])
        )
        if done.rowcount == 0:
            conn.execute(sa.insert(guild_settings), row)

    # ----------------------------------------------------------------- live tables

    def save_table(self, conn: Connection, record: TableRecord) -> TableRecord:
        now = _utcnow()
        try:
            if record.version == 1:
                # Checked before inserting: after a failed INSERT PostgreSQL refuses further
                # queries in the transaction, and the message should say which conflict it was.
                if conn.execute(self._select_version, {"table_id": record.table_id}).first():
                    raise StaleWrite(f"table {record.table_id} already exists")
                created = record.created_at or now
                conn.execute(
                    self._insert_table,
                    {
                        "table_id": record.table_id,
                        "guild_id": record.guild_id,
                        "channel_id": record.channel_id,
                        "status": record.status,
                        "version": 1,
                        "state": record.state,
                        "created_at": created,
                        "updated_at": now,
                    },
                )
                return dataclasses.replace(record, created_at=created, updated_at=now)
            result = conn.execute(
                self._update_table,
                {
                    "b_table_id": record.table_id,
                    "b_prev": record.version - 1,
                    "b_status": record.status,
                    "b_version": record.version,
                    "b_state": record.state,
                    "b_updated_at": now,
                },
            )
        except IntegrityError as exc:
            if "channel" in str(exc.orig):
                raise ChannelBusy(
                    f"channel {record.channel_id} already has an open table "
                    f"(while saving {record.table_id})"
                ) from exc
            raise StaleWrite(f"table {record.table_id} already exists") from exc
        if result.rowcount != 1:
            stored = conn.execute(
                self._select_version, {"table_id": record.table_id}
            ).scalar_one_or_none()
            if stored is None:
                raise StaleWrite(f"table {record.table_id} does not exist (deleted?)")
            raise StaleWrite(
                f"table {record.table_id}: stored version is {stored}, "
                f"this save expected {record.version - 1}"
            )
        return dataclasses.replace(record, updated_at=now)

    def load_table(self, conn: Connection, table_id: str) -> TableRecord | None:
        row = conn.execute(self._select_table, {"table_id": table_id}).first()
        return None if row is None else _table_from_row(row)

    def load_live_tables(self, conn: Connection, guild_id: int | None) -> list[TableRecord]:
        stmt = sa.select(game_tables).where(LIVE_CLAUSE)
        if guild_id is not None:
            stmt = stmt.where(game_tables.c.guild_id == guild_id)
        stmt = stmt.order_by(game_tables.c.created_at, game_tables.c.table_id)
        return [_table_from_row(r) for r in conn.execute(stmt)]

    def open_table_in_channel(self, conn: Connection, channel_id: int) -> TableRecord | None:
        row = conn.execute(self.select_open_in_channel, {"channel_id": channel_id}).first()
        return None if row is None else _table_from_row(row)

    def delete_table(self, conn: Connection, table_id: str) -> bool:
        stmt = sa.delete(game_tables).where(game_tables.c.table_id == table_id)
        return conn.execute(stmt).rowcount > 0

    def purge_tables(self, conn: Connection, finished_before: datetime) -> int:
        t = game_tables.c
        stmt = sa.delete(game_tables).where(
            t.status.in_(("finished", "cancelled")), t.updated_at < finished_before
        )
        return conn.execute(stmt).rowcount

    # ----------------------------------------------------------------- finished matches

    def finish_match(
        self, conn: Connection, match: FinishedMatch, table: TableRecord | None
    ) -> bool:
        (recorded,) = self.record_matches(conn, [match])
        if recorded and table is not None:
            if table.status != "finished":
                table = dataclasses.replace(table, status="finished")
            self.save_table(conn, table)
        return recorded

    def record_matches(self, conn: Connection, batch: Sequence[FinishedMatch]) -> list[bool]:
        """Insert the matches not yet recorded, their players and standings; per-input flags."""
        first: dict[str, int] = {}
        for i, m in enumerate(batch):
            first.setdefault(m.match_id, i)
        candidates = [batch[i] for i in first.values()]
        try:
            inserted = self._insert_new_matches(conn, candidates)
            new = [m for m in candidates if m.match_id in inserted]
            if new:
                players = [row for m in new for row in _player_rows(m)]
                if players:
                    conn.execute(self._insert_players, players)
                deltas = _standings_deltas(new)
                if deltas:
                    self.add_to_standings(conn, deltas)
        except IntegrityError as exc:  # the caller's transaction rolls back: nothing is kept
            ids = ", ".join(m.match_id for m in candidates[:3])
            more = "..." if len(candidates) > 3 else ""
            raise StoreError(f"match {ids}{more} rejected by the database: {exc.orig}") from exc
        return [first[m.match_id] == i and m.match_id in inserted for i, m in enumerate(batch)]

    def _insert_new_matches(
        self, conn: Connection, candidates: Sequence[FinishedMatch]
    ) -> set[str]:
        rows = [_match_row(m) for m in candidates]
        if self.native_upsert and len(rows) == 1:  # the bot's case: rowcount says it all
            done = conn.execute(self._insert_match, rows[0]).rowcount
            return {rows[0]["match_id"]} if done == 1 else set()
        if self.native_upsert:
            return set(conn.execute(self._insert_matches, rows).scalars())
        ids = [r["match_id"] for r in rows]
        existing = set(
            conn.execute(sa.select(matches.c.match_id).where(matches.c.match_id.in_(ids))).scalars()
        )
        fresh = [r for r in rows if r["match_id"] not in existing]
        if fresh:
            conn.execute(sa.insert(matches), fresh)
        return {r["match_id"] for r in fresh}

    def add_to_standings(self, conn: Connection, deltas: list[dict[str, Any]]) -> None:
        if self.native_upsert:
            conn.execute(self._upsert_standings, deltas)
            return
        for row in deltas:  # portable fallback: update, insert if there was nothing to update
            params = {f"in_{k}": v for k, v in row.items()}
            if conn.execute(self._update_standings, params).rowcount == 0:
                conn.execute(sa.insert(standings), row)

    # ----------------------------------------------------------------- standings

    def standings(self, conn: Connection, guild_id: int, page: int, per_page: int) -> StandingsPage:
        offset = (page - 1) * per_page
        total = conn.execute(self._standings_count, {"guild_id": guild_id}).scalar_one()
        rows: Sequence[sa.Row[Any]] = []
        if offset < total:
            params = {"guild_id": guild_id, "limit": per_page, "offset": offset}
            rows = conn.execute(self.standings_page, params).all()
        return StandingsPage(
            guild_id=guild_id,
            page=page,
            per_page=per_page,
            pages=max(1, math.ceil(total / per_page)),
            total_players=total,
            rows=tuple(_player_from_row(r, offset + i + 1) for i, r in enumerate(rows)),
        )

    def member_record(self, conn: Connection, guild_id: int, user_id: int) -> PlayerRecord | None:
        row = conn.execute(self.member_rank, {"guild_id": guild_id, "user_id": user_id}).first()
        return None if row is None else _player_from_row(row, row.ahead + 1)

    def recent_matches(
        self, conn: Connection, guild_id: int, user_id: int, limit: int
    ) -> list[MatchSummary]:
        mp, m = match_players.c, matches.c
        stmt = (
            sa.select(
                m.match_id,
                m.channel_id,
                m.finished_at,
                mp.team,
                m.winner_team,
                m.team0_score,
                m.team1_score,
                m.target_score,
            )
            .select_from(match_players.join(matches, m.match_id == mp.match_id))
            .where(mp.guild_id == guild_id, mp.user_id == user_id)
            .order_by(mp.finished_at.desc(), m.match_id.desc())
            .limit(limit)
        )
        return [
            MatchSummary(
                match_id=r.match_id,
                channel_id=r.channel_id,
                finished_at=r.finished_at,
                team=r.team,
                won=r.team == r.winner_team,
                scores=(r.team0_score, r.team1_score),
                target_score=r.target_score,
            )
            for r in conn.execute(stmt)
        ]
