"""The channel report: the lines a table's events add below its channel, posted in batches.

The publisher decides when a report message is due; this module keeps the lines until then
(with the members they are meant to notify) and cuts them into messages. What the lines say
is the presenter's (``bot.present.report_lines``), as the table message and the DMs are.
"""

from __future__ import annotations

import logging
from collections import defaultdict

import aiohttp
import discord

from ..present.report_lines import report_lines
from ..service.events import TableEvent
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
        """The report line(s) an event adds (``present.report_lines``), if any."""
        said = report_lines(table, lang, event)
        if said.lines:
            self._reports[table.channel_id].extend(said.lines)
            self._report_pings[table.channel_id].update(said.notify)

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
