"""Each player's hand on Discord: the DM it is shown in, and the interaction tokens that can
mark a turn on it without a DM edit.

The publisher tells this part that a table changed; it decides per seat whether the hand the
player sees is stale (by a signature of what the hand message shows), and brings it up to date
either through the player's last interaction (its token edits the message they clicked on,
outside the global rate limit) or with a DM send or edit through the outbox. Kept apart from
the publisher because this bookkeeping lives per seat and per interaction, while the
publisher's own decisions are per update.
"""

from __future__ import annotations

import asyncio
import logging
import time
from contextlib import AbstractAsyncContextManager

import aiohttp
import discord

from ..present import render
from ..service.service import TableFeedback
from ..service.table import Table
from .channels import Channels
from .outbox import MARKER, URGENT, Job, Outbox, Retry
from .ui import message_kwargs

log = logging.getLogger(__name__)

DM_CLOSED_CODE = 50007
TOKEN_LIFETIME = 14 * 60.0
"""Seconds an interaction token is used to edit a hand: tokens live 15 minutes; keep a margin."""


class HandDms:
    """What was last shown to each seat, and each seat's last interaction, per table."""

    def __init__(self, bot: Channels, outbox: Outbox, feedback: TableFeedback) -> None:
        self.bot = bot
        self.outbox = outbox
        self.feedback = feedback
        self._dm_sent: dict[tuple[str, int], tuple[object, ...] | None] = {}
        self._tokens: dict[tuple[str, int], tuple[discord.Interaction, int, float]] = {}
        self._token_locks: dict[tuple[str, int], asyncio.Lock] = {}
        self._token_tasks: set[asyncio.Task[None]] = set()
        self.token_edits = 0

    def resumed(self, table: Table) -> None:
        """After a restart nothing is known to be on screen: every hand is sent again."""
        self._dm_sent = {k: v for k, v in self._dm_sent.items() if k[0] != table.table_id}

    def forget(self, table: Table) -> None:
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

    def unanswered(self, table: Table, seat: int) -> None:
        """The response that was to show the player their hand failed: update their DM."""
        self._dm_sent.pop((table.table_id, seat), None)
        self.refresh(table, None)

    def refresh(self, table: Table, actor: int | None) -> None:
        """Bring every stale hand of the table up to date; ``actor``'s own response has just
        shown them theirs."""
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
                self.refresh(table, None)

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

    def _settled(self, table: Table) -> AbstractAsyncContextManager[object]:
        """Render only committed state (see ``TableService.settled``)."""
        return self.feedback.settled(table.table_id)
