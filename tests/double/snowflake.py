"""Snowflake ids shaped like Discord's.

Real ids carry their creation time (milliseconds since the Discord epoch, shifted left by 22
bits); discord.py derives ``created_at`` and the shard of a guild from that, so the double makes
ids the same way instead of counting from 1.
"""

from __future__ import annotations

import datetime as dt
import time

DISCORD_EPOCH_MS = 1_420_070_400_000


class SnowflakeGenerator:
    """Hands out unique, increasing snowflakes based on the wall clock."""

    def __init__(self, worker_id: int = 1, process_id: int = 0) -> None:
        self._worker_id = worker_id & 0x1F
        self._process_id = process_id & 0x1F
        self._last_ms = 0
        self._increment = 0

    def next(self, *, shard: tuple[int, int] | None = None) -> int:
        """Return a new id, strictly greater than every id returned before.

        With ``shard=(shard_id, shard_count)`` the id is one of a guild that shard receives
        (``(id >> 22) % shard_count == shard_id``): its millisecond part is moved up to the
        next one that fits, and later ids stay greater.
        """
        now_ms = int(time.time() * 1000)
        if shard is not None:
            shard_id, shard_count = shard
            if not 0 <= shard_id < shard_count:
                raise ValueError(f"no shard {shard_id} of {shard_count}")
            now_ms = max(now_ms, self._last_ms + 1)
            now_ms += (shard_id - (now_ms - DISCORD_EPOCH_MS)) % shard_count
        if now_ms <= self._last_ms:
            now_ms = self._last_ms
            self._increment += 1
            if self._increment > 0xFFF:
                now_ms += 1
                self._increment = 0
        else:
            self._increment = 0
        self._last_ms = now_ms
        return (
            ((now_ms - DISCORD_EPOCH_MS) << 22)
            | (self._worker_id << 17)
            | (self._process_id << 12)
            | self._increment
        )


def snowflake_time(snowflake: int) -> dt.datetime:
    """The creation time encoded in a snowflake (UTC)."""
    ms = (snowflake >> 22) + DISCORD_EPOCH_MS
    return dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC)


def iso_timestamp(when: dt.datetime) -> str:
    """Discord's timestamp format (ISO 8601 with microseconds and offset)."""
    return when.astimezone(dt.UTC).isoformat(timespec="microseconds")


def utcnow() -> dt.datetime:
    """The current time, timezone-aware, as every Discord timestamp is."""
    return dt.datetime.now(dt.UTC)
