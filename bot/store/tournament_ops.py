"""The store's tournaments: one ``tournaments`` row each, saved whole under a
version like a table, and ``tournament_tables``, which game table plays which table of which
round.

A save names the version it follows (``version`` 1 inserts), so of two processes changing one
tournament the second is refused (``StaleWrite``) and reloads: that is how a round is advanced
once. The links a save claims go in its transaction. ``TournamentStore`` is ``Store``'s part
for them (its ``_runner``), with its own statements (``TournamentOps``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import Any, Final, Literal, get_args

import sqlalchemy as sa
from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError

from . import ops_base
from .errors import ChannelBusy, StaleWrite
from .records import MAX_TABLE_ID
from .runner import Runner
from .schema import LIVE_TOURNAMENT_CLAUSE, tournament_tables, tournaments

TournamentStatus = Literal["registration", "running", "finished", "cancelled"]
TOURNAMENT_STATUSES: Final[tuple[str, ...]] = get_args(TournamentStatus)
LIVE_TOURNAMENT: Final = ("registration", "running")


def _aware(name: str, value: datetime | None) -> None:
    if value is not None and value.utcoffset() is None:
        raise ValueError(f"{name} must be timezone-aware (UTC), got naive {value!r}")


@dataclass(frozen=True, slots=True)
class TableLink:
    """Game table ``table_id`` plays table ``table_no`` (from 0) of round ``round_no``."""

    table_id: str
    tournament_id: str
    round_no: int
    table_no: int


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    """One tournament's stored snapshot; ``state`` is the service's JSON-able dict. ``version``
    starts at 1 (the insert); each later save carries the stored version + 1."""

    tournament_id: str
    guild_id: int
    channel_id: int
    status: TournamentStatus
    version: int
    state: Mapping[str, Any]
    due_at: datetime | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None

    def __post_init__(self) -> None:
        if not 1 <= len(self.tournament_id) <= MAX_TABLE_ID:
            raise ValueError(f"tournament_id must be 1-{MAX_TABLE_ID} characters")
        if self.status not in TOURNAMENT_STATUSES:
            raise ValueError(f"status must be one of {TOURNAMENT_STATUSES}: {self.status!r}")
        if self.version < 1:
            raise ValueError(f"version starts at 1, got {self.version}")
        _aware("due_at", self.due_at)

    @property
    def is_live(self) -> bool:
        return self.status in LIVE_TOURNAMENT


def _record(row: sa.Row[Any]) -> TournamentRecord:
    return TournamentRecord(
        tournament_id=row.tournament_id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        status=row.status,
        version=row.version,
        state=row.state,
        due_at=row.due_at,
        created_at=row.created_at,
        updated_at=row.updated_at,
    )


class TournamentOps:
    """The synchronous unit of work of every tournament call, on one connection."""

    def save(
        self, conn: Connection, record: TournamentRecord, links: Sequence[TableLink]
    ) -> TournamentRecord:
        now = ops_base.utcnow()
        t = tournaments.c
        if record.version == 1:
            exists = conn.execute(
                sa.select(t.version).where(t.tournament_id == record.tournament_id)
            ).first()
            if exists is not None:
                raise StaleWrite(f"tournament {record.tournament_id} already exists")
            busy = conn.execute(
                sa.select(t.tournament_id)
                .where(t.channel_id == record.channel_id, LIVE_TOURNAMENT_CLAUSE)
                .limit(1)
            ).first()
            if busy is not None and record.is_live:
                raise ChannelBusy(f"channel {record.channel_id} has a live tournament")
            created = record.created_at or now
            try:
                conn.execute(
                    sa.insert(tournaments).values(
                        tournament_id=record.tournament_id,
                        guild_id=record.guild_id,
                        channel_id=record.channel_id,
                        status=record.status,
                        version=1,
                        state=record.state,
                        created_at=created,
                        updated_at=now,
                        due_at=record.due_at,
                    )
                )
            except IntegrityError as exc:  # another process's insert won meanwhile
                raise ChannelBusy(f"channel {record.channel_id}: {exc.orig}") from exc
            saved = dataclasses.replace(record, created_at=created, updated_at=now)
        else:
            result = conn.execute(
                sa.update(tournaments)
                .where(
                    t.tournament_id == record.tournament_id,
                    t.version == record.version - 1,
                )
                .values(
                    status=record.status,
                    version=record.version,
                    state=record.state,
                    updated_at=now,
                    due_at=record.due_at,
                )
            )
            if result.rowcount != 1:
                raise StaleWrite(
                    f"tournament {record.tournament_id}: version {record.version - 1} "
                    "is no longer the stored one"
                )
            saved = dataclasses.replace(record, updated_at=now)
        for link in links:
            if link.tournament_id != record.tournament_id:
                raise ValueError(f"a link of another tournament: {link!r}")
        if links:
            try:
                conn.execute(
                    sa.insert(tournament_tables), [dataclasses.asdict(link) for link in links]
                )
            except IntegrityError as exc:
                raise StaleWrite(f"a table of {record.tournament_id} already linked") from exc
        return saved

    def load(self, conn: Connection, tournament_id: str) -> TournamentRecord | None:
        row = conn.execute(
            sa.select(tournaments).where(tournaments.c.tournament_id == tournament_id)
        ).first()
        return None if row is None else _record(row)

    def in_channel(self, conn: Connection, channel_id: int) -> TournamentRecord | None:
        """The live tournament of a channel, else the one created last there."""
        t = tournaments.c
        row = conn.execute(
            sa.select(tournaments)
            .where(t.channel_id == channel_id)
            .order_by(
                sa.case((LIVE_TOURNAMENT_CLAUSE, 0), else_=1),
                t.created_at.desc(),
                t.tournament_id,
            )
            .limit(1)
        ).first()
        return None if row is None else _record(row)

    def live(self, conn: Connection) -> list[TournamentRecord]:
        t = tournaments.c
        rows = conn.execute(
            sa.select(tournaments)
            .where(LIVE_TOURNAMENT_CLAUSE)
            .order_by(t.created_at, t.tournament_id)
        )
        return [_record(r) for r in rows]

    def of_guild(self, conn: Connection, guild_id: int, limit: int) -> list[TournamentRecord]:
        t = tournaments.c
        rows = conn.execute(
            sa.select(tournaments)
            .where(t.guild_id == guild_id)
            .order_by(t.created_at.desc(), t.tournament_id)
            .limit(limit)
        )
        return [_record(r) for r in rows]

    def overdue(self, conn: Connection, before: datetime, limit: int) -> list[str]:
        t = tournaments.c
        return list(
            conn.execute(
                sa.select(t.tournament_id)
                .where(LIVE_TOURNAMENT_CLAUSE, t.due_at < before)
                .order_by(t.due_at)
                .limit(limit)
            ).scalars()
        )

    def link_of(self, conn: Connection, table_id: str) -> TableLink | None:
        c = tournament_tables.c
        row = conn.execute(sa.select(tournament_tables).where(c.table_id == table_id)).first()
        if row is None:
            return None
        return TableLink(row.table_id, row.tournament_id, row.round_no, row.table_no)

    def links(self, conn: Connection, tournament_id: str) -> list[TableLink]:
        c = tournament_tables.c
        rows = conn.execute(
            sa.select(tournament_tables)
            .where(c.tournament_id == tournament_id)
            .order_by(c.round_no, c.table_no)
        )
        return [TableLink(r.table_id, r.tournament_id, r.round_no, r.table_no) for r in rows]


class TournamentStore:
    """``Store``'s tournament calls (its ``_runner``)."""

    _runner: Runner

    @cached_property
    def _tournament_ops(self) -> TournamentOps:
        return TournamentOps()

    async def save_tournament(
        self, record: TournamentRecord, links: Sequence[TableLink] = ()
    ) -> TournamentRecord:
        """Insert (version 1) or update (the stored version must be ``version - 1``), with
        the table links this save claims, in one transaction.

        :raises StaleWrite: another save came first (reload and try again).
        :raises ChannelBusy: a new live tournament where one is live already.
        """
        return await self._runner.write(self._tournament_ops.save, record, tuple(links))

    async def load_tournament(self, tournament_id: str) -> TournamentRecord | None:
        return await self._runner.read(self._tournament_ops.load, tournament_id)

    async def tournament_in_channel(self, channel_id: int) -> TournamentRecord | None:
        """The channel's live tournament, else its newest one; None if it never had one."""
        return await self._runner.read(self._tournament_ops.in_channel, channel_id)

    async def live_tournaments(self) -> list[TournamentRecord]:
        """Tournaments registering or running, oldest first (what a start-up looks at)."""
        return await self._runner.read(self._tournament_ops.live)

    async def guild_tournaments(self, guild_id: int, limit: int = 25) -> list[TournamentRecord]:
        """A server's tournaments, newest first."""
        return await self._runner.read(self._tournament_ops.of_guild, guild_id, limit)

    async def overdue_tournaments(self, before: datetime, limit: int = 100) -> list[str]:
        """Live tournaments whose nearest deadline passed before ``before``, most overdue
        first: any process takes them up."""
        return await self._runner.read(self._tournament_ops.overdue, before, limit)

    async def tournament_link(self, table_id: str) -> TableLink | None:
        """The tournament table a game table plays, if any."""
        return await self._runner.read(self._tournament_ops.link_of, table_id)

    async def tournament_links(self, tournament_id: str) -> list[TableLink]:
        return await self._runner.read(self._tournament_ops.links, tournament_id)
