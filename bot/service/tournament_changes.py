"""How a tournament changes: loaded from the store, a step applied, saved under
the version it was loaded at, then published. A save that finds a newer version stored
(another process changed it first) loads it and applies the step again, so every change is
applied once to the state it was checked against, and nothing is kept in memory between
changes: a restart or a second process loses nothing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Final

from ..store import StaleWrite, Store
from ..store.tournament_ops import TableLink, TournamentRecord
from ..tournament import TournamentError
from ..tournament.errors import InvalidTournament
from . import tournament_steps as steps
from .errors import ActionError
from .service import TableService
from .tournament_events import NullPort, TournamentPort, TournamentUpdate
from .tournament_state import TournamentState

log = logging.getLogger(__name__)

ATTEMPTS: Final = 8
"""Tries of one change while other processes keep saving the tournament first."""

StepFn = Callable[[TournamentState, float], steps.Step]


class TournamentChanges:
    """The store, the tables and the port of the tournament service, and its one way to
    change a tournament."""

    def __init__(
        self, store: Store, tables: TableService, port: TournamentPort | None = None
    ) -> None:
        self.store = store
        self.tables = tables
        self.port: TournamentPort = port or NullPort()
        self._locks: dict[str, asyncio.Lock] = {}
        self._opening = asyncio.Lock()
        """One table opening at a time here: every tournament table has the same host id,
        which the registry counts as opening while its first write is under way."""
        self._tasks: set[asyncio.Task[None]] = set()

    def clock(self) -> float:
        """The tables' clock (a test moving it moves the tournaments' too)."""
        return self.tables.clock()

    # ----------------------------------------------------------------- reading

    async def load(self, tournament_id: str) -> TournamentState:
        """:raises ActionError: ``error.t_gone`` (no such tournament, or unreadable)."""
        record = await self.store.load_tournament(tournament_id)
        if record is None:
            raise ActionError("error.t_gone")
        return self._state(record)

    async def in_channel(self, channel_id: int) -> TournamentState:
        """The channel's live tournament, else its last one.
        :raises ActionError: ``error.t_none_here``."""
        record = await self.store.tournament_in_channel(channel_id)
        if record is None:
            raise ActionError("error.t_none_here")
        return self._state(record)

    @staticmethod
    def _state(record: TournamentRecord) -> TournamentState:
        try:
            return TournamentState.from_dict(record.state, record.version)
        except InvalidTournament:
            log.exception("tournament %s: stored state unreadable", record.tournament_id)
            raise ActionError("error.t_gone") from None

    # ----------------------------------------------------------------- changes

    async def _change(self, tournament_id: str, step: StepFn) -> TournamentUpdate:
        """Apply ``step`` to the stored tournament and store it under the next version; on a
        newer version stored meanwhile, load and apply it again."""
        for _ in range(ATTEMPTS):
            state = await self.load(tournament_id)
            now = self.clock()
            try:
                new, events = step(state, now)
            except TournamentError as error:
                raise steps.refusal(error) from None
            if new is state and not events:
                return TournamentUpdate(state, [])
            try:
                saved = await self._save(state, new, now)
            except StaleWrite:
                log.info("tournament %s: saved elsewhere meanwhile; again", tournament_id)
                continue
            update = TournamentUpdate(saved, list(events))
            words = ", ".join(type(e).__name__ for e in events) or "saved"
            log.info("tournament %s: %s (v=%s)", tournament_id, words, saved.version)
            self.port.publish(update)
            return update
        raise ActionError("error.internal")

    async def _save(
        self, old: TournamentState, new: TournamentState, now: float
    ) -> TournamentState:
        links = [
            TableLink(slot.table_id, new.tournament_id, r, k)
            for (r, k), slot in new.slots.items()
            if (r, k) not in old.slots
        ]
        record = TournamentRecord(
            tournament_id=new.tournament_id,
            guild_id=new.guild_id,
            channel_id=new.channel_id,
            status=new.status,  # type: ignore[arg-type]
            version=old.version + 1,
            state=new.to_dict(),
            due_at=steps.due_at(new, now),
        )
        saved = await self.store.save_tournament(record, links)
        return replace(new, version=saved.version)

    async def _change_quietly(self, tournament_id: str, step: StepFn) -> None:
        """A change nobody needs to see (a message's id): stored, not published."""
        for _ in range(ATTEMPTS):
            state = await self.load(tournament_id)
            new, _events = step(state, self.clock())
            try:
                await self._save(state, new, self.clock())
                return
            except StaleWrite:
                continue
        raise ActionError("error.internal")
