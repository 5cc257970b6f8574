"""Persistence for the Hokm bot: guild settings, live tables, finished matches, standings.

Knows nothing of Discord: ids are ints and table state is an opaque JSON-able dict. Of the
engine it reads only the formats (``engine.rules.FORMATS``: a finished match's seats and teams
are checked against its format's, and standings are kept per format; V6 Shelem's is one of
them) and Shelem's target range (``engine.shelem.options``, a server setting's limits).

    store = await Store.open("sqlite:///data/hokm.sqlite3")   # migrates to head first
    ...
    await store.close()

URLs: `sqlite+aiosqlite:///path` (the bot's default: each call whole in one of aiosqlite's
threads), `sqlite:///path` (the same on the store's own threads, stdlib sqlite3),
`postgresql+asyncpg://user:pw@host/db` (the
`postgres` extra; a bare `postgresql://` means asyncpg). Start-up problems (missing
directory, read-only or corrupt file, schema newer than this code) raise one
`StoreError` whose message names the path or the password-masked URL.

Migrations by hand, from the project root (the bot does not need this):

    HOKM_DATABASE_URL=sqlite:///data/hokm.sqlite3 \
        alembic -c bot/store/migrations/alembic.ini upgrade head
    alembic -c bot/store/migrations/alembic.ini -x url=sqlite:///data/hokm.sqlite3 upgrade head
"""

from .analysis_ops import Unanalysed
from .delivery_ops import TABLE_MESSAGE, DeliveryRow
from .errors import ChannelBusy, SeatTaken, StaleWrite, StoreError
from .migrate import SchemaTooNew
from .records import (
    LIVE_STATUSES,
    TABLE_STATUSES,
    FinishedMatch,
    HistoryEntry,
    HistoryPage,
    MatchPlayer,
    MatchSummary,
    MemberRating,
    PlayerRecord,
    StandingsPage,
    StoredReplay,
    TableRecord,
    TableStatus,
    TeamStats,
)
from .store import MAX_PER_PAGE, Store
from .summary_ops import SummaryMessage

__all__ = [
    "LIVE_STATUSES",
    "MAX_PER_PAGE",
    "TABLE_MESSAGE",
    "TABLE_STATUSES",
    "ChannelBusy",
    "DeliveryRow",
    "FinishedMatch",
    "HistoryEntry",
    "HistoryPage",
    "MatchPlayer",
    "MatchSummary",
    "MemberRating",
    "PlayerRecord",
    "SchemaTooNew",
    "SeatTaken",
    "StaleWrite",
    "StandingsPage",
    "Store",
    "StoreError",
    "StoredReplay",
    "SummaryMessage",
    "TableRecord",
    "TableStatus",
    "TeamStats",
    "Unanalysed",
]
