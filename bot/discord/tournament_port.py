"""The Discord side of tournaments: shows each stored change and makes a table's
thread.

Every message goes through the outbox. The tournament message and the standings are one
message each, kept current: their job loads the tournament when it runs and shows what is
stored then (a later change, made here or by another process, is never undone by an older
edit), posting the message the first time and keeping its id through the service. A table's
ping goes once, where the table opened, and may notify its players alone; a cancelled
tournament's notice notifies its players.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Final, Protocol

import aiohttp
import discord

from ..present import tournament as present
from ..present.budget import CONTENT, cut_lines
from ..service.errors import ActionError
from ..service.tournament_events import (
    Cancelled,
    Finished,
    RoundOver,
    TableOpened,
    TournamentUpdate,
)
from ..service.tournament_state import TournamentState
from .channels import Channels
from .outbox import OPENING, REPORT, TABLE, Job, Outbox, Retry
from .ui import message_kwargs, text_kwargs

log = logging.getLogger(__name__)

THREAD_PERMISSIONS: Final = ("create_public_threads", "send_messages_in_threads")
"""What a table's thread needs of the bot in the tournament's channel."""
PINGS_A_MESSAGE: Final = 50
"""Members one notice mentions at most (a message holds 2,000 characters)."""
TRANSIENT = (TimeoutError, discord.DiscordServerError, aiohttp.ClientError)


class Tournaments(Protocol):
    """What the port needs of the tournament service: the newest stored state, and where to
    keep the id of a message it posted."""

    async def load(self, tournament_id: str) -> TournamentState: ...

    async def message_posted(
        self, tournament_id: str, message_id: int, standings: bool
    ) -> None: ...


class ThreadMaker(Protocol):
    """The client's ``get_channel``/``fetch_channel``, for the tournament's channel."""

    def get_channel(self, id: int, /) -> object: ...

    async def fetch_channel(self, channel_id: int, /) -> object: ...


class DiscordTournamentPort:
    def __init__(self, bot: Channels, outbox: Outbox, threads: ThreadMaker) -> None:
        self.bot = bot
        self.outbox = outbox
        self.threads = threads
        self.tournaments: Tournaments | None = None
        """Set once the service exists (it is built with this port)."""

    # ----------------------------------------------------------------- shows

    def publish(self, update: TournamentUpdate) -> None:
        state = update.state
        tid = state.tournament_id
        # one key: a job in flight (posting the message) finishes before the next starts,
        # which then finds the message's id stored and edits it
        self._submit(("tournament", tid), TABLE, state, self._message_job(tid, False))
        if update.has(RoundOver) or update.has(Finished):
            self._submit(("tstandings", tid), REPORT, state, self._message_job(tid, True))
        for event in update.events:
            if isinstance(event, TableOpened):
                self._ping(state, event)
            elif isinstance(event, Cancelled):
                self._cancelled(state, event.reason)

    def _submit(
        self, key: tuple[object, ...], priority: int, state: TournamentState, job: Job
    ) -> None:
        self.outbox.submit(key, priority, state.channel_id, job, every=1.0)

    def _message_job(self, tournament_id: str, standings: bool) -> Job:
        async def job() -> None:
            assert self.tournaments is not None
            try:
                state = await self.tournaments.load(tournament_id)
            except ActionError:
                return
            message_id = state.standings_message_id if standings else state.message_id
            spec = (
                present.standings_message(state) if standings else present.tournament_message(state)
            )
            channel = self.bot.get_partial_messageable(state.channel_id, guild_id=state.guild_id)
            try:
                if message_id is None:
                    message = await channel.send(**message_kwargs(spec))
                    await self.tournaments.message_posted(tournament_id, message.id, standings)
                else:
                    await channel.get_partial_message(message_id).edit(**message_kwargs(spec))
            except discord.NotFound:  # deleted: post it again
                if message_id is not None:
                    message = await channel.send(**message_kwargs(spec))
                    await self.tournaments.message_posted(tournament_id, message.id, standings)
            except discord.Forbidden:
                log.warning("tournament %s: no permission to post its message", tournament_id)
            except TRANSIENT as exc:
                raise Retry from exc

        return job

    def _ping(self, state: TournamentState, event: TableOpened) -> None:
        slot = state.slots.get((event.round_no, event.table_no))
        opened = slot.opened_at if slot and slot.opened_at else 0.0
        deadline = opened + state.core.config.grace_seconds
        text = present.ping_text(state, event.round_no, event.members, deadline)
        key = ("tping", state.tournament_id, event.round_no, event.table_no)
        job = self._send(event.channel_id, state.guild_id, text, event.members)
        self.outbox.submit(key, OPENING, event.channel_id, job)

    def _cancelled(self, state: TournamentState, reason: str) -> None:
        players = state.players() or tuple(m for i in state.invitations for m in i.members)
        for n, start in enumerate(range(0, max(len(players), 1), PINGS_A_MESSAGE)):
            chunk = players[start : start + PINGS_A_MESSAGE]
            text = present.cancel_notice(state, reason, chunk)
            job = self._send(state.channel_id, state.guild_id, text, chunk)
            self.outbox.submit(("tcancel", state.tournament_id, n), REPORT, state.channel_id, job)

    def _send(self, channel_id: int, guild_id: int, text: str, pings: Sequence[int]) -> Job:
        async def job() -> None:
            channel = self.bot.get_partial_messageable(channel_id, guild_id=guild_id)
            try:
                await channel.send(**text_kwargs(cut_lines(text, CONTENT), pings=pings))
            except (discord.NotFound, discord.Forbidden):
                log.warning("tournament notice not posted in channel %s", channel_id)
            except TRANSIENT as exc:
                raise Retry from exc

        return job

    # ----------------------------------------------------------------- threads

    async def table_thread(
        self, state: TournamentState, round_no: int, table_no: int
    ) -> tuple[int | None, tuple[str, ...]]:
        """A public thread of the tournament's channel for one table: its id; or None with
        the permissions the bot lacks (then the tables take turns in the channel), or None
        alone for a passing failure (tried again later)."""
        channel = self.threads.get_channel(state.channel_id)
        try:
            if channel is None:
                channel = await self.threads.fetch_channel(state.channel_id)
            if not isinstance(channel, discord.TextChannel):
                return None, THREAD_PERMISSIONS
            missing = _missing(channel)
            if missing:
                return None, missing
            thread = await channel.create_thread(
                name=present.thread_name(state, round_no, table_no),
                type=discord.ChannelType.public_thread,
                auto_archive_duration=1440,
            )
        except discord.Forbidden:
            return None, THREAD_PERMISSIONS
        except (discord.HTTPException, *TRANSIENT) as exc:
            log.warning("tournament %s: no thread for a table (%s)", state.tournament_id, exc)
            return None, ()
        return thread.id, ()

    async def table_threads_made(
        self, state: TournamentState, round_no: int, table_no: int
    ) -> tuple[int, ...]:
        """Threads of the tournament's channel with this table's name (none on any failure:
        then a new thread is made, as before)."""
        channel = self.threads.get_channel(state.channel_id)
        try:
            if channel is None:
                channel = await self.threads.fetch_channel(state.channel_id)
            if not isinstance(channel, discord.TextChannel):
                return ()
            return await _threads_named(channel, present.thread_name(state, round_no, table_no))
        except (discord.HTTPException, *TRANSIENT) as exc:
            log.warning("tournament %s: threads not listed (%s)", state.tournament_id, exc)
            return ()


async def _threads_named(channel: discord.TextChannel, name: str) -> tuple[int, ...]:
    """The active threads of ``channel`` named ``name``, as Discord lists them now (the
    cache of a restarted process may not hold a thread made just before)."""
    found = await channel.guild.active_threads()
    return tuple(t.id for t in found if t.parent_id == channel.id and t.name == name)


def _missing(channel: discord.TextChannel) -> tuple[str, ...]:
    """The thread permissions the bot lacks in ``channel``, as its cache knows them."""
    me = channel.guild.me
    if me is None:
        return ()
    have = channel.permissions_for(me)
    return tuple(p for p in THREAD_PERMISSIONS if not getattr(have, p))


def missing_for_threads(permissions: discord.Permissions) -> tuple[str, ...]:
    """What ``/tournament new`` says is missing for threads, from the interaction's
    ``app_permissions`` (the bot's permissions in the channel)."""
    return tuple(p for p in THREAD_PERMISSIONS if not getattr(permissions, p))
