"""The store's SQL for finished matches: the match, its players and its replay recorded once
(by match id), and what each human gained added to their standings row in the same
transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError

from .errors import StoreError
from .prepared import Prepared
from .rating_ops import RatingKey, RatingOps
from .records import FinishedMatch
from .schema import UTCDateTime, match_players, match_replays, matches, standings

_STAT_COLUMNS = ("matches_played", "matches_won", "hands_won", "kots_dealt", "hakem_kots_suffered")


def _match_row(m: FinishedMatch) -> dict[str, Any]:
    """The first two teams in their columns (every format has two or more), and every team's
    results as JSON beside them (``team_results``: score, hands won, kots, hakem-kots)."""
    t0, t1 = m.team_stats[:2]
    return {
        "match_id": m.match_id,
        "guild_id": m.guild_id,
        "channel_id": m.channel_id,
        "started_at": m.started_at,
        "finished_at": m.finished_at,
        "target_score": m.target_score,
        "team0_score": m.scores[0],
        "team1_score": m.scores[1],
        "winner_team": m.winner_team,
        "team0_hands_won": t0.hands_won,
        "team0_kots_dealt": t0.kots_dealt,
        "team0_hakem_kots_suffered": t0.hakem_kots_suffered,
        "team1_hands_won": t1.hands_won,
        "team1_kots_dealt": t1.kots_dealt,
        "team1_hakem_kots_suffered": t1.hakem_kots_suffered,
        "hands": list(m.hands),
        "hints": m.hints,
        "game_format": m.game_format,
        "rate_computers": m.rate_computers,
        "rated": m.rated,
        "team_results": [
            [score, s.hands_won, s.kots_dealt, s.hakem_kots_suffered]
            for score, s in zip(m.scores, m.team_stats, strict=True)
        ],
    }


def _player_rows(m: FinishedMatch) -> list[dict[str, Any]]:
    return [
        {
            "match_id": m.match_id,
            "seat": p.seat,
            "team": p.team,
            "user_id": p.user_id,
            "is_computer": p.is_computer,
            "display_name": p.display_name,
            "guild_id": m.guild_id,
            "finished_at": m.finished_at,
        }
        for p in m.players
    ]


def _standings_deltas(
    new: Sequence[FinishedMatch], rated: dict[RatingKey, float]
) -> list[dict[str, Any]]:
    """What each human gains from these matches, summed per (guild, format, user), with
    their new conservative rating (``new_rating``) if these matches changed it (``rated``),
    else None: their row keeps its rating (0 for a new row)."""
    agg: dict[tuple[int, str, int], dict[str, Any]] = {}
    for m in new:
        for p in m.players:
            if p.is_computer or p.user_id is None:
                continue  # computers appear in the match record only
            team = m.team_stats[p.team]
            gain = {
                "matches_played": 1,
                "matches_won": int(m.winner_team == p.team),
                "hands_won": team.hands_won,
                "kots_dealt": team.kots_dealt,
                "hakem_kots_suffered": team.hakem_kots_suffered,
            }
            key = (m.guild_id, m.game_format, p.user_id)
            row = agg.get(key)
            if row is None:
                agg[key] = {
                    "guild_id": m.guild_id,
                    "game_format": m.game_format,
                    "user_id": p.user_id,
                    "display_name": p.display_name,
                    "last_played_at": m.finished_at,
                    **gain,
                }
                continue
            for col, value in gain.items():
                row[col] += value
            if m.finished_at >= row["last_played_at"]:
                row["last_played_at"] = m.finished_at
                row["display_name"] = p.display_name
    rows = []
    for key in sorted(agg):  # key order: fewer page hops, no lock-order surprises
        row = agg[key]
        row["win_rate"] = row["matches_won"] / row["matches_played"]
        row["new_rating"] = rated.get(key)
        rows.append(row)
    return rows


def _standings_merge(incoming: Any, new_rating: Any) -> dict[str, Any]:
    """SET clause adding `incoming` (EXCLUDED row or bind parameters) to a standings row, and
    setting its rating to `new_rating` unless that is NULL (not rated by this write).

    `win_rate` uses the same float division as the insert path so equal ratios tie exactly.
    """
    s = standings.c
    played = s.matches_played + incoming.matches_played
    won = s.matches_won + incoming.matches_won
    newer = incoming.last_played_at >= s.last_played_at
    values: dict[str, Any] = {col: s[col] + getattr(incoming, col) for col in _STAT_COLUMNS}
    values["win_rate"] = sa.cast(won, sa.Float) / played
    values["display_name"] = sa.case((newer, incoming.display_name), else_=s.display_name)
    values["last_played_at"] = sa.case((newer, incoming.last_played_at), else_=s.last_played_at)
    values["rating"] = sa.func.coalesce(new_rating, s.rating)
    return values


class MatchOps(RatingOps):
    """Record finished matches exactly once and fold them into the standings and the
    ratings (``RatingOps``), in the transaction that records them."""

    def _prepare_matches(self) -> None:
        self._insert_players = Prepared(sa.insert(match_players), _columns(match_players))
        self._insert_replays = Prepared(sa.insert(match_replays), _columns(match_replays))
        # None: the member's rating did not change in this write (see _standings_deltas)
        new_rating = sa.bindparam("new_rating", type_=sa.Float())
        if self.native_upsert:
            ins = self._insert(matches)
            self._insert_match = Prepared(
                ins.on_conflict_do_nothing(index_elements=[matches.c.match_id]), _columns(matches)
            )
            self._insert_matches = ins.on_conflict_do_nothing(
                index_elements=[matches.c.match_id]
            ).returning(matches.c.match_id)
            # The standings row and the rating it is ranked by, in one upsert per member.
            ins = self._insert(standings).values(rating=sa.func.coalesce(new_rating, 0.0))
            self._upsert_standings = Prepared(
                ins.on_conflict_do_update(
                    index_elements=[
                        standings.c.guild_id,
                        standings.c.game_format,
                        standings.c.user_id,
                    ],
                    set_=_standings_merge(ins.excluded, new_rating),
                ),
                [c for c in _columns(standings) if c != "rating"],
            )
        else:
            incoming = SimpleNamespace(
                **{c: sa.bindparam(f"in_{c}", type_=sa.Integer()) for c in _STAT_COLUMNS},
                display_name=sa.bindparam("in_display_name", type_=sa.String()),
                last_played_at=sa.bindparam("in_last_played_at", type_=UTCDateTime()),
            )
            self._update_standings = (
                sa.update(standings)
                .where(
                    standings.c.guild_id == sa.bindparam("in_guild_id"),
                    standings.c.game_format == sa.bindparam("in_game_format"),
                    standings.c.user_id == sa.bindparam("in_user_id"),
                )
                .values(_standings_merge(incoming, sa.bindparam("in_new_rating", type_=sa.Float())))
            )

    def record_matches(self, conn: Connection, batch: Sequence[FinishedMatch]) -> list[bool]:
        """Insert the matches not yet recorded, their players, replays and standings (and
        rate them); per-input flags."""
        first: dict[str, int] = {}
        for i, m in enumerate(batch):
            first.setdefault(m.match_id, i)
        candidates = [batch[i] for i in first.values()]
        try:
            inserted = self._insert_new_matches(conn, candidates)
            new = [m for m in candidates if m.match_id in inserted]
            if new:
                players = [row for m in new for row in _player_rows(m)]
                if players:
                    self._insert_players(conn, players)
                replays = [
                    {"match_id": m.match_id, "replay": m.replay}
                    for m in new
                    if m.replay is not None
                ]
                if replays:
                    self._insert_replays(conn, replays)
                rated = self.rate_matches(conn, new)
                deltas = _standings_deltas(new, rated)
                if deltas:
                    self.add_to_standings(conn, deltas)
        except IntegrityError as exc:  # the caller's transaction rolls back: nothing is kept
            ids = ", ".join(m.match_id for m in candidates[:3])
            more = "..." if len(candidates) > 3 else ""
            raise StoreError(f"match {ids}{more} rejected by the database: {exc.orig}") from exc
        return [first[m.match_id] == i and m.match_id in inserted for i, m in enumerate(batch)]

    def _insert_new_matches(
        self, conn: Connection, candidates: Sequence[FinishedMatch]
    ) -> set[str]:
        rows = [_match_row(m) for m in candidates]
        if self.native_upsert and len(rows) == 1:  # the bot's case: rowcount says it all
            done = self._insert_match(conn, rows[0]).rowcount
            return {rows[0]["match_id"]} if done == 1 else set()
        if self.native_upsert:
            return set(conn.execute(self._insert_matches, rows).scalars())
        ids = [r["match_id"] for r in rows]
        existing = set(
            conn.execute(sa.select(matches.c.match_id).where(matches.c.match_id.in_(ids))).scalars()
        )
        fresh = [r for r in rows if r["match_id"] not in existing]
        if fresh:
            conn.execute(sa.insert(matches), fresh)
        return {r["match_id"] for r in fresh}

    def add_to_standings(self, conn: Connection, deltas: list[dict[str, Any]]) -> None:
        """Each delta (``_standings_deltas``) added to its member's row, made if missing."""
        if self.native_upsert:
            self._upsert_standings(conn, deltas)
            return
        for row in deltas:  # portable fallback: update, insert if there was nothing to update
            params = {f"in_{k}": v for k, v in row.items()}
            if conn.execute(self._update_standings, params).rowcount == 0:
                values = {k: v for k, v in row.items() if k != "new_rating"}
                values["rating"] = 0.0 if row["new_rating"] is None else row["new_rating"]
                conn.execute(sa.insert(standings), values)


def _columns(table: sa.Table) -> list[str]:
    """Every column of ``table``: what a row dict of it gives (the INSERT's column list)."""
    return [c.key for c in table.c]
