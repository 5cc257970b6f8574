"""Plain data the service-level tests build on."""

from __future__ import annotations

from bot.service.table import Table, TableSettings


def lobby_table() -> Table:
    """A fresh lobby with no seat taken (table 0123456789ab, guild 1, channel 2, host 3)."""
    return Table(
        table_id="0123456789ab",
        guild_id=1,
        channel_id=2,
        host_id=3,
        settings=TableSettings(),
        created_at=0.0,
    )
