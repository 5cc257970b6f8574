"""Item 5: the bot purges ended tables periodically, with the configured retention."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta

import pytest

from bot.config import Settings
from bot.service.housekeeping import purge_ended_tables


class FakeStore:
    def __init__(self, fail_first: bool = False) -> None:
        self.cutoffs: list[datetime] = []
        self.fail_first = fail_first

    async def purge_tables(self, finished_before: datetime) -> int:
        self.cutoffs.append(finished_before)
        if self.fail_first and len(self.cutoffs) == 1:
            raise OSError("database is locked")
        return 1


async def test_the_task_purges_at_once_then_periodically_and_survives_a_failure(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="bot.service.housekeeping")
    store = FakeStore(fail_first=True)
    task = asyncio.create_task(purge_ended_tables(store, 7.0, every=0.01))
    try:
        for _ in range(500):
            if len(store.cutoffs) >= 3:
                break
            await asyncio.sleep(0.01)
    finally:
        task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert len(store.cutoffs) >= 3, "the purge did not repeat"
    week_ago = datetime.now(UTC) - timedelta(days=7)
    for cutoff in store.cutoffs:
        assert abs((cutoff - week_ago).total_seconds()) < 60
    assert any("purging ended tables failed" in r.getMessage() for r in caplog.records)
    assert any(r.levelno == logging.INFO and "purged 1" in r.getMessage() for r in caplog.records)


def test_retention_is_a_setting_with_a_week_by_default() -> None:
    assert Settings().ended_table_retention_days == 7.0
    assert Settings(ended_table_retention_days=0.5).ended_table_retention_days == 0.5
    with pytest.raises(ValueError):
        Settings(ended_table_retention_days=-1)
