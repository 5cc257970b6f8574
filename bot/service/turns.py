"""When a table's time comes: one timer per live table for its nearest deadline (a lobby
that expires, a member's turn running out, a computer's pause ending), and the computer's
decision, started as soon as its turn begins so thinking overlaps the pause.

A timer never acts by itself: its due move is a change like any click's
(``Commits.change``), and it follows every change of a table by watching ``Commits``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine import MATCH_OVER, Player, make_player, parse_difficulty

from .commits import Changed, Commits
from .errors import ActionError
from .games import (
    AnyChoice,
    View,
    apply_choice,
    family_of_match,
    greedy_choice,
    time_out,
    view_of,
)
from .lobby import Lobby
from .ports import CallLater, Cancellable, Pace, PlayerFactory, Thinker, Update
from .registry import TableRegistry
from .table import Table

log = logging.getLogger(__name__)

VISITOR_GRACE = 3.0
"""Seconds a process waits past a deadline of a table another process serves before acting
on it itself (that process is then presumably gone). Once it has had to act, it
times the table nearly as its own (``ADOPTED_LAG``) until it sees another process time it."""

ADOPTED_LAG = 0.5
"""Seconds an adopted table (``TurnTimers.serves``) is timed late: nothing for a process that
is gone, but enough for the serving process, when it is back, to act first, so the adopter
sees it and leaves the table to it (``TurnTimers.disown``)."""

Decision = tuple[int, int, AnyChoice]
"""(hand number, actions so far, the move): a decision and the position it was made for."""


def default_player_factory(difficulty: str, seed: int) -> Player:
    """Computer players by difficulty (a seat stores its difficulty as plain text)."""
    return make_player(parse_difficulty(difficulty), seed)


@dataclass
class _Pending:
    """A computer's decision started when its turn began, to be played when its pause is over."""

    key: tuple[int, int]
    """(hand number, actions so far): the position it was asked about."""
    task: asyncio.Task[AnyChoice | None]
    deadline: float
    """``Pace.monotonic`` past which the greedy move is played instead."""


class TurnTimers:
    """The timers and pending computer decisions of every live table."""

    def __init__(
        self,
        registry: TableRegistry,
        lobby: Lobby,
        pace: Pace,
        *,
        commits: Commits,
        call_later: CallLater | None = None,
        player_factory: PlayerFactory = default_player_factory,
        thinker: Thinker | None = None,
        owns: Callable[[Table], bool] | None = None,
    ) -> None:
        self.registry = registry
        self.owns: Callable[[Table], bool] = owns or (lambda table: True)
        """Whether this process serves the table's server; another process's table is timed
        ``VISITOR_GRACE`` late, so it acts only when the process serving it did not."""
        self.lobby = lobby
        self.pace = pace
        self.commits = commits
        commits.watch(self.changed)
        self._call_later = call_later
        self.player_factory = player_factory
        self.thinker = thinker
        """Runs searching players away from the event loop (a worker process in the bot)."""
        self._timers: dict[str, Cancellable] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._decisions: dict[str, _Pending] = {}
        self._adopted: set[str] = set()
        """Tables of another process's server whose due move this process had to make (their
        server is presumably gone): timed ``ADOPTED_LAG`` late instead of ``VISITOR_GRACE``,
        so a dead process's table does not play every computer move 3 s late."""
        self._closed = False

    async def close(self) -> None:
        self._closed = True
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    def forget(self, table_id: str) -> None:
        """A table ended: its timer goes, and whatever was kept for it."""
        self.cancel(table_id)
        self._drop_decision(table_id)
        self._adopted.discard(table_id)

    def cancel(self, table_id: str) -> None:
        """Its timer goes (a pending decision is dropped at the next arm)."""
        handle = self._timers.pop(table_id, None)
        if handle:
            handle.cancel()

    def has_timer(self, table_id: str) -> bool:
        return table_id in self._timers

    def serves(self, table: Table) -> bool:
        """Whether this process times ``table`` (nearly) on time: its server's, or adopted."""
        return self.owns(table) or table.table_id in self._adopted

    def adopted(self, table_id: str) -> bool:
        return table_id in self._adopted

    def disown(self, table_id: str) -> None:
        """Another process times the table again (it made a timed move), or it ended: back to
        timing it ``VISITOR_GRACE`` late, if at all."""
        if table_id in self._adopted:
            self._adopted.discard(table_id)
            log.info("table %s: timed by another process again", table_id)

    def changed(self, change: Changed) -> None:
        """A table changed (``Commits``): another process's computer move means it times the
        table; a table gone is forgotten; a live one is armed for its new deadlines."""
        if change.elsewhere:
            self.disown(change.table.table_id)
        if change.table.table_id not in self.registry.tables:
            self.forget(change.table.table_id)
        else:
            self.arm(change.table)

    def arm(self, table: Table) -> None:
        """(Re-)read a table's deadlines and set its one timer for the nearest."""
        self.cancel(table.table_id)
        if self._closed or not table.is_live or not self.registry.is_current(table):
            self._drop_decision(table.table_id)
            return
        owned = self.serves(table)
        if owned:
            self._prepare_decision(table)
        due = [t for t in (table.deadline, table.computer_due) if t is not None]
        if not due:
            return
        delay = max(0.0, min(due) + self._lag(table) - self.pace.clock())
        call_later = self._call_later or asyncio.get_running_loop().call_later
        self._timers[table.table_id] = call_later(delay, lambda: self._spawn_wake(table.table_id))

    def _lag(self, table: Table) -> float:
        if self.owns(table):
            return 0.0
        return ADOPTED_LAG if table.table_id in self._adopted else VISITOR_GRACE

    def _spawn_wake(self, table_id: str) -> None:
        self._timers.pop(table_id, None)
        self._track(asyncio.get_running_loop().create_task(self._wake(table_id)))

    def _track(self, task: asyncio.Task[Any]) -> None:
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _wake(self, table_id: str) -> None:
        table = self.registry.tables.get(table_id)
        if table is None:
            return
        try:
            decision = await self._computer_decision(table) if table.computer_due else None
        except Exception:
            log.exception("table %s: computer player failed; falling back to greedy", table_id)
            decision = None
        try:
            for attempt in self.commits.change(table_id, by="timer"):
                async with attempt as update:
                    if update.table is not table:  # ended, and another table of that id
                        raise ActionError("error.stale")
                    self._make_due(table, update, decision)
            if not update.idle:
                self._adopt(table)
        except ActionError:
            pass  # ended meanwhile, or failed (logged, the table as stored)
        finally:
            self.arm(table)

    def _adopt(self, table: Table) -> None:
        """This process made a due move of a table it does not serve, ``VISITOR_GRACE`` late:
        nobody else did, so its server is presumably gone; time it on time from now on."""
        if not self.serves(table) and table.is_live:
            self._adopted.add(table.table_id)
            log.info("table %s: its server did not play it; timed here from now on", table.table_id)

    def _make_due(self, table: Table, update: Update, decision: Decision | None) -> None:
        """Make what is due; nothing due leaves the change ``idle``."""
        now = self.pace.clock()
        if table.status == "lobby":
            update.idle = not self.lobby.expire(table, update)
            return
        match = table.match
        if table.status != "playing" or match is None:
            update.idle = True
            return
        seat = match.to_act
        s = table.seat(seat)
        if table.computer_due is not None and now >= table.computer_due and s.computer_plays:
            fresh = decision is not None and decision[:2] == (match.hand_number, len(match.actions))
            choice = decision[2] if fresh and decision else greedy_choice(match, seat)
            apply_choice(table, update, seat, choice, self.pace)
        elif table.deadline is not None and now >= table.deadline and not s.computer_plays:
            time_out(table, update, seat, self.pace)  # R14: the server plays
        else:
            update.idle = True

    # ----------------------------------------------------------------- computer decisions

    async def _computer_decision(self, table: Table) -> Decision | None:
        """The decision started when the computer's turn began, waited for (outside the table
        lock) until its deadline at most; ``None`` plays the greedy move."""
        pending = self._prepare_decision(table)
        if pending is None:
            return None
        remaining = max(0.0, pending.deadline - self.pace.monotonic())
        try:  # asyncio.timeout: wait_for (3.11) may swallow a cancel (bot/discord/outbox.py)
            async with asyncio.timeout(remaining):
                choice = await asyncio.shield(pending.task)
        except TimeoutError:
            self._drop_decision(table.table_id)
            return None
        if choice is None:
            return None
        return pending.key[0], pending.key[1], choice

    def _prepare_decision(self, table: Table) -> _Pending | None:
        """Start thinking as soon as a computer's turn begins, so its pause and its thinking
        overlap; the pause (plus ``think_grace``) is its time budget."""
        match = table.match
        if table.computer_due is None or match is None or match.phase == MATCH_OVER:
            self._drop_decision(table.table_id)
            return None
        key = (match.hand_number, len(match.actions))
        pending = self._decisions.get(table.table_id)
        if pending is not None and pending.key == key:
            return pending
        self._drop_decision(table.table_id)
        seat = match.to_act
        s = table.seat(seat)
        difficulty = s.difficulty if s.is_computer else "easy"
        seed = (table.match_seed or 0) ^ len(match.actions)
        wait = max(0.0, table.computer_due - self.pace.clock())
        deadline = self.pace.monotonic() + wait + self.pace.think_grace
        task = asyncio.get_running_loop().create_task(
            self._think(table.table_id, difficulty, seed, view_of(match, seat), deadline)
        )
        self._track(task)
        task.add_done_callback(_retrieved)
        pending = self._decisions[table.table_id] = _Pending(key, task, deadline)
        return pending

    async def _think(
        self, table_id: str, difficulty: str, seed: int, view: View, deadline: float
    ) -> AnyChoice | None:
        """Search off the event loop (a worker process in the bot, a thread without one)."""
        family = family_of_match(view)  # V6: the Shelem players, bids included
        quick = family.quick_choice(difficulty, seed, view, self.player_factory)
        if quick is not None:
            return quick
        if self.thinker is None:
            search = family.search_choice
            return await asyncio.to_thread(search, difficulty, seed, view, self.player_factory)
        return await self.thinker(table_id, difficulty, seed, view, deadline)

    def _drop_decision(self, table_id: str) -> None:
        pending = self._decisions.pop(table_id, None)
        if pending is not None and not pending.task.done():
            pending.task.cancel()


def _retrieved(task: asyncio.Task[Any]) -> None:
    """Mark a dropped decision's failure as seen (the waiting ``_wake`` logs it if it waits)."""
    if not task.cancelled():
        task.exception()
