"""In-memory stand-ins for what ``TableService`` talks to: its store, its publisher, its clocks.

They let the service's own logic (timers, computer moves, rollback, restore) be tested in
milliseconds, with time moved by hand instead of slept through. Each fake mirrors the contract
of the real thing closely enough that a test passing here means the same against SQLite:
``FakeStore`` keeps the version check and the one-live-table-per-channel rule of
``bot.store.Store``; ``FakeClock`` keeps ``loop.call_later``'s order (earliest first, ties in
the order scheduled).
"""

from __future__ import annotations

import asyncio
import dataclasses
import heapq
import itertools
import json
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, TypeVar

from bot.service.events import TableEvent
from bot.service.service import Update
from bot.store import (
    ChannelBusy,
    DeliveryRow,
    FinishedMatch,
    HistoryEntry,
    HistoryPage,
    StaleWrite,
    StoredReplay,
    StoreError,
    TableRecord,
)

E = TypeVar("E")

WALL_START = 1_700_000_000.0
"""Where the fake wall clock starts (a plausible ``time.time()``, far from the monotonic one)."""


# --------------------------------------------------------------------------- the store


class InjectedFailure(StoreError):
    """The write a test asked to fail (a lost connection, a full disk)."""


class FakeStore:
    """The calls ``TableService`` makes on ``bot.store.Store``, in memory.

    As in the real store: a save carries version 1 (insert) or the stored version + 1, else
    ``StaleWrite``; a second live table in a channel is ``ChannelBusy``; ``finish_match``
    records a match once, and a failure in it writes neither the match nor the table. States are
    kept as JSON (copied through ``json``), so a state the database could not hold fails here too,
    and nobody shares a dict with the store.
    """

    def __init__(self, now: Callable[[], float] = lambda: WALL_START) -> None:
        self._now = now
        self.rows: dict[str, TableRecord] = {}
        self.matches: dict[str, FinishedMatch] = {}
        self.writes = 0
        """Writes that reached the store (failed ones included): a refusal must make none."""
        self.loads: list[str] = []
        """Tables read back one by one (``load_table``): a reload after a failed write."""
        self.deliveries: dict[tuple[str, int], DeliveryRow] = {}
        self._failures: list[BaseException] = []

    # ------------------------------------------------------------ test controls

    def fail_next(self, count: int = 1, exc: BaseException | None = None) -> None:
        """Make the next ``count`` writes raise ``exc`` (default ``InjectedFailure``), storing
        nothing."""
        for _ in range(count):
            self._failures.append(exc or InjectedFailure("injected write failure"))

    def state(self, table_id: str) -> dict[str, Any]:
        """The stored state of a table, as the service would read it back."""
        return _json_copy(self.rows[table_id].state)

    # ------------------------------------------------------------ the store's calls

    async def save_table(self, record: TableRecord) -> TableRecord:
        self._write_attempt()
        return self._save(record)

    async def finish_match(self, match: FinishedMatch, table: TableRecord | None = None) -> bool:
        self._write_attempt()
        if match.match_id in self.matches:
            return False  # a retry: nothing written, the table included
        if table is not None:
            if table.status != "finished":
                table = dataclasses.replace(table, status="finished")
            self._save(table)  # raises before the match is kept: one transaction
        self.matches[match.match_id] = match
        return True

    async def load_table(self, table_id: str) -> TableRecord | None:
        self.loads.append(table_id)
        row = self.rows.get(table_id)
        return None if row is None else _copy(row)

    async def history(
        self, guild_id: int, page: int, per_page: int = 10, user_id: int | None = None
    ) -> HistoryPage:
        """Newest first, ties by match id (the real store's order), without its depth bound."""
        found = [
            m
            for m in self.matches.values()
            if m.guild_id == guild_id
            and (user_id is None or user_id in [p.user_id for p in m.players])
        ]
        found.sort(key=lambda m: (m.finished_at, m.match_id), reverse=True)
        rows = found[(page - 1) * per_page : page * per_page]
        entries = tuple(_entry(m) for m in rows)
        return HistoryPage(guild_id, user_id, page, per_page, len(found), False, entries)

    async def match_replay(self, guild_id: int, match_id: str) -> StoredReplay | None:
        m = self.matches.get(match_id)
        if m is None or m.guild_id != guild_id:
            return None
        return StoredReplay(_entry(m), None if m.replay is None else _json_copy(m.replay))

    async def match_analysis(self, guild_id: int, match_id: str) -> dict[str, Any] | None:
        """No match here is ever analysed (the worker's own tests use a real store)."""
        return None

    async def save_delivery(self, row: DeliveryRow) -> bool:
        """Where a table is shown: its own rows, neither a write of the table nor counted."""
        if row.table_id not in self.rows:
            return False
        self.deliveries[row.table_id, row.seat] = row
        return True

    async def load_deliveries(self, table_ids: Sequence[str]) -> list[DeliveryRow]:
        return [r for key, r in sorted(self.deliveries.items()) if key[0] in table_ids]

    async def load_live_tables(self, guild_id: int | None = None) -> list[TableRecord]:
        live = [
            r
            for r in self.rows.values()
            if r.is_live and (guild_id is None or r.guild_id == guild_id)
        ]
        live.sort(key=lambda r: (r.created_at or datetime.min.replace(tzinfo=UTC), r.table_id))
        return [_copy(r) for r in live]

    # ------------------------------------------------------------ inside

    def _write_attempt(self) -> None:
        self.writes += 1
        if self._failures:
            raise self._failures.pop(0)

    def _save(self, record: TableRecord) -> TableRecord:
        now = datetime.fromtimestamp(self._now(), UTC)
        stored = self.rows.get(record.table_id)
        if record.version == 1:
            if stored is not None:
                raise StaleWrite(f"table {record.table_id} already exists")
        elif stored is None:
            raise StaleWrite(f"table {record.table_id} does not exist (deleted?)")
        elif stored.version != record.version - 1:
            raise StaleWrite(
                f"table {record.table_id}: stored version is {stored.version}, "
                f"this save expected {record.version - 1}"
            )
        channel_id = record.channel_id if stored is None else stored.channel_id
        if record.is_live and any(
            r.is_live and r.channel_id == channel_id and r.table_id != record.table_id
            for r in self.rows.values()
        ):
            raise ChannelBusy(f"channel {channel_id} already has an open table")
        created = (record.created_at or now) if stored is None else stored.created_at
        # guild and channel are fixed at creation, as the real UPDATE leaves them alone
        self.rows[record.table_id] = dataclasses.replace(
            record,
            guild_id=record.guild_id if stored is None else stored.guild_id,
            channel_id=channel_id,
            state=_json_copy(record.state),
            created_at=created,
            updated_at=now,
        )
        return dataclasses.replace(record, created_at=created, updated_at=now)


def _entry(m: FinishedMatch) -> HistoryEntry:
    return HistoryEntry(
        match_id=m.match_id,
        channel_id=m.channel_id,
        finished_at=m.finished_at,
        game_format=m.game_format,
        target_score=m.target_score,
        scores=m.scores,
        winner_team=m.winner_team,
        hints=m.hints,
        players=tuple(sorted(m.players, key=lambda p: p.seat)),
    )


def _json_copy(state: Mapping[str, Any]) -> dict[str, Any]:
    copied: dict[str, Any] = json.loads(json.dumps(state))
    return copied


def _copy(row: TableRecord) -> TableRecord:
    return dataclasses.replace(row, state=_json_copy(row.state))


# --------------------------------------------------------------------------- the publisher


@dataclasses.dataclass(frozen=True)
class Published:
    """One update as it was when published (the live ``Table`` keeps changing after)."""

    update: Update
    events: tuple[TableEvent, ...]
    table: Mapping[str, Any]
    """The table's state then: what the store held (read-only), or a fresh ``to_dict``."""


class FakePublisher:
    """Records every update handed to it, with its events and the table as it then was.

    Given the store, it takes the table's state from there (a copy of it costs a match's
    whole serialization per move) and notes any update showing a version the store does not
    hold: the service must save before it shows (``unsaved`` stays empty). Every update the
    service publishes carries its snapshot, the table as the store holds it, which is what
    the Discord side renders (``unsaved`` notes one without, or one that differs).
    """

    def __init__(self, store: FakeStore | None = None) -> None:
        self.store = store
        self.published: list[Published] = []
        self.unsaved: list[Update] = []

    def publish(self, update: Update) -> None:
        table = update.table
        if self.store is None:
            state: Mapping[str, Any] = table.to_dict()
        else:
            row = self.store.rows.get(table.table_id)
            if row is None or row.version != table.version:
                self.unsaved.append(update)
            state = table.to_dict() if row is None else row.state
            snapshot = update.snapshot
            if snapshot is None or (
                row is not None
                and row.version == snapshot.version
                and _json_copy(snapshot.to_dict()) != row.state
            ):
                self.unsaved.append(update)
        self.published.append(Published(update, tuple(update.events), state))

    @property
    def events(self) -> list[TableEvent]:
        return [e for p in self.published for e in p.events]

    def of(self, kind: type[E]) -> list[E]:
        return [e for e in self.events if isinstance(e, kind)]

    def clear(self) -> None:
        self.published.clear()


# --------------------------------------------------------------------------- the clock


@dataclasses.dataclass(eq=False)
class FakeHandle:
    """What ``FakeClock.call_later`` returns: cancelled, it never fires."""

    when: float
    callback: Callable[[], None]
    cancelled: bool = False

    def cancel(self) -> None:
        self.cancelled = True


class ClockBusy(AssertionError):
    """``advance`` found work that does not finish: a test waiting on something never set."""


class FakeClock:
    """Wall clock (``clock=``), monotonic clock (``monotonic=``) and timer scheduler
    (``call_later=``) of a ``TableService``, moved only by ``advance``.

    ``advance`` fires every due callback, earliest first (ties in scheduling order), each at
    its own time, and after each one lets the event loop finish what it started (the service's
    wake task and whatever that spawns) before the next, so a test reads a settled service.
    ``sleep`` is a coroutine on this clock, for fake thinkers that are slow.
    """

    SETTLE_LIMIT = 5.0
    """Real seconds ``advance`` waits for the loop to settle before saying what is stuck
    (a safety net against a hung test; never reached by a passing one)."""

    def __init__(self, start: float = WALL_START) -> None:
        self.now = start
        self._start = start
        self._heap: list[tuple[float, int, FakeHandle]] = []
        self._seq = itertools.count()
        self._sleepers: dict[asyncio.Future[None], asyncio.Task[Any] | None] = {}

    def __call__(self) -> float:
        return self.now

    def monotonic(self) -> float:
        """Seconds since the clock began: another origin than the wall clock, as in life."""
        return self.now - self._start

    def call_later(self, delay: float, callback: Callable[[], None]) -> FakeHandle:
        handle = FakeHandle(self.now + max(0.0, delay), callback)
        heapq.heappush(self._heap, (handle.when, next(self._seq), handle))
        return handle

    @property
    def pending(self) -> list[FakeHandle]:
        """Scheduled callbacks not yet fired nor cancelled, earliest first."""
        return [h for _, _, h in sorted(self._heap) if not h.cancelled]

    async def sleep(self, delay: float) -> None:
        """``asyncio.sleep`` on this clock: over when ``advance`` passes ``delay``."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._sleepers[future] = asyncio.current_task()

        def wake() -> None:
            if not future.done():
                future.set_result(None)

        handle = self.call_later(delay, wake)
        try:
            await future
        finally:
            handle.cancel()  # a sleeper cancelled early leaves no timer behind
            self._sleepers.pop(future, None)

    async def advance(self, seconds: float = 0.0) -> None:
        """Move time on by ``seconds``, running every callback due by then in order."""
        target = self.now + seconds
        await self.settle()
        while self._heap and self._heap[0][0] <= target:
            when, _, handle = heapq.heappop(self._heap)
            if handle.cancelled:
                continue
            self.now = max(self.now, when)
            handle.callback()
            await self.settle()
        self.now = max(self.now, target)

    async def settle(self) -> None:
        """Let the loop run until every task is done or parked in ``sleep`` on this clock."""
        loop = asyncio.get_running_loop()
        me = asyncio.current_task()
        waited_until = loop.time() + self.SETTLE_LIMIT
        while True:
            await asyncio.sleep(0)
            parked = {t for t in self._sleepers.values() if t is not None}
            busy = {t for t in asyncio.all_tasks() if t is not me and t not in parked}
            if not busy:
                return
            left = waited_until - loop.time()
            if left <= 0:
                raise ClockBusy(f"tasks still running after advance: {busy}")
            await asyncio.wait(busy, timeout=left, return_when=asyncio.FIRST_COMPLETED)
