"""A finished match's page and its file on the server's web page.

Both start from ``MatchHistory.replay``, so they refuse what the Replay refuses, in its words:
a table still being played (its cards never leave it), a match another server finished or
none did, one recorded before replays were kept, one whose record no longer replays to its
result. The page adds when the match began and each member's rating change; the file is the
match's record as ``engine.export`` writes it (``docs/match-format.md``), with the seats'
names as the page shows them, made off the event loop (``MatchFiles``).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from engine import InvalidState
from engine.export import export

from ..names import plain_name
from ..store import Store
from .errors import ActionError
from .match_history import MatchHistory, MatchReplay

log = logging.getLogger(__name__)

CACHED_FILES: Final = 16
"""Match files kept made (a long Shelem match's is a few hundred KB)."""


@dataclass(frozen=True, slots=True)
class MatchFacts:
    """A finished match as its page shows it: its replay, when it began (None: unknown) and
    each rated member's change of conservative rating (a match not rated: none)."""

    replay: MatchReplay
    started_at: datetime | None
    rating_changes: dict[int, float]


async def match_facts(
    history: MatchHistory, store: Store, guild_id: int, match_id: str
) -> MatchFacts:
    """The match's page data. :raises ActionError: as ``MatchHistory.replay``."""
    replay = await history.replay(guild_id, match_id)
    started = await store.match_started_at(guild_id, match_id)
    changes = await store.match_rating_changes(match_id)
    return MatchFacts(replay, started, changes)


class MatchFiles:
    """Each finished match's file as UTF-8 JSON bytes (``engine.export``).

    Made in a worker thread, one at a time, so a long match (a Shelem match of 500 hands
    takes the engine some hundreds of milliseconds to replay and write out) never holds the
    event loop from the tables, and a burst of downloads does not take every core; the last
    ``CACHED_FILES`` are kept, as a finished match never changes."""

    def __init__(self, history: MatchHistory, store: Store) -> None:
        self.history, self.store = history, store
        self._files: OrderedDict[tuple[int, str], bytes] = OrderedDict()
        self._one_at_a_time = asyncio.Lock()

    async def file(self, guild_id: int, match_id: str) -> bytes:
        """The match's file. :raises ActionError: as ``MatchHistory.replay``."""
        key = (guild_id, match_id)
        kept = self._files.get(key)
        if kept is not None:
            self._files.move_to_end(key)
            return kept
        replay = await self.history.replay(guild_id, match_id)
        stored = await self.store.match_replay(guild_id, match_id)
        if stored is None or stored.replay is None:  # gone between the two reads: never deleted
            raise ActionError("error.replay_unknown")
        started = await self.store.match_started_at(guild_id, match_id)
        about = {
            "id": match_id,
            "started_at": None if started is None else started.isoformat(),
            "finished_at": replay.entry.finished_at.isoformat(),
        }
        seats = _seats(replay)
        async with self._one_at_a_time:
            try:
                made = await asyncio.to_thread(_encoded, stored.replay, seats, about)
            except InvalidState as exc:
                log.warning(
                    "match %s: its record does not export (%s)", match_id, type(exc).__name__
                )
                raise ActionError("error.replay_broken") from None
        self._files[key] = made
        if len(self._files) > CACHED_FILES:
            self._files.popitem(last=False)
        return made


def _seats(replay: MatchReplay) -> list[dict[str, Any]]:
    """Each seat's name as the page shows it, whether a computer played it, and a member's id."""
    by_seat = {p.seat: p for p in replay.entry.players}
    seats: list[dict[str, Any]] = []
    for seat in range(replay.story.fmt.seats):
        p = by_seat.get(seat)
        if p is None:
            seats.append({"name": "?", "computer": False, "member": None})
            continue
        seats.append(
            {
                "name": plain_name(p.display_name, computer=p.is_computer),
                "computer": p.is_computer,
                "member": None if p.is_computer or p.user_id is None else str(p.user_id),
            }
        )
    return seats


def _encoded(
    record: Mapping[str, Any], seats: list[dict[str, Any]], about: dict[str, Any]
) -> bytes:
    return json.dumps(export(record, seats, about), ensure_ascii=False).encode()
