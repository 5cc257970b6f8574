"""A finished hand in a player's hand message: its result (who took
it, the points, the score) and the trick that ended it, in either game.

Shown on the next hand's message until that hand's first move, so the player who played the
last card reads the result in the answer to their click and every other player in their DM;
on the last hand's message when the match is over; and on a hand's own message once it is
closed. Public facts and played cards only: the seat's new cards stay in its own message.
"""

from __future__ import annotations

from ..service.table import Table
from .families import presenter
from .hand_end import HandEnd, deciding_line, end_of, open_end


def ended_lines(table: Table, lang: str, hand: int | None = None) -> list[str]:
    """How ``hand`` ended; with ``hand`` None, the hand that just ended while the next one has
    not had its first move (``hand_end.open_end``), else nothing."""
    end: HandEnd | None
    if hand is None:
        end = open_end(table)
        if end is None:
            return []
        hand = end.hand
    else:
        end = end_of(table, hand)
    result = result_line(table, lang, hand)
    lines = [result] if result else []
    if end is not None:
        lines.append(deciding_line(table, lang, end))
    return lines


def final_lines(table: Table, lang: str) -> list[str]:
    """A finished match's last hand (the last card's answer)."""
    match = table.match
    if match is None or not match.is_over or not match.hand_results:
        return []
    return ended_lines(table, lang, match.hand_results[-1].number)


def result_line(table: Table, lang: str, hand: int) -> str | None:
    """The result line the channel got for ``hand`` (``None`` when it has none)."""
    return presenter(table).result_line(table, lang, hand)
