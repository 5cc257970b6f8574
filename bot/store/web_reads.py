"""The store's reads for the web page's member and match pages, a part of ``Store``
kept in its own module: a member's rating over their last rated matches (the chart) and when a
finished match began (its length). Read-only, and each names the server: another server's
match or member finds nothing.
"""

from __future__ import annotations

from datetime import datetime

from engine import STANDARD

from .ops import Ops
from .rating_ops import CHART_MATCHES, RatingPoint
from .runner import Runner


class WebReads:
    """``Store``'s reads for the web page's own pages (its ``_runner`` and ``_ops``)."""

    _runner: Runner
    _ops: Ops

    async def rating_history(
        self,
        guild_id: int,
        user_id: int,
        game_format: str = STANDARD.name,
        limit: int = CHART_MATCHES,
    ) -> list[RatingPoint]:
        """A member's last ``limit`` rated matches of a format here, oldest first: each one's
        conservative rating before and after."""
        return await self._runner.read(
            self._ops.rating_history, guild_id, user_id, game_format, limit
        )

    async def match_started_at(self, guild_id: int, match_id: str) -> datetime | None:
        """When a match this server finished began; None if no such match finished here."""
        return await self._runner.read(self._ops.match_started_at, guild_id, match_id)
