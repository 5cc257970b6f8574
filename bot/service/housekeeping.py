"""Periodic upkeep: delete the stored state of tables that ended long ago.

Every table keeps a ``game_tables`` row (its whole state, hands included) after it finished or
was cancelled, so a busy bot would keep every lobby ever opened. The result of a finished match
lives in ``matches``/``match_players``/``standings``, which this never touches; nor does it touch
a live (lobby or playing) table: ``Store.purge_tables`` deletes finished and cancelled rows only.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Protocol

log = logging.getLogger(__name__)

PURGE_EVERY = 3600.0
"""Seconds between purges; the first runs at start-up."""


class Purger(Protocol):
    async def purge_tables(self, finished_before: datetime) -> int: ...


async def purge_once(
    store: Purger, retention_days: float, now: Callable[[], datetime] = lambda: datetime.now(UTC)
) -> int:
    """Delete ended table rows last saved more than ``retention_days`` ago; how many."""
    cutoff = now() - timedelta(days=retention_days)
    purged = await store.purge_tables(cutoff)
    if purged:
        log.info("purged %d ended tables older than %g days", purged, retention_days)
    return purged


async def purge_ended_tables(
    store: Purger, retention_days: float, *, every: float = PURGE_EVERY
) -> None:
    """Run ``purge_once`` now and then every ``every`` seconds until cancelled (bot close).
    A failed purge (database busy or away) is logged and tried again next time."""
    while True:
        try:
            await purge_once(store, retention_days)
        except Exception:
            log.exception("purging ended tables failed; will retry")
        await asyncio.sleep(every)
