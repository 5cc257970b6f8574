"""A checker for hidden hands: no card of a player's hand shows anywhere but that player's
own DM or ephemeral view before it is played.

``HandWatcher`` records, at every update the service publishes, the match as it then was
(the moment a change is committed, before anything about it is sent). ``leaks`` walks every
message the double stored — each version of it (``history`` and the current one), deleted
ones too, channel messages, DMs and ephemerals — works out who could see that version and
when, and flags every card label ("A♠") or card ``custom_id`` in it that was then still
hidden from that viewer: not in the viewer's own hand and not yet played in the hand being
played.

A Replay (``/hokm history``) shows every hand of a match, and may: once the match is
over. A replay view of the watched table (its ⏮ ◀ ▶ ⏭ buttons name the match) stored before
the match ended is a leak of every card in it; after the end it is set aside. Other matches'
replays are none of this match's business.

Played cards legitimately stay on screen afterwards (the table message's trick lines, a DM
rendered a moment before the next deal), so lines that *report a completed trick* or *the cards turned up
to find the first hakem* are checked against those events and then set aside, and each
version is judged against every state of the last ``slack`` seconds before it (a message is
rendered a moment before Discord stores it).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass, field
from typing import Any

from bot.discord.client import HokmBot
from bot.present.catalog import CATALOG
from bot.service.events import TrickTaken
from bot.service.table import Table
from engine import CARDS, Card
from engine.cards import JOKERS
from tests.double.models import StoredMessage
from tests.double.server import DiscordDouble

AFTER_THE_END = tuple(CATALOG["analysis.costliest"][lang].split("{", 1)[0] for lang in ("en", "fa"))
"""The summary's line of a player's costliest decision, written once the match has ended and
been analysed with every hand known: it may name a card nobody played."""
ALL = frozenset(c.code for c in (*CARDS, *JOKERS))
LABEL = re.compile(r"(?<![0-9])(10|[2-9JQKA])([♠♥♦♣])|([⚫🔴])🃏")
"""A card's label, or a joker's (V5, V6.7: ``⚫🃏`` black, ``🔴🃏`` red)."""
_CODE = r"(?:(?:10|[2-9JQKA])[SHDC]|BJ|RJ)"
CARD_ID = re.compile(rf"hokm:(?:[ct]|sk):[0-9a-f]{{12}}:\d+:({_CODE})")
CHOSEN_ID = re.compile(rf"hokm:s[kl]:[0-9a-f]{{12}}:\d+:(?:{_CODE}:)?((?:{_CODE}\.?)+)")
"""V6 Shelem: the cards a hakem chose to lay down, carried by his own kitty buttons."""
TRICK_LINE = re.compile(r"^[\u200f\u2068]*([0-9۰-۹]+)\u2069? · (.+) [→←] ")
"""A trick line of the table message, English or Persian:
``4 · amir 6♠ · bahar K♠ · cyrus 7♠ · dara 9♥ → cyrus``."""
HAND_ENDED_LINE = re.compile(
    r"(?:Hand|دور) ([0-9۰-۹]+) (?:ended with trick|با دست) ([0-9۰-۹]+)(?: تمام شد)?: (.+) [→←] "
)
"""The trick that ended a hand, shown after it (the channel's report, the table
message and the hand messages), English or Persian, read with its direction controls taken
out: ``Hand 1 ended with trick 10: cyrus 8♥ · amir 7♥ · bahar 8♠ → cyrus``. The next hand
may have dealt those cards to anyone, so the line is checked against the tricks taken (the
hand, the trick's number and its cards) and then set aside."""
BIDI = re.compile("[\u200e\u200f\u2066-\u2069]")
OLD_TRICK_LINE = re.compile(r"Trick (\d+): (.+?) → \*\*")
"""A trick line as tables saved before item 1 kept them in their log."""
FIRST_ACE_LINE = re.compile(
    r"(?:Cards dealt face up to find the hakem|کارت‌ها یکی‌یکی پخش و رو شد تا حاکم معلوم شود): (.+?) — "
)
"""The report of the cards turned up to find the first hakem (R3), English or Persian."""
NOT_HELD_LINE = re.compile(r"You don't hold (\S+) \(any more\)")  # echoes the clicker's own claim
SUITS = "♠♥♦♣"
REPLAY_STEP = re.compile(r"hokm:z:([0-9A-Za-z_-]+):")
"""A replay view's buttons (``custom_ids.replay_step_id``): the match they step through."""


def code_of_label(rank: str, suit: str, joker: str = "") -> str:
    """The code of a ``LABEL`` match's groups."""
    if joker:
        return "BJ" if joker == "⚫" else "RJ"
    return rank + "SHDC"[SUITS.index(suit)]


@dataclass
class Snapshot:
    at: dt.datetime
    seats: dict[int, int]  # user id -> seat
    hands: list[frozenset[str]]
    played: frozenset[str]  # in the hand being played
    own_extra: dict[int, frozenset[str]]  # V6 Shelem: the hakem's kitty and laid-down cards
    tricks: list[tuple[int, int, tuple[str, ...]]]  # (hand, number, cards) completed so far
    first_ace: tuple[str, ...]
    table_id: str = ""
    over: bool = False
    """The match had ended: from here on its Replay may show every hand."""

    def hidden_from(self, user_id: int | None) -> frozenset[str]:
        seat = None if user_id is None else self.seats.get(user_id)
        own = (
            self.hands[seat] | self.own_extra.get(seat, frozenset())
            if seat is not None
            else frozenset()
        )
        return ALL - own - self.played


@dataclass
class HandWatcher:
    """Wraps the bot's publisher to record the match at every committed change."""

    snapshots: list[Snapshot] = field(default_factory=list)

    @classmethod
    def install(cls, bot: HokmBot) -> HandWatcher:
        watcher = cls()
        publisher = bot.publisher
        inner = publisher.publish

        def publish(update: Any) -> None:
            watcher.record(update.table, update.events)
            inner(update)

        publisher.publish = publish  # type: ignore[method-assign]
        return watcher

    def record(self, table: Table, events: list[Any]) -> None:
        match = table.match
        if match is None:
            return
        data = match.to_dict()
        known = self.snapshots[-1].tricks if self.snapshots else []
        merged = known + [
            (e.hand, e.trick.number, tuple(c.code for c in e.trick.cards))
            for e in events
            if isinstance(e, TrickTaken)
        ]
        played = {c for _, cards, _ in data["tricks"] for c in cards} | set(data["trick"])
        self.snapshots.append(
            Snapshot(
                at=dt.datetime.now(dt.UTC),
                seats={s.user_id: i for i, s in enumerate(table.seats) if s and s.user_id},
                hands=[frozenset(h) for h in data["hands"]],
                played=frozenset(played),
                own_extra=_hakem_sees(data),
                tricks=merged,
                first_ace=tuple(c for _, c in data.get("first_hakem_deal", [])),
                table_id=table.table_id,
                over=match.is_over,
            )
        )

    def window(self, at: dt.datetime, slack: float) -> list[Snapshot]:
        """Every state a version stored at ``at`` may show."""
        earlier = [s for s in self.snapshots if s.at <= at]
        if not earlier:
            return []
        since = at - dt.timedelta(seconds=slack)
        recent = [s for s in earlier if s.at >= since]
        before = [s for s in earlier if s.at < since]
        return ([before[-1]] if before else []) + recent


@dataclass(frozen=True)
class Leak:
    message_id: int
    version: int
    viewer: int | None  # None: the whole channel
    cards: tuple[str, ...]
    text: str


def _hakem_sees(data: dict[str, Any]) -> dict[int, frozenset[str]]:
    """V6.6.4: once the bidding is over the kitty is the hakem's to see, and the cards he laid
    down his alone; before it, and at a Hokm table, nobody has more than their hand."""
    hakem = data.get("hakem", -1)
    if "kitty" not in data or hakem < 0 or data["phase"] == "bid":
        return {}
    return {hakem: frozenset(data["kitty"]) | frozenset(data["discards"])}


def _versions(message: StoredMessage) -> list[tuple[dt.datetime, str]]:
    """(when stored, everything shown) for each version, oldest first."""
    states = [*message.history, message.snapshot()]
    return [(state["edited_at"] or message.created_at, _shown(state)) for state in states]


def _shown(state: dict[str, Any]) -> str:
    parts = [str(state.get("content") or "")]
    for embed in state.get("embeds") or []:
        parts += [str(embed.get("title", "")), str(embed.get("description", ""))]
        parts += [f"{f.get('name', '')}\n{f.get('value', '')}" for f in embed.get("fields") or []]
        parts.append(str((embed.get("footer") or {}).get("text", "")))
    probe = StoredMessage(id=0, channel_id=0, guild_id=None, author=None)  # type: ignore[arg-type]
    probe.components = list(state.get("components") or [])
    for button in probe.buttons():
        parts += [str(button.label or ""), str(button.custom_id or "")]
    return "\n".join(parts)


def _cards_in(line: str) -> list[str]:
    codes = [code_of_label(r, s, j) for r, s, j in LABEL.findall(line)]
    chosen = [code for group in CHOSEN_ID.findall(line) for code in group.split(".") if code]
    return codes + CARD_ID.findall(line) + chosen


def _digits(text: str) -> int:
    return int(text.translate(str.maketrans("۰۱۲۳۴۵۶۷۸۹", "0123456789")))


def _explained(line: str, window: list[Snapshot]) -> bool:
    """A line that reports a completed trick (of this hand, or the one that ended a hand) or
    the first-hakem deal, checked against it."""
    latest = window[-1]
    ended = HAND_ENDED_LINE.search(BIDI.sub("", line))
    if ended:
        hand, number = _digits(ended.group(1)), _digits(ended.group(2))
        cards = tuple(_cards_in(ended.group(3)))
        return (hand, number, cards) in latest.tricks
    trick = TRICK_LINE.search(line) or OLD_TRICK_LINE.search(line)
    if trick:
        number = int(trick.group(1).translate(str.maketrans("۰۱۲۳۴۵۶۷۸۹", "0123456789")))
        cards = tuple(_cards_in(trick.group(2)))
        return any(n == number and tuple(c) == cards for _, n, c in latest.tricks)
    first = FIRST_ACE_LINE.search(line)
    if first:
        return tuple(_cards_in(first.group(1))) == latest.first_ace
    return False


def viewer_of(double: DiscordDouble, message: StoredMessage) -> int | None:
    if message.ephemeral_to is not None:
        return message.ephemeral_to
    channel = double.world.channels.get(message.channel_id)
    if channel is not None and channel.is_dm:
        return channel.recipient_id
    return None  # a channel message: everyone


def _ended_here(message: Any, watcher: HandWatcher, at: dt.datetime) -> bool:
    """Whether a watched table this message belongs to (a version named it in a button) had
    ended by ``at``: its summary's analysis arrives later, maybe while the next table of a
    tournament is being played, and is judged by its own match, not by the latest state."""
    ended = {s.table_id for s in watcher.snapshots if s.over and s.at <= at}
    if not ended:
        return False
    named = json.dumps([message.components, message.history], default=str)
    return any(table_id in named for table_id in ended)


def leaks(double: DiscordDouble, watcher: HandWatcher, *, slack: float = 2.0) -> list[Leak]:
    found = []
    for message in double.world.messages.values():
        if message.author is not double.world.bot:
            continue
        viewer = viewer_of(double, message)
        for index, (at, text) in enumerate(_versions(message)):
            window = watcher.window(at, slack)
            if not window:
                continue  # before the first deal: no hand exists yet
            replayed = set(REPLAY_STEP.findall(text))
            if replayed:
                if replayed != {window[-1].table_id}:
                    continue  # another (finished) match's replay
                if window[-1].over:
                    continue  # this match's replay, after it ended: every hand may show
                found.append(Leak(message.id, index, viewer, tuple(_cards_in(text)), text[:300]))
                continue
            hidden = frozenset.intersection(*(s.hidden_from(viewer) for s in window))
            bad: list[str] = []
            for line in text.splitlines():
                if _explained(line, window):
                    continue
                if any(mark in line for mark in AFTER_THE_END) and _ended_here(
                    message, watcher, at
                ):
                    continue  # the ended match's analysis: its Replay shows every hand too
                echoed = set(_cards_in(" ".join(NOT_HELD_LINE.findall(line))))
                bad += [c for c in _cards_in(line) if c in hidden and c not in echoed]
            if bad:
                found.append(Leak(message.id, index, viewer, tuple(bad), text[:300]))
    return found


def label(code: str) -> str:
    return Card.parse(code).label
