"""Each player's hand on Discord: the DM it is shown in, and the interaction tokens that keep
it current without a DM edit.

The publisher tells this part that a table changed; it decides per seat whether the hand the
player sees is stale, and brings it up to date:

* through the player's last interaction (its token edits the message they last clicked, a DM
  or a "My hand" view, outside the global rate limit) while it is fresh: that surface is kept
  *live*, edited on every card, trick and score (one edit in flight per seat, the newest state
  coalesced behind it), so it may name whose turn it is. The edit that
  makes it the player's turn, and a trick's end, go at once; another player's card in the
  middle of a trick is a courtesy that goes as the bot's budget for them allows, else with the
  seat's next turn or trick's end (``deferred_edits``);
* otherwise with a DM send or edit through the outbox, only when the hand or the player's turn
  changed (the global budget): such a DM is not kept current between turns, so it is rendered
  ``live=False`` and says "see the table" instead of naming a player who may already have
  played.

A surface that stops being live (the player clicked another one, the hand moved on, its token
is about to expire) gets one last ``live=False`` edit through its own token, so no message is
left naming a stale turn.

A match's first hand goes by DM when the outbox can send it at once. When that DM would wait
for the global budget (many tables starting together), it goes instead where the player last
clicked in the lobby: a private follow-up of that click in the table's channel, kept live
through the same token for the rest of the match (``tokens``). Kept apart from the publisher because this bookkeeping lives per
seat and per interaction, while the publisher's own decisions are per update.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Coroutine
from functools import partial
from typing import Any

import aiohttp
import discord

from ..present import render
from ..present.render import Signatures
from ..present.specs import MessageSpec
from ..service.delivery import SeatDm
from ..service.service import TableFeedback
from ..service.table import Table
from . import token_calls
from .channels import Channels
from .deferred_edits import DeferredEdits, urgent
from .dm_job import dm_job, dm_priority
from .outbox import URGENT, Outbox
from .snapshots import Snapshots
from .tokens import SEND, TOKEN_LAST_USE, TOKEN_LIFETIME, LobbyTokens, Token, surface_of
from .ui import message_kwargs

log = logging.getLogger(__name__)

FIRST_HAND_DM_WAIT = 0.25
"""Seconds a match's first DM may wait for the global budget before the hand goes through the
player's lobby click instead: a turn should show within a second."""


class HandDms:
    """What was last shown to each seat, and each seat's last interaction, per table."""

    def __init__(self, bot: Channels, outbox: Outbox, feedback: TableFeedback) -> None:
        self.bot = bot
        self.outbox = outbox
        self.feedback = feedback
        self.snapshots = Snapshots()
        """Its tables are snapshots: a later edit renders the newest (the publisher's)."""
        self._dm_sent: dict[tuple[str, int], tuple[object, ...] | None] = {}
        """What the seat's DM shows (``hand_signature``), as far as the outbox edits it."""
        self._live_sent: dict[tuple[str, int], tuple[object, ...] | None] = {}
        """What the seat's live surface shows (``hand_signature(live=True)``)."""
        self._tokens: dict[tuple[str, int], Token] = {}
        self._token_locks: dict[tuple[str, int], asyncio.Lock] = {}
        self._token_tasks: set[asyncio.Task[None]] = set()
        self._editing: set[tuple[str, int]] = set()
        """Seats whose live surface has an edit in flight; a change meanwhile is ``_dirty``."""
        self._dirty: set[tuple[str, int]] = set()
        self._deferred = DeferredEdits(self._deferred_edit, self._spawn)
        self.lobby = LobbyTokens()
        self._in_channel: set[tuple[str, int]] = set()
        """Seats whose hand went through their lobby click this match: no DM unless that
        token fails."""
        self.token_edits = 0

    def resumed(self, table: Table) -> None:
        """After a restart nothing is known to be on screen: every hand is sent again."""
        self._dm_sent = {k: v for k, v in self._dm_sent.items() if k[0] != table.table_id}
        self._live_sent = {k: v for k, v in self._live_sent.items() if k[0] != table.table_id}

    def forget(self, table: Table) -> None:
        """Forget what was kept per seat of a table that ended (the interactions above all,
        ~150 KB a match). The jobs still queued for its last messages hold their own
        references; ``answered``/``clicked``/``_token_edit`` keep nothing for it afterwards."""
        for seat in range(len(table.seats)):
            key = (table.table_id, seat)
            self._dm_sent.pop(key, None)
            self._live_sent.pop(key, None)
            self._tokens.pop(key, None)
            self._token_locks.pop(key, None)
            self._dirty.discard(key)
            self._deferred.discard(key)
            self._in_channel.discard(key)
        self.lobby.forget(table.channel_id, (s.user_id for _, s in table.humans() if s.user_id))

    def answered(self, table: Table, seat: int, rendered: Signatures | None = None) -> None:
        """The player's own interaction response just showed them their hand in their DM (or
        their only view): ``rendered``, the signatures of what it showed, else the table now."""
        if table.is_live:
            key = (table.table_id, seat)
            shown = rendered or render.hand_signatures(table, seat)
            self._dm_sent[key], self._live_sent[key] = shown

    def clicked(
        self,
        table: Table,
        seat: int,
        interaction: discord.Interaction,
        hand: int | None = None,
        rendered: Signatures | None = None,
    ) -> bool:
        """Keep the player's last interaction: its token keeps the hand they clicked on (a DM
        or an ephemeral "My hand") live for 15 minutes, outside the global rate limit.
        ``hand`` is the hand the clicked message showed (a hand's last card moves the match
        on, but that message stays the old hand's). The surface they used before gets its
        last edit (``live=False``); ``True`` when that surface was their DM of this hand, so
        the DM is up to date without an outbox edit.

        ``rendered``: the signatures of what the interaction's response showed, rendered before
        it was sent. Another move may have been committed (and its edit sent) while that
        response was on its way, and Discord then shows the older response over the newer
        edit: the newest state goes out at once through the new token, instead of being taken
        as shown (a turn mark that never came)."""
        table = self.snapshots.newest(table)  # committed while the response was on its way
        match = table.match
        if match is None or not table.is_live:
            return False
        key = (table.table_id, seat)
        shown = match.hand_number if hand is None else hand
        surface = surface_of(interaction)
        old = self._tokens.get(key)
        self._tokens[key] = Token(interaction, shown, time.monotonic(), surface)
        self._live_sent[key] = (
            rendered[1] if rendered else render.hand_signature(table, seat, live=True)
        )
        message = interaction.message
        if (
            interaction.guild_id is None
            and message is not None
            and interaction.channel_id
            and self._dm(table, seat).hand != match.hand_number
        ):
            # the response showed the next hand in this DM: later outbox edits go to it
            self._spawn(
                self.feedback.dm_posted(
                    table.table_id, seat, interaction.channel_id, message.id, match.hand_number
                )
            )
        up_to_date = False
        if old is not None and old.surface != surface:
            retired = self._retire(table, seat, old)
            up_to_date = (
                retired and old.interaction.guild_id is None and old.hand == match.hand_number
            )
        if rendered is not None:
            self._keep_live(table, seat, key)  # a move committed while the response went
        return up_to_date

    def unanswered(self, table: Table, seat: int) -> None:
        """The DM no longer shows the hand (the response meant to show it failed, or the card
        was played from "My hand"): edit it through the outbox."""
        key = (table.table_id, seat)
        self._dm_sent.pop(key, None)
        s = table.seat(seat)
        closed = self._dm(table, seat).closed
        if table.match is None or closed or not s.user_id or key in self._in_channel:
            return  # no DM to bring up to date
        self._submit_dm(table, seat, key, render.hand_signature(table, seat))

    def refresh(self, table: Table, actor: int | None) -> None:
        """Bring every stale hand of the table up to date; ``actor``'s own response has just
        shown them theirs."""
        match = table.match
        if match is None:
            return
        # the seat to act first: its turn mark goes out before the others' live edits
        shown = self.feedback.delivery(table.table_id).now
        for seat, s in sorted(table.humans(), key=lambda h: h[0] != match.to_act):
            dm = shown.dm(seat)
            if seat == actor and not s.autoplay:
                self.answered(table, seat)  # ``clicked`` follows with the token
                continue
            key = (table.table_id, seat)
            if self._keep_live(table, seat, key) or self._first_hand_in_channel(table, seat, key):
                continue
            signature = render.hand_signature(table, seat)
            if signature is None or self._dm_sent.get(key) == signature or dm.closed:
                continue
            self._submit_dm(table, seat, key, signature)

    def caught_up(self, table: Table) -> None:
        """Another process made the change and edited what it could: here only the live
        surfaces whose tokens this process holds (a "My hand" view, a DM clicked here)."""
        if not table.is_live:
            self.forget(table)
            return
        for seat, _ in table.humans():
            self._keep_live(table, seat, (table.table_id, seat))

    def _submit_dm(
        self, table: Table, seat: int, key: tuple[str, int], signature: tuple[object, ...] | None
    ) -> None:
        match = table.match
        assert match is not None
        s, dm = table.seat(seat), self._dm(table, seat)
        shown = self._dm_sent.get(key)
        self._dm_sent[key] = signature
        unsent = partial(self._dm_sent.pop, key, None)
        priority = dm_priority(dm.hand != match.hand_number, shown, signature)
        channel = s.user_id or 0  # one key per DM channel, known or not yet opened
        self.outbox.submit(
            ("hand", table.table_id, seat),
            priority,
            channel,
            dm_job(self.bot, self.feedback, table, seat, unsent, self.snapshots.newest),
            cost=1 if dm.channel_id else 2,  # the first DM also opens the channel
        )

    def _first_hand_in_channel(self, table: Table, seat: int, key: tuple[str, int]) -> bool:
        """Send the match's first hand through the player's lobby click when its DM would
        wait (``FIRST_HAND_DM_WAIT``); ``False`` when the DM goes (or nothing is to be shown).
        Decided once per seat: a DM already on its way is not sent again here."""
        s, dm = table.seat(seat), self._dm(table, seat)
        match = table.match
        if (
            match is None
            or s.user_id is None
            or dm.closed
            or dm.message_id is not None
            or self._dm_sent.get(key) is not None
            or not self.lobby.usable(table.channel_id, s.user_id)
            or render.hand_signature(table, seat, live=True) is None
            or self.outbox.wait_estimate(URGENT, cost=2) <= FIRST_HAND_DM_WAIT
        ):
            return False
        found = self.lobby.take(table.channel_id, s.user_id)
        if found is None:
            return False
        interaction, since = found
        log.info("table %s: seat %s's first hand goes where they clicked", table.table_id, seat)
        self._in_channel.add(key)
        self._tokens[key] = Token(interaction, match.hand_number, since, interaction.id, SEND)
        return self._keep_live(table, seat, key)

    def _keep_live(self, table: Table, seat: int, key: tuple[str, int]) -> bool:
        """Bring the player's live surface up to date through their last interaction's
        token; ``False`` when there is no fresh token for this hand (the DM path decides)."""
        token = self._tokens.get(key)
        match = table.match
        if token is None or match is None:
            return False
        interaction, hand_no, since = token.interaction, token.hand, token.since
        dm = self._dm(table, seat)
        if time.monotonic() - since > TOKEN_LIFETIME or (
            interaction.guild_id is not None
            and not dm.closed
            and key not in self._in_channel
            and (
                (dm.message_id is None and self._dm_sent.get(key) is None)
                or (dm.hand == match.hand_number and interaction.id < (dm.message_id or 0))
            )
        ):
            # A player with DMs open gets their first DM of the match whatever view they
            # opened (none sent nor on its way: the DM path sends it; one on its way may be on
            # screen before its id is known here, and the id then says which is newer); a "My
            # hand" view opened before the DM of this hand is older than it: the hand goes to
            # the DM from now on. A new hand goes to the surface the player last used.
            self._tokens.pop(key, None)
            self._live_sent.pop(key, None)
            self._retire(table, seat, token)
            return False
        signature = render.hand_signature(table, seat, live=True)
        if signature is None or self._live_sent.get(key) == signature:
            return True
        self._live_sent[key] = signature
        if hand_no != match.hand_number:
            self._tokens[key] = token._replace(hand=match.hand_number)
        if key in self._editing:
            self._dirty.add(key)  # the edit in flight is followed by one with the newest state
        elif urgent(table, seat):
            self._deferred.discard(key)
            self._spawn(self._live_edits(table, seat, key))
        else:
            self._deferred.add(table, key)
        return True

    def _retire(self, table: Table, seat: int, token: Token) -> bool:
        """The last edit of a surface that is no longer kept live: ``live=False``, through its
        own token while that may still be used; ``False`` when it may not."""
        if (
            time.monotonic() - token.since > TOKEN_LAST_USE
            or table.match is None
            or token.followup == SEND  # never shown
        ):
            return False
        key = (table.table_id, seat)
        self._spawn(self._token_edit(table, seat, key, token, live=False, hand=token.hand))
        return True

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(coro)
        self._token_tasks.add(task)
        task.add_done_callback(self._token_tasks.discard)

    async def _live_edits(self, table: Table, seat: int, key: tuple[str, int]) -> None:
        """Edit the live surface until it shows the newest state (coalesced per seat).

        Each edit goes through the seat's token of the moment: a click that lands while an
        edit is in flight replaces the token, and a change that came meanwhile (the next
        player's card, making it this player's turn) must still be shown, through the new
        one (a lost turn mark, seen under load in tests/e2e/test_formats.py)."""
        self._editing.add(key)
        try:
            while True:
                self._dirty.discard(key)
                token = self._tokens.get(key)
                if token is None:
                    return  # no live surface any more: the DM path decides
                await self._token_edit(table, seat, key, token, live=True)
                if key not in self._dirty:
                    return
                if not urgent(self.snapshots.newest(table), seat):
                    self._dirty.discard(key)
                    self._deferred.add(table, key)  # the newest change waits its turn
                    return
        finally:
            self._editing.discard(key)

    async def _deferred_edit(self, table: Table, key: tuple[str, int]) -> None:
        if key in self._editing:
            self._dirty.add(key)  # the edit in flight brings it up to date
        elif key in self._tokens:
            await self._live_edits(table, key[1], key)

    async def _token_edit(
        self,
        table: Table,
        seat: int,
        key: tuple[str, int],
        token: Token,
        *,
        live: bool,
        hand: int | None = None,
    ) -> None:
        """One edit through ``token`` with the newest state; a surface of a ``hand`` that is
        over is closed instead (the next hand is shown in a new message)."""
        interaction = token.interaction
        if table.match is None or table.status != "playing":
            return
        lock = self._token_locks.setdefault(key, asyncio.Lock())
        async with lock:  # one edit at a time per hand, each with the newest state
            table = self.snapshots.newest(table)
            if table.match is None or table.status != "playing":
                return
            ephemeral = interaction.guild_id is not None
            if hand is not None and hand != table.match.hand_number:
                spec = render.closed_hand_message(table, hand, ephemeral=ephemeral)
            else:
                spec = render.hand_message(table, seat, ephemeral=ephemeral, live=live)
            hand_no = table.match.hand_number
            try:
                await self._send_through(table, seat, key, token, spec)
                self.token_edits += 1
                message = interaction.message
                if (
                    live
                    and message is not None
                    and interaction.guild_id is None
                    and interaction.channel_id
                    and self._dm(table, seat).hand != hand_no
                ):
                    # this DM shows the new hand now: later outbox edits go to it
                    await self.feedback.dm_posted(
                        table.table_id, seat, interaction.channel_id, message.id, hand_no
                    )
            except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as exc:
                log.info("table %s: token edit failed (%s); DM edit instead", table.table_id, exc)
                current = self._tokens.get(key)
                if live and current is not None and current.interaction is interaction:
                    self._tokens.pop(key, None)
                    self._live_sent.pop(key, None)
                    self._dm_sent.pop(key, None)
                    self._in_channel.discard(key)
                    self.refresh(table, None)

    async def _send_through(
        self, table: Table, seat: int, key: tuple[str, int], token: Token, spec: MessageSpec
    ) -> None:
        """Show ``spec`` on the message ``token`` keeps current: its own response, its
        follow-up (``token_calls``), or a new private follow-up (``SEND``), which it keeps
        current from then on."""
        interaction = token.interaction
        if token.followup != SEND:
            await token_calls.edit_through(interaction, spec, token.followup)
            return
        sent = await interaction.followup.send(ephemeral=True, wait=True, **message_kwargs(spec))
        current = self._tokens.get(key)
        shown = token._replace(surface=sent.id, followup=sent.id)
        if current is not None and current.interaction is interaction:
            self._tokens[key] = current._replace(surface=sent.id, followup=sent.id)
        else:  # the player opened another view meanwhile: this one is not kept live
            self._retire(table, seat, shown)

    def _dm(self, table: Table, seat: int) -> SeatDm:
        """Where the seat's DM is, as learned so far (``Delivery``)."""
        return self.feedback.delivery(table.table_id).now.dm(seat)
