"""A finished match's page and its file on the server's web page (issue 38 items 8 and 9).

Both start from ``MatchHistory.replay``, so they refuse what the Replay refuses, in its words:
a table still being played (its cards never leave it), a match another server finished or
none did, one recorded before replays were kept, one whose record no longer replays to its
result. The page adds when the match began and each member's rating change; the file is the
match's record as ``engine.export`` writes it (``docs/match-format.md``), with the seats'
names as the page shows them.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from engine import InvalidState
from engine.export import export

from ..names import plain_name
from ..store import Store
from .errors import ActionError
from .match_history import MatchHistory, MatchReplay

log = logging.getLogger(__name__)


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


async def match_file(
    history: MatchHistory, store: Store, guild_id: int, match_id: str
) -> dict[str, Any]:
    """The match's file (``engine.export``). :raises ActionError: as ``MatchHistory.replay``."""
    replay = await history.replay(guild_id, match_id)
    stored = await store.match_replay(guild_id, match_id)
    if stored is None or stored.replay is None:  # gone between the two reads: never deleted
        raise ActionError("error.replay_unknown")
    entry = replay.entry
    started = await store.match_started_at(guild_id, match_id)
    by_seat = {p.seat: p for p in entry.players}
    seats = []
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
    about = {
        "id": entry.match_id,
        "started_at": None if started is None else started.isoformat(),
        "finished_at": entry.finished_at.isoformat(),
    }
    try:
        return export(stored.replay, seats, about)
    except InvalidState as exc:
        log.warning("match %s: its record does not export (%s)", match_id, type(exc).__name__)
        raise ActionError("error.replay_broken") from None
