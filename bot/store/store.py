"""The bot's persistence: guild settings, live tables, finished matches and standings.

SQLAlchemy Core on an AsyncEngine (no ORM: every call is one or a few prepared
statements, which keeps a card-by-card `save_table` well under a millisecond on SQLite).
"""

from __future__ import annotations

import asyncio
import dataclasses
import math
import os
import stat
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace, TracebackType
from typing import Any, Self

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.guild_settings import GuildSettings

from .engine import DEFAULT_BUSY_TIMEOUT_MS, create_store_engine, normalize_url, safe_url
from .engine import sqlite_path as _sqlite_path
from .errors import ChannelBusy, StaleWrite, StoreError
from .migrate import migrate
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

__all__ = ["MAX_PER_PAGE", "Store"]

MAX_PER_PAGE = 100
_STAT_COLUMNS = ("matches_played", "matches_won", "hands_won", "kots_dealt", "hakem_kots_suffered")


def _utcnow() -> datetime:
    return datetime.now(UTC)


def _check_sqlite_location(path: Path) -> None:
    """Fail with a clear message before SQLite says only "unable to open database file"."""
    parent = path.parent
    try:
        st = os.stat(parent)
    except (FileNotFoundError, NotADirectoryError):
        raise StoreError(f"database directory {parent} does not exist") from None
    except PermissionError:
        raise StoreError(
            f"database directory {parent} is not accessible (permission denied)"
        ) from None
    if not stat.S_ISDIR(st.st_mode):
        raise StoreError(f"database directory {parent} is not a directory")
    if path.is_dir():
        raise StoreError(f"database path {path} is a directory, not a file")


def _explain_open_failure(exc: BaseException, where: str) -> str:
    """Turn a driver error at start-up into one sentence naming the problem and the place."""
    if isinstance(exc, ModuleNotFoundError):
        return f"cannot open database {where}: driver not installed ({exc.name})"
    orig = getattr(exc, "orig", None) or exc
    msg = str(orig)
    low = msg.lower()
    if "readonly" in low or "read-only" in low:
        return (
            f"database {where} is read-only; the bot must be able to write the file "
            f"and its directory ({msg})"
        )
    if "not a database" in low or "malformed" in low or "encrypted" in low:
        return f"database file {where} is corrupt or not a SQLite database ({msg})"
    if "unable to open database file" in low:
        return f"cannot open database file {where}: is it and its directory writable? ({msg})"
    if "locked" in low or "busy" in low:
        return f"database {where} is locked by another process ({msg})"
    return f"cannot open database {where}: {type(orig).__name__}: {msg}"


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


class Store:
    """Async storage for the bot. Build it with `await Store.open(url)`; all methods are safe
    to call concurrently from one event loop (SQLite writes are serialized in-process so
    they never wait on SQLite's own busy lock)."""

    def __init__(self, engine: AsyncEngine, shown_url: str) -> None:
        """Internal: use `Store.open`, which migrates and checks the database first."""
        self._engine = engine
        self.url = shown_url
        self.backend = engine.dialect.name
        self._write_lock = asyncio.Lock() if self.backend == "sqlite" else None
        self._native_upsert = self.backend in ("sqlite", "postgresql")
        self._closed = False
        self._build_statements()

    # ----------------------------------------------------------------- lifecycle

    @classmethod
    async def open(cls, url: str, *, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS) -> Store:
        """Connect, migrate to head, and return a ready store, or raise one `StoreError`."""
        try:
            u = normalize_url(url)
        except Exception:
            raise StoreError(f"invalid database URL {safe_url(url)}") from None
        shown = safe_url(u)
        path = _sqlite_path(u)
        if path is not None:
            _check_sqlite_location(path)
        where = str(path) if path is not None else shown
        try:
            engine = create_store_engine(u, busy_timeout_ms=busy_timeout_ms)
        except Exception as exc:
            raise StoreError(_explain_open_failure(exc, where)) from exc
        try:
            async with engine.connect() as conn:
                await migrate(conn, where)
        except BaseException as exc:
            await engine.dispose()  # never leave a half-open store behind
            if isinstance(exc, StoreError) or not isinstance(exc, Exception):
                raise
            raise StoreError(_explain_open_failure(exc, where)) from exc
        return cls(engine, shown)

    async def close(self) -> None:
        """Close every pooled connection; safe to call twice."""
        if not self._closed:
            self._closed = True
            await self._engine.dispose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    def __repr__(self) -> str:
        return f"Store({self.url!r})"

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[AsyncConnection]:
        async with self._engine.connect() as conn:
            yield conn

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[AsyncConnection]:
        """One transaction, committed on success and rolled back on any exception."""
        if self._write_lock is None:
            async with self._engine.begin() as conn:
                yield conn
            return
        async with self._write_lock, self._engine.begin() as conn:
            yield conn

    def _insert(self, table: sa.Table) -> Any:
        if self.backend == "sqlite":
            return sqlite.insert(table)
        if self.backend == "postgresql":
            return postgresql.insert(table)
        return sa.insert(table)

    def _build_statements(self) -> None:
        """Build hot statements once so each call only binds values (compiled-cache hits)."""
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
        self._select_open_in_channel = (
            sa.select(game_tables)
            .where(t.channel_id == sa.bindparam("channel_id"), LIVE_CLAUSE)
            .limit(1)
        )
        self._insert_players = sa.insert(match_players)
        if self._native_upsert:
            ins = self._insert(matches)
            self._insert_matches = ins.on_conflict_do_nothing(
                index_elements=[matches.c.match_id]
            ).returning(matches.c.match_id)
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
        self._standings_page = (
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
        self._member_rank = _rank_statement()

    # ----------------------------------------------------------------- guild settings

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings, or the defaults if it never changed any."""
        stmt = sa.select(guild_settings.c.settings).where(guild_settings.c.guild_id == guild_id)
        async with self._read() as conn:
            stored = (await conn.execute(stmt)).scalar_one_or_none()
        return GuildSettings() if stored is None else GuildSettings.from_stored(stored)

    async def set_guild_settings(self, guild_id: int, settings: GuildSettings) -> None:
        """Replace the guild's settings (only non-defaults are kept, so defaults can evolve)."""
        row = {
            "guild_id": guild_id,
            "settings": settings.model_dump(mode="json", exclude_defaults=True),
            "updated_at": _utcnow(),
        }
        async with self._write() as conn:
            if self._native_upsert:
                await conn.execute(self._upsert_settings, row)
                return
            g = guild_settings.c
            done = await conn.execute(
                sa.update(guild_settings)
                .where(g.guild_id == guild_id)
                .values(settings=row["settings"], updated_at=row["updated_at"])
            )
            if done.rowcount == 0:
                await conn.execute(sa.insert(guild_settings), row)

    # ----------------------------------------------------------------- live tables

    async def save_table(self, record: TableRecord) -> TableRecord:
        """Insert (version 1) or update (stored version must be record.version - 1).

        Raises `StaleWrite` when someone else saved first or the table is gone, and
        `ChannelBusy` when another table is already open in the channel. Returns the
        record with its timestamps as stored.
        """
        async with self._write() as conn:
            return await self._save_table(conn, record)

    async def _save_table(self, conn: AsyncConnection, record: TableRecord) -> TableRecord:
        now = _utcnow()
        try:
            if record.version == 1:
                exists = await conn.execute(self._select_version, {"table_id": record.table_id})
                if exists.first() is not None:  # checked first: PostgreSQL can't query after
                    raise StaleWrite(f"table {record.table_id} already exists")
                created = record.created_at or now
                await conn.execute(
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
            result = await conn.execute(
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
            stored = (
                await conn.execute(self._select_version, {"table_id": record.table_id})
            ).scalar_one_or_none()
            if stored is None:
                raise StaleWrite(f"table {record.table_id} does not exist (deleted?)")
            raise StaleWrite(
                f"table {record.table_id}: stored version is {stored}, "
                f"this save expected {record.version - 1}"
            )
        return dataclasses.replace(record, updated_at=now)

    async def load_table(self, table_id: str) -> TableRecord | None:
        """One table by id, whatever its status."""
        async with self._read() as conn:
            row = (await conn.execute(self._select_table, {"table_id": table_id})).first()
        return None if row is None else _table_from_row(row)

    async def load_live_tables(self, guild_id: int | None = None) -> list[TableRecord]:
        """Tables in lobby or playing (all guilds by default), oldest first: for restarts."""
        stmt = sa.select(game_tables).where(LIVE_CLAUSE)
        if guild_id is not None:
            stmt = stmt.where(game_tables.c.guild_id == guild_id)
        stmt = stmt.order_by(game_tables.c.created_at, game_tables.c.table_id)
        async with self._read() as conn:
            rows = (await conn.execute(stmt)).all()
        return [_table_from_row(r) for r in rows]

    async def open_table_in_channel(self, channel_id: int) -> TableRecord | None:
        """The lobby or game occupying a channel (there is at most one)."""
        async with self._read() as conn:
            row = (
                await conn.execute(self._select_open_in_channel, {"channel_id": channel_id})
            ).first()
        return None if row is None else _table_from_row(row)

    async def delete_table(self, table_id: str) -> bool:
        """Forget a table; True if it existed."""
        stmt = sa.delete(game_tables).where(game_tables.c.table_id == table_id)
        async with self._write() as conn:
            return (await conn.execute(stmt)).rowcount > 0

    async def purge_tables(self, finished_before: datetime) -> int:
        """Delete finished/cancelled table rows last saved before a time; returns how many."""
        t = game_tables.c
        stmt = sa.delete(game_tables).where(
            t.status.in_(("finished", "cancelled")), t.updated_at < finished_before
        )
        async with self._write() as conn:
            return (await conn.execute(stmt)).rowcount

    # ----------------------------------------------------------------- finished matches

    async def finish_match(self, match: FinishedMatch, table: TableRecord | None = None) -> bool:
        """Record a finished match exactly once, in one transaction.

        Inserts the match and its players, adds to the humans' standings and, if `table`
        is given, saves it as the table's final record (status forced to "finished",
        version rules as in `save_table`). Returns False, writing nothing, if the match id
        is already recorded: a retry after a crash never counts a match twice.
        """
        async with self._write() as conn:
            (recorded,) = await self._record_matches(conn, [match])
            if recorded and table is not None:
                if table.status != "finished":
                    table = dataclasses.replace(table, status="finished")
                await self._save_table(conn, table)
            return recorded

    async def finish_matches(self, batch: Sequence[FinishedMatch]) -> list[bool]:
        """Record many matches in one transaction (imports, benchmarks); same rules as
        `finish_match` without tables. Returns, per input, whether it was newly recorded."""
        if not batch:
            return []
        async with self._write() as conn:
            return await self._record_matches(conn, batch)

    async def _record_matches(
        self, conn: AsyncConnection, batch: Sequence[FinishedMatch]
    ) -> list[bool]:
        first: dict[str, int] = {}
        for i, m in enumerate(batch):
            first.setdefault(m.match_id, i)
        candidates = [batch[i] for i in first.values()]
        try:
            inserted = await self._insert_new_matches(conn, candidates)
            new = [m for m in candidates if m.match_id in inserted]
            if new:
                players = [row for m in new for row in _player_rows(m)]
                if players:
                    await conn.execute(self._insert_players, players)
                deltas = _standings_deltas(new)
                if deltas:
                    await self._add_to_standings(conn, deltas)
        except IntegrityError as exc:  # the caller's transaction rolls back: nothing is kept
            ids = ", ".join(m.match_id for m in candidates[:3])
            more = "..." if len(candidates) > 3 else ""
            raise StoreError(f"match {ids}{more} rejected by the database: {exc.orig}") from exc
        return [first[m.match_id] == i and m.match_id in inserted for i, m in enumerate(batch)]

    async def _insert_new_matches(
        self, conn: AsyncConnection, candidates: Sequence[FinishedMatch]
    ) -> set[str]:
        rows = [_match_row(m) for m in candidates]
        if self._native_upsert:
            return set((await conn.execute(self._insert_matches, rows)).scalars())
        ids = [r["match_id"] for r in rows]
        existing = set(
            (
                await conn.execute(sa.select(matches.c.match_id).where(matches.c.match_id.in_(ids)))
            ).scalars()
        )
        fresh = [r for r in rows if r["match_id"] not in existing]
        if fresh:
            await conn.execute(sa.insert(matches), fresh)
        return {r["match_id"] for r in fresh}

    async def _add_to_standings(self, conn: AsyncConnection, deltas: list[dict[str, Any]]) -> None:
        if self._native_upsert:
            await conn.execute(self._upsert_standings, deltas)
            return
        for row in deltas:  # portable fallback: update, insert if there was nothing to update
            params = {f"in_{k}": v for k, v in row.items()}
            if (await conn.execute(self._update_standings, params)).rowcount == 0:
                await conn.execute(sa.insert(standings), row)

    # ----------------------------------------------------------------- standings

    async def standings(self, guild_id: int, page: int, per_page: int = 10) -> StandingsPage:
        """Page `page` (1-based) of a guild's standings: most wins first, then win rate,
        then fewer matches played, then user id. Past the end, rows is empty."""
        if page < 1:
            raise ValueError(f"page starts at 1, got {page}")
        if not 1 <= per_page <= MAX_PER_PAGE:
            raise ValueError(f"per_page must be 1-{MAX_PER_PAGE}, got {per_page}")
        offset = (page - 1) * per_page
        async with self._read() as conn:
            total = (await conn.execute(self._standings_count, {"guild_id": guild_id})).scalar_one()
            rows = []
            if offset < total:
                params = {"guild_id": guild_id, "limit": per_page, "offset": offset}
                rows = (await conn.execute(self._standings_page, params)).all()
        return StandingsPage(
            guild_id=guild_id,
            page=page,
            per_page=per_page,
            pages=max(1, math.ceil(total / per_page)),
            total_players=total,
            rows=tuple(_player_from_row(r, offset + i + 1) for i, r in enumerate(rows)),
        )

    async def member_record(self, guild_id: int, user_id: int) -> PlayerRecord | None:
        """One member's standing with its rank, or None if they never finished a match here."""
        async with self._read() as conn:
            row = (
                await conn.execute(self._member_rank, {"guild_id": guild_id, "user_id": user_id})
            ).first()
        return None if row is None else _player_from_row(row, row.ahead + 1)

    async def recent_matches(
        self, guild_id: int, user_id: int, limit: int = 5
    ) -> list[MatchSummary]:
        """A member's latest finished matches in a guild, newest first."""
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
        async with self._read() as conn:
            rows = (await conn.execute(stmt)).all()
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
            for r in rows
        ]
