"""What a tournament's change did, as typed events, and the ports the tournament service
talks to the Discord side through.

``TournamentUpdate`` is one stored change: the tournament as it now is and what happened. The
``TournamentPort`` shows it (the tournament message, the standings, a table's ping) and makes
a thread for a table; what the Discord side learns (a message's id) comes back through
``TournamentFeedback``. No Discord type crosses either.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from .tournament_state import TournamentState


@dataclass(frozen=True, slots=True)
class Created:
    pass


@dataclass(frozen=True, slots=True)
class EntriesChanged:
    """Someone registered, confirmed a partner, was invited or left."""


@dataclass(frozen=True, slots=True)
class Started:
    pass


@dataclass(frozen=True, slots=True)
class TableOpened:
    """A table of a round is open in ``channel_id``: its players are pinged there, once."""

    round_no: int
    table_no: int
    channel_id: int
    members: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ResultIn:
    round_no: int
    table_no: int
    forfeit: bool = False


@dataclass(frozen=True, slots=True)
class RoundOver:
    """Every table of ``round_no`` has its result: the standings after it."""

    round_no: int


@dataclass(frozen=True, slots=True)
class RoundStarted:
    round_no: int


@dataclass(frozen=True, slots=True)
class Finished:
    winners: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Cancelled:
    """``host``: the host (or a server manager) cancelled it; ``too_few``: registration closed
    with too few entries to play."""

    reason: str


@dataclass(frozen=True, slots=True)
class DropAsked:
    member: int


@dataclass(frozen=True, slots=True)
class NoThreads:
    """Threads could not be made: tables go one at a time in the channel."""

    missing: tuple[str, ...]


TournamentEvent = (
    Created
    | EntriesChanged
    | Started
    | TableOpened
    | ResultIn
    | RoundOver
    | RoundStarted
    | Finished
    | Cancelled
    | DropAsked
    | NoThreads
)


@dataclass
class TournamentUpdate:
    state: TournamentState
    events: list[TournamentEvent] = field(default_factory=list)

    def has(self, kind: type) -> bool:
        return any(isinstance(e, kind) for e in self.events)


class TournamentPort(Protocol):
    """The Discord side of tournaments."""

    def publish(self, update: TournamentUpdate) -> None:
        """Show a stored change: the tournament message, the standings, pings, notices."""
        ...

    async def table_thread(
        self, state: TournamentState, round_no: int, table_no: int
    ) -> tuple[int | None, tuple[str, ...]]:
        """A new thread of the tournament's channel for a table: its id, or None and the
        permissions the bot lacks for one."""
        ...

    async def table_threads_made(
        self, state: TournamentState, round_no: int, table_no: int
    ) -> tuple[int, ...]:
        """The threads of the tournament's channel already named as this table's (T13: a
        process may have made one and stopped before storing it)."""
        ...


class NullPort:
    """For a service nobody watches: nothing is shown, and there are no threads."""

    def publish(self, update: TournamentUpdate) -> None:
        return None

    async def table_thread(
        self, state: TournamentState, round_no: int, table_no: int
    ) -> tuple[int | None, tuple[str, ...]]:
        return None, ()

    async def table_threads_made(
        self, state: TournamentState, round_no: int, table_no: int
    ) -> tuple[int, ...]:
        return ()
