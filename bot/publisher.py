"""Shows the service's updates on Discord through the outbox.

Per update it decides which messages are now out of date (the table message, a report line,
a player's DM) and submits one coalescing job per message; each job renders the newest state
when it actually runs. DMs are sent only when a player's hand or turn changed, never because
someone else played a card, which keeps the calls per card low.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import defaultdict
from contextlib import AbstractAsyncContextManager
from functools import partial
from typing import Protocol

import aiohttp
import discord

from engine import HandResult

from . import render
from .discord_ui import message_kwargs, text_kwargs
from .events import (
    DmClosed,
    HandDealt,
    HandEnded,
    MatchOver,
    Opened,
    Resumed,
    Started,
    TableEvent,
)
from .i18n import t
from .names import seat_name
from .outbox import MARKER, OPENING, REPORT, TABLE, URGENT, Job, Outbox, Retry
from .table import Table
from .tables import TableFeedback, Update

log = logging.getLogger(__name__)

DM_CLOSED_CODE = 50007
TABLE_EDIT_EVERY = 1.0
TOKEN_LIFETIME = 14 * 60.0
"""Interaction tokens live 15 minutes; keep a margin."""
"""Seconds between edits of one table message: Discord allows ~5 per 5 s per channel, and
reports, notices and other tables' messages share that channel budget."""
MAX_MESSAGE = 1900


class Channels(Protocol):
    """What the publisher needs of the discord.py client: somewhere to send. The client
    creates the publisher, so the publisher knows it only through this."""

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None
    ) -> discord.PartialMessageable: ...

    async def create_dm(self, user: discord.abc.Snowflake) -> discord.DMChannel: ...


class DiscordPublisher:
    """The ``Publisher`` the service talks to when the bot runs on Discord."""

    def __init__(
        self, bot: Channels, outbox: Outbox, feedback: TableFeedback | None = None
    ) -> None:
        self.bot = bot
        self.outbox = outbox
        self.feedback: TableFeedback = feedback or _NoFeedback()
        """The service's port for what sending learns; the publisher changes no ``Table``."""
        self._reports: defaultdict[int, list[str]] = defaultdict(list)
        self._report_pings: defaultdict[int, set[int]] = defaultdict(set)
        """Per channel, the members the pending report lines are meant to notify."""
        self._dm_sent: dict[tuple[str, int], tuple[object, ...] | None] = {}
        self._tokens: dict[tuple[str, int], tuple[discord.Interaction, int, float]] = {}
        self._token_locks: dict[tuple[str, int], asyncio.Lock] = {}
        self._token_tasks: set[asyncio.Task[None]] = set()
        self.token_edits = 0

    # ------------------------------------------------------------------ entry point

    def publish(self, update: Update) -> None:
        table = update.table
        lang = table.settings.language
        for event in update.events:
            self._log_event(table, lang, event)
        if update.has(Opened):
            self.outbox.submit(
                ("table", table.table_id), OPENING, table.channel_id, self._table_job(table)
            )
        else:
            # An ended table's last edit goes like an opening, so before the next table's first
            # message in its channel (older first): as a mere TABLE edit, every new table in a
            # busy channel pushed it back, and such jobs piled up for as long as the churn
            # lasted, each keeping its whole table (issue 11, item 5).
            self.outbox.submit(
                ("table", table.table_id),
                TABLE if table.is_live else OPENING,
                table.channel_id,
                self._table_job(table),
                every=TABLE_EDIT_EVERY,
            )
        if self._reports.get(table.channel_id):
            self.outbox.submit(
                ("report", table.channel_id),
                REPORT,
                table.channel_id,
                self._report_job(table.channel_id),
            )
        if update.has(Resumed):
            self._dm_sent = {k: v for k, v in self._dm_sent.items() if k[0] != table.table_id}
        self._refresh_hands(table, update.actor_seat)
        if not table.is_live:
            self._table_ended(table)

    def _table_ended(self, table: Table) -> None:
        """Forget what was kept per seat of a table that ended (the interactions above all,
        ~150 KB a match). The jobs still queued for its last messages hold their own
        references; ``answered``/``clicked``/``_token_edit`` keep nothing for it afterwards."""
        for seat in range(len(table.seats)):
            key = (table.table_id, seat)
            self._dm_sent.pop(key, None)
            self._tokens.pop(key, None)
            self._token_locks.pop(key, None)

    def answered(self, table: Table, seat: int) -> None:
        """The player's own interaction response just showed them their hand."""
        if table.is_live:
            self._dm_sent[(table.table_id, seat)] = render.hand_signature(table, seat)

    def clicked(
        self, table: Table, seat: int, interaction: discord.Interaction, hand: int | None = None
    ) -> None:
        """Keep the player's last interaction: its token can edit the hand they clicked on
        (a DM or an ephemeral "My hand") for 15 minutes, outside the global rate limit.
        ``hand`` is the hand the clicked message showed (a hand's last card moves the match
        on, but that message stays the old hand's)."""
        if table.match is not None and table.is_live:
            shown = table.match.hand_number if hand is None else hand
            self._tokens[(table.table_id, seat)] = (interaction, shown, time.monotonic())

    def _edit_through_interaction(
        self, table: Table, seat: int, key: tuple[str, int], signature: tuple[object, ...]
    ) -> bool:
        """Mark the player's turn by editing, through their last interaction's token, the
        hand message they last clicked; ``False`` when there is no fresh token for this hand."""
        token = self._tokens.get(key)
        match = table.match
        if token is None or match is None:
            return False
        interaction, hand_no, since = token
        if hand_no != match.hand_number or time.monotonic() - since > TOKEN_LIFETIME:
            self._tokens.pop(key, None)
            return False
        s = table.seat(seat)
        if not s.dm_closed and (
            s.hand_message_for != match.hand_number
            or (interaction.guild_id is not None and interaction.id < (s.hand_message_id or 0))
        ):
            # With DMs open, a new hand's cards go out as a new DM; a "My hand" view opened
            # before that DM is older than it, so the turn mark goes to the DM.
            return False
        self._dm_sent[key] = signature
        task = asyncio.create_task(self._token_edit(table, seat, key, interaction))
        self._token_tasks.add(task)
        task.add_done_callback(self._token_tasks.discard)
        return True

    async def _token_edit(
        self, table: Table, seat: int, key: tuple[str, int], interaction: discord.Interaction
    ) -> None:
        if table.match is None or table.status != "playing":
            return
        lock = self._token_locks.setdefault(key, asyncio.Lock())
        async with lock:  # one edit at a time per hand, each with the newest state
            if table.match is None or table.status != "playing":
                return
            async with self._settled(table):
                spec = render.hand_message(
                    table, seat, ephemeral=bool(interaction.guild_id is not None)
                )
            try:
                await interaction.edit_original_response(**message_kwargs(spec))
                self.token_edits += 1
            except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as exc:
                log.info("table %s: token edit failed (%s); DM edit instead", table.table_id, exc)
                self._tokens.pop(key, None)
                self._dm_sent.pop(key, None)
                self._refresh_hands(table, None)

    def unanswered(self, table: Table, seat: int) -> None:
        """The response that was to show the player their hand failed: update their DM."""
        self._dm_sent.pop((table.table_id, seat), None)
        self._refresh_hands(table, None)

    # ------------------------------------------------------------------ event lines

    def _log_event(self, table: Table, lang: str, event: TableEvent) -> None:
        name = partial(seat_name, table)
        report = self._reports[table.channel_id]
        # Lines under the table message were recorded by the service with the move (``LogLine``);
        # only the channel report is written here.
        match event:
            case Started(hakem=hakem, first_ace=shown):
                report.append(t(lang, "report.started", players=self._players(table)))
                # The one line that calls the players to the table may notify them.
                self._report_pings[table.channel_id].update(
                    u for _, s in table.humans() if (u := s.user_id)
                )
                if shown:
                    cards = " ".join(f"{name(s)}:{c.label}" for s, c in shown)
                    report.append(t(lang, "report.first_ace", cards=cards, name=name(hakem)))
                else:
                    report.append(t(lang, "report.random_hakem", name=name(hakem)))
            case HandEnded(result=result):
                report.append(self._hand_line(lang, result))
            case MatchOver(winner_team=winner, scores=scores):
                players = self._players(table, team=winner)
                report.append(
                    t(
                        lang,
                        "report.match_won",
                        team=winner + 1,
                        s1=scores[0],
                        s2=scores[1],
                        players=players,
                    )
                )
            case HandDealt(hakem=hakem, hand=hand) if hand > 1:
                report.append(t(lang, "report.next_hakem", name=name(hakem)))
            case Resumed():
                report.append(t(lang, "report.resumed"))
            case DmClosed(seat=seat):
                user_id = table.seat(seat).user_id or 0
                report.append(t(lang, "report.dm_closed", name=f"<@{user_id}>"))
                self._report_pings[table.channel_id].add(user_id)  # they must press "My hand"
            case _:
                pass
        if not report:
            self._reports.pop(table.channel_id, None)

    @staticmethod
    def _players(table: Table, team: int | None = None) -> str:
        """Members as mentions (whether they are notified is the message's choice), computers
        by their shown name."""
        return ", ".join(
            seat_name(table, i) if s.is_computer else f"<@{s.user_id}>"
            for i, s in enumerate(table.seats)
            if s is not None and (team is None or table.team_of(i) == team)
        )

    @staticmethod
    def _hand_line(lang: str, result: HandResult) -> str:
        key = {
            "win": "report.hand_win",
            "kot": "report.hand_kot",
            "hakem_kot": "report.hand_hakem_kot",
        }[result.kind]
        tricks, scores = result.tricks, result.scores_after
        return t(
            lang,
            key,
            n=result.number,
            team=result.winner_team + 1,
            tricks=f"{tricks[0]}–{tricks[1]}",
            points=result.points,
            s1=scores[0],
            s2=scores[1],
        )

    # ------------------------------------------------------------------ jobs

    def _table_job(self, table: Table) -> Job:
        async def job() -> None:
            async with self._settled(table):
                spec = render.table_message(table)
            channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
            try:
                if table.message_id is None:
                    message = await channel.send(**message_kwargs(spec))
                    await self.feedback.message_posted(table.table_id, message.id)
                else:
                    await channel.get_partial_message(table.message_id).edit(**message_kwargs(spec))
            except discord.NotFound:
                log.warning("table %s: table message or channel gone", table.table_id)
                await self.feedback.channel_gone(table.table_id)
            except discord.Forbidden:
                log.warning(
                    "table %s: no permission to post in channel %s",
                    table.table_id,
                    table.channel_id,
                )
                await self.feedback.channel_gone(table.table_id)
            except (TimeoutError, discord.DiscordServerError, aiohttp.ClientError) as exc:
                log.warning("table %s: table message failed (%s); will retry", table.table_id, exc)
                raise Retry from exc

        return job

    def _report_job(self, channel_id: int) -> Job:
        async def job() -> None:
            lines = self._reports.pop(channel_id, [])
            pings = self._report_pings.pop(channel_id, set())
            if not lines:
                return
            channel = self.bot.get_partial_messageable(channel_id)
            try:
                for text in _chunks(lines):
                    await channel.send(**text_kwargs(text, pings))
            except (discord.NotFound, discord.Forbidden):
                log.warning("channel %s: report could not be posted", channel_id)
            except (TimeoutError, discord.DiscordServerError, aiohttp.ClientError) as exc:
                self._reports[channel_id][:0] = lines
                self._report_pings[channel_id].update(pings)
                raise Retry from exc

        return job

    def _refresh_hands(self, table: Table, actor: int | None) -> None:
        if table.match is None:
            return
        for seat, s in table.humans():
            if seat == actor and not s.autoplay:
                self.answered(table, seat)
                continue
            signature = render.hand_signature(table, seat)
            key = (table.table_id, seat)
            if signature is None or self._dm_sent.get(key) == signature:
                continue
            if self._edit_through_interaction(table, seat, key, signature):
                continue
            if s.dm_closed:
                continue
            self._dm_sent[key] = signature
            new_hand = s.hand_message_for != table.match.hand_number
            priority = URGENT if new_hand else MARKER
            channel = s.user_id or 0  # one key per DM channel, known or not yet opened
            self.outbox.submit(
                ("hand", table.table_id, seat),
                priority,
                channel,
                self._hand_job(table, seat),
                cost=1 if s.hand_channel_id else 2,  # the first DM also opens the channel
            )

    def _hand_job(self, table: Table, seat: int) -> Job:
        async def job() -> None:
            s = table.seat(seat)
            match = table.match
            if match is None or s.user_id is None or s.dm_closed:
                return
            async with self._settled(table):
                spec = render.hand_message(table, seat)
                hand_no = match.hand_number
            try:
                if s.hand_message_id and s.hand_channel_id and s.hand_message_for == hand_no:
                    channel = self.bot.get_partial_messageable(s.hand_channel_id)
                    await channel.get_partial_message(s.hand_message_id).edit(
                        **message_kwargs(spec)
                    )
                    return
                # The DM channel id is kept per seat: opening it again would cost a call
                # (discord.py caches only the last 128 DM channels).
                if s.hand_channel_id:
                    dm_id = s.hand_channel_id
                    dm: discord.abc.Messageable = self.bot.get_partial_messageable(dm_id)
                else:
                    opened = await self.bot.create_dm(discord.Object(s.user_id))
                    dm, dm_id = opened, opened.id
                message = await dm.send(**message_kwargs(spec))
                await self.feedback.dm_posted(table.table_id, seat, dm_id, message.id, hand_no)
            except discord.Forbidden as exc:
                if exc.code == DM_CLOSED_CODE:
                    await self.feedback.dm_closed(table.table_id, seat)
                else:
                    log.warning(
                        "table %s: DM to seat %s refused (%s)", table.table_id, seat, exc.code
                    )
            except discord.NotFound:
                await self.feedback.dm_gone(table.table_id, seat)
                self._dm_sent.pop((table.table_id, seat), None)
                raise Retry from None
            except (TimeoutError, discord.DiscordServerError, aiohttp.ClientError) as exc:
                self._dm_sent.pop((table.table_id, seat), None)
                raise Retry from exc

        return job

    # ------------------------------------------------------------------ bookkeeping

    def _settled(self, table: Table) -> AbstractAsyncContextManager[object]:
        """Render only committed state (see ``TableService.settled``)."""
        return self.feedback.settled(table.table_id)


class _NoFeedback:
    """A publisher without a service (a unit test): nothing learned is kept."""

    def settled(self, table_id: str) -> AbstractAsyncContextManager[object]:
        return contextlib.nullcontext()

    async def message_posted(self, table_id: str, message_id: int) -> None:
        return None

    async def dm_posted(
        self, table_id: str, seat: int, channel_id: int, message_id: int, hand: int
    ) -> None:
        return None

    async def dm_gone(self, table_id: str, seat: int) -> None:
        return None

    async def dm_closed(self, table_id: str, seat: int) -> None:
        return None

    async def channel_gone(self, table_id: str) -> None:
        return None


def _chunks(lines: list[str]) -> list[str]:
    """Report lines joined into messages of at most ``MAX_MESSAGE`` characters, cut between
    lines (a cut inside a line could split an escape from the character it escapes)."""
    chunks: list[str] = []
    current = ""
    for line in lines:
        for start in range(0, max(len(line), 1), MAX_MESSAGE):
            piece = line[start : start + MAX_MESSAGE]
            if current and len(current) + 1 + len(piece) > MAX_MESSAGE:
                chunks.append(current)
                current = piece
            else:
                current = f"{current}\n{piece}" if current else piece
    if current:
        chunks.append(current)
    return chunks
