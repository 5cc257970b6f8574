"""The store's match analyses: one ``match_analyses`` row per finished match,
``engine.dd_analysis.MatchAnalysis`` as JSON, written by the analysis worker after the match
ended. ``AnalysisStore`` is ``Store``'s part for them (its ``_runner``); the table is defined
here, on the schema's ``metadata`` (``bot.store`` imports this module, so it is registered).

Only finished matches are in ``matches``, so nothing here can describe a live table; a read
names the server, so another server's match finds nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection

from .records import MAX_MATCH_ID
from .runner import Runner
from .schema import JSONText, UTCDateTime, match_replays, matches, metadata

# (0012) A finished match graded with every hand known: ``engine.dd_analysis``'s
# ``MatchAnalysis`` as JSON, written by the analysis worker after the match ended (a table of
# its own: made later, and never read by the listings or the ratings).
match_analyses = sa.Table(
    "match_analyses",
    metadata,
    sa.Column(
        "match_id",
        sa.String(MAX_MATCH_ID),
        sa.ForeignKey("matches.match_id", ondelete="CASCADE", name="fk_match_analyses_match"),
        primary_key=True,
    ),
    sa.Column("analysis", JSONText, nullable=False),
    sa.Column("analysed_at", UTCDateTime, nullable=False),
    # (0015) the solver's version that graded it (``engine.dd_analysis.SOLVER_VERSION``)
    sa.Column("solver", sa.Integer, nullable=False, server_default="1"),
)


@dataclass(frozen=True, slots=True)
class Unanalysed:
    """A finished match without an analysis, or with one an older solver made: what the
    worker needs to make one."""

    match_id: str
    guild_id: int
    game_format: str
    replay: Mapping[str, Any] | None
    """The match's replay record (``None``: recorded before replays were kept)."""


def _save(
    conn: Connection, match_id: str, analysis: Mapping[str, Any], at: datetime, solver: int
) -> bool:
    """Insert or replace; ``False`` when the match is not (or no longer) stored."""
    found = conn.execute(sa.select(matches.c.match_id).where(matches.c.match_id == match_id))
    if found.first() is None:
        return False
    conn.execute(sa.delete(match_analyses).where(match_analyses.c.match_id == match_id))
    values = {
        "match_id": match_id,
        "analysis": dict(analysis),
        "analysed_at": at,
        "solver": solver,
    }
    conn.execute(sa.insert(match_analyses).values(values))
    return True


def _load(conn: Connection, guild_id: int, match_id: str) -> Mapping[str, Any] | None:
    stmt = (
        sa.select(match_analyses.c.analysis)
        .select_from(match_analyses.join(matches, matches.c.match_id == match_analyses.c.match_id))
        .where(match_analyses.c.match_id == match_id, matches.c.guild_id == guild_id)
    )
    found: Mapping[str, Any] | None = conn.execute(stmt).scalar_one_or_none()
    return found


def _missing(conn: Connection, after: str, limit: int, solver: int) -> list[Unanalysed]:
    """Finished matches without an analysis or with one made by a solver older than
    ``solver``, by match id after ``after`` (a walk in pages)."""
    m, a, r = matches.c, match_analyses.c, match_replays.c
    stmt = (
        sa.select(m.match_id, m.guild_id, m.game_format, r.replay)
        .select_from(
            matches.outerjoin(match_analyses, a.match_id == m.match_id).outerjoin(
                match_replays, r.match_id == m.match_id
            )
        )
        .where(sa.or_(a.match_id.is_(None), a.solver < solver), m.match_id > after)
        .order_by(m.match_id)
        .limit(limit)
    )
    return [Unanalysed(*row) for row in conn.execute(stmt).all()]


class AnalysisStore:
    """``Store``'s calls for match analyses (its ``_runner``)."""

    _runner: Runner

    async def save_analysis(
        self, match_id: str, analysis: Mapping[str, Any], analysed_at: datetime, *, solver: int
    ) -> bool:
        """Store (or replace) a finished match's analysis, graded by version ``solver`` of the
        solver; ``False`` if no such match.

        :raises ValueError: ``analysed_at`` is naive.
        """
        if analysed_at.utcoffset() is None:
            raise ValueError("analysed_at must be timezone-aware (UTC)")
        return await self._runner.write(_save, match_id, analysis, analysed_at, solver)

    async def match_analysis(self, guild_id: int, match_id: str) -> Mapping[str, Any] | None:
        """A match this server finished: its stored analysis, if made."""
        return await self._runner.read(_load, guild_id, match_id)

    async def unanalysed_matches(
        self, *, solver: int, after: str = "", limit: int = 100
    ) -> list[Unanalysed]:
        """Up to ``limit`` finished matches, match ids after ``after``, with no analysis or one
        graded by a solver older than ``solver``."""
        return await self._runner.read(_missing, after, limit, solver)
