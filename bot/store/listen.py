"""Which tables other processes saved: PostgreSQL's ``LISTEN`` on the channel that
every table save notifies in its transaction (``table_ops.TABLES_CHANNEL``).

One connection of its own, outside the pool, kept for as long as the bot runs; when it drops
(a server restart, a network cut) it is opened again after ``retry`` seconds. A save missed
meanwhile is not lost: the next click or timer on that table finds the newer version anyway
(``bot.service.commits``); the notification only makes a process catch up sooner.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from .table_ops import TABLES_CHANNEL

log = logging.getLogger(__name__)

Saved = Callable[[str, int], None]
"""Called with (table id, version) for every table save, this process's own included."""


class TableSaves:
    """Listens while running; ``close`` stops it."""

    def __init__(self, engine: AsyncEngine, saved: Saved, *, retry: float = 1.0) -> None:
        self._engine = engine
        self._saved = saved
        self._retry = retry
        self.listening = asyncio.Event()
        """Set while the ``LISTEN`` is in place (tests wait for it)."""
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def close(self) -> None:
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task

    async def _run(self) -> None:
        failing = False
        while True:
            try:
                await self._listen()
                failing = False
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not failing:  # one line per outage, not one per retry
                    log.warning("table saves: listening failed (%s); retrying", exc)
                failing = True
            self.listening.clear()
            await asyncio.sleep(self._retry)

    async def _listen(self) -> None:
        async with self._engine.connect() as conn:
            raw = await conn.get_raw_connection()
            driver: Any = raw.driver_connection  # asyncpg's Connection
            gone = asyncio.Event()
            driver.add_termination_listener(lambda _connection: gone.set())
            await driver.add_listener(TABLES_CHANNEL, self._notified)
            self.listening.set()
            try:
                await gone.wait()
            finally:
                if not driver.is_closed():
                    await driver.remove_listener(TABLES_CHANNEL, self._notified)
            log.warning("table saves: the listening connection closed; opening another")

    def _notified(self, _connection: Any, _pid: int, _channel: str, payload: str) -> None:
        table_id, _, version = payload.partition(" ")
        try:
            self._saved(table_id, int(version))
        except ValueError:
            log.warning("table saves: unreadable notification ignored")
