"""A finished match's summary gains its analysis lines once, whichever process has them.

The summary is posted when the match ends; its analysis is made minutes later in a worker
(``analysis``), maybe by another process (a shard, ``--analyse-missing``) or after a restart.
So where the summary was posted is stored (``Store.save_summary``), and the edit is claimed
in the store before it is made (``Store.claim_summary``: a lease, so two processes never both
edit, and one that dies holding it only delays the edit) and marked shown after. The summary
is rendered again from the ended table, kept in the store until the purge (its row goes with
it), with the rating changes the match made.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final

from engine.dd_analysis import MatchAnalysis

from ..store import Store, SummaryMessage
from .table import Table

log = logging.getLogger(__name__)

LEASE: Final = 600.0
"""Seconds a claimed edit is the claimer's: the edit waits behind every other message of the
rate budget (the lowest priority), which under load takes minutes."""


@dataclass(frozen=True, slots=True)
class SummaryEdit:
    """A claimed edit: the finished table to render, its analysis, and the message."""

    table: Table
    analysis: MatchAnalysis
    message: SummaryMessage


class SummaryEdits:
    """The store's side of the summaries' analysis edits (the Discord side sends them)."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock

    def _now(self) -> datetime:
        return datetime.fromtimestamp(self.clock(), UTC)

    async def posted(self, table: Table, message_id: int, with_analysis: bool) -> None:
        """The summary was posted (``with_analysis``: its lines in it already). A failed write
        is logged: that summary then keeps its first text."""
        found = SummaryMessage(table.table_id, table.channel_id, message_id)
        try:
            await self.store.save_summary(found, self._now() if with_analysis else None)
        except Exception:
            log.exception("table %s: where its summary is could not be stored", table.table_id)

    async def claim(self, match_id: str, table: Table | None = None) -> SummaryEdit | None:
        """The edit of ``match_id``'s summary, now this process's to make; ``None`` when there
        is none to make (not posted yet, not analysed, shown, another process's). ``table``:
        the finished table, when this process still has it (else it is loaded)."""
        try:
            message = await self.store.claim_summary(match_id, self._now(), LEASE)
            if message is None:
                return None
            if table is None:
                table = await self._finished(match_id)
            analysis = await self._analysis(table, match_id) if table is not None else None
        except Exception:
            log.exception("match %s: its summary's edit could not be claimed", match_id)
            return None
        if table is None or analysis is None:
            await self.shown(match_id)  # nothing to render it from: never tried again
            return None
        return SummaryEdit(table, analysis, message)

    async def shown(self, match_id: str) -> None:
        """The edit was made (or can never be): nobody claims it again. A failed write leaves
        the lease to run out, and the edit is made again then (the same text)."""
        try:
            await self.store.summary_shown(match_id, self._now())
        except Exception:
            log.exception("match %s: its summary's edit could not be marked", match_id)

    async def waiting(self, limit: int = 50) -> list[str]:
        """Matches whose analysis is stored and whose summary does not show it, unclaimed."""
        try:
            return await self.store.summaries_waiting(self._now(), limit)
        except Exception:
            log.exception("the summaries waiting for their analysis could not be read")
            return []

    async def _finished(self, match_id: str) -> Table | None:
        record = await self.store.load_table(match_id)
        if record is None or record.status != "finished":
            return None
        try:
            table = Table.from_dict(dict(record.state))
        except (KeyError, TypeError, ValueError):
            log.warning("match %s: its ended table does not load", match_id)
            return None
        table.rating_changes = await self.store.match_rating_changes(match_id)
        return table

    async def _analysis(self, table: Table, match_id: str) -> MatchAnalysis | None:
        data = await self.store.match_analysis(table.guild_id, match_id)
        try:
            return None if data is None else MatchAnalysis.from_dict(data)
        except ValueError:
            log.warning("match %s: stored analysis unreadable", match_id)
            return None
