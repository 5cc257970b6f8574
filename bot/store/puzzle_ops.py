"""The store's double-dummy puzzles: puzzles harvested from a finished match's
analysis, and members' answers.

A puzzle is written only for a match recorded in ``matches`` (finished: a live table never has
a row there), of the server that played it; a second harvest of the same decision writes
nothing. What a member is offered never comes from a match they played (``match_players``)
and never one they answered. ``PuzzleStore`` is ``Store``'s part for them (its ``_runner``),
with its own statements (``PuzzleOps``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection
from sqlalchemy.dialects import postgresql, sqlite

from .runner import Runner
from .schema import match_players, matches
from .schema_puzzles import puzzle_attempts, puzzles


@dataclass(frozen=True, slots=True)
class NewPuzzle:
    """A puzzle to store: which decision of the match (hand, card of the hand, from 0) and
    the engine's JSON of it (``engine.dd_puzzles.Puzzle.to_dict``)."""

    hand_no: int
    move_no: int
    data: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class StoredPuzzle:
    """A stored puzzle; ``data`` as the engine wrote it (read back by ``dd_puzzles.from_dict``,
    which checks it)."""

    puzzle_id: int
    guild_id: int
    match_id: str
    game_format: str
    data: Any


@dataclass(frozen=True, slots=True)
class PuzzleCounts:
    """A member's puzzles here: answered right the first time, and answered at all."""

    solved: int
    tried: int


def _stored(row: sa.Row[Any]) -> StoredPuzzle:
    return StoredPuzzle(row.puzzle_id, row.guild_id, row.match_id, row.game_format, row.puzzle)


class PuzzleOps:
    """The puzzle statements, as synchronous work on one connection."""

    def add(self, conn: Connection, match_id: str, found: Sequence[NewPuzzle]) -> int:
        """Store a finished match's puzzles under its server and format; how many were new
        (0 when no such match is finished)."""
        m = matches.c
        known = conn.execute(
            sa.select(m.guild_id, m.game_format).where(m.match_id == match_id)
        ).first()
        if known is None or not found:
            return 0
        guild_id, game_format = known
        rows = [
            {
                "guild_id": guild_id,
                "match_id": match_id,
                "hand_no": p.hand_no,
                "move_no": p.move_no,
                "game_format": game_format,
                "puzzle": dict(p.data),
            }
            for p in found
        ]
        insert = (postgresql if conn.dialect.name == "postgresql" else sqlite).insert(puzzles)
        stmt = insert.on_conflict_do_nothing()
        # one by one: a match has a few puzzles, and a batch's rowcount is not portable
        return sum(conn.execute(stmt, row).rowcount == 1 for row in rows)

    def next_for(self, conn: Connection, guild_id: int, user_id: int) -> StoredPuzzle | None:
        """The newest puzzle of this server from a match the member did not play, that they
        have not answered."""
        p, mp, a = puzzles.c, match_players.c, puzzle_attempts.c
        own = sa.select(mp.match_id).where(mp.guild_id == guild_id, mp.user_id == user_id)
        tried = sa.select(a.puzzle_id).where(a.guild_id == guild_id, a.user_id == user_id)
        row = conn.execute(
            sa.select(puzzles)
            .where(p.guild_id == guild_id, p.match_id.not_in(own), p.puzzle_id.not_in(tried))
            .order_by(p.puzzle_id.desc())
            .limit(1)
        ).first()
        return None if row is None else _stored(row)

    def get(self, conn: Connection, guild_id: int, puzzle_id: int) -> StoredPuzzle | None:
        p = puzzles.c
        row = conn.execute(
            sa.select(puzzles).where(p.puzzle_id == puzzle_id, p.guild_id == guild_id)
        ).first()
        return None if row is None else _stored(row)

    def played_in(self, conn: Connection, user_id: int, match_id: str) -> bool:
        mp = match_players.c
        stmt = sa.select(mp.seat).where(mp.match_id == match_id, mp.user_id == user_id)
        return conn.execute(stmt.limit(1)).first() is not None

    def attempt(
        self,
        conn: Connection,
        guild_id: int,
        user_id: int,
        puzzle_id: int,
        card: int,
        solved: bool,
        at: datetime,
    ) -> bool:
        """Record a member's answer; False (nothing written) when they answered before."""
        insert = (postgresql if conn.dialect.name == "postgresql" else sqlite).insert(
            puzzle_attempts
        )
        row = {
            "puzzle_id": puzzle_id,
            "user_id": user_id,
            "guild_id": guild_id,
            "card": card,
            "solved": solved,
            "answered_at": at,
        }
        return conn.execute(insert.on_conflict_do_nothing(), row).rowcount == 1

    def counts(self, conn: Connection, guild_id: int, user_id: int) -> PuzzleCounts:
        a = puzzle_attempts.c
        row = conn.execute(
            sa.select(
                sa.func.count(), sa.func.coalesce(sa.func.sum(sa.case((a.solved, 1), else_=0)), 0)
            ).where(a.guild_id == guild_id, a.user_id == user_id)
        ).one()
        return PuzzleCounts(solved=int(row[1]), tried=int(row[0]))

    def of_the_day(self, conn: Connection, guild_id: int, day: int) -> StoredPuzzle | None:
        """Day ``day``'s puzzle of a server: the server's puzzles taken in turn, a day each."""
        p = puzzles.c
        total = conn.execute(
            sa.select(sa.func.count()).select_from(puzzles).where(p.guild_id == guild_id)
        ).scalar_one()
        if not total:
            return None
        row = conn.execute(
            sa.select(puzzles)
            .where(p.guild_id == guild_id)
            .order_by(p.puzzle_id)
            .offset(day % total)
            .limit(1)
        ).first()
        return None if row is None else _stored(row)

    def discard(self, conn: Connection, puzzle_id: int) -> bool:
        """Remove a puzzle the solver no longer confirms (with its answers)."""
        a = puzzle_attempts.c
        conn.execute(sa.delete(puzzle_attempts).where(a.puzzle_id == puzzle_id))
        done = conn.execute(sa.delete(puzzles).where(puzzles.c.puzzle_id == puzzle_id))
        return done.rowcount == 1


class PuzzleStore:
    """``Store``'s puzzle calls (its ``_runner``)."""

    _runner: Runner

    @cached_property
    def _puzzle_ops(self) -> PuzzleOps:
        return PuzzleOps()

    async def add_puzzles(self, match_id: str, found: Sequence[NewPuzzle]) -> int:
        """Store a finished match's puzzles (none for a match not finished); how many were
        new."""
        return await self._runner.write(self._puzzle_ops.add, match_id, tuple(found))

    async def next_puzzle(self, guild_id: int, user_id: int) -> StoredPuzzle | None:
        """A puzzle for a member: not from their matches, not answered yet."""
        return await self._runner.read(self._puzzle_ops.next_for, guild_id, user_id)

    async def puzzle(self, guild_id: int, puzzle_id: int) -> StoredPuzzle | None:
        return await self._runner.read(self._puzzle_ops.get, guild_id, puzzle_id)

    async def played_in(self, user_id: int, match_id: str) -> bool:
        """Whether a member played in a finished match."""
        return await self._runner.read(self._puzzle_ops.played_in, user_id, match_id)

    async def record_attempt(
        self, guild_id: int, user_id: int, puzzle_id: int, card: int, solved: bool, at: datetime
    ) -> bool:
        """A member's answer; only the first one counts (False: answered before)."""
        return await self._runner.write(
            self._puzzle_ops.attempt, guild_id, user_id, puzzle_id, card, solved, at
        )

    async def puzzle_counts(self, guild_id: int, user_id: int) -> PuzzleCounts:
        return await self._runner.read(self._puzzle_ops.counts, guild_id, user_id)

    async def puzzle_of_the_day(self, guild_id: int, day: int) -> StoredPuzzle | None:
        """``day``: days since 1970-01-01 (UTC); the server's puzzles a day each, in turn."""
        return await self._runner.read(self._puzzle_ops.of_the_day, guild_id, day)

    async def discard_puzzle(self, puzzle_id: int) -> bool:
        return await self._runner.write(self._puzzle_ops.discard, puzzle_id)
