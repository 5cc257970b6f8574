"""The store's SQL for reading standings: a server's ranked page, one member's row with their
rank, and a member's recent matches.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal

import sqlalchemy as sa
from sqlalchemy import Connection

from .ops_base import OpsBase
from .records import MatchSummary, PlayerRecord, StandingsPage
from .schema import match_players, matches, standings

MAX_PER_PAGE = 100


def _player_from_row(row: sa.Row[Any], rank: int) -> PlayerRecord:
    return PlayerRecord(
        guild_id=row.guild_id,
        user_id=row.user_id,
        display_name=row.display_name,
        rank=rank,
        matches_played=row.matches_played,
        matches_won=row.matches_won,
        win_rate=row.win_rate,
        hands_won=row.hands_won,
        kots_dealt=row.kots_dealt,
        hakem_kots_suffered=row.hakem_kots_suffered,
        last_played_at=row.last_played_at,
        game_format=row.game_format,
        rating=row.rating,
    )


StandingsOrder = Literal["rating", "wins"]
"""``rating`` (what ``/standings`` shows): the conservative rating, then wins, win
rate, fewer matches played; ``wins``: the same without the rating (the order before ratings)."""
_ORDERS: dict[str, tuple[tuple[str, bool], ...]] = {
    # (column, higher first)
    "rating": (
        ("rating", True),
        ("matches_won", True),
        ("win_rate", True),
        ("matches_played", False),
    ),
    "wins": (("matches_won", True), ("win_rate", True), ("matches_played", False)),
}


def _order_by(table: Any, order: str) -> list[Any]:
    """The listing order: the record's columns, then the user id, which only keeps it stable."""
    cols = [table.c[name].desc() if high else table.c[name].asc() for name, high in _ORDERS[order]]
    return [*cols, table.c.user_id.asc()]


def _record(row: sa.Row[Any], order: str) -> tuple[Any, ...]:
    """What decides a rank: the order's columns without the user id. Equal records share a
    rank (1, 1, 3)."""
    return tuple(getattr(row, name) for name, _ in _ORDERS[order])


def _rank_statement(order: str) -> sa.Select[Any]:
    """A member's row plus how many rows have a better record (``_record``, in the order of
    ``_ORDERS``), so the member's rank is that count plus one, shared with equal records."""
    me = standings.alias("me")
    o = standings.alias("o")
    keys = _ORDERS[order]
    better: list[Any] = []
    for i, (name, high) in enumerate(keys):
        same = [o.c[k] == me.c[k] for k, _ in keys[:i]]
        beats = o.c[name] > me.c[name] if high else o.c[name] < me.c[name]
        better.append(sa.and_(*same, beats))
    first = keys[0][0]
    ahead = (
        sa.select(sa.func.count())
        .select_from(o)
        .where(
            o.c.guild_id == me.c.guild_id,
            o.c.game_format == me.c.game_format,
            o.c[first] >= me.c[first],  # sargable bound: scan only the top part
            sa.or_(*better),
        )
        .scalar_subquery()
    )
    return sa.select(me, ahead.label("ahead")).where(
        me.c.guild_id == sa.bindparam("guild_id"),
        me.c.game_format == sa.bindparam("game_format"),
        me.c.user_id == sa.bindparam("user_id"),
    )


class StandingsOps(OpsBase):
    """The standings reads (the writes come with each recorded match, ``MatchOps``)."""

    def _prepare_standings(self) -> None:
        s = standings.c
        self.standings_pages = {
            order: sa.select(standings)
            .where(
                s.guild_id == sa.bindparam("guild_id"),
                s.game_format == sa.bindparam("game_format"),
            )
            .order_by(*_order_by(standings, order))
            .limit(sa.bindparam("limit"))
            .offset(sa.bindparam("offset"))
            for order in _ORDERS
        }
        self._standings_count = (
            sa.select(sa.func.count())
            .select_from(standings)
            .where(
                s.guild_id == sa.bindparam("guild_id"),
                s.game_format == sa.bindparam("game_format"),
            )
        )
        self.member_ranks = {order: _rank_statement(order) for order in _ORDERS}

    def standings(
        self,
        conn: Connection,
        guild_id: int,
        page: int,
        per_page: int,
        game_format: str,
        order: StandingsOrder = "rating",
    ) -> StandingsPage:
        offset = (page - 1) * per_page
        key = {"guild_id": guild_id, "game_format": game_format}
        total = conn.execute(self._standings_count, key).scalar_one()
        rows: Sequence[sa.Row[Any]] = []
        if offset < total:
            params = {**key, "limit": per_page, "offset": offset}
            rows = conn.execute(self.standings_pages[order], params).all()
        return StandingsPage(
            guild_id=guild_id,
            page=page,
            per_page=per_page,
            pages=max(1, math.ceil(total / per_page)),
            total_players=total,
            rows=tuple(self._ranked(conn, guild_id, game_format, rows, offset, order)),
            game_format=game_format,
        )

    def _ranked(
        self,
        conn: Connection,
        guild_id: int,
        game_format: str,
        rows: Sequence[sa.Row[Any]],
        offset: int,
        order: str,
    ) -> list[PlayerRecord]:
        """Standard competition ranks (1, 1, 3): a row with the same record as the one above
        it shares its rank, otherwise its rank is its place. A page's first row may tie with
        the page before, so its rank is counted (one indexed query, pages after the first)."""
        out: list[PlayerRecord] = []
        rank = 1
        for i, row in enumerate(rows):
            if i == 0 and offset > 0:
                key = {"guild_id": guild_id, "game_format": game_format, "user_id": row.user_id}
                first = conn.execute(self.member_ranks[order], key).one()
                rank = first.ahead + 1
            elif i > 0 and _record(row, order) != _record(rows[i - 1], order):
                rank = offset + i + 1
            out.append(_player_from_row(row, rank))
        return out

    def member_record(
        self,
        conn: Connection,
        guild_id: int,
        user_id: int,
        game_format: str,
        order: StandingsOrder = "rating",
    ) -> PlayerRecord | None:
        key = {"guild_id": guild_id, "game_format": game_format, "user_id": user_id}
        row = conn.execute(self.member_ranks[order], key).first()
        return None if row is None else _player_from_row(row, row.ahead + 1)

    def recent_matches(
        self, conn: Connection, guild_id: int, user_id: int, limit: int
    ) -> list[MatchSummary]:
        mp, m = match_players.c, matches.c
        stmt = (
            sa.select(
                m.match_id,
                m.channel_id,
                m.finished_at,
                mp.team,
                m.winner_team,
                m.team0_score,
                m.team1_score,
                m.target_score,
                m.hints,
                m.game_format,
                m.team_results,
            )
            .select_from(match_players.join(matches, m.match_id == mp.match_id))
            .where(mp.guild_id == guild_id, mp.user_id == user_id)
            .order_by(mp.finished_at.desc(), m.match_id.desc())
            .limit(limit)
        )
        return [
            MatchSummary(
                match_id=r.match_id,
                channel_id=r.channel_id,
                finished_at=r.finished_at,
                team=r.team,
                won=r.team == r.winner_team,
                scores=_scores(r),
                target_score=r.target_score,
                hints=bool(r.hints),
                game_format=r.game_format,
            )
            for r in conn.execute(stmt)
        ]


def _scores(row: Any) -> tuple[int, ...]:
    """Every team's score: from ``team_results`` (0003), else the two teams' columns."""
    if row.team_results:
        return tuple(int(team[0]) for team in row.team_results)
    return (row.team0_score, row.team1_score)
