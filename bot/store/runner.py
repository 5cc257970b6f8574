"""How a store call's synchronous unit of work reaches the database without blocking the loop.

SQLite, whichever driver the URL names, runs each unit of work whole in one thread: one
dedicated writer, so writes are serialized in-process and never wait on SQLite's busy lock,
plus a few readers; one thread hop per call. `ThreadRunner` (``sqlite://``, stdlib sqlite3)
owns its threads; `AiosqliteRunner` (``sqlite+aiosqlite://``, the default) uses aiosqlite's
connection threads. `AsyncRunner` (asyncpg): the function through `AsyncConnection.run_sync`.

Not `run_sync` for aiosqlite: SQLAlchemy's asyncio adaptation awaits every cursor, execute,
fetch, close and commit on its own, and each is a hop to aiosqlite's thread and back, a
scheduling delay on a busy loop (a finished match was ~15 hops, its p99 10x worse than one
hop; a table save 5, a new table 22, all of them under the in-process write lock, so every
table's write queued behind them).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol, TypeVar, cast

import aiosqlite
import sqlalchemy as sa
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncEngine

from .errors import StoreError
from .write_batch import Item, Outcome, WriteQueue, run_batch

__all__ = ["AiosqliteRunner", "AsyncRunner", "Runner", "ThreadRunner"]

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


class _ThreadedSqlite:
    """A sync engine driven from threads that each keep their own connection: one writer,
    readers beside it, and for SQLite files a background WAL checkpointer
    (`checkpoint_interval` seconds). Subclasses say how a unit of work reaches a thread.

    Each thread keeps its own connection for good. SQLite drops a connection's whole page
    cache when another connection has written since its last transaction, so connections
    taken in turn from the pool made the writer start every write cold: about 90 pages read
    back per finished match at a million matches (``docs/benchmarks.md``). The writer's own
    connection stays warm across writes; a reader's is refreshed only by what changed.
    """

    def __init__(
        self, engine: sa.Engine, checkpoint_interval: float | None, writer_cache_mib: int | None
    ) -> None:
        self.engine = engine
        self._writer_cache_kib = writer_cache_mib * 1024 if writer_cache_mib else None
        self.dialect = engine.dialect
        self.dialect_name = engine.dialect.name
        self._closed = False
        self._checkpointer: _Checkpointer | None = None
        if checkpoint_interval is not None:
            self._checkpointer = _Checkpointer(engine, checkpoint_interval)
            self._checkpointer.start()
        self._local = threading.local()
        self._connections: list[sa.Connection] = []
        self._connections_lock = threading.Lock()
        self.writes = WriteQueue(self._send_writes)
        """Writes that queue behind each other go together (``write_batch``)."""

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

    def _prepare_writer(self, conn: sa.Connection) -> None:
        if self._writer_cache_kib and conn.info.get("writer_cache") != self._writer_cache_kib:
            # the writer's cache is the one that lasts (`write_cache`); readers keep 32 MiB
            conn.exec_driver_sql(f"PRAGMA cache_size = -{int(self._writer_cache_kib)}")
            conn.info["writer_cache"] = self._writer_cache_kib

    def _write_batch(self, items: list[Item]) -> list[Outcome]:
        outcomes = run_batch(self._connection(), items, self._prepare_writer)
        if self._checkpointer is not None:
            self._checkpointer.dirty = True
        return outcomes

    async def _send_writes(self, items: list[Item]) -> list[Outcome]:
        return await self._to_writer(self._write_batch, items)

    async def read(self, fn: Callable[..., T], *args: Any) -> T:
        if self._closed:
            raise StoreError("the store is closed")
        return await self._to_reader(self._read_sync, fn, args)

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        # A cancelled caller does not stop the thread: the transaction still commits or
        # rolls back as a whole, never halfway.
        if self._closed:
            raise StoreError("the store is closed")
        result: T = await self.writes.write(fn, args)
        return result

    async def _to_reader(self, work: Callable[..., T], *args: Any) -> T:
        raise NotImplementedError

    async def _to_writer(self, work: Callable[..., T], *args: Any) -> T:
        raise NotImplementedError

    def _finish(self) -> None:
        """After the threads stopped: the last checkpoint, then every pooled connection."""
        if self._checkpointer is not None:
            self._checkpointer.stop()
        self.engine.dispose()


class ThreadRunner(_ThreadedSqlite):
    """Its own threads (``sqlite://``, stdlib sqlite3): `readers` of them beside the writer,
    0 for reads in the writer's thread, as an in-memory database must."""

    def __init__(
        self,
        engine: sa.Engine,
        *,
        readers: int = 2,
        checkpoint_interval: float | None = None,
        writer_cache_mib: int | None = None,
    ) -> None:
        super().__init__(engine, checkpoint_interval, writer_cache_mib)
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="hokm-store-write")
        self._readers = (
            ThreadPoolExecutor(readers, thread_name_prefix="hokm-store-read")
            if readers
            else self._writer
        )

    async def _to_reader(self, work: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._readers, work, *args)

    async def _to_writer(self, work: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._writer, work, *args)

    async def close(self) -> None:
        self._closed = True
        await self.writes.settle()

        def shutdown() -> None:
            self._writer.shutdown(wait=True)
            self._readers.shutdown(wait=True)
            for conn in self._connections:  # their threads are done with them
                conn.close()
            self._finish()

        await asyncio.to_thread(shutdown)


class AiosqliteRunner(_ThreadedSqlite):
    """aiosqlite's threads (``sqlite+aiosqlite://``): each aiosqlite connection's thread keeps
    the SQLAlchemy connection whose sqlite3 connection aiosqlite itself holds, and a unit of
    work goes whole to that thread through aiosqlite's queue (``Connection._execute``, as
    SQLAlchemy's own aiosqlite dialect hands aiosqlite's thread its isolation level).

    Build it with `await AiosqliteRunner.start(...)`: aiosqlite opens its connections on the
    loop. ``readers=0``: reads share the writer's thread (an in-memory database).
    """

    def __init__(
        self,
        engine: sa.Engine,
        readers: int,
        checkpoint_interval: float | None,
        writer_cache_mib: int | None,
    ) -> None:
        super().__init__(engine, checkpoint_interval, writer_cache_mib)
        self._reader_count = readers
        self._lanes: list[aiosqlite.Connection] = []
        self._next_reader = 0

    @classmethod
    async def start(
        cls,
        engine: sa.Engine,
        *,
        readers: int = 2,
        checkpoint_interval: float | None = None,
        writer_cache_mib: int | None = None,
    ) -> AiosqliteRunner:
        """:raises Exception: a connection could not be opened (nothing is left open)."""
        runner = cls(engine, readers, checkpoint_interval, writer_cache_mib)
        try:
            for _ in range(1 + readers):
                lane = aiosqlite.Connection(runner._sqlite3_connection, iter_chunk_size=64)
                runner._lanes.append(lane)
                await lane  # starts its thread, which opens the connection
        except BaseException:
            await runner.close()
            raise
        return runner

    def _sqlite3_connection(self) -> Any:
        """In a lane's thread: its SQLAlchemy connection, and the sqlite3 one aiosqlite holds."""
        return self._connection().connection.dbapi_connection

    async def _to_writer(self, work: Callable[..., T], *args: Any) -> T:
        return await _in_thread(self._lanes[0], work, *args)

    async def _to_reader(self, work: Callable[..., T], *args: Any) -> T:
        if self._reader_count == 0:
            return await self._to_writer(work, *args)
        self._next_reader = self._next_reader % self._reader_count + 1
        return await _in_thread(self._lanes[self._next_reader], work, *args)

    def _release(self) -> None:
        """In a lane's thread: close its connection for good, not back into the pool, since
        aiosqlite closes the sqlite3 connection next."""
        conn: sa.Connection | None = getattr(self._local, "conn", None)
        if conn is not None and not conn.closed:
            conn.detach()
            conn.close()

    async def close(self) -> None:
        self._closed = True
        await self.writes.settle()
        for lane in self._lanes:
            try:
                await _in_thread(lane, self._release)
                await lane.close()
            except ValueError:  # aiosqlite: its connection never opened
                lane.stop()
        self._lanes.clear()
        await asyncio.to_thread(self._finish)


async def _in_thread(lane: aiosqlite.Connection, work: Callable[..., T], *args: Any) -> T:
    """``work(*args)`` in ``lane``'s thread, after what is queued there already."""
    execute = cast(Callable[..., Awaitable[T]], lane._execute)  # untyped in aiosqlite
    return await execute(work, *args)


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
