"""Rematch: the players of a finished match sit down again, same seats, same settings.

The summary's Rematch button names the finished table. The first player of that match to
press it opens a new lobby in the same channel: computers back in their seats, the presser in
theirs, every other human's seat *kept* for them (``Table.reserved``). Each press sits its
member; the match starts by itself when nobody is left to wait for. The wait is the table's
lobby timeout; then the kept seats open to anyone and the host may fill them with computers
(``Lobby.expire``). The rule in full is in docs/rules.md ("Rematch").

Who has pressed is kept in the rematch lobby itself (its seats and ``reserved``), which is a
live table saved on every press, so it survives a restart with the rest of the table and
needs no record of its own. Until the first press nothing is kept: the finished table's stored
state is the whole input.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace

from ..names import shown_name
from ..store import Store, TableRecord
from .errors import ActionError
from .lobby import Lobby, kept_seat, require_lobby
from .ports import Pace, Update
from .registry import TableRegistry
from .table import Seat, Table

Act = Callable[[str, Callable[[Table, Update], None]], Awaitable[Update]]
Open = Callable[[Table, int], Awaitable[Update]]


def rematch_table(old: Table, host_id: int, host_name: str, now: float) -> Table:
    """The lobby of ``old``'s rematch, opened by ``host_id`` (a human of ``old``)."""
    table = Table(
        table_id=Table.new_id(),
        guild_id=old.guild_id,
        channel_id=old.channel_id,
        host_id=host_id,
        settings=replace(old.settings),
        created_at=now,
        rematch_of=old.table_id,
    )
    for i, seat in enumerate(old.seats):
        if seat is None:
            continue
        if seat.is_computer:
            table.seats[i] = Seat(name=seat.name, difficulty=seat.difficulty)
        elif seat.user_id == host_id:
            table.seats[i] = Seat(name=host_name, user_id=host_id)
        else:
            table.reserved[i] = Seat(name=seat.name, user_id=seat.user_id)
    table.deadline = now + old.settings.lobby_timeout_minutes * 60
    return table


def waiting_for(table: Table) -> tuple[str, ...]:
    """The shown names of the members a rematch lobby still waits for."""
    return tuple(shown_name(s.name) for _, s in sorted(table.reserved.items()))


class Rematches:
    """Presses of a Rematch button: open the rematch lobby, or take a seat it keeps."""

    def __init__(
        self,
        store: Store,
        registry: TableRegistry,
        lobby: Lobby,
        pace: Pace,
        *,
        act: Act,
        open_table: Open,
    ) -> None:
        self.store = store
        self.registry = registry
        self.lobby = lobby
        self.pace = pace
        self.act = act
        self.open_table = open_table
        self._channels: dict[int, asyncio.Lock] = {}
        """Per channel, one press at a time decides whether to open or to join (two first
        presses at once: the second joins the lobby the first opened)."""

    async def press(
        self,
        old_id: str,
        *,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
        max_open_tables: int,
    ) -> Update:
        """:raises ActionError: ``error.bad_button`` (another channel's button),
        ``error.rematch_stale``, ``error.rematch_not_player``, ``error.channel_busy``,
        ``error.rematch_started``, ``error.seated_elsewhere``, ``error.server_tables_full``."""
        old = await self._finished(old_id, guild_id, channel_id)
        if old.seat_of(user_id) is None:
            raise ActionError("error.rematch_not_player")
        lock = self._channels.setdefault(channel_id, asyncio.Lock())
        try:
            async with lock:
                return await self._press(old, user_id, name, max_open_tables)
        finally:
            if not lock.locked():
                self._channels.pop(channel_id, None)

    async def _press(self, old: Table, user_id: int, name: str, max_open_tables: int) -> Update:
        live = self.registry.in_channel(old.channel_id)
        if live is not None:
            if live.rematch_of != old.table_id:
                raise ActionError("error.channel_busy", table=live)
            seat = old.seat_of(user_id)
            return await self.act(live.table_id, lambda t, u: self.claim(t, u, user_id, name, seat))
        newest = await self.store.newest_table_in_channel(old.channel_id)
        if newest is not None and not _may_follow(newest, old.table_id):
            raise ActionError("error.rematch_stale")
        table = rematch_table(old, user_id, name, self.pace.clock())
        return await self.open_table(table, max_open_tables)

    def claim(
        self, table: Table, update: Update, user_id: int, name: str, old_seat: int | None
    ) -> None:
        """A player of the last match takes the seat the rematch lobby kept for them (or their
        old seat again, still free, after they left the lobby)."""
        if table.status == "playing":
            raise ActionError("error.rematch_started")
        require_lobby(table)
        if table.seat_of(user_id) is not None:
            raise ActionError("error.rematch_already_in", names=waiting_for(table))
        seat = kept_seat(table, user_id)
        if seat is None and old_seat in table.free_seats():
            seat = old_seat
        if seat is None:  # the wait ran out and the seat was taken
            raise ActionError("error.rematch_seat_taken")
        self.lobby.sit(table, update, seat, user_id, name)

    async def _finished(self, old_id: str, guild_id: int, channel_id: int) -> Table:
        record = await self.store.load_table(old_id)
        if record is None or record.status != "finished":  # purged long ago, or never a match
            raise ActionError("error.rematch_stale")
        if (record.guild_id, record.channel_id) != (guild_id, channel_id):
            raise ActionError("error.bad_button")  # a Rematch id carried to another channel
        try:
            return Table.from_dict(dict(record.state))
        except (KeyError, TypeError, ValueError):
            raise ActionError("error.rematch_stale") from None


def _may_follow(newest: TableRecord, old_id: str) -> bool:
    """A rematch may open while the finished match is still the channel's last table, or
    after its own rematch lobby closed without a match (an expired wait, everyone left)."""
    if newest.table_id == old_id:
        return True
    return newest.status == "cancelled" and newest.state.get("rematch_of") == old_id
