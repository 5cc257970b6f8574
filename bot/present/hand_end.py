"""How a hand ended, as the moments after it show it.

The engine deals the next hand with the card that ends one, so ``Match.tricks`` no longer
holds the trick that decided it. The service leaves a line for that trick in the table's
log (``HAND_ENDED``: the hand, the trick, and the match's number of actions when it was
taken); from it the channel's report, the table message and every player's hand message say
which cards the trick held and who took it, the hand message and the table message until
the next hand's first move (``open_end``). Played cards only, so any player may see them.

The same line marks where a hand's lines end: the table message shows the log of the hand
being played only (``this_hand``), never the trump an earlier hakem named.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from engine import Card, Trick

from ..names import seat_name
from ..service.history import HAND_ENDED
from ..service.table import LogLine, Table
from .i18n import number, play, t


class HandEnd(NamedTuple):
    """The last trick of ``hand`` and the match's actions counted when it was taken."""

    hand: int
    trick: Trick
    moves: int


def is_end(line: LogLine | str) -> bool:
    return isinstance(line, LogLine) and line.key == HAND_ENDED


def parsed(line: LogLine) -> HandEnd | None:
    """The end a ``HAND_ENDED`` line records; ``None`` for anything else (or unreadable)."""
    if line.key != HAND_ENDED:
        return None
    p = dict(line.params)
    try:
        cards = tuple(Card.parse(code) for code in str(p["cards"]).split())
        trick = Trick(int(p["n"]), int(p["leader"]), cards, int(p["winner"]))
        return HandEnd(int(p["hand"]), trick, int(p["moves"]))
    except (KeyError, ValueError):
        return None


def ends(log: Sequence[LogLine | str]) -> list[HandEnd]:
    """Every hand end the log still holds, oldest first."""
    return [end for line in log for end in [_end(line)] if end is not None]


def end_of(table: Table, hand: int) -> HandEnd | None:
    """The recorded end of ``hand``, while the log still holds it."""
    return next((e for e in reversed(ends(table.log)) if e.hand == hand), None)


def open_end(table: Table) -> HandEnd | None:
    """The hand that just ended, while the match has gone on to the next hand and nobody has
    moved in it yet (no trump named, no bid): the moment the issue asks to show it. Its
    numbers are compared before its cards are read: this is asked on every render."""
    match = table.match
    if match is None or table.status != "playing":
        return None
    line = next((x for x in reversed(table.log) if is_end(x)), None)
    if not isinstance(line, LogLine):
        return None
    params = dict(line.params)
    if params.get("hand") == match.hand_number or params.get("moves") != len(match.actions):
        return None
    return parsed(line)


def _end(line: LogLine | str) -> HandEnd | None:
    return parsed(line) if isinstance(line, LogLine) else None


def this_hand(table: Table) -> list[LogLine | str]:
    """The log lines of the hand being played: those after the end of an earlier hand (a
    finished match's last end is its own hand's, and does not count)."""
    match = table.match
    log = table.log
    current = match.hand_number if match is not None else None
    for i in range(len(log) - 1, -1, -1):
        line = log[i]
        if isinstance(line, LogLine) and is_end(line) and dict(line.params).get("hand") != current:
            return log[i + 1 :]
    return list(log)


def deciding_line(table: Table, lang: str, end: HandEnd) -> str:
    """``Hand 1 ended with trick 10: cyrus 8♥ · amir 7♥ · bahar 8♠ → cyrus``."""
    trick = end.trick
    cards = [play(lang, seat_name(table, s), c.label) for s, c in trick.plays(table.fmt.seats)]
    return t(
        lang,
        HAND_ENDED,
        hand=number(lang, end.hand),
        n=number(lang, trick.number),
        cards=cards,
        name=seat_name(table, trick.winner),
    )
