"""The Hokm family in words and on buttons: a format's name, the lobby's hint for a
table of any size, and a hand of up to 17 cards packed into Discord's five rows of five.

The engine's formats are data (``engine.rules.FORMATS``); a format the catalog has no name for
is described by its shape ("3 players, each alone"), so a format the engine gains shows up
here, on ``/hokm new`` and in the settings without a sentence written for it first.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import TypeVar

from engine import GameFormat
from engine.rules import FORMATS

from ..service.table import Table
from .i18n import CATALOG, LIST_SEPARATOR, number, rtl, t

PER_ROW = 5
MAX_ROWS = 5

T = TypeVar("T")


def format_is_named(name: str) -> bool:
    """Whether a format is named where it is shown: every one but the standard game (R1),
    which a table, a standings page, a link or a replay leaves unsaid (an unknown name is
    shown as it is)."""
    fmt = FORMATS.get(name)
    return fmt is None or not fmt.is_default


def is_solo(fmt: GameFormat) -> bool:
    """Everyone plays alone: each "team" is one seat."""
    return all(len(team) == 1 for team in fmt.teams)


def format_label(lang: str, name: str) -> str:
    """``Standard: 4 players, 2 teams of 2``, ``3 players, each alone``; an unknown name as is."""
    fmt = FORMATS.get(name)
    if f"format.{name}" in CATALOG:
        return t(lang, f"format.{name}")
    if fmt is None:
        return name
    seats = number(lang, fmt.seats)
    if is_solo(fmt):
        return t(lang, "format.solo", seats=seats)
    size = number(lang, len(fmt.teams[0]))
    return t(lang, "format.teams", seats=seats, teams=number(lang, len(fmt.teams)), size=size)


def format_choice_label(lang: str, name: str) -> str:
    """A format's name as a command's choice: short where the full name is long, since
    Discord counts every character of a command's registration against 4,000."""
    key = f"format.choice.{name}"
    return t(lang, key) if key in CATALOG else format_label(lang, name)


def lobby_hint(lang: str, fmt: GameFormat) -> str:
    """When the match starts and who plays with whom, for a table of ``fmt``."""
    if fmt.seats == 4 and fmt.teams == ((0, 2), (1, 3)):
        return t(lang, "table.lobby_hint")
    last = number(lang, fmt.seats)
    if is_solo(fmt):
        return t(lang, "table.lobby_hint_solo", n=last)
    comma = "، " if lang == "fa" else ", "  # a Persian list, read from the right
    teams = [rtl(lang, comma.join(number(lang, seat + 1) for seat in team)) for team in fmt.teams]
    return t(lang, "table.lobby_hint_teams", n=last, teams=teams)


def settings_footer(table: Table, lang: str) -> str:
    """A Hokm table's footer: the target it really plays to (a format's own, as the joker
    six's 124, before the table's or the server's), "1 point" in the singular, and
    the turn; a format other than the standard game named first."""
    target = table.fmt.target_score or table.settings.target_score
    key = "table.settings_one" if target == 1 else "table.settings"
    footer = t(lang, key, target=target, turn=table.settings.turn_seconds)
    if format_is_named(table.fmt.name):  # any other format says which it is
        footer = format_label(lang, table.fmt.name) + LIST_SEPARATOR + footer
    return footer


def pack_rows(groups: Sequence[Sequence[T]], rows: int = MAX_ROWS) -> list[list[T]]:
    """Cards grouped by suit into at most ``rows`` rows of ``PER_ROW``: a suit a row (a long
    suit over two) when that fits; else the smallest neighbouring rows share one, suits still
    in order; else the cards run on in order, five a row.

    :raises ValueError: more cards than ``rows`` rows hold.
    """
    pieces = [
        list(group[i : i + PER_ROW]) for group in groups for i in range(0, len(group), PER_ROW)
    ]
    while len(pieces) > rows:
        pairs = [
            (len(a) + len(b), i)
            for i, (a, b) in enumerate(pairwise(pieces))
            if len(a) + len(b) <= PER_ROW
        ]
        if not pairs:
            break
        _, i = min(pairs)
        pieces[i : i + 2] = [pieces[i] + pieces[i + 1]]
    if len(pieces) <= rows:
        return pieces
    flat = [item for group in groups for item in group]
    flowed = [flat[i : i + PER_ROW] for i in range(0, len(flat), PER_ROW)]
    if len(flowed) > rows:
        raise ValueError(f"{len(flat)} buttons do not fit {rows} rows of {PER_ROW}")
    return flowed
