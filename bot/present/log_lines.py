"""The public lines under the table message, in the table's language: the service records them
as catalog keys with the move behind them (``LogLine``); they are said here when shown."""

from __future__ import annotations

from collections.abc import Sequence

from ..names import seat_name
from ..service.table import LogLine, Table
from . import hand_end
from .budget import DESCRIPTION
from .i18n import suit_label, t
from .tricks import trick_lines

OLD_TRICK_KEY = "report.trick"
"""The log key trick lines were saved under before they were rendered from the match."""


def log_lines(lang: str, log: Sequence[LogLine | str]) -> list[str]:
    """The table's public lines in ``lang`` (an old save's already localized line as is).

    A "report.trick" line of a table saved before item 1 is skipped: tricks are rendered from
    the match now, and an old line would name a trick of an earlier hand. A hand's end
    (``hand_end``) is said where it is shown, not here."""
    return [
        line if isinstance(line, str) else log_text(lang, line)
        for line in log
        if isinstance(line, str) or (line.key != OLD_TRICK_KEY and not hand_end.is_end(line))
    ]


def log_text(lang: str, line: LogLine) -> str:
    params = {k: suit_label(lang, int(v)) if k == "suit" else v for k, v in line.params}
    return t(lang, line.key, **params)


def closing_lines(
    table: Table,
    lang: str,
    lines: list[str],
    last_result: str | None,
    closed: frozenset[int] = frozenset(),
) -> list[str]:
    """The end of a playing table's message, after ``lines`` (its game's own): who must use
    **My hand**, then (item 1) the previous hand in one line (``last_result``), the trick
    that ended it until the next hand's first move and this hand's tricks, who
    played what, in the room the embed has left, then this hand's public log (an
    earlier hakem's trump is no news)."""
    for i, s in enumerate(table.seats):
        if s is not None and i in closed and table.status == "playing":
            lines.append(t(lang, "table.dm_closed", name=seat_name(table, i)))
    log = log_lines(lang, hand_end.this_hand(table))
    story = [last_result] if last_result else []
    ended = hand_end.open_end(table)
    story += [hand_end.deciding_line(table, lang, ended)] if ended else []
    used = len("\n".join([*lines, "", *story, "", *log]))
    story.extend(trick_lines(table, lang, DESCRIPTION - used - 1))
    for block in (story, log):
        if block:
            lines += ["", *block]
    return lines
