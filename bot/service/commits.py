"""The one way a table changes: ``Commits.change``. Under the table's lock an action, a
timer's due move or a computer's move is applied to the live table, saved with its version,
then published; any failure puts the table back as the store holds it.

With other processes writing the same tables (``shared``: several bot processes on one
PostgreSQL, ``docs/scaling.md``) a table is loaded where it is clicked, and the version check
of the write is the cross-process lock: a write that finds a newer version stored, or a
refusal while one is stored, reloads the table and runs the change again on it. Every action
checks everything against the state it is applied to, so it is applied exactly once or
refused, never applied to (or refused by) a state that is gone. No lock is held across a
change, so no pooled connection waits on another process.

Whoever follows a table's changes watches ``Commits``: the ``Publisher`` the edge registered
is handed each committed ``Update`` first (events go on to be shown: the data's own way, never
through the service's front), then each watcher (the turn timers, the hints, the tournaments)
is told every change, reload and load, never handed a lambda.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from types import TracebackType

from ..store import SeatTaken, StaleWrite, Store
from .delivery import Deliveries
from .errors import ActionError
from .events import CaughtUp
from .persistence import TableKeeper, position, restore_in_place
from .ports import NullPublisher, Publisher, Update
from .registry import TableRegistry, seated_elsewhere
from .table import Table

log = logging.getLogger(__name__)

Action = Callable[[Table, Update], Awaitable[None] | None]

ATTEMPTS = 4
"""Tries of one change when other processes keep saving the table first (``shared``)."""


def computer_due_at(table: Table) -> tuple[int, int] | None:
    """The position at which a computer's move is due (only a timer makes it), if any."""
    return position(table) if table.computer_due is not None else None


@dataclass(frozen=True)
class Changed:
    """What a watcher of ``Commits`` is told: ``table`` holds a new state (or has gone: not
    live, or no longer the registry's), with the committed ``update`` when one was published
    (``None`` after a reload or a load)."""

    table: Table
    update: Update | None = None
    elsewhere: bool = False
    """Another process made the computer's move that was due here: that process times the
    table (``TurnTimers.disown``)."""


Watcher = Callable[[Changed], None]


class Commits:
    """The commit protocol of every change of a live table."""

    def __init__(
        self,
        registry: TableRegistry,
        keeper: TableKeeper,
        deliveries: Deliveries,
        store: Store,
        *,
        shared: bool,
    ) -> None:
        self.registry = registry
        self.keeper = keeper
        self.deliveries = deliveries
        self.store = store
        self.shared = shared
        self.publisher: Publisher = NullPublisher()
        """Shows each committed update (the Discord side's, set by whoever builds the bot)."""
        self._watchers: list[Watcher] = []
        self._latest: dict[str, Table] = {}
        """Each live table's snapshot as last committed (``latest``)."""
        self._tasks: set[asyncio.Task[None]] = set()

    def watch(self, watcher: Watcher) -> None:
        """Tell ``watcher`` of every change from now on, in the order watched."""
        self._watchers.append(watcher)

    def _tell(self, change: Changed) -> None:
        self._snap(change)
        table = change.table
        if not table.is_live or not self.registry.is_current(table):
            self.forget(table)
        if change.update is not None:
            self.publisher.publish(change.update)
        if table.table_id not in self.registry.tables:  # after: its last jobs hold it
            self.deliveries.forget(table.table_id)
        for watcher in self._watchers:
            watcher(change)

    def _snap(self, change: Changed) -> None:
        """Every change told holds a committed state (stored, or loaded as stored): its one
        snapshot goes on its update and is kept as the table's ``latest``."""
        snapshot = change.table.snapshot()
        self._latest[change.table.table_id] = snapshot
        if change.update is not None and change.update.snapshot is None:
            change.update.snapshot = snapshot

    def latest(self, table: Table) -> Table:
        """The table as last committed, to render without its lock: the snapshot of the last
        change told, or of the table now when none was (just opened or resumed: it holds what
        is stored, and no change of it has begun)."""
        snapshot = self._latest.get(table.table_id)
        if snapshot is None:
            snapshot = table.snapshot()
            if self.registry.is_current(table) and table.is_live:
                self._latest[table.table_id] = snapshot
        return snapshot

    def forget(self, table: Table) -> None:
        """Drop what is kept here of a table that ended (its watchers are told next)."""
        self.registry.forget(table)
        self.keeper.forget(table.table_id)
        self._latest.pop(table.table_id, None)

    def change(self, table_id: str, *, by: str = "action") -> Iterator[Attempt]:
        """The tries of one change, for ``async with`` each in turn::

            for attempt in commits.change(table_id):
                async with attempt as update:
                    ...  # change update.table, add to update

        An attempt that finds another process saved first asks for the next; the others end
        the loop. ``by``: what makes the change (``action``, ``timer``), for its log line.

        :raises ActionError: the change's refusal (nothing changed), ``error.stale`` for an
            ended table, ``error.internal`` for a failure (the table as stored).
        """
        for n in range(1, ATTEMPTS + 1):
            attempt = Attempt(self, table_id, by, last=not self.shared or n == ATTEMPTS)
            yield attempt
            if not attempt.again:
                return
        raise AssertionError("unreachable: the last attempt returns or raises")

    async def act(self, table_id: str, action: Action, *, by: str = "action") -> Update:
        """``change`` with ``action(table, update)`` as its body; the committed update."""
        for attempt in self.change(table_id, by=by):
            async with attempt as update:
                result = action(update.table, update)
                if result is not None:
                    await result
        return update

    async def held(self, table_id: str) -> Table:
        """The live table by id: the one held here, or (``shared``) the one another process
        holds, loaded from the store and held here from now on (its timers run late: see
        ``TurnTimers.owns``).

        :raises ActionError: ``error.stale`` when no live table has that id.
        """
        table = self.registry.tables.get(table_id)
        if table is not None or not self.shared:
            return table or self.registry.get(table_id)
        record = await self.store.load_table(table_id)
        if record is not None and record.is_live:
            await self.deliveries.load([table_id])  # where it is shown, before it is
        table = self.registry.tables.get(table_id)  # loaded meanwhile by another click
        if table is not None:
            return table
        if record is None or not record.is_live:
            raise ActionError("error.stale")
        try:
            table = Table.from_dict(dict(record.state))
        except Exception:
            log.exception("table %s: stored state unreadable", table_id)
            raise ActionError("error.internal") from None
        self.registry.register(table)
        self.keeper.committed(table, record)
        log.info("table %s: loaded from the store (served by another process)", table_id)
        self._tell(Changed(table))
        return table

    async def sweep(self, cutoff: float) -> int:
        """Load the live tables overdue since before ``cutoff`` (a time of ``Pace.clock``)
        that this process does not hold: whoever held them has not played them, presumably
        gone; held here, they are played at once. How many; 0 unless ``shared``."""
        if not self.shared:
            return 0
        loaded = 0
        for table_id in await self.store.overdue_tables(datetime.fromtimestamp(cutoff, UTC)):
            if table_id not in self.registry.tables:
                with contextlib.suppress(ActionError):  # ended meanwhile
                    await self.held(table_id)
                    loaded += 1
        return loaded

    def saved_elsewhere(self, table_id: str, version: int) -> None:
        """A save of any process (``Store.listen_tables``): a table held here at an older
        version loads the newer one (its timers and the surfaces this process keeps live
        follow), so a process need not wait for its next click to catch up."""
        table = self.registry.tables.get(table_id)
        if table is not None and table.version < version:
            task = asyncio.get_running_loop().create_task(self._catch_up(table))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _catch_up(self, table: Table) -> None:
        async with self.registry.lock(table.table_id):
            if not self.registry.is_current(table):
                return
            due = computer_due_at(table)
            if not await self.keeper.newer(table):
                return
            update = Update(table)
            update.add(CaughtUp())
            self._tell(Changed(table, update, elsewhere=self._moved_on(table, due)))

    async def newer(self, table: Table) -> Changed | None:
        """``TableKeeper.newer``: what changed, if the store holds a newer version."""
        due = computer_due_at(table)
        if not await self.keeper.newer(table):
            return None
        return Changed(table, elsewhere=self._moved_on(table, due))

    async def reload(self, table: Table) -> Changed:
        """Back to what the store holds (after a failed write); gone if it ended there."""
        due = computer_due_at(table)
        if not await self.keeper.reload(table):
            self.forget(table)
        return Changed(table, elsewhere=self._moved_on(table, due))

    @staticmethod
    def _moved_on(table: Table, due: tuple[int, int] | None) -> bool:
        """The stored state is past the position a computer's move was due at here: another
        process made that move, so it times the table."""
        return due is not None and due != position(table)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


class Attempt:
    """One try of a change: entered, it holds the table's lock and yields a fresh ``Update``;
    left, it stores and tells what changed, or puts the table back and says whether to try
    again (``again``) or raises."""

    def __init__(self, commits: Commits, table_id: str, by: str, *, last: bool) -> None:
        self.commits = commits
        self.table_id = table_id
        self.by = by
        self.last = last
        self.again = False
        self._lock: asyncio.Lock | None = None
        self._update: Update | None = None
        self._snapshot: dict[str, object] = {}

    async def __aenter__(self) -> Update:
        commits = self.commits
        table = await commits.held(self.table_id)
        self._lock = commits.registry.lock(self.table_id)
        await self._lock.acquire()
        if not commits.registry.is_current(table):
            self._lock.release()
            raise ActionError("error.stale")
        self._snapshot = commits.keeper.last_saved(table)
        self._update = Update(table)
        return self._update

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> bool:
        """Store and tell, or put back; the lock released either way. One function, as every
        change of every table passes here."""
        assert self._lock is not None and self._update is not None
        commits, update, table_id = self.commits, self._update, self.table_id
        table = update.table
        try:
            if isinstance(error, ActionError):
                # Every change validates before it changes anything; a refusal by a state
                # another process has moved on from is checked, and tried again.
                if not self.last and (changed := await commits.newer(table)) is not None:
                    log.info("table %s: saved elsewhere meanwhile; reloaded", table_id)
                    commits._tell(changed)
                    self.again = True
                    return True
                return False
            if error is not None:
                restore_in_place(table, self._snapshot)
                if isinstance(error, Exception):
                    log.error(
                        "table %s: %s failed; state restored", table_id, self.by, exc_info=error
                    )
                    raise ActionError("error.internal") from None
                return False  # a cancel: the table as stored, and the cancel goes on
            if update.idle:
                return False
            try:
                await commits.keeper.store_update(table, update, self.by)
            except SeatTaken as taken:  # seated at another live table, by any process
                restore_in_place(table, self._snapshot)
                log.info("table %s: %s", table_id, taken)
                raise seated_elsewhere(table.guild_id, taken.guild_id, taken.channel_id) from None
            except StaleWrite:
                restore_in_place(table, self._snapshot)
                changed = await commits.reload(table)
                commits._tell(changed)
                if not commits.registry.is_current(table):
                    raise ActionError("error.stale") from None
                if self.last:
                    log.exception("table %s: could not save; the stored state taken", table_id)
                    raise ActionError("error.internal") from None
                log.info("table %s: saved elsewhere meanwhile; reloaded, again", table_id)
                self.again = True
                return False
            except Exception:
                restore_in_place(table, self._snapshot)
                log.exception("table %s: could not save; state restored", table_id)
                commits._tell(await commits.reload(table))
                raise ActionError("error.internal") from None
            commits._tell(Changed(table, update))
            return False
        finally:
            self._lock.release()
