"""Persistence for the Hokm bot: guild settings, live tables, finished matches, standings.

Knows nothing of Discord or engine types: ids are ints and table state is an opaque
JSON-able dict. Open with `store = await Store.open(url)`; the schema is migrated to
head at start-up.
"""

from .errors import ChannelBusy, StaleWrite, StoreError
from .migrate import SchemaTooNew
from .records import (
    LIVE_STATUSES,
    TABLE_STATUSES,
    FinishedMatch,
    MatchPlayer,
    MatchSummary,
    PlayerRecord,
    StandingsPage,
    TableRecord,
    TableStatus,
    TeamStats,
)
from .store import MAX_PER_PAGE, Store

__all__ = [
    "LIVE_STATUSES",
    "MAX_PER_PAGE",
    "TABLE_STATUSES",
    "ChannelBusy",
    "FinishedMatch",
    "MatchPlayer",
    "MatchSummary",
    "PlayerRecord",
    "SchemaTooNew",
    "StaleWrite",
    "StandingsPage",
    "Store",
    "StoreError",
    "TableRecord",
    "TableStatus",
    "TeamStats",
]
