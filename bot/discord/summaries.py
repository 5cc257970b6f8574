"""The match summaries this process posted, kept for the edit that adds their analysis.

A match's analysis is made in a worker after the match ended (``bot.service.analysis``), so
its summary is posted first and edited once the analysis is stored. The summary's message id
and the finished table it was rendered from are kept here, a bounded number of them (the
oldest go first); an analysis that arrives before its summary was posted is kept with it, so
the summary is posted with it. Nothing is stored: after a restart the analysis is still shown
in the Replay, on Discord and on the web page.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Final

from engine.dd_analysis import MatchAnalysis

from ..service.table import Table

KEPT: Final = 2_000
"""Summaries remembered at most (a finished table each): hours of matches at 200 tables."""


@dataclass(eq=False)
class PostedSummary:
    table: Table
    message_id: int | None = None
    analysis: MatchAnalysis | None = None

    def sent(self, message_id: int) -> None:
        self.message_id = message_id

    def graded(self, analysis: MatchAnalysis) -> None:
        self.analysis = analysis


class Summaries:
    """Posted summaries by match id (the table's id), newest last."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self._by_match: OrderedDict[str, PostedSummary] = OrderedDict()
        self._early: OrderedDict[str, MatchAnalysis] = OrderedDict()

    def remember(self, table: Table) -> PostedSummary:
        """The entry of a summary about to be posted (with its analysis, if that came first)."""
        posted = PostedSummary(table, analysis=self._early.pop(table.table_id, None))
        self._by_match[table.table_id] = posted
        self._trim(self._by_match)
        return posted

    def analysed(self, match_id: str, analysis: MatchAnalysis) -> PostedSummary | None:
        """Note a match's analysis; its summary's entry, if this process has it."""
        posted = self._by_match.get(match_id)
        if posted is None:
            self._early[match_id] = analysis
            self._trim(self._early)
            return None
        posted.graded(analysis)
        return posted

    def _trim(self, kept: OrderedDict[str, Any]) -> None:
        while len(kept) > self.kept:
            kept.popitem(last=False)
