"""How a member's (or a computer's) name is allowed to appear in the bot's text.

A display name is chosen by the member, so it is text, never markup: whatever it holds must
not format the line around it, ping anyone, turn the line around or pass for a computer.

Names are stored as Discord gave them (``clip`` only drops what is invisible and caps the
length at the edge) and made safe when shown (``shown_name``), so names already stored in live
tables or the standings are shown safely too.

Computer seats are shown as a code span (`` `🤖 Rostam` ``). A member's name can never produce
one: its backticks are escaped, and a 🤖 in it is dropped besides, so a member named
"🤖 Rostam" is shown as a plain "Rostam". Likewise every other mark the bot draws beside a
name (``MARKERS``: the hakem's 👑, the turn's ▶, the winner's 🏆, …) is dropped from a
member's name wherever it stands, so "bahar 👑" cannot pass for the hakem.

This module uses discord.py's string helpers only (``discord.utils``), no Discord objects, so
the presenter stays testable without a client.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence
from typing import Final, Protocol

from discord.utils import escape_markdown, escape_mentions

NAME_LIMIT: Final = 32
"""Characters of a shown name, ellipsis included (Discord's own nickname limit)."""
ROBOT: Final = "\U0001f916"
"""🤖: the mark of a computer seat; never shown in a member's name."""
CROWN: Final = "\U0001f451"
"""👑: the hakem's seat (the table's seat list, a Replay's hands, the web page)."""
TURN: Final = "\u25b6"
"""▶: whose turn it is (the table and hand messages); a Replay's step forward."""
CHECK: Final = "\u2705"
"""✅: a setting changed."""
MARKERS: Final = frozenset(
    {
        ROBOT,
        CROWN,
        TURN,
        CHECK,
        "\u25c0",  # ◀ ⏮ ⏭ a Replay's other steps
        "\u23ee",
        "\u23ed",
        "\u2192",  # → ← who took a trick
        "\u2190",
        "\U0001f3c6",  # 🏆 a match won, the standings
        "\u2b50",  # ⭐ a rating
        "\U0001f3ac",  # 🎬 a Replay
        "\U0001f4ca",  # 📊 the predicted chances
        "\U0001f4dc",  # 📜 the history
        "\U0001f4ea",  # 📪 DMs closed
        "\u23f1",  # ⏱ a turn timed out
        "\u23f3",  # ⏳ a seat kept for a rematch
        "\u267b",  # ♻ the bot restarted
        "\U0001f5e3",  # 🗣 a Shelem bid won
        "\U0001f504",  # 🔄 a Shelem deal passed out
        "\U0001f310",  # 🌐 the web page
        "\U0001f0cf",  # 🃏 a table, a joker
        "\U0001f4a1",  # 💡 a hint
        "\u2699",  # ⚙ the settings
        "\u2b07",  # ⬇ the web page: a match's file
        "\U0001f464",  # 👤 👥 the web page: a member's page, partners
        "\U0001f465",
        "\U0001f4c8",  # 📈 the web page: a rating's chart
        "\U0001f4cb",  # 📋 the web page: a match's page
        "\U0001f91d",  # 🤝 the web page: the best partner
        "\U0001f9e9",  # 🧩 a puzzle
        "\u274c",  # ❌ a puzzle answered with another card
        "\U0001f50e",  # 🔎 a match's analysis, with every hand known
        "\u26a0",  # ⚠ a card that cost points, with every hand known
    }
)
"""Every mark the bot draws beside or instead of a name, from the one list the presenter and
its catalog take them from (``tests/bot/test_names.py`` checks the catalog's symbols against
it); never shown in a member's name. Suit symbols are not marks: they are cards, and a name
may hold them."""
_LOOKALIKES: Final = frozenset({"\U0001f47e", "\U0001f9be", "\U0001f9bf"})
"""👾 🦾 🦿: not the bot's, but they would suggest a computer plays the seat."""

_KEEP_FORMAT: Final = frozenset("\u200c\u200d")
"""Invisible format characters that shape text and are kept: ZWNJ is part of Persian spelling
(نیم‌فاصله), ZWJ joins emoji sequences. Neither changes direction or closes an isolate."""
_INVISIBLE: Final = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Letters and symbols that draw nothing (Hangul fillers, the blank Braille cell)."""
_MARKS: Final = re.compile(
    "\u200d*[" + "".join(sorted(MARKERS | _LOOKALIKES)) + "][\ufe0e\ufe0f\u200d]*"
)
"""A mark anywhere in a name, with the variation selectors and joiners that hold on to it."""
_ORDERED_LIST: Final = re.compile(r"^(\d+)\.(?=\s)")
_BARE_AT: Final = re.compile("@(?!\u200b)")
_URL_SCHEME: Final = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*):(?=//)")


def clip(name: str, limit: int = NAME_LIMIT) -> str:
    """A name with nothing invisible in it, on one line, at most ``limit`` characters.

    Drops controls (a newline would start a heading), bidi controls (U+202A–U+202E,
    U+2066–U+2069, LRM/RLM, ALM) and zero-width characters (U+200B, U+2060, U+FEFF and every
    other format character but ZWNJ/ZWJ), before the name is escaped or isolated.
    """
    text = _visible(name)
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return text or "?"


class Member(Protocol):
    """A discord.py ``User`` or ``Member`` as far as its name goes (no client needed)."""

    @property
    def name(self) -> str: ...


def member_name(user: Member) -> str:
    """The name a seat keeps: invisible characters dropped and capped here; escaped when shown."""
    return clip(getattr(user, "display_name", None) or user.name)


def _visible(name: str) -> str:
    """The name without what draws nothing, on one line, spaces collapsed (no cap)."""
    kept = []
    for ch in name:
        category = unicodedata.category(ch)
        if category in ("Cc", "Zl", "Zp") or ch.isspace():
            kept.append(" ")
        elif (category == "Cf" and ch not in _KEEP_FORMAT) or ch in _INVISIBLE:
            continue
        else:
            kept.append(ch)
    # joiners at either end join nothing: a name of joiners alone is an invisible name
    return " ".join("".join(kept).split()).strip("\u200c\u200d ")


@functools.lru_cache(maxsize=4096)
def shown_name(name: str, *, computer: bool = False, limit: int = NAME_LIMIT) -> str:
    """The one form in which a name enters the bot's text (reports, embeds, hands, errors).

    Members: clipped, the bot's marks removed (``MARKERS``), Markdown and mentions escaped. Computers: a code
    span, which escaped member names cannot produce. Cached: every live hand message names
    the table's four players again on every card (a profile of 200 tables spent 4.7% of the
    bot's time here); a name is a short string and the cache is bounded.
    """
    if computer:
        return f"`{clip(name.replace('`', ''), limit)}`"
    return _escape(plain_name(name, limit=limit))


def plain_name(name: str, *, computer: bool = False, limit: int = NAME_LIMIT) -> str:
    """A name as plain text, for a page that escapes it in its own markup (the web page,
    ``html.escape``): nothing invisible or direction-changing, one line, clipped;
    a member's without the bot's marks (the page marks computers and the hakem itself). No Markdown escapes:
    there they would show as backslashes."""
    if computer:
        return clip(name, limit)
    return clip(unmarked(_visible(name)), limit)


def unmarked(text: str) -> str:
    """``text`` without any of the bot's marks (``MARKERS``) or robot look-alikes, wherever they
    stand, spaces collapsed: a member's name cannot wear the hakem's crown or a computer's 🤖."""
    return " ".join(_MARKS.sub(" ", text).split()).strip("\u200c\u200d ")


def _escape(text: str) -> str:
    """Markdown, then mentions, then the rest of Discord's ``<…>`` markup and auto-links."""
    text = escape_markdown(text, ignore_links=False)
    text = _ORDERED_LIST.sub(r"\1\\.", text)  # "1. x" at a line's start would be a list
    text = escape_mentions(text)  # @everyone, @here, <@id>, <@&id>, <@!id> (17–20 digits)
    text = _BARE_AT.sub("@\u200b", text)  # any other @ (short ids, @role names)
    text = text.replace("<", "<\u200b")  # <#channel>, <t:…>, </cmd:id>, <:emoji:id>
    return _URL_SCHEME.sub("\\1:\u200b", text)  # https://… stays text, never a link


class _Seat(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def is_computer(self) -> bool: ...


class _Seats(Protocol):
    """A table as far as its seats go (this module sits below every layer: it imports none)."""

    @property
    def seats(self) -> Sequence[_Seat | None]: ...


def seat_name(table: _Seats, index: int) -> str:
    """``shown_name`` for whoever sits at ``index`` (a computer or a member)."""
    seat = table.seats[index]
    if seat is None:
        return "?"
    return shown_name(seat.name, computer=seat.is_computer)
