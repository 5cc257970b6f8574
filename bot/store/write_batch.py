"""SQLite writes that queue behind each other go to the writer's thread together, and commit in
one transaction.

Every move is a table's save, and each save was a hop to the writer's thread and back (two
thread wake-ups, the GIL handed over twice, the loop woken through its self-pipe) and a commit
of its own: together more CPU than the save's own SQL. Writes asked for while the writer is
busy, or in the same turn of the event loop, now wait for it together and go as one hop, one
transaction, each in a savepoint of its own: one that fails (a ``StaleWrite``, a
``SeatTaken`` after its first rows) rolls back alone and raises to its own caller, the others
commit. A caller learns its outcome only after the commit, as before; a write alone goes as
before (no savepoint), and none waits for company.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import Connection

from .errors import StoreError

Item = tuple[Callable[..., Any], tuple[Any, ...]]
"""A unit of work: ``fn(conn, *args)``."""
Outcome = tuple[bool, Any]
"""``(True, result)`` or ``(False, exception)``."""


class WriteQueue:
    """The writes waiting for the writer, sent as one batch at a time, in the order asked."""

    def __init__(self, send: Callable[[list[Item]], Awaitable[list[Outcome]]]) -> None:
        self._send = send
        self._queued: list[tuple[Item, asyncio.Future[Any]]] = []
        self._flusher: asyncio.Task[None] | None = None
        self.batches = 0
        """Batches sent (a test's count)."""

    async def write(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        """``fn(conn, *args)`` in a committed transaction. A cancelled caller does not stop
        it: it still commits or rolls back whole, never halfway."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Any] = loop.create_future()
        self._queued.append(((fn, args), done))
        if self._flusher is None:
            self._flusher = loop.create_task(self._flush())
        return await done

    async def settle(self) -> None:
        """Wait until every write asked for has its outcome (before the writer closes)."""
        while self._flusher is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(self._flusher)

    async def _flush(self) -> None:
        try:
            while self._queued:
                batch, self._queued = self._queued, []
                self.batches += 1
                try:
                    outcomes = await self._send([item for item, _ in batch])
                except asyncio.CancelledError:
                    _fail(batch, StoreError("the store closed while writing"))
                    raise
                except Exception as exc:  # the hop itself failed (a writer gone)
                    outcomes = [(False, exc)] * len(batch)
                for (_, done), (ok, value) in zip(batch, outcomes, strict=True):
                    if not done.done():
                        if ok:
                            done.set_result(value)
                        else:
                            done.set_exception(value)
        except asyncio.CancelledError:
            _fail(self._queued, StoreError("the store closed while writing"))
            self._queued = []
            raise
        finally:
            self._flusher = None


def _fail(batch: list[tuple[Item, asyncio.Future[Any]]], exc: Exception) -> None:
    for _, done in batch:
        if not done.done():
            done.set_exception(exc)


def run_batch(
    conn: Connection, items: list[Item], prepare: Callable[[Connection], None]
) -> list[Outcome]:
    """In the writer's thread: ``items`` in one transaction (``prepare`` first), each in a
    savepoint when there are several. A failed commit fails them all."""
    if len(items) == 1:
        fn, args = items[0]
        try:
            with conn.begin():
                prepare(conn)
                return [(True, fn(conn, *args))]
        except Exception as exc:
            return [(False, exc)]
    outcomes: list[Outcome] = []
    try:
        with conn.begin():
            prepare(conn)
            raw = conn.connection.driver_connection  # sqlite3's own: a savepoint is two lines
            assert raw is not None
            if not raw.in_transaction:
                # pysqlite begins only before a DML statement; a savepoint outside of a
                # transaction would begin one, and its release would commit it
                raw.execute("BEGIN")
            for fn, args in items:
                raw.execute("SAVEPOINT hokm_write")
                try:
                    outcomes.append((True, fn(conn, *args)))
                except Exception as exc:
                    raw.execute("ROLLBACK TO hokm_write")
                    outcomes.append((False, exc))
                raw.execute("RELEASE hokm_write")
    except Exception as exc:
        return [(False, exc)] * len(items)
    return outcomes
