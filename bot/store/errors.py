"""Store exceptions: one family so callers can catch storage trouble in one place."""

from __future__ import annotations

__all__ = ["ChannelBusy", "StaleWrite", "StoreError"]


class StoreError(Exception):
    """The store cannot do what was asked; the message is safe to log (no passwords)."""


class StaleWrite(StoreError):
    """An optimistic-concurrency check failed: someone else saved first; reload and retry."""


class ChannelBusy(StaleWrite):
    """Another lobby or game is already open in this channel (enforced by a unique index)."""
