"""How a store call's synchronous unit of work reaches the database without blocking the loop.

`ThreadRunner` (sync drivers, i.e. SQLite's stdlib sqlite3): one dedicated writer thread,
so writes are serialized in-process and never wait on SQLite's busy lock, plus a few reader
threads; one thread hop per call. `AsyncRunner` (asyncpg, aiosqlite): the same function
through `AsyncConnection.run_sync`. The thread runner exists because aiosqlite pays a hop
per cursor/execute/fetch/close/commit: a finished match was ~15 hops, and each hop is a
scheduling delay on a busy 2-core machine (measured p99 10x worse than one hop).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncEngine

from .errors import StoreError

__all__ = ["AsyncRunner", "Runner", "ThreadRunner"]

T = TypeVar("T")
log = logging.getLogger(__name__)


class Runner(Protocol):
    """Runs `fn(connection, *args)` for reading, or inside one committed transaction."""

    dialect_name: str
    dialect: Dialect

    async def read(self, fn: Callable[..., T], *args: Any) -> T: ...

    async def write(self, fn: Callable[..., T], *args: Any) -> T: ...

    async def close(self) -> None: ...


class _Checkpointer(threading.Thread):
    """Runs SQLite WAL checkpoints in the background, so no commit pays for their fsyncs.

    PASSIVE never blocks readers or the writer; SQLite's own autocheckpoint stays as a
    (raised) backstop in case this thread falls behind.
    """

    def __init__(self, engine: sa.Engine, interval: float) -> None:
        super().__init__(name="hokm-store-checkpoint", daemon=True)
        self.engine = engine
        self.interval = interval
        self.dirty = False
        self._stopping = threading.Event()

    def run(self) -> None:
        while not self._stopping.wait(self.interval):
            if self.dirty:
                self.dirty = False
                self.checkpoint("PASSIVE")

    def checkpoint(self, mode: str) -> None:
        try:
            with self.engine.connect() as conn:
                conn.exec_driver_sql(f"PRAGMA wal_checkpoint({mode})")
        except Exception:  # the autocheckpoint backstop still bounds the WAL
            log.warning("WAL checkpoint (%s) failed", mode, exc_info=True)

    def stop(self) -> None:
        self._stopping.set()
        self.join()
        self.checkpoint("TRUNCATE")  # leave a tidy file: empty WAL after a clean close


class ThreadRunner:
    """A sync engine driven from worker threads: one writer, `readers` readers (0: reads
    share the writer thread, as an in-memory database must), and for SQLite files a
    background WAL checkpointer (`checkpoint_interval` seconds).

    Each thread keeps its own connection for good. SQLite drops a connection's whole page
    cache when another connection has written since its last transaction, so connections
    taken in turn from the pool made the writer start every write cold: about 90 pages read
    back per finished match at a million matches (``docs/benchmarks.md``). The writer's own
    connection stays warm across writes; a reader's is refreshed only by what changed.
    """

    def __init__(
        self, engine: sa.Engine, *, readers: int = 2, checkpoint_interval: float | None = None
    ) -> None:
        self.engine = engine
        self.dialect = engine.dialect
        self.dialect_name = engine.dialect.name
        self._closed = False
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="hokm-store-write")
        self._readers = (
            ThreadPoolExecutor(readers, thread_name_prefix="hokm-store-read")
            if readers
            else self._writer
        )
        self._checkpointer: _Checkpointer | None = None
        if checkpoint_interval is not None:
            self._checkpointer = _Checkpointer(engine, checkpoint_interval)
            self._checkpointer.start()
        self._local = threading.local()
        self._connections: list[sa.Connection] = []
        self._connections_lock = threading.Lock()

    def _connection(self) -> sa.Connection:
        """This thread's own connection (a new one if it has none, or lost it)."""
        conn: sa.Connection | None = getattr(self._local, "conn", None)
        if conn is not None and not conn.closed and not conn.invalidated:
            return conn
        if conn is not None:
            conn.close()
        conn = self.engine.connect()
        self._local.conn = conn
        with self._connections_lock:
            self._connections.append(conn)
        return conn

    def _read_sync(self, fn: Callable[..., T], args: tuple[Any, ...]) -> T:
        conn = self._connection()
        try:
            return fn(conn, *args)
        finally:
            conn.rollback()  # end the read: an open one would hold back WAL checkpoints

    def _write_sync(self, fn: Callable[..., T], args: tuple[Any, ...]) -> T:
        conn = self._connection()
        with conn.begin():
            result = fn(conn, *args)
        if self._checkpointer is not None:
            self._checkpointer.dirty = True
        return result

    async def read(self, fn: Callable[..., T], *args: Any) -> T:
        if self._closed:
            raise StoreError("the store is closed")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._readers, self._read_sync, fn, args)

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        # A cancelled caller does not stop the thread: the transaction still commits or
        # rolls back as a whole, never halfway.
        if self._closed:
            raise StoreError("the store is closed")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._writer, self._write_sync, fn, args)

    async def close(self) -> None:
        self._closed = True

        def shutdown() -> None:
            self._writer.shutdown(wait=True)
            self._readers.shutdown(wait=True)
            for conn in self._connections:  # their threads are done with them
                conn.close()
            if self._checkpointer is not None:
                self._checkpointer.stop()
            self.engine.dispose()

        await asyncio.to_thread(shutdown)


class AsyncRunner:
    """An AsyncEngine; writes are serialized in-process on SQLite (aiosqlite) only."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.dialect = engine.dialect
        self.dialect_name = engine.dialect.name
        self._write_lock = asyncio.Lock() if self.dialect_name == "sqlite" else None
        self._closed = False

    async def read(self, fn: Callable[..., T], *args: Any) -> T:
        if self._closed:
            raise StoreError("the store is closed")
        async with self.engine.connect() as conn:
            return await conn.run_sync(fn, *args)

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        if self._closed:
            raise StoreError("the store is closed")
        if self._write_lock is None:
            async with self.engine.begin() as conn:
                return await conn.run_sync(fn, *args)
        async with self._write_lock, self.engine.begin() as conn:
            return await conn.run_sync(fn, *args)

    async def close(self) -> None:
        self._closed = True
        await self.engine.dispose()
