"""``/hokm history`` and its Replay: a server's (or a member's) finished matches, and
one finished match told again hand by hand and trick by trick, every hand shown.

Only finished matches are read: the store lists and replays rows of ``matches``, which a table
joins only when its match is over, so no live table's cards can reach a replay. An id that
names a live table of this server is refused with its own words ("still being played"); an
id this server never finished (another server's match, a forged id) finds nothing. A replay
is rebuilt from the stored record by the engine (``engine.story``; a Shelem match's by
``engine.shelem.story``, V6) and checked against the stored result before anything is shown.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from dataclasses import dataclass
from typing import Final

from engine import InvalidState
from engine.dd_analysis import MatchAnalysis
from engine.shelem.story import ShelemStory
from engine.story import MatchStory

from ..store import HistoryEntry, HistoryPage, Store
from .errors import ActionError
from .games import family_or_hokm

log = logging.getLogger(__name__)

PER_PAGE: Final = 10
CACHED_STORIES: Final = 64
"""Replays kept rebuilt: each ◀ ▶ click of an open replay reads its match again, and a
finished match never changes, so the last few are kept rather than replayed per click."""


@dataclass(frozen=True, slots=True)
class MatchReplay:
    """A finished match as its Replay shows it: the listing's facts and the engine's story
    (Hokm's, or Shelem's: both a tuple of ``hands`` with their ``tricks``)."""

    entry: HistoryEntry
    story: MatchStory | ShelemStory
    analysis: MatchAnalysis | None = None
    """Every decision graded with every hand known, once the worker stored it."""

    def check(self, hand: int, trick: int) -> None:
        """Refuse a position this match does not have (a forged or garbled button)."""
        hands = self.story.hands
        if not 0 <= hand < len(hands) or not 0 <= trick <= len(hands[hand].tricks):
            raise ActionError("error.bad_button")


class MatchHistory:
    """The history reads of one store, for the Discord edge (no Discord types here)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._stories: OrderedDict[tuple[int, str], MatchReplay] = OrderedDict()

    async def page(self, guild_id: int, page: int, member_id: int | None = None) -> HistoryPage:
        """Page ``page`` of the server's finished matches (or those ``member_id`` played)."""
        if page < 1:
            raise ActionError("error.bad_button")
        found = await self.store.history(guild_id, page, PER_PAGE, user_id=member_id)
        if page > found.pages:  # matches are never taken away: only a forged id gets here
            raise ActionError("error.bad_button")
        return found

    async def replay(self, guild_id: int, match_id: str) -> MatchReplay:
        """The finished match ``match_id`` of this server, ready to step through.

        :raises ActionError: ``error.replay_live`` (a table of this server still playing or
            waiting), ``error.replay_unknown`` (no match of that id finished here),
            ``error.replay_unavailable`` (recorded before replays were kept),
            ``error.replay_broken`` (its record no longer replays to the stored result).
        """
        key = (guild_id, match_id)
        cached = self._stories.get(key)
        if cached is not None:
            self._stories.move_to_end(key)
            if cached.analysis is None:  # made since: the Replay shows it from now on
                analysis = await self.analysis(guild_id, match_id)
                if analysis is not None:
                    cached = MatchReplay(cached.entry, cached.story, analysis)
                    self._stories[key] = cached
            return cached
        stored = await self.store.match_replay(guild_id, match_id)
        if stored is None:
            table = await self.store.load_table(match_id)
            if table is not None and table.guild_id == guild_id and table.is_live:
                raise ActionError("error.replay_live")
            raise ActionError("error.replay_unknown")
        entry = stored.entry
        if stored.replay is None:
            raise ActionError("error.replay_unavailable")
        try:
            told = family_or_hokm(entry.game_format).story(stored.replay)
        except InvalidState as exc:
            # the type only: the engine's message may name a card
            log.warning(
                "match %s: stored replay does not replay (%s)", match_id, type(exc).__name__
            )
            raise ActionError("error.replay_broken") from None
        ended = (told.scores, told.winner_team) == (entry.scores, entry.winner_team)
        if told.fmt.name != entry.game_format or not ended or not told.hands:
            log.warning("match %s: stored replay does not end as the match did", match_id)
            raise ActionError("error.replay_broken")
        replay = MatchReplay(entry, told, await self.analysis(guild_id, match_id))
        self._stories[key] = replay
        if len(self._stories) > CACHED_STORIES:
            self._stories.popitem(last=False)
        return replay

    async def analysis(self, guild_id: int, match_id: str) -> MatchAnalysis | None:
        """A finished match's stored analysis; ``None`` when not made yet, or when
        the stored one cannot be read (logged: the Replay is shown without it)."""
        try:
            data = await self.store.match_analysis(guild_id, match_id)
            return None if data is None else MatchAnalysis.from_dict(data)
        except ValueError:
            log.warning("match %s: stored analysis unreadable", match_id)
            return None
