"""Store exceptions: one family so callers can catch storage trouble in one place."""

from __future__ import annotations

__all__ = ["ChannelBusy", "SeatTaken", "StaleWrite", "StoreError"]


class StoreError(Exception):
    """The store cannot do what was asked; the message is safe to log (no passwords)."""


class StaleWrite(StoreError):
    """An optimistic-concurrency check failed: someone else saved first; reload and retry."""


class ChannelBusy(StaleWrite):
    """Another lobby or game is already open in this channel (enforced by a unique index)."""


class SeatTaken(StoreError):
    """A member the save seats already sits at another live table (``seated_members``;
    perhaps seated there by another process); nothing of the save was written."""

    def __init__(self, user_id: int, table_id: str, guild_id: int, channel_id: int) -> None:
        super().__init__(f"member {user_id} sits at table {table_id} in channel {channel_id}")
        self.user_id = user_id
        self.table_id = table_id
        self.guild_id = guild_id
        self.channel_id = channel_id
