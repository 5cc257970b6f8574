"""Tournaments, wired to the tables: the service the ``/tournament`` commands and
the tournament message's buttons call (``TournamentService``), over the sweep that moves every
tournament on by itself (``tournament_rounds``) and the one way a tournament changes
(``tournament_changes``: loaded, a step of ``tournament_steps`` applied, saved under its
version, published).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace

from ..store import ChannelBusy, StaleWrite
from . import tournament_steps as steps
from .errors import ActionError
from .tournament_events import Created, NoThreads, TournamentUpdate
from .tournament_rounds import TournamentRounds, WatchTables
from .tournament_state import TournamentState

log = logging.getLogger(__name__)

__all__ = ["TournamentService", "WatchTables"]


class TournamentService(TournamentRounds):
    """Every tournament of the bot, kept in the store."""

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        language: str,
        settings: Mapping[str, object],
        missing: Sequence[str] = (),
    ) -> TournamentUpdate:
        """``/tournament new``: open registration. ``missing``: the permissions the bot lacks
        for threads here (then tables are played one at a time in the channel).

        :raises ActionError: a setting out of range, a live tournament in the channel."""
        now = self.clock()
        state = steps.new_tournament(
            tournament_id=TournamentState.new_id(),
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            language=language,
            now=now,
            settings=settings,
        )
        state = replace(state, names={host_id: host_name}, threads=not missing)
        state = replace(state, missing=tuple(missing))
        try:
            saved = await self._save(state, state, now)
        except (ChannelBusy, StaleWrite):
            raise ActionError("error.t_channel_busy") from None
        log.info("tournament %s: created in channel %s", saved.tournament_id, channel_id)
        update = TournamentUpdate(saved, [Created()])
        if missing:
            update.events.append(NoThreads(tuple(missing)))
        self.port.publish(update)
        return update

    async def join(
        self,
        tournament_id: str,
        user_id: int,
        names: Mapping[int, str],
        partners: Sequence[int] = (),
    ) -> TournamentUpdate:
        state = await self.load(tournament_id)
        config = state.core.config
        members = [user_id, *partners]
        invitation = state.invitation_of(user_id)
        if invitation is not None:
            members += list(invitation.members)
        found = await self.store.ratings_of(state.guild_id, members, config.format)
        ratings = {m: r.ordinal for m, r in found.items()}
        return await self._change(
            tournament_id, lambda s, now: steps.join(s, user_id, names, partners, now, ratings)
        )

    async def leave(self, tournament_id: str, user_id: int) -> TournamentUpdate:
        return await self._change(tournament_id, lambda s, now: steps.leave(s, user_id))

    async def start(self, tournament_id: str, user_id: int, is_admin: bool) -> TournamentUpdate:
        def step(s: TournamentState, now: float) -> steps.Step:
            steps.require_host(s, user_id, is_admin)
            return steps.start(s, now, early=True)

        update = await self._change(tournament_id, step)
        self.wake(tournament_id)
        return update

    async def cancel(self, tournament_id: str, user_id: int, is_admin: bool) -> TournamentUpdate:
        """The host's (or a server manager's): the tournament ends, its open tables close."""

        def step(s: TournamentState, now: float) -> steps.Step:
            steps.require_host(s, user_id, is_admin)
            return steps.cancel(s)

        update = await self._change(tournament_id, step)
        for slot in update.state.slots.values():
            if slot.opened:
                with contextlib.suppress(ActionError):
                    await self.tables.held(slot.table_id)
                    await self.tables.cancel(slot.table_id, user_id, is_admin=True)
        return update

    async def drop(
        self, tournament_id: str, user_id: int, member: int, is_admin: bool
    ) -> TournamentUpdate:
        def step(s: TournamentState, now: float) -> steps.Step:
            steps.require_host(s, user_id, is_admin)
            return steps.drop(s, member)

        return await self._change(tournament_id, step)

    async def message_posted(self, tournament_id: str, message_id: int, standings: bool) -> None:
        """The Discord side posted the tournament's message (or its standings): remember it,
        so it is edited from now on, by whichever process."""

        def step(s: TournamentState, now: float) -> steps.Step:
            if standings:
                return replace(s, standings_message_id=message_id), []
            return replace(s, message_id=message_id), []

        try:
            await self._change_quietly(tournament_id, step)
        except ActionError:
            log.warning("tournament %s: message id not saved", tournament_id)
