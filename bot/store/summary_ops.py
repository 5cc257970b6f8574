"""The store's match summaries: where a finished match's summary message is in its channel,
and whether its analysis lines are shown there yet (``match_summaries``, one row a match).

The analysis comes minutes after the summary, maybe in another process or after a restart
(``bot.service.analysis``), so the summary's message is found here rather than in one
process's memory. The row goes with its ended table (a foreign key to ``game_tables``,
``ON DELETE CASCADE``): the summary is rendered again from that table, so once the purge took
it there is nothing left to edit. ``SummaryStore`` is ``Store``'s part (its ``_runner``).

The edit is made once across processes: a process *claims* a summary whose analysis is stored
and not yet shown (a lease of a few minutes, so a process that dies holding it delays the edit
rather than losing it), edits it, then marks it shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlalchemy import Connection

from .analysis_ops import match_analyses
from .records import MAX_TABLE_ID
from .runner import Runner
from .schema import UTCDateTime, game_tables, metadata

# (0014) A finished match's summary message, and whether its analysis lines are shown.
match_summaries = sa.Table(
    "match_summaries",
    metadata,
    sa.Column(
        "match_id",
        sa.String(MAX_TABLE_ID),
        sa.ForeignKey("game_tables.table_id", ondelete="CASCADE", name="fk_match_summaries_table"),
        primary_key=True,
    ),
    sa.Column("channel_id", sa.BigInteger, nullable=False),
    sa.Column("message_id", sa.BigInteger, nullable=False),
    # when the analysis lines were shown (posted with the summary, or edited in); NULL: not yet
    sa.Column("shown_at", UTCDateTime, nullable=True),
    # a process is editing it until then (a lease: a dead process's claim runs out)
    sa.Column("claimed_until", UTCDateTime, nullable=True),
    sa.Index("ix_match_summaries_shown", "shown_at"),
)


@dataclass(frozen=True, slots=True)
class SummaryMessage:
    """Where a match's summary is: its channel and message."""

    match_id: str
    channel_id: int
    message_id: int


def _save(conn: Connection, found: SummaryMessage, shown_at: datetime | None) -> bool:
    c = match_summaries.c
    conn.execute(sa.delete(match_summaries).where(c.match_id == found.match_id))
    values = sa.select(
        sa.literal(found.match_id, sa.String),
        sa.literal(found.channel_id, sa.BigInteger),
        sa.literal(found.message_id, sa.BigInteger),
        sa.literal(shown_at, UTCDateTime),
    ).where(sa.exists().where(game_tables.c.table_id == found.match_id))
    names = ["match_id", "channel_id", "message_id", "shown_at"]
    written = conn.execute(sa.insert(match_summaries).from_select(names, values))
    return written.rowcount == 1


def _unclaimed(now: datetime) -> sa.ColumnElement[bool]:
    """Analysed, not shown, nobody editing it."""
    c = match_summaries.c
    return sa.and_(
        c.shown_at.is_(None),
        sa.or_(c.claimed_until.is_(None), c.claimed_until <= now),
        sa.exists().where(match_analyses.c.match_id == c.match_id),
    )


def _claim(conn: Connection, match_id: str, now: datetime, lease: float) -> SummaryMessage | None:
    c = match_summaries.c
    claimed = conn.execute(
        sa.update(match_summaries)
        .where(c.match_id == match_id, _unclaimed(now))
        .values(claimed_until=now + timedelta(seconds=lease))
    )
    if claimed.rowcount != 1:
        return None
    row = conn.execute(sa.select(c.channel_id, c.message_id).where(c.match_id == match_id)).one()
    return SummaryMessage(match_id, row.channel_id, row.message_id)


def _shown(conn: Connection, match_id: str, at: datetime) -> bool:
    c = match_summaries.c
    done = conn.execute(
        sa.update(match_summaries)
        .where(c.match_id == match_id)
        .values(shown_at=at, claimed_until=None)
    )
    return done.rowcount == 1


def _find(conn: Connection, match_id: str) -> tuple[SummaryMessage, bool] | None:
    c = match_summaries.c
    stmt = sa.select(c.channel_id, c.message_id, c.shown_at).where(c.match_id == match_id)
    row = conn.execute(stmt).first()
    if row is None:
        return None
    return SummaryMessage(match_id, row.channel_id, row.message_id), row.shown_at is not None


def _waiting(conn: Connection, now: datetime, limit: int) -> list[str]:
    c = match_summaries.c
    stmt = sa.select(c.match_id).where(_unclaimed(now)).order_by(c.match_id).limit(limit)
    return list(conn.execute(stmt).scalars())


class SummaryStore:
    """``Store``'s calls for match summaries (its ``_runner``)."""

    _runner: Runner

    async def save_summary(self, found: SummaryMessage, shown_at: datetime | None) -> bool:
        """Where a finished match's summary was posted (``shown_at``: with its analysis
        already); ``False`` when its table is gone."""
        return await self._runner.write(_save, found, shown_at)

    async def claim_summary(
        self, match_id: str, now: datetime, lease: float
    ) -> SummaryMessage | None:
        """Take the edit of a summary whose analysis is stored and not shown, for ``lease``
        seconds; ``None`` when there is none to take (not posted, not analysed, shown,
        claimed)."""
        return await self._runner.write(_claim, match_id, now, lease)

    async def summary_shown(self, match_id: str, at: datetime) -> bool:
        """The summary shows its analysis (or can never be edited): nobody takes it again."""
        return await self._runner.write(_shown, match_id, at)

    async def summary_message(self, match_id: str) -> tuple[SummaryMessage, bool] | None:
        """Where a match's summary was posted, and whether it shows its analysis."""
        return await self._runner.read(_find, match_id)

    async def summaries_waiting(self, now: datetime, limit: int = 50) -> list[str]:
        """Matches whose summary waits for its analysis lines, the analysis stored and the
        edit not claimed."""
        return await self._runner.read(_waiting, now, limit)
