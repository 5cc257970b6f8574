"""The store's SQL for ``/hokm history``: a page of a server's or a member's
finished matches, newest first, and one finished match with its replay record.

Every read names the server: a match id from another server finds nothing. Only finished
matches are here (a live table is never in ``matches``), so nothing read here can show a
hand still being played.

A page is one index walk for its ids (``ix_matches_guild_history`` for a server,
``ix_match_players_history`` for a member, both ordered ``finished_at, match_id``) joined to
its ten matches, their players by primary key, and a count that stops at ``HISTORY_DEPTH`` + 1:
a server with a million matches costs what one with a thousand does.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy import Connection

from .ops_base import OpsBase
from .records import HistoryEntry, HistoryPage, MatchPlayer, StoredReplay
from .schema import match_players, match_replays, matches

HISTORY_DEPTH: Final = 1_000
"""How far back ``/hokm history`` pages (100 pages of ten): the count stops here, so its cost
does not grow with the server's age (at a million matches, counting a busy server's 6,000
took a millisecond, the page's largest part), and no page is an offset past it."""

_MATCH_COLUMNS = (
    matches.c.match_id,
    matches.c.channel_id,
    matches.c.finished_at,
    matches.c.game_format,
    matches.c.target_score,
    matches.c.team0_score,
    matches.c.team1_score,
    matches.c.team_results,
    matches.c.winner_team,
    matches.c.hints,
)
_PLAYER_COLUMNS = (
    match_players.c.match_id,
    match_players.c.seat,
    match_players.c.team,
    match_players.c.user_id,
    match_players.c.is_computer,
    match_players.c.display_name,
)


def _page_of(ids: sa.Subquery) -> sa.Select[Any]:
    """The matches named by a page of ids, in the page's order (their players come apart: a
    join would repeat, and decode again, every match's columns once per player)."""
    return (
        sa.select(*_MATCH_COLUMNS)
        .select_from(ids.join(matches, matches.c.match_id == ids.c.match_id))
        .order_by(ids.c.finished_at.desc(), ids.c.match_id.desc())
    )


def _entries(heads: Sequence[Any], seats: Iterable[Any]) -> list[HistoryEntry]:
    """One entry per match row, with its players (rows of any order) in seat order."""
    players: dict[str, list[MatchPlayer]] = {row.match_id: [] for row in heads}
    for p in sorted(seats, key=lambda p: p.seat):
        players[p.match_id].append(
            MatchPlayer(
                seat=p.seat,
                team=p.team,
                user_id=p.user_id,
                is_computer=bool(p.is_computer),
                display_name=p.display_name,
            )
        )
    return [_entry(row, players[row.match_id]) for row in heads]


def _entry(row: sa.Row[Any], players: list[MatchPlayer]) -> HistoryEntry:
    if row.team_results:
        scores = tuple(int(team[0]) for team in row.team_results)
    else:
        scores = (row.team0_score, row.team1_score)
    return HistoryEntry(
        match_id=row.match_id,
        channel_id=row.channel_id,
        finished_at=row.finished_at,
        game_format=row.game_format,
        target_score=row.target_score,
        scores=scores,
        winner_team=row.winner_team,
        hints=bool(row.hints),
        players=tuple(players),
    )


class HistoryOps(OpsBase):
    """Reads of the finished matches for ``/hokm history`` and its Replay."""

    def _prepare_history(self) -> None:
        m, mp = matches.c, match_players.c
        guild: Any = sa.bindparam("guild_id", type_=sa.BigInteger())
        user: Any = sa.bindparam("user_id", type_=sa.BigInteger())
        limit: Any = sa.bindparam("limit", type_=sa.Integer())
        offset: Any = sa.bindparam("offset", type_=sa.Integer())
        server = (
            sa.select(m.match_id, m.finished_at)
            .where(m.guild_id == guild)
            .order_by(m.finished_at.desc(), m.match_id.desc())
            .limit(limit)
            .offset(offset)
            .subquery("ids")
        )
        member = (
            sa.select(mp.match_id, mp.finished_at)
            .where(mp.guild_id == guild, mp.user_id == user)
            .order_by(mp.finished_at.desc(), mp.match_id.desc())
            .limit(limit)
            .offset(offset)
            .subquery("ids")
        )
        self._history_pages = {False: _page_of(server), True: _page_of(member)}
        cap: Any = sa.bindparam("cap", type_=sa.Integer())
        self._history_counts = {
            False: sa.select(sa.func.count()).select_from(
                sa.select(m.match_id).where(m.guild_id == guild).limit(cap).subquery()
            ),
            True: sa.select(sa.func.count()).select_from(
                sa.select(mp.match_id)
                .where(mp.guild_id == guild, mp.user_id == user)
                .limit(cap)
                .subquery()
            ),
        }
        self._players_of = sa.select(*_PLAYER_COLUMNS).where(
            mp.match_id.in_(sa.bindparam("ids", expanding=True))
        )
        self._one_match = sa.select(*_MATCH_COLUMNS).where(
            m.match_id == sa.bindparam("match_id"), m.guild_id == guild
        )
        self._replay_of = sa.select(match_replays.c.replay).where(
            match_replays.c.match_id == sa.bindparam("match_id")
        )

    def history_page(
        self, conn: Connection, guild_id: int, user_id: int | None, page: int, per_page: int
    ) -> HistoryPage:
        member = user_id is not None
        key: dict[str, Any] = {"guild_id": guild_id, "user_id": user_id}
        found = conn.execute(self._history_counts[member], {**key, "cap": HISTORY_DEPTH + 1})
        counted = found.scalar_one()
        total = min(counted, HISTORY_DEPTH)
        offset = (page - 1) * per_page
        rows: list[HistoryEntry] = []
        if offset < total:
            limit = min(per_page, total - offset)
            params = {**key, "limit": limit, "offset": offset}
            rows = self._with_players(conn, conn.execute(self._history_pages[member], params).all())
        return HistoryPage(
            guild_id=guild_id,
            user_id=user_id,
            page=page,
            per_page=per_page,
            total=total,
            deeper=counted > HISTORY_DEPTH,
            rows=tuple(rows),
        )

    def match_replay(self, conn: Connection, guild_id: int, match_id: str) -> StoredReplay | None:
        """The match and its replay record, if this server finished a match of that id."""
        params = {"guild_id": guild_id, "match_id": match_id}
        entries = self._with_players(conn, conn.execute(self._one_match, params).all())
        if not entries:
            return None
        replay = conn.execute(self._replay_of, params).scalar_one_or_none()
        return StoredReplay(entries[0], replay)

    def match_started_at(self, conn: Connection, guild_id: int, match_id: str) -> datetime | None:
        """When a match this server finished began (the web page's match length)."""
        m = matches.c
        stmt = sa.select(m.started_at).where(m.match_id == match_id, m.guild_id == guild_id)
        started: datetime | None = conn.execute(stmt).scalar_one_or_none()
        return started

    def _with_players(self, conn: Connection, heads: Sequence[Any]) -> list[HistoryEntry]:
        """The matches of ``heads`` (rows of ``_MATCH_COLUMNS``) with their players."""
        if not heads:
            return []
        seats = conn.execute(self._players_of, {"ids": [row.match_id for row in heads]})
        return _entries(heads, seats)
