"""The channel report: the lines a table's events add below its channel, posted in batches.

The publisher decides when a report message is due; this module holds what that message says
(one line per event worth telling the channel, in the table's language), whom it may notify,
and how the lines are cut into messages. Kept apart from the publisher because it is the one
part that turns events into words; the table message and the DMs are rendered by
``bot.present.render``.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from functools import partial

import aiohttp
import discord

from ..names import seat_name
from ..present import hand_end, shelem
from ..present.i18n import play, t
from ..present.tricks import hand_result_line
from ..service.events import (
    DmClosed,
    HandDealt,
    HandEnded,
    Redealt,
    Resumed,
    Started,
    TableEvent,
)
from ..service.shelem_events import AllPassed, BidWon, ShelemHandEnded
from ..service.table import Table
from .channels import Channels
from .outbox import Job, Retry
from .ui import text_kwargs

log = logging.getLogger(__name__)

MAX_MESSAGE = 1900


class ChannelReports:
    """Per channel, the report lines not yet posted and the members they are meant to notify."""

    def __init__(self, bot: Channels) -> None:
        self.bot = bot
        self._reports: defaultdict[int, list[str]] = defaultdict(list)
        self._report_pings: defaultdict[int, set[int]] = defaultdict(set)
        """Per channel, the members the pending report lines are meant to notify."""

    def pending(self, channel_id: int) -> bool:
        """Whether the channel has lines waiting for a report message."""
        return bool(self._reports.get(channel_id))

    def waiting(self, channel_id: int) -> list[str]:
        """The lines the channel's next report will say (``docs/make_samples.py`` shows them)."""
        return list(self._reports.get(channel_id, ()))

    def record(self, table: Table, lang: str, event: TableEvent) -> None:
        """The report line(s) an event adds, if it is one the channel is told about."""
        name = partial(seat_name, table)
        report = self._reports[table.channel_id]
        # Lines under the table message were recorded by the service with the move (``LogLine``);
        # only the channel report is written here. A match's end (its last hand and the result)
        # is the summary's (``present.summary``), posted by the publisher as one message.
        match event:
            case Started(hakem=hakem, first_ace=shown):
                report.append(t(lang, "report.started", players=self._players(table)))
                # The one line that calls the players to the table may notify them.
                self._report_pings[table.channel_id].update(
                    u for _, s in table.humans() if (u := s.user_id)
                )
                if hakem < 0:  # V5 joker six: the hakem is bid for
                    pass
                elif shown:
                    cards = [play(lang, name(s), c.label) for s, c in shown]
                    report.append(t(lang, "report.first_ace", cards=cards, name=name(hakem)))
                else:
                    report.append(t(lang, "report.random_hakem", name=name(hakem)))
            case Redealt(seat=seat):  # R6
                report.append(t(lang, "report.redealt", name=name(seat)))
            case HandEnded(result=result):
                report.append(hand_result_line(table, lang, result))
                report.extend(_deciding(table, lang, result.number))
            case BidWon(hakem=hakem, bid=bid):  # V6: the auction is over
                said = shelem.bid_label(lang, bid)
                report.append(t(lang, "shelem.report.bid_won", name=name(hakem), bid=said))
            case AllPassed():  # V6.4
                report.append(t(lang, "shelem.report.all_passed"))
            case ShelemHandEnded(result=result):
                report.append(shelem.hand_result_line(table, lang, result))
                report.extend(_deciding(table, lang, result.number))
            case HandDealt(hakem=hakem, hand=hand) if hand > 1 and hakem >= 0:
                report.append(t(lang, "report.next_hakem", name=name(hakem)))
            case Resumed():
                report.append(t(lang, "report.resumed"))
            case DmClosed(seat=seat):
                user_id = table.seat(seat).user_id or 0
                report.append(t(lang, "report.dm_closed", name=f"<@{user_id}>"))
                self._report_pings[table.channel_id].add(user_id)  # they must press "My hand"
            case _:
                pass
        if not report:
            self._reports.pop(table.channel_id, None)

    @staticmethod
    def _players(table: Table) -> list[str]:
        """Members as mentions (whether they are notified is the message's choice), computers
        by their shown name: a list, joined as the sentence's language joins one
        (a Persian line reads it from the right, no Latin comma)."""
        return [
            seat_name(table, i) if s.is_computer else f"<@{s.user_id}>"
            for i, s in enumerate(table.seats)
            if s is not None
        ]

    def job(self, channel_id: int) -> Job:
        """Post every line pending when the job runs; on a passing failure, keep them for
        the retry."""

        async def job() -> None:
            lines = self._reports.pop(channel_id, [])
            pings = self._report_pings.pop(channel_id, set())
            if not lines:
                return
            channel = self.bot.get_partial_messageable(channel_id)
            try:
                for text in _chunks(lines):
                    await channel.send(**text_kwargs(text, pings))
            except (discord.NotFound, discord.Forbidden):
                log.warning("channel %s: report could not be posted", channel_id)
            except (TimeoutError, discord.DiscordServerError, aiohttp.ClientError) as exc:
                self._reports[channel_id][:0] = lines
                self._report_pings[channel_id].update(pings)
                raise Retry from exc

        return job


def _deciding(table: Table, lang: str, hand: int) -> list[str]:
    """The trick that ended ``hand``: its cards, who played them and who took it,
    from the line the service recorded with it."""
    end = hand_end.end_of(table, hand)
    return [hand_end.deciding_line(table, lang, end)] if end is not None else []


def _chunks(lines: list[str]) -> list[str]:
    """Report lines joined into messages of at most ``MAX_MESSAGE`` characters, cut between
    lines (a cut inside a line could split an escape from the character it escapes)."""
    chunks: list[str] = []
    current = ""
    for line in lines:
        for start in range(0, max(len(line), 1), MAX_MESSAGE):
            piece = line[start : start + MAX_MESSAGE]
            if current and len(current) + 1 + len(piece) > MAX_MESSAGE:
                chunks.append(current)
                current = piece
            else:
                current = f"{current}\n{piece}" if current else piece
    if current:
        chunks.append(current)
    return chunks
