"""PostgreSQL: a finished match's write in two statements, so four round trips (BEGIN, these
two, COMMIT) instead of eleven.

On PostgreSQL every statement is a round trip to the server, and the match write was ten of
them (the match, its players, its replay, the members' ratings read, the rating changes, the
ratings, the standings, the table's final save, its seats), each waited for in turn. Here:

1. ``record``: the match row (``ON CONFLICT DO NOTHING``), its players (if it was new) and,
   in the same statement, the stored ratings of the match's members (read for the rating
   update, which runs in Python). No row inserted: the match was already recorded, and
   nothing else is written.
2. ``rest``: everything else as data-modifying CTEs of one statement: the replay, the
   rating changes, the ratings, the standings (gains and rating in one upsert per member,
   as ``MatchOps``), the table's final save (optimistic version check and its
   ``pg_notify``, as ``TableOps.save_table``) and the freeing of the table's seats in
   ``seated_members`` (as ``TableOps._seat`` for a table that ends). The rows come as one
   array per column (``unnest``), so the text is the same whatever the number of members and
   the statement is prepared once per connection.

What the rows hold is built by the same functions as the statement-per-table path
(``_match_row``, ``_player_rows``, ``_standings_deltas``, ``RatingOps._apply``), and the
standings merge is the same ``_standings_merge``; the results are the same (the store tests
run on PostgreSQL). A new table's first save (version 1) keeps that path: it is no final save.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import sqlalchemy as sa
from sqlalchemy import Connection
from sqlalchemy.dialects import postgresql
from sqlalchemy.exc import IntegrityError

from ..ratings import Rating
from . import ops_base
from .errors import StaleWrite, StoreError
from .match_ops import _match_row, _player_rows, _standings_deltas, _standings_merge
from .prepared import Prepared
from .rating_ops import Rateable, RatingKey, _rating_row, rateable
from .records import FinishedMatch, TableRecord
from .schema import (
    game_tables,
    match_players,
    match_replays,
    matches,
    rating_changes,
    ratings,
    seated_members,
    standings,
)
from .table_ops import TABLES_CHANNEL

__all__ = ["MatchWrite"]


class WriteOps(Protocol):
    """What the write takes from ``Ops``: the rating update and a stale table's error."""

    def _apply(
        self,
        conn: Connection,
        items: Sequence[Rateable],
        cache: dict[RatingKey, tuple[Rating, int]],
        *,
        load: bool,
    ) -> tuple[list[dict[str, Any]], set[RatingKey]]: ...

    def _stale(self, conn: Connection, record: TableRecord) -> StaleWrite: ...


def _columns(table: sa.Table) -> list[str]:
    return [c.key for c in table.c]


def _insert_rows(table: sa.Table, prefix: str, where: Any = None) -> Any:
    """INSERT INTO ``table`` (every column) the rows given as one array parameter per column,
    ``<prefix>_<column>`` (``unnest``): a multi-row insert whose text does not depend on how
    many rows there are. ``where``: a condition on inserting them at all."""
    columns = _columns(table)
    arrays = [
        sa.bindparam(f"{prefix}_{c}", type_=postgresql.ARRAY(table.c[c].type)) for c in columns
    ]
    rows = sa.func.unnest(*arrays).table_valued(*columns).render_derived(name=prefix)
    select = sa.select(*[rows.c[c] for c in columns])
    if where is not None:
        select = select.where(where)
    return postgresql.insert(table).from_select(columns, select)


def _arrays(rows: Sequence[dict[str, Any]], table: sa.Table, prefix: str) -> dict[str, list[Any]]:
    """The parameters of ``_insert_rows(table, prefix)`` for these rows."""
    return {f"{prefix}_{c}": [r[c] for r in rows] for c in _columns(table)}


class MatchWrite:
    """The two statements, built once (see the module's docstring)."""

    def __init__(self) -> None:
        m, r = matches.c, ratings.c
        new = (
            postgresql.insert(matches)
            .values({c.key: sa.bindparam(c.key, type_=c.type) for c in matches.c})
            .on_conflict_do_nothing(index_elements=[m.match_id])
            .returning(m.match_id)
            .cte("new")
        )
        # the players with it (only if it is new), so the database checks them first
        players = _insert_rows(match_players, "p", where=sa.exists(new.select())).cte("players")
        inserted = sa.select(sa.func.count().label("inserted")).select_from(new).subquery("n")
        self.record = Prepared(
            sa.select(inserted.c.inserted, r.user_id, r.mu, r.sigma, r.matches_rated)
            .add_cte(players)
            .select_from(
                inserted.outerjoin(
                    ratings,
                    sa.and_(
                        r.guild_id == sa.bindparam("guild_id", type_=m.guild_id.type),
                        r.game_format == sa.bindparam("game_format", type_=m.game_format.type),
                        r.user_id
                        == sa.any_(sa.bindparam("members", type_=postgresql.ARRAY(sa.BigInteger))),
                    ),
                )
            )
        )

        replays = _insert_rows(match_replays, "r").cte("replays")
        changes = _insert_rows(rating_changes, "c").cte("changes")
        ins = _insert_rows(ratings, "k")
        rated = ins.on_conflict_do_update(
            index_elements=[r.guild_id, r.game_format, r.user_id],
            set_={c: ins.excluded[c] for c in ("mu", "sigma", "ordinal", "matches_rated")},
        ).cte("rated")
        ins = _insert_rows(standings, "s")
        # a member rated by this match gets the rating inserted with the row (their new one);
        # any other keeps the row's (0 for a new row: ``_standings_deltas``)
        rated_now = ins.excluded.user_id == sa.any_(
            sa.bindparam("s_rated", type_=postgresql.ARRAY(sa.BigInteger))
        )
        ranked = ins.on_conflict_do_update(
            index_elements=[standings.c.guild_id, standings.c.game_format, standings.c.user_id],
            set_=_standings_merge(
                ins.excluded, sa.case((rated_now, ins.excluded.rating), else_=None)
            ),
        ).cte("ranked")
        t = game_tables.c
        saved = (
            sa.update(game_tables)
            .where(t.table_id == sa.bindparam("b_table_id"), t.version == sa.bindparam("b_prev"))
            .values(
                status=sa.bindparam("b_status"),
                version=sa.bindparam("b_version"),
                state=sa.bindparam("b_state", type_=t.state.type),
                updated_at=sa.bindparam("b_updated_at", type_=t.updated_at.type),
                due_at=sa.bindparam("b_due_at", type_=t.due_at.type),
            )
            .returning(
                sa.func.pg_notify(
                    sa.literal(TABLES_CHANNEL), t.table_id + " " + sa.cast(t.version, sa.String)
                )
            )
            .cte("saved")
        )
        freed = (
            sa.delete(seated_members)
            .where(seated_members.c.table_id == sa.bindparam("b_table_id"))
            .cte("freed")
        )
        self.rest = Prepared(
            sa.select(sa.select(sa.func.count()).select_from(saved).scalar_subquery()).add_cte(
                replays, changes, rated, ranked, freed
            )
        )

    def finish(
        self, ops: WriteOps, conn: Connection, match: FinishedMatch, table: TableRecord | None
    ) -> bool:
        """``Ops.finish_match`` on PostgreSQL, for a match alone or with its table's final
        save (status "finished", the stored version must be ``table.version - 1``)."""
        members = [p.user_id for p in match.players if p.user_id is not None and not p.is_computer]
        players = _arrays(_player_rows(match), match_players, "p")
        try:
            found = self.record(conn, _match_row(match) | players | {"members": members}).all()
        except IntegrityError as exc:
            raise StoreError(
                f"match {match.match_id} rejected by the database: {exc.orig}"
            ) from exc
        if found[0].inserted == 0:
            return False  # recorded before: a retry never counts a match twice
        g, f = match.guild_id, match.game_format
        cache = {
            (g, f, row.user_id): (Rating(row.mu, row.sigma), row.matches_rated)
            for row in found
            if row.user_id is not None
        }
        changes, touched = ops._apply(conn, [rateable(match)], cache, load=False)
        new_ratings = [_rating_row(key, *cache[key]) for key in sorted(touched)]
        deltas = _standings_deltas([match], {key: cache[key][0].ordinal for key in touched})
        for row in deltas:
            row["rating"] = 0.0 if row["new_rating"] is None else row["new_rating"]
        replays = (
            [] if match.replay is None else [{"match_id": match.match_id, "replay": match.replay}]
        )
        params: dict[str, Any] = {
            **_arrays(replays, match_replays, "r"),
            **_arrays(changes, rating_changes, "c"),
            **_arrays(new_ratings, ratings, "k"),
            **_arrays(deltas, standings, "s"),
            "s_rated": [key[2] for key in sorted(touched)],
            "b_table_id": None,
            "b_prev": None,
            "b_status": None,
            "b_version": None,
            "b_state": None,
            "b_updated_at": None,
            "b_due_at": None,
        }
        if table is not None:
            params.update(
                b_table_id=table.table_id,
                b_prev=table.version - 1,
                b_status="finished",
                b_version=table.version,
                b_state=table.state,
                b_updated_at=ops_base.utcnow(),
                b_due_at=table.due_at,
            )
        try:
            saved = self.rest(conn, params).scalar_one()
        except IntegrityError as exc:
            raise StoreError(
                f"match {match.match_id} rejected by the database: {exc.orig}"
            ) from exc
        if table is not None and saved != 1:
            raise ops._stale(conn, table)  # the caller's transaction rolls back: nothing kept
        return True
