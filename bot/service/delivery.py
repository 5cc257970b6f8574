"""Where a table is shown on Discord: its message in the channel, each seat's hand DM, whose
DMs are closed. The Discord side's bookkeeping, learned while sending (``TableFeedback``):
kept apart from the game ``Table``, in rows of its own (``table_deliveries``), so recording
a DM's id neither takes the table's lock, nor rewrites the table, nor bumps its version.

A ``Delivery`` is immutable: each change makes a new one, so whoever holds one (a job of the
outbox rendering) sees a state that never moves under it. ``Deliveries`` keeps the current
one per live table; with several processes (``shared``) each keeps its own, read from the
rows when it takes a table up, and read again before a message would be posted anew (another
process may have posted it).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from ..store import TABLE_MESSAGE, DeliveryRow, Store

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class SeatDm:
    """A seat's hand DM: its channel, its message and the hand it shows (a new hand gets a
    new message), and whether the member's DMs are closed (they must press "My hand")."""

    channel_id: int | None = None
    message_id: int | None = None
    hand: int = 0
    closed: bool = False


NO_DM = SeatDm()
_NONE: Mapping[int, SeatDm] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Delivery:
    """A table's surfaces on Discord, as far as this process knows."""

    message_id: int | None = None
    """The public table message in the channel."""
    dms: Mapping[int, SeatDm] = field(default_factory=lambda: _NONE)

    def dm(self, seat: int) -> SeatDm:
        return self.dms.get(seat, NO_DM)

    def closed(self, seat: int) -> bool:
        return self.dm(seat).closed

    def closed_seats(self) -> frozenset[int]:
        return frozenset(seat for seat, dm in self.dms.items() if dm.closed)

    def with_dm(self, seat: int, dm: SeatDm) -> Delivery:
        return dataclasses.replace(self, dms=MappingProxyType({**self.dms, seat: dm}))

    @classmethod
    def of_rows(cls, rows: Iterable[DeliveryRow]) -> Delivery:
        found = cls()
        for row in rows:
            if row.seat == TABLE_MESSAGE:
                found = dataclasses.replace(found, message_id=row.message_id)
            else:
                dm = SeatDm(row.channel_id, row.message_id, row.hand, row.dm_closed)
                found = found.with_dm(row.seat, dm)
        return found


NOWHERE = Delivery()


class Shown:
    """Where one table is shown: the current ``Delivery``, replaced whole on each change. An
    outbox job holds this, not the table's id, so what it learns reaches the job that runs
    after it even once the table has ended and is forgotten here."""

    __slots__ = ("now",)

    def __init__(self, now: Delivery = NOWHERE) -> None:
        self.now = now


class Deliveries:
    """The current ``Delivery`` of each live table, and its rows in the store."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._kept: dict[str, Shown] = {}

    def shown(self, table_id: str, *, keep: bool = True) -> Shown:
        """The table's ``Shown``; a new one is kept only with ``keep`` (a live table)."""
        found = self._kept.get(table_id)
        if found is None:
            found = Shown()
            if keep:
                self._kept[table_id] = found
        return found

    def of(self, table_id: str) -> Delivery:
        found = self._kept.get(table_id)
        return NOWHERE if found is None else found.now

    def forget(self, table_id: str) -> None:
        self._kept.pop(table_id, None)

    async def load(self, table_ids: Iterable[str]) -> None:
        """Take up what the store holds of these tables (a start-up, a table loaded here)."""
        by_table: dict[str, list[DeliveryRow]] = {table_id: [] for table_id in table_ids}
        for row in await self.store.load_deliveries(list(by_table)):
            by_table[row.table_id].append(row)
        for table_id, rows in by_table.items():
            self.shown(table_id).now = Delivery.of_rows(rows)

    async def fresh(self, table_id: str) -> Delivery:
        """What the store holds now (another process may have posted meanwhile)."""
        shown = self._kept.get(table_id)
        rows = await self.store.load_deliveries([table_id])
        if shown is None:
            return Delivery.of_rows(rows)
        shown.now = Delivery.of_rows(rows)
        return shown.now

    async def message_posted(self, table_id: str, message_id: int, *, keep: bool) -> None:
        """``keep``: the table is live (else what is learned is only written)."""
        shown = self.shown(table_id, keep=keep)
        shown.now = dataclasses.replace(shown.now, message_id=message_id)
        await self._write(DeliveryRow(table_id, TABLE_MESSAGE, None, message_id))

    async def dm_posted(
        self, table_id: str, seat: int, dm: tuple[int, int, int], *, keep: bool
    ) -> None:
        """``dm``: its channel, its message, and the hand it shows."""
        await self._set(table_id, seat, keep, lambda old: SeatDm(*dm, old.closed))

    async def dm_gone(self, table_id: str, seat: int, *, keep: bool) -> None:
        await self._set(table_id, seat, keep, lambda old: dataclasses.replace(old, message_id=None))

    async def dm_closed(self, table_id: str, seat: int, *, keep: bool) -> None:
        await self._set(table_id, seat, keep, lambda old: dataclasses.replace(old, closed=True))

    async def _set(
        self, table_id: str, seat: int, keep: bool, change: Callable[[SeatDm], SeatDm]
    ) -> None:
        shown = self.shown(table_id, keep=keep)
        dm = change(shown.now.dm(seat))
        shown.now = shown.now.with_dm(seat, dm)
        row = DeliveryRow(table_id, seat, dm.channel_id, dm.message_id, dm.hand, dm.closed)
        await self._write(row)

    async def _write(self, row: DeliveryRow) -> None:
        """A failed write loses only where a message is (the next one is posted anew)."""
        try:
            if not await self.store.save_delivery(row):
                log.info(
                    "table %s: ended before seat %s's delivery was saved", row.table_id, row.seat
                )
        except Exception:
            log.exception("table %s: delivery of seat %s not saved", row.table_id, row.seat)
