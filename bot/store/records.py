"""Plain, frozen values that cross the store boundary (never ORM rows).

They validate what the database would otherwise reject late, so a bad record fails where
it is built rather than inside a transaction.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final, Literal, get_args

from engine.rules import FORMATS, STANDARD

__all__ = [
    "LIVE_STATUSES",
    "MAX_SEATS",
    "TABLE_STATUSES",
    "FinishedMatch",
    "HistoryEntry",
    "HistoryPage",
    "MatchPlayer",
    "MatchSummary",
    "MemberRating",
    "PlayerRecord",
    "StandingsPage",
    "StoredReplay",
    "TableRecord",
    "TableStatus",
    "TeamStats",
]

TableStatus = Literal["lobby", "playing", "finished", "cancelled"]
TABLE_STATUSES: Final[tuple[str, ...]] = get_args(TableStatus)
LIVE_STATUSES: Final[tuple[str, ...]] = ("lobby", "playing")

MAX_TABLE_ID = 32
MAX_MATCH_ID = 64
MAX_DISPLAY_NAME = 100
MAX_FORMAT_NAME = 32
MAX_SEATS = 6
"""The largest table of any format (V5, six players); the schema's seat and team checks. A
solo format has a team per seat, so a match has at most this many teams too."""


def _require_aware(name: str, value: datetime | None) -> None:
    if value is not None and (value.tzinfo is None or value.utcoffset() is None):
        raise ValueError(f"{name} must be timezone-aware (UTC), got naive {value!r}")


@dataclass(frozen=True, slots=True)
class TableRecord:
    """One table's persisted snapshot; `state` is the service's opaque JSON-able dict.

    `version` starts at 1 (the insert) and each later save must carry stored version + 1:
    that is the optimistic-concurrency check. `guild_id` and `channel_id` are fixed at
    creation. Timestamps are filled in by the store.
    """

    table_id: str
    guild_id: int
    channel_id: int
    status: TableStatus
    version: int
    state: Mapping[str, Any]
    created_at: datetime | None = None
    updated_at: datetime | None = None
    due_at: datetime | None = None
    """Its nearest deadline, if it has one (another process plays it when due)."""
    members: tuple[int, ...] | None = None
    """The members seated at it, when the save changes who sits there (``None``: as stored).
    The store keeps one live table per member (``SeatTaken``); a table that ends frees its
    members whatever this holds."""

    def __post_init__(self) -> None:
        if not 1 <= len(self.table_id) <= MAX_TABLE_ID:
            raise ValueError(f"table_id must be 1-{MAX_TABLE_ID} characters: {self.table_id!r}")
        if self.status not in TABLE_STATUSES:
            raise ValueError(f"status must be one of {TABLE_STATUSES}, got {self.status!r}")
        if self.version < 1:
            raise ValueError(f"version starts at 1, got {self.version}")
        _require_aware("created_at", self.created_at)
        _require_aware("updated_at", self.updated_at)
        _require_aware("due_at", self.due_at)

    @property
    def is_live(self) -> bool:
        """Whether the table still occupies its channel (lobby or playing)."""
        return self.status in LIVE_STATUSES

    def bump(
        self, *, state: Mapping[str, Any] | None = None, status: TableStatus | None = None
    ) -> TableRecord:
        """The next version of this record, ready for `Store.save_table`."""
        return dataclasses.replace(
            self,
            version=self.version + 1,
            state=self.state if state is None else state,
            status=self.status if status is None else status,
        )


@dataclass(frozen=True, slots=True)
class MatchPlayer:
    """Who sat where; computer players may have no user id and never get standings."""

    seat: int
    team: int
    user_id: int | None
    is_computer: bool
    display_name: str

    def __post_init__(self) -> None:
        if self.seat not in range(MAX_SEATS):
            raise ValueError(f"seat must be 0-{MAX_SEATS - 1}, got {self.seat}")
        if self.team not in range(MAX_SEATS):
            raise ValueError(f"team must be 0-{MAX_SEATS - 1}, got {self.team}")
        if self.user_id is None and not self.is_computer:
            raise ValueError(f"human player in seat {self.seat} needs a user_id")
        if len(self.display_name) > MAX_DISPLAY_NAME:
            object.__setattr__(self, "display_name", self.display_name[:MAX_DISPLAY_NAME])


@dataclass(frozen=True, slots=True)
class TeamStats:
    """One team's totals in a match; each of its human players is credited with them."""

    hands_won: int = 0
    kots_dealt: int = 0
    hakem_kots_suffered: int = 0


@dataclass(frozen=True, slots=True)
class FinishedMatch:
    """A completed match, recorded exactly once (keyed by `match_id`).

    `scores` and `team_stats` hold one entry per team of the match's format (`game_format`,
    an `engine.rules.FORMATS` name): two for the standard table, one per seat for a format
    where everyone plays alone. `team_stats` left empty means all zeros.
    """

    match_id: str
    guild_id: int
    channel_id: int
    started_at: datetime
    finished_at: datetime
    target_score: int
    scores: tuple[int, ...]
    winner_team: int
    hands: Sequence[Mapping[str, Any]]
    players: tuple[MatchPlayer, ...]
    team_stats: tuple[TeamStats, ...] = ()
    hints: bool = False
    """Hints were on at the table: kept so ratings can leave the match out."""
    game_format: str = STANDARD.name
    """The format played: standings are kept per format."""
    rate_computers: bool = False
    """The server let a match with computer players change ratings, when played."""
    rated: bool = True
    """False: a tournament's match that leaves ratings alone (T12), in history all the same."""
    replay: Mapping[str, Any] | None = None
    """What ``/hokm history``'s Replay steps through: the engine's record of the
    match (``engine.story.record``), opaque here; None keeps no replay."""

    def __post_init__(self) -> None:
        if not 1 <= len(self.match_id) <= MAX_MATCH_ID:
            raise ValueError(f"match_id must be 1-{MAX_MATCH_ID} characters: {self.match_id!r}")
        if not 1 <= len(self.game_format) <= MAX_FORMAT_NAME:
            raise ValueError(f"game_format must be 1-{MAX_FORMAT_NAME} characters")
        _require_aware("started_at", self.started_at)
        _require_aware("finished_at", self.finished_at)
        if not self.team_stats:
            object.__setattr__(self, "team_stats", tuple(TeamStats() for _ in self.scores))
        if not 2 <= len(self.scores) <= MAX_SEATS or len(self.team_stats) != len(self.scores):
            raise ValueError("scores and team_stats need exactly one entry per team")
        if self.winner_team not in range(len(self.scores)):
            raise ValueError(
                f"winner_team must be 0-{len(self.scores) - 1}, got {self.winner_team}"
            )
        seats = [p.seat for p in self.players]
        if len(set(seats)) != len(seats):
            raise ValueError(f"duplicate seats in match {self.match_id}: {seats}")
        fmt = FORMATS.get(self.game_format)
        for p in self.players:
            if p.team not in range(len(self.scores)):
                raise ValueError(f"seat {p.seat} plays for team {p.team}: no such team")
            if fmt is not None and (p.seat >= fmt.seats or fmt.team_of[p.seat] != p.team):
                raise ValueError(f"seat {p.seat} does not play for team {p.team} in {fmt.name}")
        humans = [p.user_id for p in self.players if not p.is_computer]
        if len(set(humans)) != len(humans):
            raise ValueError(f"a user holds two seats in match {self.match_id}")


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """One member's standing in one guild; `rank` is 1-based in standings order."""

    guild_id: int
    user_id: int
    display_name: str
    rank: int
    matches_played: int
    matches_won: int
    win_rate: float
    hands_won: int
    kots_dealt: int
    hakem_kots_suffered: int
    last_played_at: datetime
    game_format: str = STANDARD.name
    rating: float = 0.0
    """The conservative skill rating, μ − 3σ; 0 before the first rated match."""


@dataclass(frozen=True, slots=True)
class StandingsPage:
    """One page of a guild's standings; `pages` is at least 1 so "page 1/1" reads right."""

    guild_id: int
    page: int
    per_page: int
    pages: int
    total_players: int
    rows: tuple[PlayerRecord, ...]
    game_format: str = STANDARD.name


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """A member's view of one past match, for "recent matches" listings."""

    match_id: str
    channel_id: int
    finished_at: datetime
    team: int
    won: bool
    scores: tuple[int, ...]
    target_score: int
    hints: bool = False
    """Played with hints on: not a rated match."""
    game_format: str = STANDARD.name


@dataclass(frozen=True, slots=True)
class MemberRating:
    """A member's skill rating in one server and format: OpenSkill's μ and σ, the
    conservative ``ordinal`` (μ − 3σ) and how many rated matches made it."""

    user_id: int
    mu: float
    sigma: float
    ordinal: float
    matches_rated: int


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One finished match as ``/hokm history`` lists it: who played, the format, the score
    and when."""

    match_id: str
    channel_id: int
    finished_at: datetime
    game_format: str
    target_score: int
    scores: tuple[int, ...]
    winner_team: int
    hints: bool
    players: tuple[MatchPlayer, ...]


@dataclass(frozen=True, slots=True)
class HistoryPage:
    """One page of a server's (or, with ``user_id``, one member's) finished matches, newest
    first. ``total`` counts at most ``HISTORY_DEPTH`` matches: ``deeper`` says there are more,
    which the pages do not reach."""

    guild_id: int
    user_id: int | None
    page: int
    per_page: int
    total: int
    deeper: bool
    rows: tuple[HistoryEntry, ...]

    @property
    def pages(self) -> int:
        """At least 1, so "page 1 of 1" reads right for a server without matches."""
        return max(1, -(-self.total // self.per_page))


@dataclass(frozen=True, slots=True)
class StoredReplay:
    """A finished match and its replay record (None: recorded before replays were kept)."""

    entry: HistoryEntry
    replay: Mapping[str, Any] | None
