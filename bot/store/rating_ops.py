"""The store's SQL for skill ratings: rating the matches a transaction records,
rebuilding every rating from the stored matches, and the reads of ``/standings``.

Ratings are applied in the order of ``(finished_at, match_id)``, live and in a rebuild alike:
a batch of matches (``Store.finish_matches``) is rated in that order, and a rebuild walks the
stored matches in it, so a rebuild gives the live values exactly. (Two matches sharing a member
recorded out of that order, a member at two tables finishing within the same instant, would
be the one case where a rebuild orders them differently from the live update.)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection

from ..ratings import INITIAL, Rating, is_rated, match_ranks, rate_match
from .ops_base import OpsBase
from .prepared import Prepared
from .records import FinishedMatch, MemberRating
from .schema import match_players, matches, rating_changes, ratings, standings

REBUILD_CHUNK = 2000
"""Stored matches read at a time by a rebuild (well under SQLite's bound-parameter limit)."""
TREND_MATCHES = 10
"""``/standings member`` shows the rating's change over this many of the last rated matches."""

CHART_MATCHES = 100
"""The web page's rating chart draws at most this many of the last rated matches."""

RatingKey = tuple[int, str, int]
"""Whose rating: (guild, format, user)."""
_Key = RatingKey


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """One rated match of a member, for the web page's chart: its id, its end and
    the member's conservative rating before and after it."""

    match_id: str
    finished_at: datetime
    before: float
    after: float


@dataclass(frozen=True, slots=True)
class Rateable:
    """What rating a match needs: its members by team (None for a computer seat), seat
    order within a team, and each team's place."""

    match_id: str
    guild_id: int
    game_format: str
    finished_at: datetime
    teams: tuple[tuple[int | None, ...], ...]
    ranks: tuple[int, ...]
    hints: bool
    rate_computers: bool
    rated: bool


def _rateable(
    head: Any, scores: Sequence[int], seats: Iterable[tuple[int, int, int | None]]
) -> Rateable:
    """``head`` has the match's id, guild, format, end, winner, hints, rate_computers and rated;
    ``seats`` are (seat, team, user id or None). A team without a seat is left out."""
    members: list[list[int | None]] = [[] for _ in scores]
    for _, team, user in sorted(seats, key=lambda s: s[0]):
        members[team].append(user)
    places = match_ranks(scores, head.winner_team)
    kept = [(tuple(team), place) for team, place in zip(members, places, strict=True) if team]
    return Rateable(
        match_id=head.match_id,
        guild_id=head.guild_id,
        game_format=head.game_format,
        finished_at=head.finished_at,
        teams=tuple(team for team, _ in kept),
        ranks=tuple(place for _, place in kept),
        hints=bool(head.hints),
        rate_computers=bool(head.rate_computers),
        rated=bool(head.rated),
    )


def rateable(m: FinishedMatch) -> Rateable:
    seats = [(p.seat, p.team, None if p.is_computer else p.user_id) for p in m.players]
    return _rateable(m, m.scores, seats)


_RATING_COLUMNS = (
    rating_changes.c.mu_before,
    rating_changes.c.sigma_before,
    rating_changes.c.mu_after,
    rating_changes.c.sigma_after,
)


def _stored_scores(row: Any) -> tuple[int, ...]:
    if row.team_results:
        return tuple(int(team[0]) for team in row.team_results)
    return (row.team0_score, row.team1_score)


def _rating_row(key: _Key, rating: Rating, rated: int) -> dict[str, Any]:
    return {
        "guild_id": key[0],
        "game_format": key[1],
        "user_id": key[2],
        "mu": rating.mu,
        "sigma": rating.sigma,
        "ordinal": rating.ordinal,
        "matches_rated": rated,
    }


class RatingOps(OpsBase):
    """Rate recorded matches in their transaction; rebuild; read ratings."""

    def _prepare_ratings(self) -> None:
        r = ratings.c
        self._read_ratings = sa.select(r.user_id, r.mu, r.sigma, r.matches_rated).where(
            r.guild_id == sa.bindparam("guild_id"),
            r.game_format == sa.bindparam("game_format"),
            r.user_id.in_(sa.bindparam("user_ids", expanding=True)),
        )
        self._read_ratings_of: dict[int, Prepared] = {}  # by how many members (see _ratings_of)
        self._insert_changes = Prepared(
            sa.insert(rating_changes), [c.key for c in rating_changes.c]
        )
        s = standings.c
        self._rank_by_rating = (
            sa.update(standings)
            .where(
                s.guild_id == sa.bindparam("k_guild_id"),
                s.game_format == sa.bindparam("k_game_format"),
                s.user_id == sa.bindparam("k_user_id"),
            )
            .values(rating=sa.bindparam("k_ordinal"))
        )
        if self.native_upsert:
            ins = self._insert(ratings)
            self._upsert_ratings = Prepared(
                ins.on_conflict_do_update(
                    index_elements=[r.guild_id, r.game_format, r.user_id],
                    set_={c: ins.excluded[c] for c in ("mu", "sigma", "ordinal", "matches_rated")},
                ),
                [c.key for c in ratings.c],
            )
        else:
            self._update_ratings = (
                sa.update(ratings)
                .where(
                    r.guild_id == sa.bindparam("k_guild_id"),
                    r.game_format == sa.bindparam("k_game_format"),
                    r.user_id == sa.bindparam("k_user_id"),
                )
                .values(
                    {c: sa.bindparam(f"k_{c}") for c in ("mu", "sigma", "ordinal", "matches_rated")}
                )
            )

    def _ratings_of(self, members: int) -> Prepared:
        """The ratings of ``members`` members (``u0``, ``u1``, ...) of a guild in a format: a
        statement per count (a table seats a handful), so it can be prepared, which an
        expanding ``IN`` cannot."""
        stmt = self._read_ratings_of.get(members)
        if stmt is None:
            r = ratings.c
            stmt = Prepared(
                sa.select(r.user_id, r.mu, r.sigma, r.matches_rated).where(
                    r.guild_id == sa.bindparam("guild_id"),
                    r.game_format == sa.bindparam("game_format"),
                    r.user_id.in_([sa.bindparam(f"u{i}") for i in range(members)]),
                )
            )
            self._read_ratings_of[members] = stmt
        return stmt

    # ----------------------------------------------------------------- writes

    def rate_matches(
        self, conn: Connection, new: Sequence[FinishedMatch]
    ) -> dict[RatingKey, float]:
        """Rate matches just recorded in this transaction (in rating order); each rated
        member's new conservative rating, which the caller writes into their standings row
        (in the same upsert as the match's standings gains)."""
        items = sorted((rateable(m) for m in new), key=lambda i: (i.finished_at, i.match_id))
        cache: dict[_Key, tuple[Rating, int]] = {}
        changes, touched = self._apply(conn, items, cache, load=True)
        if changes:
            self._insert_changes(conn, changes)
        rows = [_rating_row(key, *cache[key]) for key in sorted(touched)]
        if rows and self.native_upsert:
            self._upsert_ratings(conn, rows)
        for row in rows if not self.native_upsert else ():
            params = {f"k_{k}": v for k, v in row.items()}
            if conn.execute(self._update_ratings, params).rowcount == 0:
                conn.execute(sa.insert(ratings), row)
        return {key: row["ordinal"] for key, row in zip(sorted(touched), rows, strict=True)}

    def _mirror_to_standings(self, conn: Connection, rows: list[dict[str, Any]]) -> None:
        """A rebuild: each rated member's standings row gets their conservative rating, the
        leaderboard's order (a recorded match writes it with the row's gains instead)."""
        if rows:
            conn.execute(self._rank_by_rating, [{f"k_{k}": v for k, v in r.items()} for r in rows])

    def _apply(
        self,
        conn: Connection,
        items: Sequence[Rateable],
        cache: dict[_Key, tuple[Rating, int]],
        *,
        load: bool,
    ) -> tuple[list[dict[str, Any]], set[_Key]]:
        """Rate ``items`` in order on top of ``cache`` (members missing from it are read from
        the store when ``load``, else start at ``INITIAL``); the rating_changes rows made and
        the keys changed."""
        changes: list[dict[str, Any]] = []
        touched: set[_Key] = set()
        for item in items:
            if len(item.teams) < 2 or not is_rated(
                item.teams, hints=item.hints, rate_computers=item.rate_computers, rated=item.rated
            ):
                continue
            g, f = item.guild_id, item.game_format
            members = [u for team in item.teams for u in team if u is not None]
            missing = [u for u in members if (g, f, u) not in cache]
            if load and missing:
                params: dict[str, Any] = {"guild_id": g, "game_format": f}
                params.update((f"u{i}", u) for i, u in enumerate(missing))
                for row in self._ratings_of(len(missing))(conn, params):
                    cache[(g, f, row.user_id)] = (Rating(row.mu, row.sigma), row.matches_rated)
            current = {u: cache[(g, f, u)][0] for u in members if (g, f, u) in cache}
            new = rate_match(
                item.teams,
                item.ranks,
                current,
                hints=item.hints,
                rate_computers=item.rate_computers,
                rated=item.rated,
            )
            for user, after in new.items():
                key = (g, f, user)
                before, rated = cache.get(key, (INITIAL, 0))
                cache[key] = (after, rated + 1)
                touched.add(key)
                changes.append(
                    {
                        "match_id": item.match_id,
                        "user_id": user,
                        "guild_id": g,
                        "game_format": f,
                        "finished_at": item.finished_at,
                        "mu_before": before.mu,
                        "sigma_before": before.sigma,
                        "mu_after": after.mu,
                        "sigma_after": after.sigma,
                    }
                )
        return changes, touched

    def recompute_ratings(self, conn: Connection) -> int:
        """Forget every rating and rate every stored match again, in rating order; the number
        of matches that were rated."""
        conn.execute(sa.delete(rating_changes))
        conn.execute(sa.delete(ratings))
        conn.execute(sa.update(standings).values(rating=0.0))
        cache: dict[_Key, tuple[Rating, int]] = {}
        rated = 0
        for chunk in self._stored_matches(conn):
            changes, _ = self._apply(conn, chunk, cache, load=False)
            if changes:
                self._insert_changes(conn, changes)
                rated += len({c["match_id"] for c in changes})
        rows = [_rating_row(key, *value) for key, value in sorted(cache.items())]
        for start in range(0, len(rows), REBUILD_CHUNK):
            conn.execute(sa.insert(ratings), rows[start : start + REBUILD_CHUNK])
            self._mirror_to_standings(conn, rows[start : start + REBUILD_CHUNK])
        return rated

    def _stored_matches(self, conn: Connection) -> Iterator[list[Rateable]]:
        """Every stored match in rating order, ``REBUILD_CHUNK`` at a time (keyset pages)."""
        m, mp = matches.c, match_players.c
        head = sa.select(
            m.match_id,
            m.guild_id,
            m.game_format,
            m.finished_at,
            m.winner_team,
            m.hints,
            m.rate_computers,
            m.rated,
            m.team0_score,
            m.team1_score,
            m.team_results,
        ).order_by(m.finished_at, m.match_id)
        after: tuple[datetime, str] | None = None
        while True:
            stmt = head.limit(REBUILD_CHUNK)
            if after is not None:
                stmt = stmt.where(sa.tuple_(m.finished_at, m.match_id) > sa.tuple_(*after))
            rows = conn.execute(stmt).all()
            if not rows:
                return
            seats: dict[str, list[tuple[int, int, int | None]]] = {r.match_id: [] for r in rows}
            players = sa.select(mp.match_id, mp.seat, mp.team, mp.user_id, mp.is_computer).where(
                mp.match_id.in_(list(seats))
            )
            for p in conn.execute(players):
                seats[p.match_id].append((p.seat, p.team, None if p.is_computer else p.user_id))
            yield [_rateable(r, _stored_scores(r), seats[r.match_id]) for r in rows]
            after = (rows[-1].finished_at, rows[-1].match_id)

    # ----------------------------------------------------------------- reads

    def ratings_of(
        self, conn: Connection, guild_id: int, game_format: str, user_ids: Sequence[int]
    ) -> dict[int, MemberRating]:
        if not user_ids:
            return {}
        params = {"guild_id": guild_id, "game_format": game_format, "user_ids": list(user_ids)}
        return {
            row.user_id: MemberRating(
                row.user_id, row.mu, row.sigma, Rating(row.mu, row.sigma).ordinal, row.matches_rated
            )
            for row in conn.execute(self._read_ratings, params)
        }

    def rating_trend(
        self, conn: Connection, guild_id: int, user_id: int, game_format: str
    ) -> float | None:
        """How much the member's conservative rating moved over their last ``TREND_MATCHES``
        rated matches (None before their first)."""
        c = rating_changes.c
        stmt = (
            sa.select(c.mu_before, c.sigma_before, c.mu_after, c.sigma_after)
            .where(c.guild_id == guild_id, c.game_format == game_format, c.user_id == user_id)
            .order_by(c.finished_at.desc(), c.match_id.desc())
            .limit(TREND_MATCHES)
        )
        rows = conn.execute(stmt).all()
        if not rows:
            return None
        newest, oldest = rows[0], rows[-1]
        now = Rating(newest.mu_after, newest.sigma_after).ordinal
        return now - Rating(oldest.mu_before, oldest.sigma_before).ordinal

    def rating_history(
        self, conn: Connection, guild_id: int, user_id: int, game_format: str, limit: int
    ) -> list[RatingPoint]:
        """The member's last ``limit`` rated matches of a format here, oldest first (one walk
        of ``ix_rating_changes_member``, newest first, then turned round)."""
        c = rating_changes.c
        stmt = (
            sa.select(c.match_id, c.finished_at, *_RATING_COLUMNS)
            .where(c.guild_id == guild_id, c.game_format == game_format, c.user_id == user_id)
            .order_by(c.finished_at.desc(), c.match_id.desc())
            .limit(limit)
        )
        return [
            RatingPoint(
                r.match_id,
                r.finished_at,
                Rating(r.mu_before, r.sigma_before).ordinal,
                Rating(r.mu_after, r.sigma_after).ordinal,
            )
            for r in reversed(conn.execute(stmt).all())
        ]

    def match_rating_changes(self, conn: Connection, match_id: str) -> dict[int, float]:
        """Each rated member's change of conservative rating in one match."""
        c = rating_changes.c
        stmt = sa.select(c.user_id, c.mu_before, c.sigma_before, c.mu_after, c.sigma_after)
        return {
            r.user_id: Rating(r.mu_after, r.sigma_after).ordinal
            - Rating(r.mu_before, r.sigma_before).ordinal
            for r in conn.execute(stmt.where(c.match_id == match_id))
        }

    def best_partner(
        self, conn: Connection, guild_id: int, user_id: int, game_format: str
    ) -> tuple[int, int, int] | None:
        """The member's partner (a member on their team) with whom they won most matches of a
        format, ties by matches together, then the lower id: (user id, wins, matches)."""
        me, other, m = match_players.alias("me"), match_players.alias("other"), matches.c
        won = sa.func.sum(sa.case((m.winner_team == me.c.team, 1), else_=0))
        played = sa.func.count()
        stmt = (
            sa.select(other.c.user_id, won.label("won"), played.label("played"))
            .select_from(
                me.join(
                    other,
                    sa.and_(
                        other.c.match_id == me.c.match_id,
                        other.c.team == me.c.team,
                        other.c.seat != me.c.seat,
                    ),
                ).join(matches, m.match_id == me.c.match_id)
            )
            .where(
                me.c.guild_id == guild_id,
                me.c.user_id == user_id,
                m.game_format == game_format,
                other.c.is_computer == sa.false(),
            )
            .group_by(other.c.user_id)
            .order_by(won.desc(), played.desc(), other.c.user_id)
            .limit(1)
        )
        row = conn.execute(stmt).first()
        return None if row is None else (row.user_id, int(row.won), int(row.played))
