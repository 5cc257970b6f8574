"""Shows the service's updates on Discord through the outbox.

Per update it decides which messages are now out of date (the table message, a report line,
a player's DM) and submits one coalescing job per message; each job renders the newest state
when it actually runs: the newest committed snapshot of the table (``Update.shown``, kept in
``snapshots``), never the live table, so nothing here takes the table's lock or shows a move
not yet stored. DMs are sent only when a player's hand or turn changed, never because
someone else played a card, which keeps the calls per card low.

The table message is this module's own; the channel report's lines live in ``reports`` and
the per-seat DM and interaction-token bookkeeping in ``hand_dms``.
"""

from __future__ import annotations

import logging

import aiohttp
import discord

from engine import Card

from ..present import render
from ..service.delivery import NOWHERE, Delivery, Shown
from ..service.events import CaughtUp, MatchOver, Opened, Resumed
from ..service.games import SUMMARY_EVENTS
from ..service.service import TableFeedback, Update
from ..service.summary_edits import SummaryEdits
from ..service.table import Table
from . import token_calls
from .channels import Channels
from .dm_job import dm_job
from .hand_dms import HandDms
from .outbox import MARKER, OPENING, REPORT, TABLE, Job, Outbox, Retry
from .replies import reply_error
from .reports import ChannelReports
from .summaries import Summaries
from .ui import message_kwargs

log = logging.getLogger(__name__)

TABLE_EDIT_EVERY = 1.0
"""Seconds between edits of one table message: Discord allows ~5 per 5 s per channel, and
reports, notices and other tables' messages share that channel budget."""


class DiscordPublisher:
    """The ``Publisher`` the service talks to when the bot runs on Discord."""

    def __init__(
        self,
        bot: Channels,
        outbox: Outbox,
        feedback: TableFeedback | None = None,
        edits: SummaryEdits | None = None,
    ) -> None:
        self.bot = bot
        self.outbox = outbox
        self.feedback: TableFeedback = feedback or _NoFeedback()
        """The service's port for what sending learns; the publisher changes no ``Table``."""
        self.reports = ChannelReports(bot)
        self.hands = HandDms(bot, outbox, self.feedback)
        self.snapshots = self.hands.snapshots
        """Each live table's newest committed snapshot: what every job renders when it goes."""
        self.summaries = Summaries(bot, outbox, edits)
        """Each match's summary, and its analysis's edit."""

    @property
    def token_edits(self) -> int:
        """Turn marks made through an interaction's token rather than a DM edit."""
        return self.hands.token_edits

    # ------------------------------------------------------------------ entry point

    def publish(self, update: Update) -> None:
        table = self.snapshots.note(update.shown)
        if update.has(CaughtUp):  # another process published the change: our tokens only
            self.hands.caught_up(table)
            return
        lang = table.settings.language
        over = update.has(MatchOver)
        for event in update.events:
            if over and isinstance(event, SUMMARY_EVENTS):
                continue  # the summary has them
            self.reports.record(table, lang, event)
        if update.has(Opened):
            self.outbox.submit(
                ("table", table.table_id), OPENING, table.channel_id, self._table_job(table)
            )
        else:
            # An ended table's last edit goes like an opening, so before the next table's first
            # message in its channel (older first): as a mere TABLE edit, every new table in a
            # busy channel pushed it back, and such jobs piled up for as long as the churn
            # lasted, each keeping its whole table.
            self.outbox.submit(
                ("table", table.table_id),
                TABLE if table.is_live else OPENING,
                table.channel_id,
                self._table_job(table),
                every=TABLE_EDIT_EVERY,
            )
        if self.reports.pending(table.channel_id):
            self.outbox.submit(
                ("report", table.channel_id),
                REPORT,
                table.channel_id,
                self.reports.job(table.channel_id),
            )
        if over:
            self.summaries.post(table)
            self._last_hand_dms(table, update.actor_seat)
        if update.has(Resumed):
            self.hands.resumed(table)
        self.hands.refresh(table, update.actor_seat)
        if not table.is_live:
            self.hands.forget(table)

    def _last_hand_dms(self, table: Table, actor: int | None) -> None:
        """The match's last hand, over: its result and the trick that ended it in every other
        member's DM of that hand (the last card's answer says it already).
        One edit per member a match, through the outbox: the table is no longer kept live."""
        match = table.match
        assert match is not None
        shown = self.feedback.delivery(table.table_id).now
        for seat, s in table.humans():
            dm = shown.dm(seat)
            if seat == actor or dm.closed or not dm.message_id:
                continue
            if dm.hand != match.hand_number:
                continue  # their DM shows an earlier hand, closed as it was
            job = dm_job(self.bot, self.feedback, table, seat, lambda: None, self.snapshots.newest)
            self.outbox.submit(("hand", table.table_id, seat), MARKER, s.user_id or 0, job)

    async def answer_move(
        self, interaction: discord.Interaction, update: Update, hand: int | None
    ) -> None:
        """A move's one answer: the mover's hand shown through their click, then kept live.

        ``hand`` is the hand the clicked button named (``None``: the button named a Shelem
        deal, V6, and the answer shows the match's current hand). The hand replaces the
        clicked message only in a DM or an ephemeral view; a move id forged onto a public
        message gets the hand privately, never in the channel. The order of the bookkeeping
        matters: what this answer showed is noted before the click is kept, so the DM is not
        edited again for the same state.
        """
        table, seat = self.snapshots.newest(update.shown), update.actor_seat
        assert seat is not None
        if table.match is None:
            return
        shown = table.match.hand_number if hand is None else hand
        ephemeral = bool(interaction.message and interaction.message.flags.ephemeral)
        in_place = ephemeral or interaction.guild_id is None
        spec = render.hand_message(table, seat, ephemeral=ephemeral or not in_place)
        rendered = render.hand_signatures(table, seat)  # what this answer shows
        try:
            if in_place:  # the one request Discord asks of a card, without discord.py's objects
                await token_calls.answer_update(interaction, spec)
            else:
                await interaction.response.send_message(ephemeral=True, **message_kwargs(spec))
        except discord.HTTPException as exc:
            # The move is committed; only its answer was lost (too late, Discord down). Saying
            # "nothing was changed" would be wrong: show the new hand in the DM instead.
            log.warning("table %s: answer to a move lost (%s); DM refreshed", table.table_id, exc)
            self.hands.unanswered(self.snapshots.newest(table), seat)
            return
        if interaction.guild_id is None or self.feedback.delivery(table.table_id).now.closed(seat):
            self.hands.answered(table, seat, rendered)  # the DM (or the only view) shows it
            self.hands.clicked(table, seat, interaction, shown, rendered)  # kept live
        elif not self.hands.clicked(table, seat, interaction, shown, rendered):
            # Played from "My hand": the DM still shows the card. When the DM was the live
            # surface, its own token just gave it its last edit; else the outbox edits it.
            self.hands.unanswered(table, seat)
        if update.refusal is not None:  # back from autoplay, but that card could not go now
            lang = table.settings.language
            await reply_error(interaction, lang, update.refusal.code, update.refusal.params)

    async def answer_hand(self, interaction: discord.Interaction, table: Table, seat: int) -> None:
        """``/hokm hand`` or **My hand**: the member's hand, privately, then kept live through
        this interaction (and noted as their only view while their DMs are closed). ``table``:
        a committed snapshot (``TableService.hand_view``)."""
        table = self.snapshots.newest(table)
        spec = render.hand_message(table, seat, ephemeral=True)
        rendered = render.hand_signatures(table, seat)  # what this answer shows
        await interaction.response.send_message(ephemeral=True, **message_kwargs(spec))
        if self.feedback.delivery(table.table_id).now.closed(seat):
            self.hands.answered(table, seat, rendered)
        self.hands.clicked(table, seat, interaction, rendered=rendered)

    async def answer_choice(
        self, interaction: discord.Interaction, table: Table, seat: int, chosen: tuple[Card, ...]
    ) -> None:
        """V6.6.1: the hakem's hand with his cards chosen so far, through his click: in place
        in a DM or an ephemeral view; from a public message (a forged id) privately, never in
        the channel. Nothing is kept live: the table has not changed. ``table``: a committed
        snapshot (``ShelemTables.choose``)."""
        ephemeral = bool(interaction.message and interaction.message.flags.ephemeral)
        in_place = ephemeral or interaction.guild_id is None
        spec = render.hand_message(table, seat, ephemeral=ephemeral or not in_place, chosen=chosen)
        if in_place:
            await interaction.response.edit_message(**message_kwargs(spec))
        else:
            await interaction.response.send_message(ephemeral=True, **message_kwargs(spec))

    def lobby_click(
        self, channel_id: int | None, user_id: int, interaction: discord.Interaction
    ) -> None:
        """A member's lobby click: a match's first hand may go through it (``HandDms``)."""
        self.hands.lobby.note(channel_id, user_id, interaction)

    # ------------------------------------------------------------------ the table message

    def _table_job(self, table: Table) -> Job:
        shown = self.feedback.delivery(table.table_id)  # held: it outlives the table's end

        async def job() -> None:
            spec = render.table_message(self.snapshots.newest(table), shown.now.closed_seats())
            channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
            try:
                message_id = shown.now.message_id
                if message_id is None:  # posted by another process meanwhile?
                    message_id = (await self.feedback.fresh_delivery(table.table_id)).message_id
                if message_id is None:
                    message = await channel.send(**message_kwargs(spec))
                    await self.feedback.message_posted(table.table_id, message.id)
                else:
                    await channel.get_partial_message(message_id).edit(**message_kwargs(spec))
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


class _NoFeedback:
    """A publisher without a service (a unit test): nothing learned is kept."""

    def delivery(self, table_id: str) -> Shown:
        return Shown()

    async def fresh_delivery(self, table_id: str) -> Delivery:
        return NOWHERE

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
