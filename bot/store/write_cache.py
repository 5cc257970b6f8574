"""The SQLite writer's own page cache, filled at start with what a finished match updates at
random places.

Why: a finished match changes, per member, a row or an index entry in six b-trees at a place
set by the member, not by time (`HOT`). The OS page cache keeps those pages only while they are
used, and a machine that reclaims idle file pages (this project's VMs page out file pages idle
for a minute) sends each such write to the disk several times: ``bench/store_bench.py`` measured a write p99 of
6.7 ms paged out against 2 ms in memory, at a million matches. The writer's connection is the
one cache SQLite keeps across transactions (a reader's is reset whenever another connection has
written), and it is the process's own memory, which no reclaim of file pages takes. So the
store sizes it (``store_cache_mib``) and reads those b-trees into it once, at start, smallest
first, as far as they fit; what does not fit is left to the OS, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass
from typing import Final

import sqlalchemy as sa

from .errors import StoreError
from .runner import Runner

__all__ = [
    "DEFAULT_WRITER_CACHE_MIB",
    "HOT",
    "Hot",
    "WarmResult",
    "WriterWarming",
    "describe",
    "plan",
    "warm_writer",
]

log = logging.getLogger(__name__)

DEFAULT_WRITER_CACHE_MIB: Final = 64
"""The writer's cache when the operator sets none: every hot b-tree of a store of about
75,000 matches (630 MiB at a million), twice the 32 MiB a reader keeps."""

_FILL: Final = 0.75
"""Share of the writer's cache the hot b-trees may take: the rest holds what each write
appends (the new match, its replay, its players), so warming never evicts the write's own."""


@dataclass(frozen=True, slots=True)
class Hot:
    """A b-tree a finished match updates per member at a random place: a table (its rows,
    ``index`` None) or one of its indexes. ``column`` is one that b-tree holds; a table's must
    be in no index, or SQLite scans a covering index instead (even ``NOT INDEXED``, on a
    WITHOUT ROWID table)."""

    table: str
    index: str | None
    column: str

    @property
    def name(self) -> str:
        """The b-tree's name in SQLite's schema (and ``dbstat``)."""
        return self.index or self.table

    @property
    def scan(self) -> str:
        """A statement that reads every page of this b-tree and no other."""
        source = f"INDEXED BY {self.index}" if self.index else "NOT INDEXED"
        return f"SELECT count({self.column}) FROM {self.table} {source}"


#: Smallest first (sizes at a million matches: 22, 36, 16, 19, 266 and 271 MiB), so a cache
#: too small for all of them holds the ones every write reads most densely.
HOT: Final = (
    Hot("ratings", None, "mu"),
    Hot("standings", "ix_standings_rank", "guild_id"),
    Hot("standings", "ix_standings_rating", "guild_id"),
    Hot("standings", None, "display_name"),
    Hot("rating_changes", "ix_rating_changes_member", "guild_id"),
    Hot("match_players", "ix_match_players_history", "guild_id"),
)


@dataclass(frozen=True, slots=True)
class WarmResult:
    """What `warm_writer` loaded: names and pages of the b-trees warmed and of those skipped
    (``None`` pages: SQLite has no ``dbstat`` to size them, so all were warmed unsized)."""

    warmed: tuple[str, ...]
    skipped: tuple[str, ...]
    pages: int | None
    page_size: int
    seconds: float


def _sizes(conn: sa.Connection) -> tuple[dict[str, int] | None, int]:
    """Pages of each hot b-tree (``dbstat``, which reads them all, so the OS has them in
    memory before the writer asks) and the page size; ``None`` without ``dbstat``."""
    page_size = int(conn.exec_driver_sql("PRAGMA page_size").scalar_one())
    names = tuple(hot.name for hot in HOT)
    marks = ", ".join("?" for _ in names)
    try:
        rows = conn.exec_driver_sql(
            f"SELECT name, count(*) FROM dbstat WHERE name IN ({marks}) GROUP BY name",
            names,
        ).all()
    except sa.exc.OperationalError:  # a SQLite built without SQLITE_ENABLE_DBSTAT_VTAB
        return None, page_size
    sizes = {name: 0 for name in names}
    sizes.update({str(name): int(pages) for name, pages in rows})
    return sizes, page_size


def _read_all(conn: sa.Connection, statement: str) -> None:
    conn.exec_driver_sql(statement).scalar_one()


async def warm_writer(runner: Runner, cache_mib: int) -> WarmResult:
    """Read the `HOT` b-trees that fit in ``3/4`` of a ``cache_mib`` cache into the writer's
    connection, one b-tree per call so that real writes go between them; a reader reads each
    first, so the writer's thread does not wait for the disk.

    :raises StoreError: the store was closed meanwhile.
    :raises sqlalchemy.exc.SQLAlchemyError: the database failed.
    """
    start = time.perf_counter()
    sizes, page_size = await runner.read(_sizes)
    room = int(cache_mib * 1024 * 1024 * _FILL) // page_size
    warmed, skipped = plan(sizes, room)
    for hot in warmed:
        if sizes is None:
            await runner.read(_read_all, hot.scan)
        await runner.write(_read_all, hot.scan)
    return WarmResult(
        tuple(hot.name for hot in warmed),
        tuple(hot.name for hot in skipped),
        sum(sizes[hot.name] for hot in warmed) if sizes is not None else None,
        page_size,
        time.perf_counter() - start,
    )


def plan(sizes: dict[str, int] | None, room: int) -> tuple[list[Hot], list[Hot]]:
    """The `HOT` b-trees to warm, in order, as long as their pages fit in ``room``, and those
    left out; unsized (``None``), all of them."""
    warmed: list[Hot] = []
    skipped: list[Hot] = []
    used = 0
    for hot in HOT:
        pages = sizes.get(hot.name, 0) if sizes is not None else 0
        if used + pages > room:
            skipped.append(hot)
        else:
            used += pages
            warmed.append(hot)
    return warmed, skipped


def describe(result: WarmResult, cache_mib: int) -> str:
    """One log line for the operator: what the writer holds, and the setting that would hold
    the rest."""
    mib = 1024 * 1024
    held = f"{len(result.warmed)} of {len(HOT)} b-trees"
    if result.pages is None:
        held += " (unsized: this SQLite has no dbstat)"
    else:
        held += f", {result.pages * result.page_size / mib:.0f} MiB"
    line = (
        f"store: the writer's cache ({cache_mib} MiB) holds {held}, read in {result.seconds:.1f} s"
    )
    if result.skipped:
        line += (
            f"; left to the OS: {', '.join(result.skipped)} (a larger store_cache_mib holds them)"
        )
    return line


class WriterWarming:
    """`warm_writer` as a background task of the store: a failure costs speed, never data, so
    it is logged, not raised; `stop` ends it quietly when the store closes first."""

    def __init__(self, runner: Runner, cache_mib: int) -> None:
        self._cache_mib = cache_mib
        self._task = asyncio.create_task(self._run(runner), name="hokm-store-warm-writer")

    async def _run(self, runner: Runner) -> WarmResult | None:
        try:
            result = await warm_writer(runner, self._cache_mib)
        except StoreError:  # closed meanwhile
            return None
        except Exception:
            log.warning("store: could not fill the writer's cache", exc_info=True)
            return None
        log.info("%s", describe(result, self._cache_mib))
        return result

    async def wait(self) -> WarmResult | None:
        """What it filled, once done; None if it failed or was stopped."""
        try:
            return await asyncio.shield(self._task)
        except asyncio.CancelledError:
            if self._task.cancelled():  # by `stop`, not our caller's cancellation
                return None
            raise

    async def stop(self) -> None:
        if not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
