"""The bot's persistence: guild settings, live tables, finished matches and standings.

`Store` is the async facade. Each call is one synchronous unit of work of `Ops` (`ops.py`,
assembled from `table_ops`, `settings_ops`, `match_ops` and `standings_ops`; SQLAlchemy
Core, a few prepared statements, no ORM) handed to a runner: on SQLite one thread runs it
whole (aiosqlite's, or the store's own for the stdlib driver), on PostgreSQL `run_sync` on
an AsyncEngine (asyncpg).
"""

from __future__ import annotations

import asyncio
import os
import stat
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Self

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.store.guild_settings import GuildSettings
from engine import STANDARD

from .analysis_ops import AnalysisStore
from .database import (
    DEFAULT_BUSY_TIMEOUT_MS,
    create_private_sqlite_file,
    create_store_engine,
    is_async_url,
    normalize_url,
    safe_url,
    sqlite_path,
)
from .delivery_ops import DeliveryStore
from .errors import StoreError
from .listen import Saved, TableSaves
from .migrate import Migration, migrate
from .ops import MAX_PER_PAGE, Ops
from .puzzle_ops import PuzzleStore
from .records import (
    FinishedMatch,
    HistoryPage,
    MatchSummary,
    MemberRating,
    PlayerRecord,
    StandingsPage,
    StoredReplay,
    TableRecord,
)
from .runner import AiosqliteRunner, AsyncRunner, Runner, ThreadRunner
from .standings_ops import StandingsOrder
from .summary_ops import SummaryStore
from .tournament_ops import TournamentStore
from .web_reads import WebReads
from .write_cache import DEFAULT_WRITER_CACHE_MIB, WarmResult, WriterWarming

__all__ = ["MAX_PER_PAGE", "Store"]

_CHECKPOINT_INTERVAL = 1.0  # seconds between background WAL checkpoints (when dirty)
_BACKSTOP_AUTOCHECKPOINT = 16384  # pages (64 MiB): SQLite checkpoints at commit only past this


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


class Store(WebReads, TournamentStore, PuzzleStore, AnalysisStore, DeliveryStore, SummaryStore):
    """Async storage for the bot. Build it with `await Store.open(url)`.

    All methods may be called concurrently from one event loop; none blocks it.
    """

    def __init__(self, runner: Runner, shown_url: str, migration: Migration | None = None) -> None:
        """Internal: use `Store.open`, which migrates and checks the database first."""
        self.migration = migration
        """What `open` did to the schema (`--migrate-only` reports it)."""
        self._runner = runner
        self._ops = Ops(runner.dialect_name)
        self._ops.compile(runner.dialect)  # not in the first match's write
        self.url = shown_url
        self.backend = runner.dialect_name
        self._closed = False
        self._warming: WriterWarming | None = None

    # ----------------------------------------------------------------- lifecycle

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        writer_cache_mib: int = DEFAULT_WRITER_CACHE_MIB,
    ) -> Store:
        """Connect, migrate to head, and return a ready store, or raise one `StoreError`.

        `sqlite+aiosqlite:///path` runs each unit of work in one of aiosqlite's threads,
        `sqlite:///path` in one of the store's own, `postgresql+asyncpg://...` on an
        AsyncEngine. On a SQLite file the writer's connection keeps a cache of
        ``writer_cache_mib``, which the store fills in the background with what a finished
        match updates (`write_cache`); `warmed` says when that is done.
        """
        try:
            u = normalize_url(url)
        except Exception:
            raise StoreError(f"invalid database URL {safe_url(url)}") from None
        shown = safe_url(u)
        path = sqlite_path(u)
        if path is not None:
            _check_sqlite_location(path)
        where = str(path) if path is not None else shown
        try:
            if path is not None:
                create_private_sqlite_file(path)
            if u.get_backend_name() == "sqlite" and is_async_url(u):
                # aiosqlite: its threads run SQLAlchemy's sync driver (see AiosqliteRunner)
                u = u.set(drivername="sqlite")
                on_aiosqlite = True
            else:
                on_aiosqlite = False
            threaded_file = path is not None and not is_async_url(u)
            engine = create_store_engine(
                u,
                busy_timeout_ms=busy_timeout_ms,
                # checkpoints run in the background instead (see ThreadRunner)
                wal_autocheckpoint=_BACKSTOP_AUTOCHECKPOINT if threaded_file else 1000,
            )
        except Exception as exc:
            raise StoreError(_explain_open_failure(exc, where)) from exc
        try:
            migration: Migration
            if isinstance(engine, sa.Engine):
                migration = await asyncio.to_thread(_migrate_sync, engine, where)
            else:
                async with engine.connect() as conn:
                    migration = await conn.run_sync(migrate, where)
        except BaseException as exc:
            await _dispose(engine)  # never leave a half-open store behind
            if isinstance(exc, StoreError) or not isinstance(exc, Exception):
                raise
            raise StoreError(_explain_open_failure(exc, where)) from exc
        runner: Runner
        if isinstance(engine, sa.Engine):
            file = u.get_backend_name() == "sqlite" and path is not None
            readers = 2 if file or u.get_backend_name() != "sqlite" else 0  # 0: in memory
            interval = _CHECKPOINT_INTERVAL if file else None
            cache = writer_cache_mib if file else None
            if on_aiosqlite:
                try:
                    runner = await AiosqliteRunner.start(
                        engine,
                        readers=readers,
                        checkpoint_interval=interval,
                        writer_cache_mib=cache,
                    )
                except Exception as exc:
                    raise StoreError(_explain_open_failure(exc, where)) from exc
            else:
                runner = ThreadRunner(
                    engine, readers=readers, checkpoint_interval=interval, writer_cache_mib=cache
                )
        else:
            runner = AsyncRunner(engine)
            cache = None
        store = cls(runner, shown, migration)
        if cache is not None:
            store._warming = WriterWarming(runner, cache)
        return store

    async def warmed(self) -> WarmResult | None:
        """Wait until the writer's cache is filled (`Store.open`); None: nothing to fill (not a
        SQLite file), or the filling failed (logged) or was stopped by `close`."""
        return await self._warming.wait() if self._warming is not None else None

    async def close(self) -> None:
        """Finish queued work and close every pooled connection; safe to call twice."""
        if not self._closed:
            self._closed = True
            if self._warming is not None:
                await self._warming.stop()
            await self._runner.close()

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

    # ----------------------------------------------------------------- guild settings

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings, or the defaults if it never changed any."""
        return await self._runner.read(self._ops.get_guild_settings, guild_id)

    async def set_guild_settings(self, guild_id: int, settings: GuildSettings) -> None:
        """Replace the guild's settings (only non-defaults are kept, so defaults can evolve);
        with ``web`` on, the web page gets its secret if it has none; off, the secret goes."""
        await self._runner.write(self._ops.set_guild_settings, guild_id, settings)

    async def web_secret(self, guild_id: int) -> str | None:
        """The secret in the address of the server's web page: set while its
        ``web`` setting is on (made by ``set_guild_settings``), None while it is off."""
        return await self._runner.read(self._ops.web_secret, guild_id)

    # ----------------------------------------------------------------- live tables

    async def save_table(self, record: TableRecord) -> TableRecord:
        """Insert (version 1) or update (stored version must be record.version - 1).

        Raises `StaleWrite` when someone else saved first or the table is gone, and
        `ChannelBusy` when another table is already open in the channel. Returns the
        record with its timestamps as stored.
        """
        return await self._runner.write(self._ops.save_table, record)

    async def load_table(self, table_id: str) -> TableRecord | None:
        """One table by id, whatever its status."""
        return await self._runner.read(self._ops.load_table, table_id)

    def listen_tables(self, saved: Saved) -> TableSaves | None:
        """PostgreSQL: call ``saved(table id, version)`` for every table save of every process
        on the database, until the returned listener is closed; ``None`` elsewhere (a SQLite
        file has one process)."""
        runner = self._runner
        if self.backend != "postgresql" or not isinstance(runner, AsyncRunner):
            return None
        return TableSaves(runner.engine, saved)

    async def overdue_tables(self, before: datetime, limit: int = 100) -> list[str]:
        """Live tables whose nearest deadline passed before ``before``, most overdue first
        (what a dead process left)."""
        return await self._runner.read(self._ops.overdue_tables, before, limit)

    async def load_live_tables(self, guild_id: int | None = None) -> list[TableRecord]:
        """Tables in lobby or playing (all guilds by default), oldest first: for restarts."""
        return await self._runner.read(self._ops.load_live_tables, guild_id)

    async def open_table_in_channel(self, channel_id: int) -> TableRecord | None:
        """The lobby or game occupying a channel (there is at most one)."""
        return await self._runner.read(self._ops.open_table_in_channel, channel_id)

    async def newest_table_in_channel(self, channel_id: int) -> TableRecord | None:
        """The table opened last in a channel, whatever its status (is a Rematch still the
        channel's next table?). Ended rows go with the purge, so this scans few rows."""
        return await self._runner.read(self._ops.newest_table_in_channel, channel_id)

    async def delete_table(self, table_id: str) -> bool:
        """Forget a table; True if it existed."""
        return await self._runner.write(self._ops.delete_table, table_id)

    async def purge_tables(self, finished_before: datetime) -> int:
        """Delete finished/cancelled table rows last saved before a time; returns how many."""
        return await self._runner.write(self._ops.purge_tables, finished_before)

    # ----------------------------------------------------------------- finished matches

    async def finish_match(self, match: FinishedMatch, table: TableRecord | None = None) -> bool:
        """Record a finished match exactly once, in one transaction.

        Inserts the match and its players, adds to the humans' standings and, if `table`
        is given, saves it as the table's final record (status forced to "finished",
        version rules as in `save_table`). Returns False, writing nothing, if the match id
        is already recorded: a retry after a crash never counts a match twice. Any error
        (e.g. `StaleWrite` for the table) rolls the whole transaction back.
        """
        return await self._runner.write(self._ops.finish_match, match, table)

    async def finish_matches(self, batch: Sequence[FinishedMatch]) -> list[bool]:
        """Record many matches in one transaction (imports, benchmarks) with the same code
        as `finish_match`, without tables. Returns, per input, whether it was newly recorded."""
        if not batch:
            return []
        return await self._runner.write(self._ops.record_matches, batch)

    # ----------------------------------------------------------------- standings

    async def standings(
        self,
        guild_id: int,
        page: int,
        per_page: int = 10,
        game_format: str = STANDARD.name,
        order: StandingsOrder = "rating",
    ) -> StandingsPage:
        """Page `page` (1-based) of a guild's standings in one format: the highest
        conservative rating first (``order="rating"``), then most wins, then win
        rate, then fewer matches played, then user id (``order="wins"``: the same without the
        rating). Past the end, rows is empty."""
        if page < 1:
            raise ValueError(f"page starts at 1, got {page}")
        if not 1 <= per_page <= MAX_PER_PAGE:
            raise ValueError(f"per_page must be 1-{MAX_PER_PAGE}, got {per_page}")
        return await self._runner.read(
            self._ops.standings, guild_id, page, per_page, game_format, order
        )

    async def member_record(
        self,
        guild_id: int,
        user_id: int,
        game_format: str = STANDARD.name,
        order: StandingsOrder = "rating",
    ) -> PlayerRecord | None:
        """One member's standing in one format with its rank (in ``order``, as `standings`),
        or None if they never finished a match of that format here."""
        return await self._runner.read(
            self._ops.member_record, guild_id, user_id, game_format, order
        )

    async def recent_matches(
        self, guild_id: int, user_id: int, limit: int = 5
    ) -> list[MatchSummary]:
        """A member's latest finished matches in a guild, newest first."""
        return await self._runner.read(self._ops.recent_matches, guild_id, user_id, limit)

    # ----------------------------------------------------------------- history

    async def history(
        self, guild_id: int, page: int, per_page: int = 10, user_id: int | None = None
    ) -> HistoryPage:
        """Page `page` (1-based) of a server's finished matches, or of those a member played
        (`user_id`), newest first, each with its players; the pages reach back
        ``HISTORY_DEPTH`` matches. Past the end, rows is empty."""
        if page < 1:
            raise ValueError(f"page starts at 1, got {page}")
        if not 1 <= per_page <= MAX_PER_PAGE:
            raise ValueError(f"per_page must be 1-{MAX_PER_PAGE}, got {per_page}")
        return await self._runner.read(self._ops.history_page, guild_id, user_id, page, per_page)

    async def match_replay(self, guild_id: int, match_id: str) -> StoredReplay | None:
        """A match this server finished, with its replay record (None for a match recorded
        before replays were kept); None if no such match finished here."""
        return await self._runner.read(self._ops.match_replay, guild_id, match_id)

    # ----------------------------------------------------------------- ratings

    async def recompute_ratings(self) -> int:
        """Rebuild every rating from the stored finished matches, in one transaction (what
        ``python -m bot --recompute-ratings`` runs); how many matches were rated."""
        return await self._runner.write(self._ops.recompute_ratings)

    async def ratings_of(
        self, guild_id: int, user_ids: Sequence[int], game_format: str = STANDARD.name
    ) -> dict[int, MemberRating]:
        """The ratings of those members who have one in a format here, by user id."""
        return await self._runner.read(self._ops.ratings_of, guild_id, game_format, user_ids)

    async def rating_trend(
        self, guild_id: int, user_id: int, game_format: str = STANDARD.name
    ) -> float | None:
        """The change of a member's conservative rating over their last 10 rated matches."""
        return await self._runner.read(self._ops.rating_trend, guild_id, user_id, game_format)

    async def match_rating_changes(self, match_id: str) -> dict[int, float]:
        """Each rated member's change of conservative rating in one finished match."""
        return await self._runner.read(self._ops.match_rating_changes, match_id)

    async def best_partner(
        self, guild_id: int, user_id: int, game_format: str = STANDARD.name
    ) -> tuple[int, int, int] | None:
        """(partner's user id, wins together, matches together): the member they won most
        with in a format here, ties by matches together; None without a partner."""
        return await self._runner.read(self._ops.best_partner, guild_id, user_id, game_format)


def _migrate_sync(engine: sa.Engine, where: str) -> Migration:
    with engine.connect() as conn:
        return migrate(conn, where)


async def _dispose(engine: sa.Engine | AsyncEngine) -> None:
    if isinstance(engine, sa.Engine):
        await asyncio.to_thread(engine.dispose)
    else:
        await engine.dispose()
