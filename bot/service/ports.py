"""What the service hands out and what it is handed: the ``Update`` of one committed change,
the ``Publisher`` it gives updates to, the ``TableFeedback`` port the Discord side answers
through, and the clock and computer hooks it runs on.

These are the service's only seams: the Discord layer sees an ``Update`` and calls back
through ``TableFeedback`` alone, and tests swap the clock, the timers and the thinking.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from engine import Card, Player, SeatView, Suit
from engine.shelem import ShelemView

from .delivery import Delivery, Shown
from .errors import ActionError
from .events import TableEvent
from .table import Table
from .variants import ShelemDecision


@dataclass
class Update:
    """What one committed change did: the table as it now is, and what happened."""

    table: Table
    events: list[TableEvent] = field(default_factory=list)
    actor_seat: int | None = None
    """The seat whose click caused this (answered through its interaction, not by an edit)."""
    refusal: ActionError | None = None
    """A move refused inside an otherwise committed change (a member back from autoplay)."""
    idle: bool = False
    """Nothing was due after all (a timer woken as another change moved the deadline): the
    change stores and shows nothing."""
    snapshot: Table | None = None
    """The table as this change committed it (``Table.snapshot``), taken by ``Commits`` once
    the change is stored: what the Discord side renders, without the table's lock, while the
    live ``table`` moves on. Taken after the save, it never shows a move not yet stored."""

    @property
    def shown(self) -> Table:
        """What to render: ``snapshot``; an update built by hand (a test's) has none, and
        shows its table as it is."""
        return self.table if self.snapshot is None else self.snapshot

    def add(self, event: TableEvent) -> None:
        self.events.append(event)

    def has(self, kind: type[TableEvent]) -> bool:
        return any(isinstance(e, kind) for e in self.events)


class Publisher(Protocol):
    """The Discord side: shows an update to the channel and the players."""

    def publish(self, update: Update) -> None: ...


class NullPublisher:
    """For a service nobody watches (tests, tools): updates go nowhere."""

    def publish(self, update: Update) -> None:
        return None


class TableFeedback(Protocol):
    """The one way back from the Discord side: what it learned while sending (a message id,
    a closed DM, a gone channel). Where a table is shown is kept apart from the game table
    (``delivery``, its own rows: no lock, no version); a gone channel ends the table. The
    publisher never changes a ``Table`` itself, and renders the snapshots it is handed
    (``Update.shown``), never taking the table's lock."""

    def delivery(self, table_id: str) -> Shown:
        """Where the table is shown, as learned so far (read ``now`` when sending)."""
        ...

    async def fresh_delivery(self, table_id: str) -> Delivery:
        """What to read before posting a message anew (another process may have posted it)."""
        ...

    async def message_posted(self, table_id: str, message_id: int) -> None: ...

    async def dm_posted(
        self, table_id: str, seat: int, channel_id: int, message_id: int, hand: int
    ) -> None: ...

    async def dm_gone(self, table_id: str, seat: int) -> None:
        """The hand DM was deleted: the next one is sent anew."""
        ...

    async def dm_closed(self, table_id: str, seat: int) -> None: ...

    async def channel_gone(self, table_id: str) -> None: ...


class Cancellable(Protocol):
    """A scheduled callback (``asyncio.TimerHandle``, or a test clock's)."""

    def cancel(self) -> None: ...


CallLater = Callable[[float, Callable[[], None]], Cancellable]
"""Schedules a callback ``delay`` seconds from now (``loop.call_later`` in the bot)."""
PlayerFactory = Callable[[str, int], Player]
Thinker = Callable[
    [str, str, int, SeatView | ShelemView, float], Awaitable[Card | Suit | ShelemDecision | None]
]
"""(table id, difficulty, seed, view, ``monotonic`` deadline) -> the move, or ``None`` for the
greedy move (the deadline passed before the table's turn to think came). A Shelem seat's view
(V6) is answered with a card or a ``ShelemDecision`` (its bids are searched too)."""

THINK_GRACE = 0.1
"""Seconds a computer may think past its pause (``computer_delay``) before the greedy move is
played instead: thinking starts when its turn begins, so the pause is the budget, plus this."""


@dataclass
class Pace:
    """The clocks and the computer's timing, one object shared by the service's parts, so a
    change (a test moving the clock, a slower computer) reaches all of them at once."""

    clock: Callable[[], float] = time.time
    """Wall time: deadlines are stored, and survive a restart."""
    monotonic: Callable[[], float] = time.monotonic
    """Thinking budgets: never stored, immune to a clock change."""
    computer_delay: float = 1.0
    """The pause before a computer's move (thinking overlaps it)."""
    think_grace: float = THINK_GRACE


T = TypeVar("T")


class Via(Generic[T]):
    """An attribute of the service that lives on one of its parts (``pace``, ``turns``), so a
    change made on the service (a test moving the clock) reaches the part that reads it."""

    def __init__(self, part: str) -> None:
        self.part = part
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, objtype: type | None = None) -> T:
        value: T = getattr(getattr(obj, self.part), self.name)
        return value

    def __set__(self, obj: Any, value: T) -> None:
        setattr(getattr(obj, self.part), self.name, value)
