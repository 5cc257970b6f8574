"""The live tables and who sits at them: one place that answers "which table is in this
channel", "where does this member sit" and "may this server open another table".

Every table has one asyncio lock (clicks on one table are serialized, tables never wait on
each other). Nothing here awaits, so a check and the change it guards happen in one step of
the event loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager

from .errors import ActionError
from .table import Table


def seated_elsewhere(guild_id: int, other_guild: int, channel_id: int) -> ActionError:
    """The refusal for a member seated at the live table in ``channel_id`` (of
    ``other_guild``) who tries to sit at a table of ``guild_id``: it names that channel."""
    code = "error.seated_elsewhere" if other_guild == guild_id else "error.seated_elsewhere_other"
    return ActionError(code, channel=f"<#{channel_id}>")


class TableRegistry:
    """Live tables by id and by channel, their locks, and the hosts whose table is opening."""

    def __init__(self) -> None:
        self.tables: dict[str, Table] = {}
        self._by_channel: dict[int, str] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._opening: dict[int, tuple[int, int]] = {}
        """Hosts whose new table is being written: member id -> (guild id, channel id)."""

    def register(self, table: Table) -> None:
        self.tables[table.table_id] = table
        self._by_channel[table.channel_id] = table.table_id
        self._locks.setdefault(table.table_id, asyncio.Lock())

    def forget(self, table: Table) -> None:
        """Drop a table that ended. Its lock goes too: whoever waits on it holds it already
        and finds the table gone once inside (``is_current`` is then false)."""
        self.tables.pop(table.table_id, None)
        self._locks.pop(table.table_id, None)
        if self._by_channel.get(table.channel_id) == table.table_id:
            del self._by_channel[table.channel_id]

    def is_current(self, table: Table) -> bool:
        """Still the live object for its id (not ended, not replaced by a restore)."""
        return self.tables.get(table.table_id) is table

    def lock(self, table_id: str) -> asyncio.Lock:
        """The lock of a registered table (``KeyError`` for one that ended)."""
        return self._locks[table_id]

    def in_channel(self, channel_id: int) -> Table | None:
        table_id = self._by_channel.get(channel_id)
        return self.tables.get(table_id) if table_id else None

    def get(self, table_id: str) -> Table:
        """:raises ActionError: ``error.stale`` for a table that is not live here."""
        table = self.tables.get(table_id)
        if table is None:
            raise ActionError("error.stale")
        return table

    def of_user(self, guild_id: int, user_id: int) -> list[Table]:
        return [
            t
            for t in self.tables.values()
            if t.guild_id == guild_id and t.seat_of(user_id) is not None
        ]

    def seated_at(self, user_id: int) -> tuple[int, int] | None:
        """(guild id, channel id) of the live table ``user_id`` sits at, in any server."""
        opening = self._opening.get(user_id)
        if opening is not None:
            return opening
        for t in self.tables.values():
            if t.is_live and t.seat_of(user_id) is not None:
                return t.guild_id, t.channel_id
        return None

    def require_unseated(self, user_id: int, guild_id: int) -> None:
        """A member sits at one live table at a time across the bot: at this process's tables
        here; across processes the store refuses the save that would seat them twice
        (``SeatTaken``, turned into the same refusal by ``seated_elsewhere``).

        Called in the same step of the event loop as the seat is taken (no ``await`` between
        the check and the change), so two opens or joins at once cannot both pass it.

        :raises ActionError: ``error.seated_elsewhere`` (this server) or
            ``error.seated_elsewhere_other``, naming the channel.
        """
        at = self.seated_at(user_id)
        if at is not None:
            raise seated_elsewhere(guild_id, *at)

    def require_room(self, guild_id: int, limit: int) -> None:
        """A server has at most ``max_open_tables`` live tables (one server cannot crowd out
        every other on the shared workers and rate limits).

        :raises ActionError: ``error.server_tables_full``.
        """
        live = sum(1 for t in self.tables.values() if t.guild_id == guild_id and t.is_live)
        live += sum(1 for g, _ in self._opening.values() if g == guild_id)
        if live >= limit:
            raise ActionError("error.server_tables_full", limit=limit)

    @contextmanager
    def opening(self, host_id: int, guild_id: int, channel_id: int) -> Iterator[None]:
        """Count a table whose first write is under way as the host's seat and the server's
        table, so an open racing it is refused."""
        self._opening[host_id] = (guild_id, channel_id)
        try:
            yield
        finally:
            del self._opening[host_id]
