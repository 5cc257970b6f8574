"""A finished match's summary: posted when the match ends, its analysis added by one edit.

A match's analysis is made in a worker after the match ended (``bot.service.analysis``), so
its summary is posted first and edited once the analysis is stored. Where the summary was
posted is stored (``service.summary_edits``), so the edit is made by whichever process has
the analysis (the one that stored it, or, for an analysis another process or
``--analyse-missing`` stored, or one stored while the poster restarted, any process's
sweep), once: the store hands each edit to one process. An analysis that arrives before its
summary was posted is posted with it. The finished tables this process posted are kept a
while (a bounded number, the oldest go first), so the edit renders without loading one.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Final

import aiohttp
import discord

from engine.dd_analysis import MatchAnalysis

from ..present.summary import match_summary
from ..service.summary_edits import SummaryEdit, SummaryEdits
from ..service.table import Table
from .channels import Channels
from .outbox import REPORT, TABLE, Outbox, Retry
from .ui import message_kwargs

log = logging.getLogger(__name__)

KEPT: Final = 2_000
"""Summaries remembered at most (a finished table each): hours of matches at 200 tables."""
SWEEP_EVERY: Final = 120.0
"""Seconds between looks for summaries whose analysis is stored but not shown (another
process's analysis, an edit whose claimer died); the first look is at start-up."""
SWEEP_BATCH: Final = 50
"""Edits claimed by one look at most: the rest wait for the next (the rate budget)."""


@dataclass(eq=False)
class PostedSummary:
    """A summary this process posts: its finished table, its message once sent, and its
    analysis if that came first (this module's own record, never the service's)."""

    table: Table
    message_id: int | None = None
    analysis: MatchAnalysis | None = None

    def sent(self, message_id: int) -> None:
        self.message_id = message_id

    def graded(self, analysis: MatchAnalysis) -> None:
        self.analysis = analysis


class Summaries:
    """Posts summaries and makes their analysis edits (through the outbox, within the budget).
    Without ``edits`` (a publisher with no store: unit tests) a summary is never edited."""

    def __init__(
        self, bot: Channels, outbox: Outbox, edits: SummaryEdits | None, kept: int = KEPT
    ) -> None:
        self.bot = bot
        self.outbox = outbox
        self.edits = edits
        self.kept = kept
        self._by_match: OrderedDict[str, PostedSummary] = OrderedDict()
        self._early: OrderedDict[str, MatchAnalysis] = OrderedDict()

    def post(self, table: Table) -> None:
        """Queue the match's one closing message (``present.summary``), with its Rematch
        button (and its analysis, if that came first)."""
        posted = PostedSummary(table, analysis=self._early.pop(table.table_id, None))
        self._by_match[table.table_id] = posted
        self._trim(self._by_match)

        async def job() -> None:
            analysis = posted.analysis
            spec = match_summary(table, analysis)
            channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
            try:
                message = await channel.send(**message_kwargs(spec))
            except (discord.NotFound, discord.Forbidden):
                log.warning("table %s: match summary could not be posted", table.table_id)
                return
            except (TimeoutError, discord.DiscordServerError, aiohttp.ClientError) as exc:
                raise Retry from exc
            posted.sent(message.id)
            if self.edits is not None:
                await self.edits.posted(table, message.id, with_analysis=analysis is not None)
                if analysis is None:  # stored meanwhile, here or by another process?
                    await self.analysed_elsewhere(table.table_id)

        self.outbox.submit(("summary", table.table_id), REPORT, table.channel_id, job)

    async def analysed(self, match_id: str, analysis: MatchAnalysis) -> None:
        """This process stored a finished match's analysis: its summary gains a line per
        player by an edit that waits behind every other message of the budget."""
        posted = self._by_match.get(match_id)
        if posted is None:
            self._early[match_id] = analysis
            self._trim(self._early)
        else:
            posted.graded(analysis)
        if self.edits is not None:
            await self.analysed_elsewhere(match_id)

    async def analysed_elsewhere(self, match_id: str) -> bool:
        """Edit ``match_id``'s summary if its analysis is stored and the edit is this
        process's to make (``SummaryEdits.claim``); whether it was."""
        if self.edits is None:
            return False
        posted = self._by_match.get(match_id)
        claimed = await self.edits.claim(match_id, posted.table if posted else None)
        if claimed is None:
            return False
        self._edit(claimed)
        return True

    async def sweep(self, limit: int = SWEEP_BATCH) -> int:
        """One look for summaries whose analysis is stored and not shown; edits claimed."""
        if self.edits is None:
            return 0
        claimed = 0
        for match_id in await self.edits.waiting(limit):
            claimed += await self.analysed_elsewhere(match_id)
        return claimed

    async def sweep_forever(self, every: float = SWEEP_EVERY) -> None:
        while True:
            try:
                await self.sweep()
            except Exception:
                log.exception("the summaries' analysis sweep failed")
            await asyncio.sleep(every)

    def _edit(self, claimed: SummaryEdit) -> None:
        edits, table, message = self.edits, claimed.table, claimed.message
        assert edits is not None

        async def job() -> None:
            spec = match_summary(table, claimed.analysis)
            where = self.bot.get_partial_messageable(message.channel_id, guild_id=table.guild_id)
            try:
                await where.get_partial_message(message.message_id).edit(**message_kwargs(spec))
            except (discord.NotFound, discord.Forbidden):
                log.warning("table %s: match summary could not be edited", table.table_id)
            except (TimeoutError, discord.DiscordServerError, aiohttp.ClientError) as exc:
                raise Retry from exc
            await edits.shown(message.match_id)

        self.outbox.submit(("summary_edit", table.table_id), TABLE, message.channel_id, job)

    def _trim(self, kept: OrderedDict[str, Any]) -> None:
        while len(kept) > self.kept:
            kept.popitem(last=False)
