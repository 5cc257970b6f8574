"""Every change is stored before anyone sees it, and a failed write goes back to what the
store holds.

The keeper remembers, per live table, the state of its last successful write (taken from the
write itself, so an action costs one serialization, not two) and restores a table *in place*
from it: the Discord side and waiting clicks hold references to the ``Table`` object.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from ..ratings import Rating, is_rated, win_chances
from ..store import FinishedMatch, Store, TableRecord
from .events import MatchOver, Started
from .history import finished_match, log_line
from .ports import Pace, Update
from .table import Table

log = logging.getLogger(__name__)


def position(table: Table) -> tuple[int, int] | None:
    """(hand number, actions so far) of the table's match, if it has one."""
    match = table.match
    return None if match is None else (match.hand_number, len(match.actions))


STOPPED_SAVING = "stopped while saving, maybe stored: "
"""Before a change's words when the process was stopped in the middle of saving it (a
graceful stop cancels what is in flight; the database may have committed it all the same)."""


def writer(table: Table, by: str, version: int | None = None) -> str:
    """Who stored which version and move of a table, for its log line: ``v=`` the version
    saved, ``move=`` the match's actions so far (the stored record's move number), ``by=``
    an action or a timer, ``pid=`` this process. With several processes one table's lines
    come from each, and a move's line is how the load bench's audit finds who wrote it
    (``bench/audit.py``). Public facts only: never a card."""
    moves = position(table)
    v = table.version if version is None else version
    return f"v={v} move={moves[1] if moves else 0} by={by} pid={os.getpid()}"


def due_at(table: Table) -> datetime | None:
    """The table's nearest deadline as the store keeps it (``None``: none, or it ended)."""
    due = [t for t in (table.deadline, table.computer_due) if t is not None]
    if not due or not table.is_live:
        return None
    return datetime.fromtimestamp(min(due), UTC)


def seated(table: Table) -> tuple[int, ...]:
    """The members seated at the table, in id order."""
    return tuple(sorted(s.user_id for _, s in table.humans() if s.user_id is not None))


class TableKeeper:
    """Writes tables to the store (version-checked) and keeps what to go back to."""

    def __init__(self, store: Store, pace: Pace) -> None:
        self.store = store
        self.pace = pace
        self._saved: dict[str, dict[str, Any]] = {}
        self._seated: dict[str, tuple[int, ...]] = {}
        """Who the store has seated at each table (``seated_members``), as of its last save."""
        self.on_finished: Callable[[FinishedMatch], object] | None = None
        """Told of each match this process recorded first (the analysis queue)."""

    async def store_update(self, table: Table, update: Update, by: str) -> None:
        """Persist a committed change: the public lines its events call for are written into
        the table first, so they are saved (and rolled back) with the move behind them; a
        finished match is recorded once, with the table's last state, in one transaction.
        ``by``: what made the change (an action, a timer), for its log line.

        Each change stored gets its line. A stop cancels a save in flight, and the database
        may have committed it before the cancel arrived: that save's line says so, so no
        stored move goes without one.

        :raises StaleWrite, StoreError: nothing was stored; the caller restores.
        """
        words = ", ".join(e.log_word for e in update.events)
        before = table.version
        try:
            for event in update.events:
                line = log_line(table, event)
                if line is not None:
                    table.add_log(line)
            if update.has(Started):
                await self._predict(table)
            if table.status == "finished" and update.has(MatchOver):
                await self._finish_match(table)
            else:  # ``save``, written out: every move passes here
                record = self.record(table)
                await self.store.save_table(record)
                self.committed(table, record)
        except asyncio.CancelledError:
            if words and table.version == before:
                maybe = writer(table, by, before + 1)
                log.info("table %s: %s%s (%s)", table.table_id, STOPPED_SAVING, words, maybe)
            elif words:  # stored, and cancelled after (a finished match's rating changes)
                log.info("table %s: %s (%s)", table.table_id, words, writer(table, by))
            raise
        if words:
            log.info("table %s: %s (%s)", table.table_id, words, writer(table, by))

    async def _finish_match(self, table: Table) -> None:
        """The finished match recorded with the table's last state, in one transaction."""
        record = self.record(table)
        finished = finished_match(table, self.pace.clock())
        stored = await self.store.finish_match(finished, record)
        self.committed(table, record)
        log.info("table %s: match recorded (new=%s)", table.table_id, stored)
        if stored and self.on_finished is not None:
            self.on_finished(finished)  # its analysis, in a worker
        await self._read_rating_changes(table)

    async def _predict(self, table: Table) -> None:
        """Each team's chance to win from the members' ratings, saved with the start of a
        rated match. The ratings are read, never written: a failed read only
        leaves the chances out."""
        teams = [
            [table.seat(i).user_id for i in table.fmt.seats_of(team)]
            for team in range(len(table.fmt.teams))
        ]
        s = table.settings
        if not is_rated(
            teams, hints=s.hints, rate_computers=s.rate_computer_matches, rated=s.rated
        ):
            table.win_chances = []
            return
        members = [u for team in teams for u in team if u is not None]
        try:
            found = await self.store.ratings_of(table.guild_id, members, table.fmt.name)
        except Exception:
            log.exception("table %s: ratings could not be read", table.table_id)
            return
        current = {u: Rating(r.mu, r.sigma) for u, r in found.items()}
        table.win_chances = win_chances(teams, current)

    async def _read_rating_changes(self, table: Table) -> None:
        """What the recorded match changed in its members' ratings, for the summary. The match
        is stored already, so a failed read only leaves the changes out of the summary."""
        try:
            table.rating_changes = await self.store.match_rating_changes(table.table_id)
        except Exception:
            log.exception("table %s: rating changes could not be read", table.table_id)

    def record(self, table: Table) -> TableRecord:
        """The table's next version; who sits there only when that changed since the last
        save (the store then checks each member sits at no other live table)."""
        members = seated(table)
        return TableRecord(
            table_id=table.table_id,
            guild_id=table.guild_id,
            channel_id=table.channel_id,
            status=table.status,
            version=table.version + 1,
            state=table.to_dict() | {"version": table.version + 1},
            due_at=due_at(table),
            members=None if self._seated.get(table.table_id) == members else members,
        )

    async def save(self, table: Table) -> None:
        record = self.record(table)
        await self.store.save_table(record)
        self.committed(table, record)

    def committed(self, table: Table, record: TableRecord) -> None:
        """Remember what the store now holds: the state to go back to if a later write fails."""
        table.version = record.version
        self._saved[table.table_id] = dict(record.state)
        self._seated[table.table_id] = seated(table)

    def last_saved(self, table: Table) -> dict[str, Any]:
        return self._saved.get(table.table_id) or table.to_dict()

    def forget(self, table_id: str) -> None:
        self._saved.pop(table_id, None)
        self._seated.pop(table_id, None)

    async def newer(self, table: Table) -> bool:
        """Whether the store holds a newer version than ``table`` (another process saved it);
        if so the table now holds it. ``False`` also when it cannot be read."""
        try:
            record = await self.store.load_table(table.table_id)
        except Exception:
            log.exception("table %s: could not check the stored version", table.table_id)
            return False
        if record is None or record.version == table.version:
            return False
        self._take(table, record)
        return True

    async def reload(self, table: Table) -> bool:
        """After a failed write, go back to what the store holds; whether the table is still
        live there (``False``: it ended, or cannot be read; the caller forgets it)."""
        try:
            record = await self.store.load_table(table.table_id)
        except Exception:
            log.exception("table %s: reload failed", table.table_id)
            return True
        if record is None or not record.is_live:
            return False
        self._take(table, record)
        return True

    def _take(self, table: Table, record: TableRecord) -> None:
        """Make ``table`` hold what the store holds (in place: others keep references)."""
        fresh = Table.from_dict(dict(record.state))
        fresh.version = record.version
        restore_in_place(table, fresh.to_dict())
        self.committed(table, record)

    async def close_unreadable(self, record: TableRecord) -> None:
        try:
            await self.store.save_table(record.bump(status="cancelled"))
        except Exception:
            log.exception("table %s: could not close unreadable table", record.table_id)


def restore_in_place(table: Table, data: dict[str, Any]) -> None:
    """Put ``table`` back to a snapshot, keeping the object (others hold references)."""
    fresh = Table.from_dict(data)
    for name in table.__dataclass_fields__:
        setattr(table, name, getattr(fresh, name))
