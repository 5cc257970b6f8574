"""A simulated member: what they see of their hand, how long they think, which button they pick.

A member learns everything from what the bot showed them, the way a player would: their DM (or
the ephemeral hand "My hand" shows) says whose turn it is, which cards are legal (green) and
which hand is being played. Nothing is read from the bot's state.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bench.bot_text import (
    HAND_OVER,
    SUCCESS,
    button_ids,
    click_of,
    hand_number,
    waiting_for,
)
from tests.double.models import StoredMessage, User
from tests.double.state import World

DM_LOOKBACK = 8
"""How many of a DM channel's newest messages are searched for the hand."""


@dataclass(frozen=True)
class HandView:
    """What a hand message (DM or ephemeral) shows, as far as the simulator cares."""

    hand: int | None
    trump_ids: tuple[str, ...]
    green_ids: tuple[str, ...]
    waiting_for: str | None
    over: bool
    green_codes: frozenset[str] = frozenset()
    """The card codes of ``green_ids`` (what a member remembers having played)."""

    @property
    def actionable(self) -> bool:
        return bool(self.trump_ids or self.green_ids)


def read_hand(msg: StoredMessage) -> HandView:
    """Parse a hand message without building the double's Button objects (cheap)."""
    trump: list[str] = []
    green: list[str] = []
    codes: set[str] = set()
    hand: int | None = None
    for cid, comp in button_ids(msg.components):
        click = click_of(cid)
        if click is None:
            continue
        if click.kind == "trump":
            trump.append(cid)
        elif click.kind == "card":
            if comp.get("style") == SUCCESS and not comp.get("disabled"):
                green.append(cid)
                assert click.card is not None
                codes.add(click.card.code)
        else:
            continue
        if hand is None:
            hand = click.hand
    content = msg.content
    if hand is None:
        hand = hand_number(content)
    waiting = None if trump or green else waiting_for(content)
    return HandView(
        hand, tuple(trump), tuple(green), waiting, HAND_OVER in content, frozenset(codes)
    )


def is_hand_message(msg: StoredMessage) -> bool:
    """A hand message has card or trump buttons (the table message has neither)."""
    for cid, _ in button_ids(msg.components):
        click = click_of(cid)
        if click is not None and click.kind in ("card", "trump"):
            return True
    return False


def still_holds(answer: Mapping[str, Any] | None, custom_id: str) -> bool:
    """Whether the answer to a card click (the callback's data, as the bot sent it) still
    offers that card of that hand: then it was not played. A member the computer was playing
    for gets their seat back with any click, answered with their hand in place even when the
    card could not go then (a refusal follows), so an in-place answer alone does not say the
    card went (``docs/scaling.md``)."""
    rows = (answer or {}).get("components") or ()
    return any(cid == custom_id for cid, _ in button_ids(rows))


def message_text(msg: StoredMessage | None) -> str:
    return "" if msg is None else msg.text


def dm_version(msg: StoredMessage) -> tuple[int, int]:
    """A DM as the member saw it: its id and how often the bot had edited it."""
    return msg.id, len(msg.history)


def think_time(rng: random.Random, low: float, high: float) -> float:
    """How long a member looks at their hand before clicking (``--think-min``..``--think-max``)."""
    return rng.uniform(low, high)


def choose(view: HandView, rng: random.Random) -> str | None:
    """The button a member clicks: any trump suit when naming trump, else any legal card."""
    if view.trump_ids:
        return rng.choice(view.trump_ids)
    if view.green_ids:
        return rng.choice(view.green_ids)
    return None


@dataclass(eq=False)
class Member:
    """A simulated member, and what they remember about their own DM."""

    user: User
    name: str
    consumed: tuple[int, int] | None = None
    """The DM version (message id, edit count) this member already acted on or saw as stale."""
    played_hand: int = 0
    played: set[str] = field(default_factory=set)
    """Card codes this member played in ``played_hand`` (guards against a DM edit in flight)."""
    surface: int | None = None
    """The hand message this member last clicked (their DM or a "My hand" view): where they
    look for their next turn, with any newer DM (a new DM notifies them)."""
    _dm_len: int = -1
    _dm_msg: StoredMessage | None = None
    _view: tuple[tuple[int, int], HandView] | None = None
    """The last parsed DM version, so waiting members do not re-parse an unchanged DM."""

    def forget(self) -> None:
        """A new table: nothing seen or played yet."""
        self.consumed, self.played_hand, self.played = None, 0, set()
        self.surface = None

    def note_played(self, hand: int, code: str) -> None:
        if hand != self.played_hand:
            self.played_hand, self.played = hand, set()
        self.played.add(code)

    def note_clicked(self, custom_id: str) -> bool:
        """Remember a card this member played; False if the click named trump instead."""
        click = click_of(custom_id)
        if click is None or click.kind != "card" or click.card is None:
            return False
        self.note_played(click.hand, click.card.code)
        return True

    def latest_dm(self, world: World) -> StoredMessage | None:
        """The member's newest hand DM; cached until the DM channel gets a new message."""
        channel_id = world.dm_by_user.get(self.user.id)
        if channel_id is None:
            return None
        ids = world.channels[channel_id].message_ids
        if len(ids) != self._dm_len:
            self._dm_len = len(ids)
            self._dm_msg = None
            for mid in reversed(ids[-DM_LOOKBACK:]):
                msg = world.messages[mid]
                if msg.ephemeral_to is None and not msg.deleted and is_hand_message(msg):
                    self._dm_msg = msg
                    break
        return self._dm_msg

    def used(self, msg: StoredMessage) -> None:
        """The member acted on ``msg`` (as it now is): it is where they look next."""
        self.surface = msg.id
        self.consumed = dm_version(msg)

    def fresh_surface(
        self, world: World, hand: int, newest: int | None = None
    ) -> StoredMessage | None:
        """Where the member looks, if it marks their turn: the message they last clicked, or
        a newer one: a DM (it notifies them), or ``newest``, a private hand message in the
        channel where they last clicked."""
        ids = [self.surface or 0, newest or 0]
        dm = self.latest_dm(world)
        if dm is not None:
            ids.append(dm.id)
        top = max(ids)
        msg = world.messages.get(top) if top else None
        return None if msg is None or msg.deleted else self.fresh(msg, hand)

    def fresh_dm(self, world: World, hand: int) -> StoredMessage | None:
        """The DM if the bot updated it since the member last acted and it marks their turn."""
        msg = self.latest_dm(world)
        return None if msg is None else self.fresh(msg, hand)

    def fresh(self, msg: StoredMessage, hand: int) -> StoredMessage | None:
        """``msg`` if the bot changed it since the member last acted and it marks their turn."""
        version = dm_version(msg)
        if version == self.consumed:
            return None
        if self._view is None or self._view[0] != version:
            self._view = (version, read_hand(msg))
        view = self._view[1]
        if view.hand is None or view.hand < hand or not view.actionable:
            return None
        if view.green_ids and view.hand == self.played_hand and view.green_codes & self.played:
            return None
        return msg
