"""How an action becomes a stored, published change: under the table's lock, applied, saved
with its version, then published; any failure puts the table back as it was stored.

With other processes writing the same tables (``shared``: several bot processes on one
PostgreSQL, ``docs/scaling.md``) a table is loaded where it is clicked, and the
version check of the write is the cross-process lock: a write that finds a newer version
stored, or a refusal while one is stored, reloads the table and runs the action again on it.
Every action checks everything against the state it is applied to, so it is applied exactly
once or refused, never applied to (or refused by) a state that is gone. No lock is held
across an action, so no pooled connection waits on another process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

from ..store import SeatTaken, StaleWrite, Store
from .errors import ActionError
from .events import CaughtUp
from .persistence import TableKeeper, restore_in_place
from .ports import Update
from .registry import TableRegistry, seated_elsewhere
from .table import Table

log = logging.getLogger(__name__)

Action = Callable[[Table, Update], Awaitable[None] | None]

ATTEMPTS = 4
"""Tries of one action when other processes keep saving the table first (``shared``)."""


def position(table: Table) -> tuple[int, int] | None:
    """(hand number, actions so far) of the table's match, if it has one."""
    match = table.match
    return None if match is None else (match.hand_number, len(match.actions))


STOPPED_SAVING = "stopped while saving, maybe stored: "
"""Before a change's words when the process was stopped in the middle of saving it (a
graceful stop cancels what is in flight; the database may have committed it all the same)."""


def writer(table: Table, by: str, version: int | None = None) -> str:
    """Who stored which version and move of a table, for its log line: ``v=`` the version
    saved, ``move=`` the match's actions so far (the stored record's move number), ``by=``
    an action or a timer, ``pid=`` this process. With several processes one table's lines
    come from each, and a move's line is how the load bench's audit finds who wrote it
    (``bench/audit.py``). Public facts only: never a card."""
    moves = position(table)
    v = table.version if version is None else version
    return f"v={v} move={moves[1] if moves else 0} by={by} pid={os.getpid()}"


def computer_due_at(table: Table) -> tuple[int, int] | None:
    """The position at which a computer's move is due (only a timer makes it), if any."""
    return position(table) if table.computer_due is not None else None


class Commits:
    """The commit protocol of every action, timer and side note of the service."""

    def __init__(
        self,
        registry: TableRegistry,
        keeper: TableKeeper,
        store: Store,
        *,
        shared: bool,
        forget: Callable[[Table], None],
        arm: Callable[[Table], None],
        publish: Callable[[Update], None],
        timed_elsewhere: Callable[[str], None] = lambda table_id: None,
    ) -> None:
        self.registry = registry
        self.keeper = keeper
        self.store = store
        self.shared = shared
        self._forget = forget
        self._arm = arm
        self._publish = publish
        self._timed_elsewhere = timed_elsewhere
        """Told when a stored state shows a computer's move made by another process: that
        process times the table (``TurnTimers.disown``)."""
        self._tasks: set[asyncio.Task[None]] = set()

    async def act(self, table_id: str, action: Action) -> Update:
        """Run ``action`` on the live table, store what it did, then publish it.

        :raises ActionError: the action's refusal (nothing changed), ``error.stale`` for an
            ended table, ``error.internal`` for a failure (state restored).
        """
        table = await self.held(table_id)
        for attempt in range(1, ATTEMPTS + 1):
            last = not self.shared or attempt == ATTEMPTS
            async with self.registry.lock(table_id):
                if not self.registry.is_current(table):
                    raise ActionError("error.stale")
                update = Update(table)
                snapshot = self.keeper.last_saved(table)
                try:
                    result = action(table, update)
                    if result is not None:
                        await result
                except ActionError:
                    # Every action validates before it changes anything; a refusal by a
                    # state another process has moved on from is checked, and retried.
                    if not last and await self._newer(table):
                        log.info("table %s: saved elsewhere meanwhile; reloaded", table_id)
                        continue
                    raise
                except Exception:
                    restore_in_place(table, snapshot)
                    log.exception("table %s: action failed; state restored", table_id)
                    raise ActionError("error.internal") from None
                try:
                    await self.commit(table, update, by="action")
                except SeatTaken as taken:  # seated at another live table, by any process
                    restore_in_place(table, snapshot)
                    log.info("table %s: %s", table_id, taken)
                    raise seated_elsewhere(
                        table.guild_id, taken.guild_id, taken.channel_id
                    ) from None
                except StaleWrite:
                    restore_in_place(table, snapshot)
                    if last:
                        log.exception("table %s: could not save; state restored", table_id)
                        raise ActionError("error.internal") from None
                    log.info("table %s: saved elsewhere meanwhile; reloaded, again", table_id)
                    due = computer_due_at(table)
                    if not await self.keeper.reload(table):
                        self._forget(table)
                        raise ActionError("error.stale") from None
                    self._moved_on(table, due)
                    continue
                except Exception:
                    restore_in_place(table, snapshot)
                    log.exception("table %s: could not save; state restored", table_id)
                    raise ActionError("error.internal") from None
                self._arm(table)
                return update
        raise AssertionError("unreachable: the last attempt returns or raises")

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
        self._arm(table)
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
            if not self.registry.is_current(table) or not await self._newer(table):
                return
            if not table.is_live:
                self._forget(table)
            update = Update(table)
            update.add(CaughtUp())
            self._publish(update)
            self._arm(table)

    async def _newer(self, table: Table) -> bool:
        """``TableKeeper.newer``, noting a computer's move made elsewhere."""
        due = computer_due_at(table)
        if not await self.keeper.newer(table):
            return False
        self._moved_on(table, due)
        return True

    def _moved_on(self, table: Table, due: tuple[int, int] | None) -> None:
        """The stored state is past the position a computer's move was due at here: another
        process made that move, so it times the table."""
        if due is not None and due != position(table):
            self._timed_elsewhere(table.table_id)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def commit(self, table: Table, update: Update, by: str = "timer") -> None:
        """Persist first (crash safety), then publish. ``by``: what made the change, an
        ``action`` (a click, a command) or a ``timer``.

        Each change stored gets its line. A stop cancels a save in flight, and the database
        may have committed it before the cancel arrived: that save's line says so, so no
        stored move goes without one."""
        words = ", ".join(e.log_word for e in update.events)
        before = table.version
        try:
            await self.keeper.store_update(table, update)
        except asyncio.CancelledError:
            if words and table.version == before:
                maybe = writer(table, by, before + 1)
                log.info("table %s: %s%s (%s)", table.table_id, STOPPED_SAVING, words, maybe)
            elif words:  # stored, and cancelled after (a finished match's rating changes)
                log.info("table %s: %s (%s)", table.table_id, words, writer(table, by))
            raise
        if not table.is_live:
            self._forget(table)
        if words:
            log.info("table %s: %s (%s)", table.table_id, words, writer(table, by))
        self._publish(update)

    async def reload(self, table: Table) -> None:
        if not await self.keeper.reload(table):
            self._forget(table)

    async def side_data(self, table_id: str, mutate: Callable[[Table], None]) -> Table | None:
        """Record bookkeeping the Discord layer learns, under the lock, saved; the table, or
        ``None`` when it has ended meanwhile. Over a newer version another process stored
        (``shared``): reloaded, and recorded again on that."""
        table = self.registry.tables.get(table_id)
        if table is None:
            return None
        for attempt in range(1, ATTEMPTS + 1):
            async with self.registry.lock(table_id):
                if not self.registry.is_current(table):
                    return None
                snapshot = self.keeper.last_saved(table)
                mutate(table)
                try:
                    await self.keeper.save(table)
                except StaleWrite:
                    restore_in_place(table, snapshot)
                    if not self.shared or attempt == ATTEMPTS:
                        log.warning("table %s: side data not saved (stale)", table_id)
                        return table
                    if not await self.keeper.reload(table):
                        self._forget(table)
                        return None
                    continue
                return table
        return table
