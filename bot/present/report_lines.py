"""What the channel report says of a table's events: one line per event worth telling the
channel, in the table's language, and whom those lines are meant to notify.

The Discord edge (``bot.discord.reports``) keeps the lines until a report message is due and
posts them; every word of them is made here, beside the table message's and the DMs'.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

from ..names import seat_name
from ..service.events import DmClosed, HandDealt, HandEnded, Redealt, Resumed, Started, TableEvent
from ..service.shelem_events import AllPassed, BidWon, ShelemHandEnded
from ..service.table import Table
from . import hand_end, shelem
from .i18n import play, t
from .tricks import hand_result_line


@dataclass(frozen=True)
class ReportLines:
    """An event's report lines, and the members they are meant to notify (user ids)."""

    lines: list[str] = field(default_factory=list)
    notify: frozenset[int] = frozenset()


def report_lines(table: Table, lang: str, event: TableEvent) -> ReportLines:
    """The report line(s) an event adds, if it is one the channel is told about.

    Lines under the table message were recorded by the service with the move (``LogLine``);
    a match's end (its last hand and the result) is the summary's (``present.summary``).
    """
    name = partial(seat_name, table)
    match event:
        case Started(hakem=hakem, first_ace=shown):
            lines = [t(lang, "report.started", players=_players(table))]
            if hakem < 0:  # V5 joker six: the hakem is bid for
                pass
            elif shown:
                cards = [play(lang, name(s), c.label) for s, c in shown]
                lines.append(t(lang, "report.first_ace", cards=cards, name=name(hakem)))
            else:
                lines.append(t(lang, "report.random_hakem", name=name(hakem)))
            # The one line that calls the players to the table may notify them.
            players = frozenset(u for _, s in table.humans() if (u := s.user_id))
            return ReportLines(lines, players)
        case Redealt(seat=seat):  # R6
            return ReportLines([t(lang, "report.redealt", name=name(seat))])
        case HandEnded(result=result):
            lines = [hand_result_line(table, lang, result)]
            return ReportLines(lines + _deciding(table, lang, result.number))
        case BidWon(hakem=hakem, bid=bid):  # V6: the auction is over
            said = shelem.bid_label(lang, bid)
            return ReportLines([t(lang, "shelem.report.bid_won", name=name(hakem), bid=said)])
        case AllPassed():  # V6.4
            return ReportLines([t(lang, "shelem.report.all_passed")])
        case ShelemHandEnded(result=result):
            lines = [shelem.hand_result_line(table, lang, result)]
            return ReportLines(lines + _deciding(table, lang, result.number))
        case HandDealt(hakem=hakem, hand=hand) if hand > 1 and hakem >= 0:
            return ReportLines([t(lang, "report.next_hakem", name=name(hakem))])
        case Resumed():
            return ReportLines([t(lang, "report.resumed")])
        case DmClosed(seat=seat):
            user_id = table.seat(seat).user_id or 0
            line = t(lang, "report.dm_closed", name=f"<@{user_id}>")
            return ReportLines([line], frozenset({user_id}))  # they must press "My hand"
        case _:
            return ReportLines()


def _players(table: Table) -> list[str]:
    """Members as mentions (whether they are notified is the message's choice), computers by
    their shown name: a list, joined as the sentence's language joins one (a Persian line
    reads it from the right, no Latin comma)."""
    return [
        seat_name(table, i) if s.is_computer else f"<@{s.user_id}>"
        for i, s in enumerate(table.seats)
        if s is not None
    ]


def _deciding(table: Table, lang: str, hand: int) -> list[str]:
    """The trick that ended ``hand``: its cards, who played them and who took it, from the
    line the service recorded with it."""
    end = hand_end.end_of(table, hand)
    return [hand_end.deciding_line(table, lang, end)] if end is not None else []
