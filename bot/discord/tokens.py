"""Interaction tokens that keep a player's hand current outside the global rate limit.

An interaction's token may edit its response and send or edit follow-ups for 15 minutes, and
those calls do not count against the bot's 50 requests a second. ``Token`` is a seat's last
interaction and the message it keeps current (``hand_dms``); ``LobbyTokens`` keeps each
member's last lobby click (``/hokm new``, Join, Start, Add computer, Rematch) so that a match's
first hand can go at once where they clicked when its DM would have to wait.

A first DM costs two calls of the global budget (open the DM channel, post); when many tables
start together those calls queue for tens of seconds. Lobby clicks are kept
per (channel, member), not per table: the table of ``/hokm new`` has no id before the command
runs, and the click that fills a table starts its match inside the service call, so the token
is noted before the service runs. A refused click notes one too; it is used only if the member
holds a seat of a table starting in that channel.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import NamedTuple

import discord

TOKEN_LIFETIME = 14 * 60.0
"""Seconds an interaction token is used to keep a hand live: tokens live 15 minutes; keep a
margin. A lobby click is used as long."""
TOKEN_LAST_USE = 15 * 60.0 - 20.0
"""Until then a token past ``TOKEN_LIFETIME`` may still make its surface's last edit."""
SEND = 0
"""``Token.followup`` of a follow-up still to be sent."""


class Token(NamedTuple):
    """A seat's last interaction, and the message of theirs it keeps current."""

    interaction: discord.Interaction
    hand: int
    """The hand its message showed."""
    since: float
    """When the interaction came (monotonic): its token lives 15 minutes from then."""
    surface: int
    """The message it edits (``surface_of``)."""
    followup: int | None = None
    """``None``: it edits its own response; else the follow-up message it sent (``SEND``
    before that follow-up exists: a first hand sent through a lobby click)."""


def surface_of(interaction: discord.Interaction) -> int:
    """The message an interaction's token edits: the clicked DM or ephemeral view, or, for a
    click on the table message ("My hand"), the new ephemeral response (named by the
    interaction's id, as its message id is not known)."""
    message = interaction.message
    if message is not None and (interaction.guild_id is None or message.flags.ephemeral):
        return message.id
    return interaction.id


class LobbyTokens:
    """The last lobby interaction of each member in each channel, while it may be used."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._by_member: dict[tuple[int, int], tuple[discord.Interaction, float]] = {}
        """(channel id, user id) → the interaction and when it came, oldest first."""

    def __len__(self) -> int:
        return len(self._by_member)

    def note(self, channel_id: int | None, user_id: int, interaction: discord.Interaction) -> None:
        """Keep ``interaction`` as the member's newest lobby click in the channel."""
        if channel_id is None:
            return
        now = self.clock()
        self._drop_expired(now)
        key = (channel_id, user_id)
        self._by_member.pop(key, None)  # re-inserted last: the dict stays oldest first
        self._by_member[key] = (interaction, now)

    def usable(self, channel_id: int, user_id: int) -> bool:
        found = self._by_member.get((channel_id, user_id))
        return found is not None and self.clock() - found[1] <= TOKEN_LIFETIME

    def take(self, channel_id: int, user_id: int) -> tuple[discord.Interaction, float] | None:
        """The member's lobby interaction in the channel and when it came, if still usable;
        used once (the hand sent through it is kept live from then on)."""
        found = self._by_member.pop((channel_id, user_id), None)
        if found is None or self.clock() - found[1] > TOKEN_LIFETIME:
            return None
        return found

    def forget(self, channel_id: int, user_ids: Iterable[int]) -> None:
        """A table ended: its members' clicks in its channel are of no further use."""
        for user_id in user_ids:
            self._by_member.pop((channel_id, user_id), None)

    def _drop_expired(self, now: float) -> None:
        for key, (_, at) in list(self._by_member.items()):
            if now - at <= TOKEN_LIFETIME:
                break
            del self._by_member[key]
