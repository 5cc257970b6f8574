"""What the bot shows, read the way a player reads it, from the bot's own catalog and ids.

The simulated members recognise messages by their buttons (``bot.custom_ids``: a hand has card
or trump ids, a table message a Join id) and read names and refusals from sentences built with
``bot.i18n.t``, so a change of wording or id layout in the bot changes the bench with it (and
``tests/bench`` fails) instead of leaving the bench waiting for text the bot no longer writes.
The bench's servers keep the default language, English. This is the one module of the bench
that imports the bot's presenter (``custom_ids`` is re-exported for the others).
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Mapping
from typing import Any, Final

from bot.present import custom_ids
from bot.present.custom_ids import BadCustomId, Click
from bot.present.i18n import CATALOG, t

LANG: Final = "en"
"""The bench's servers never change the language setting."""
SUCCESS: Final = 3
"""Discord's green button style: the bot marks the legal cards with it."""
WILDCARD: Final = ".*?"
"""What a placeholder the caller does not capture matches (a link may be empty)."""


def _fields(key: str) -> list[str]:
    """The placeholders of sentence ``key``, in order of first appearance."""
    seen: list[str] = []
    for _, name, _, _ in string.Formatter().parse(CATALOG[key][LANG]):
        if name and name not in seen:
            seen.append(name)
    return seen


def sentence_pattern(key: str, **groups: str) -> str:
    """A regex for ``t(LANG, key, …)``: each placeholder named in ``groups`` becomes a named
    group matching that regex (a repeat of it, a back reference), any other matches any text."""
    marks = {name: f"\ue000{i}\ue001" for i, name in enumerate(_fields(key))}
    pattern = re.escape(t(LANG, key, **marks))
    for name, mark in marks.items():
        parts = pattern.split(re.escape(mark))
        if name in groups:
            first = f"(?P<{name}>{groups[name]})"
            pattern = parts[0] + first + f"(?P={name})".join(parts[1:])
        else:
            pattern = f"(?:{WILDCARD})".join(parts)
    return pattern


def sentence_re(
    key: str, *, flags: int = 0, prefix: str = "", suffix: str = "", **groups: str
) -> re.Pattern[str]:
    return re.compile(prefix + sentence_pattern(key, **groups) + suffix, flags)


class Said:
    """Does a reply contain sentence ``key`` (whatever its parameters)?"""

    def __init__(self, key: str) -> None:
        self.key = key
        self._re = re.compile(sentence_pattern(key))

    def __call__(self, text: str) -> bool:
        return self._re.search(text) is not None


# What a hand message says (DM or ephemeral).
WAITING_RE: Final = sentence_re("hand.waiting_for", flags=re.MULTILINE, suffix="$", name=".+?")
CHOOSING_RE: Final = sentence_re(
    "hand.waiting_trump", flags=re.MULTILINE, prefix="^", suffix="$", name=".+?"
)
HAND_RE: Final = sentence_re("hand.header", n=r"\d+")
HAND_OVER: Final = t(LANG, "hand.over")
# Who acts next, on the table message.
TURN_RES: Final = tuple(
    sentence_re(key, name=".+?")
    for key in ("table.turn_trump", "table.turn", "table.turn_computer")
)
# Answers to a member's command or click.
OPENED: Final = Said("ok.table_opened")
CHANNEL_BUSY: Final = Said("error.channel_busy")
INTERNAL_ERROR: Final = Said("error.internal")
STALE: Final = Said("error.stale")
ALREADY_SEATED: Final = Said("error.already_seated")
ALREADY_STARTED: Final = Said("error.already_started")
NO_TABLE: Final = Said("error.no_table")


def waiting_for(content: str) -> str | None:
    """The name a hand message says the member waits for (to play, or to name trump)."""
    found = WAITING_RE.search(content) or CHOOSING_RE.search(content)
    return found.group("name") if found else None


def hand_number(content: str) -> int | None:
    found = HAND_RE.search(content)
    return int(found.group("n")) if found else None


def turn_name(content: str) -> str | None:
    """Who the table message says is to act (a member, or a computer thinking)."""
    for pattern in TURN_RES:
        found = pattern.search(content)
        if found:
            return found.group("name")
    return None


# --------------------------------------------------------------------------- custom ids


def click_of(custom_id: object) -> Click | None:
    """What a button claims, as the bot's own parser reads it (None: not a button of the bot)."""
    if not isinstance(custom_id, str) or not custom_id.startswith(custom_ids.PREFIX):
        return None
    try:
        return custom_ids.parse(custom_id)
    except BadCustomId:
        return None


def lobby_action(custom_id: object) -> str | None:
    click = click_of(custom_id)
    return click.action if click is not None and click.kind == "lobby" else None


def button_ids(components: Iterable[Mapping[str, Any]]) -> list[tuple[str, Mapping[str, Any]]]:
    """(custom_id, component) of every button of a message's rows."""
    return [
        (comp.get("custom_id") or "", comp)
        for row in components
        for comp in row.get("components", ()) or ()
    ]


def join_table_id(components: Iterable[Mapping[str, Any]]) -> str | None:
    """The table id of a table message in its lobby (it has a Join button), else None."""
    for cid, _ in button_ids(components):
        click = click_of(cid)
        if click is not None and click.kind == "lobby" and click.action == "join":
            return click.table_id
    return None


CLICK_KINDS: Final = frozenset({"card", "trump", "my_hand", "join", "add_computer"})
"""The clicks the load bench makes; any other button is reported as ``other``."""


def click_kind(custom_id: str) -> str:
    """card, trump, join, add_computer, my_hand; ``command`` for a slash command."""
    if not custom_id:
        return "command"
    click = click_of(custom_id)
    if click is None:
        return "other"
    kind = click.action if click.kind == "lobby" else click.kind
    return kind if kind in CLICK_KINDS else "other"
