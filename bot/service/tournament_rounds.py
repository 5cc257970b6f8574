"""How a tournament moves on by itself: ``sweep_one`` brings it up to date from
what is stored — registration's end (the start), each table of the round (claimed, then
opened through ``TableService`` with its seats kept for its players; its match's result, or
the forfeit of the absent when the grace time ends), the next round once every table has its
result. Any process runs it: for the overdue tournaments every second (``run_forever``), for
a tournament whose table just ended (``WatchTables``), and for all of them at start-up. Each
step is a versioned save (``TournamentChanges``), so of two processes sweeping one tournament
each step is taken once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Final

from ..store import StaleWrite
from . import tournament_steps as steps
from .commits import Changed
from .errors import ActionError
from .ports import Update
from .table import Table
from .tournament_changes import StepFn, TournamentChanges
from .tournament_events import NoThreads
from .tournament_state import TournamentState
from .tournament_tables import (
    NotPlayed,
    Played,
    Sides,
    computers_may_sit,
    expire,
    game_table,
    is_tournament_table,
    outcome,
)

log = logging.getLogger(__name__)

MAX_STEPS: Final = 64
"""Changes one sweep makes at most before it lets the next sweep go on."""
SWEEP_SECONDS: Final = 1.0


class TournamentRounds(TournamentChanges):
    """The sweep of the tournament service."""

    def wake(self, tournament_id: str) -> None:
        """Sweep a tournament soon (its table ended, it started), outside the caller."""
        task = asyncio.get_running_loop().create_task(self.sweep_one(tournament_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def table_ended(self, table_id: str) -> None:
        """A tournament table ended (its match over, or closed): its tournament moves on."""

        async def run() -> None:
            link = await self.store.tournament_link(table_id)
            if link is not None:
                await self.sweep_one(link.tournament_id)

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def restore(self) -> int:
        """Start-up: every live tournament brought up to date; how many."""
        live = await self.store.live_tournaments()
        for record in live:
            await self.sweep_one(record.tournament_id)
        return len(live)

    async def sweep(self) -> int:
        """The tournaments whose deadline passed, each brought up to date; how many."""
        now = datetime.fromtimestamp(self.clock(), UTC)
        due = await self.store.overdue_tournaments(now)
        for tournament_id in due:
            await self.sweep_one(tournament_id)
        return len(due)

    async def run_forever(self, every: float = SWEEP_SECONDS) -> None:
        """Every live tournament brought up to date (a start-up), then the overdue ones every
        ``every`` seconds, for as long as the bot runs."""
        try:
            await self.restore()
        except Exception:
            log.exception("tournaments not restored")
        while True:
            await asyncio.sleep(every)
            try:
                await self.sweep()
            except Exception:
                log.exception("sweep of tournaments failed")

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def sweep_one(self, tournament_id: str) -> None:
        """Bring one tournament up to date from what is stored (one sweep of it at a time
        here; other processes' are told apart by the version of each save)."""
        async with self._locks.setdefault(tournament_id, asyncio.Lock()):
            try:
                for _ in range(MAX_STEPS):
                    state = await self.load(tournament_id)
                    now = self.clock()
                    if not state.is_live or not await self._progress(state, now):
                        break
                await self._keep_due(tournament_id, now)
            except ActionError as error:
                log.warning("tournament %s: sweep stopped (%s)", tournament_id, error.code)

    async def _keep_due(self, tournament_id: str, now: float) -> None:
        """A deadline that passed with nothing to do moves on (else every sweep finds it).
        ``now`` is the time the sweep found nothing due at: a deadline that passed since (a
        grace time ending mid-sweep) stays, for the next sweep to act on, instead of being
        pushed on to the heartbeat."""
        record = await self.store.load_tournament(tournament_id)
        if record is None or record.due_at is None or record.due_at.timestamp() > now:
            return
        with contextlib.suppress(StaleWrite):  # another process moved it on
            state = self._state(record)
            await self._save(state, state, now)

    async def _progress(self, state: TournamentState, now: float) -> bool:
        """One step of the tournament that is due now, if any; whether one was taken."""
        tid = state.tournament_id
        if state.status == "registration":
            if now < state.core.config.registration_closes:
                return False

            def close(s: TournamentState, n: float) -> steps.Step:
                if s.status != "registration":  # started meanwhile (by the host, elsewhere)
                    return s, []
                return steps.start(s, n, early=False)

            await self._change(tid, close)
            return True
        current = state.core.rounds[-1]
        if current.pending == 0:
            number = current.number

            def advance(s: TournamentState, n: float) -> steps.Step:
                live = s.core.status == "running" and s.core.current_round == number
                return steps.advance(s) if live and not s.core.rounds[-1].pending else (s, [])

            await self._change(tid, advance)
            return True
        for k, table in enumerate(current.tables):
            if table.result is None and await self._table(state, current.number, k, now):
                return True
        return False

    async def _table(self, state: TournamentState, r: int, k: int, now: float) -> bool:
        """Table ``k`` of round ``r``: opened, or its result recorded, or its lobby closed."""
        slot = state.slots.get((r, k))
        if slot is None or (
            not slot.opened
            and (slot.claimed_at == 0 or now - slot.claimed_at >= steps.CLAIM_SECONDS)
        ):
            return await self._open(state, r, k)
        if not slot.opened or slot.opened_at is None:
            return False  # another process is opening it
        record = await self.store.load_table(slot.table_id)
        found = outcome(record, state.table_members(r, k))
        tid = state.tournament_id
        if isinstance(found, Played):
            played = found
            await self._change(
                tid,
                _pending(r, k, lambda s: steps.result(s, r, k, played.scores, played.winner)),
            )
            return True
        if isinstance(found, NotPlayed):
            absent = found.absent
            await self._change(tid, _pending(r, k, lambda s: steps.forfeit(s, r, k, absent)))
            return True
        grace_over = now >= slot.opened_at + state.core.config.grace_seconds
        if record is not None and record.status == "lobby" and grace_over:
            sides, allowed = state.table_members(r, k), state.core.config.computers
            with contextlib.suppress(ActionError):  # its match began meanwhile, or it ended
                await self.tables.held(slot.table_id)
                await self.tables._act(
                    slot.table_id, lambda t, u: self._grace_over(t, u, sides, allowed)
                )
            return True
        return False

    def _grace_over(self, table: Table, update: Update, sides: Sides, allowed: bool) -> None:
        """T11: computers take the absent players' seats where the host allowed them and every
        side came; otherwise the lobby closes and the absent forfeit (T9)."""
        if computers_may_sit(allowed, table, sides):
            self.tables.lobby.fill_kept(table, update)
        else:
            expire(table, update, self.clock())

    async def _open(self, state: TournamentState, r: int, k: int) -> bool:
        """Claim table ``k`` of round ``r`` (a save: of two processes one claims it), make
        its channel, open its game table with the seats kept, and store where it is."""
        tid = state.tournament_id
        async with self._opening:
            slot = state.slots.get((r, k))
            table_id = slot.table_id if slot is not None else Table.new_id()
            opened_before = slot is not None and await self.store.load_table(table_id)
            if (  # without threads, one table at a time in the channel
                not opened_before
                and not state.threads
                and await self.store.open_table_in_channel(state.channel_id) is not None
            ):
                return False
            try:
                claimed = await self._change(tid, _claim(r, k, table_id))
            except ActionError:
                return True  # claimed or opened elsewhere meanwhile: look again
            stored = await self.store.load_table(table_id)
            if stored is not None:  # opened by a process that stopped before storing it here
                channel = stored.channel_id
            else:
                retry = slot is not None and slot.asked  # a thread may exist already
                found = await self._channel(claimed.state, r, k, retry)
                if found is None or not await self._open_game(claimed.state, r, k, found):
                    await self._change(tid, lambda s, n: steps.release(s, r, k))
                    return False
                channel = found
            await self._change(tid, lambda s, n: steps.opened(s, r, k, channel, n))
            return True

    async def _channel(
        self, state: TournamentState, r: int, k: int, retry: bool = False
    ) -> int | None:
        """A thread for the table; without threads, the channel when no table is live there.
        ``retry``: an earlier claim asked for a thread, so a thread of the table's name that no
        table was ever opened in is the one that claim made (its process stopped before
        storing it): taken rather than a second one made (T13)."""
        if state.threads and retry:
            for made in await self.port.table_threads_made(state, r, k):
                if await self.store.newest_table_in_channel(made) is None:
                    log.info(
                        "tournament %s: table %s takes its thread made before",
                        state.tournament_id,
                        k,
                    )
                    return made
        if state.threads:
            channel, missing = await self.port.table_thread(state, r, k)
            if channel is not None:
                return channel
            if not missing:
                return None  # a passing failure: tried again later
            await self._change(
                state.tournament_id,
                lambda s, n: (replace(s, threads=False, missing=missing), [NoThreads(missing)]),
            )
        if await self.store.open_table_in_channel(state.channel_id) is not None:
            return None
        return state.channel_id

    async def _open_game(self, state: TournamentState, r: int, k: int, channel: int) -> bool:
        settings = await self.store.get_guild_settings(state.guild_id)
        table = game_table(
            state,
            r,
            k,
            table_id=state.slots[(r, k)].table_id,
            channel_id=channel,
            settings=settings,
            now=self.clock(),
        )
        try:  # the server's table limit is not the tournament's: its size bounds its tables
            await self.tables._open(table, sys.maxsize)
        except StaleWrite:
            return True  # another process opened it meanwhile
        except ActionError as error:
            log.info("tournament %s: table %s not opened (%s)", state.tournament_id, k, error)
            return False
        return True


def _pending(r: int, k: int, step: Callable[[TournamentState], steps.Step]) -> StepFn:
    """``step`` on a tournament whose table ``k`` of round ``r`` still awaits its result."""

    def run(s: TournamentState, now: float) -> steps.Step:
        current = s.core.rounds[-1] if s.core.rounds else None
        if (
            not s.is_live
            or current is None
            or current.number != r
            or current.tables[k].result is not None
        ):
            return s, []
        return step(s)

    return run


def _claim(r: int, k: int, table_id: str) -> StepFn:
    """Claim table ``k`` of round ``r`` on the stored state, if nobody holds it: not opened,
    and not claimed, or claimed so long ago that its process is gone.
    :raises ActionError: ``error.t_stale``."""

    def run(s: TournamentState, now: float) -> steps.Step:
        slot = s.slots.get((r, k))
        current = s.core.rounds[-1] if s.core.rounds else None
        if not s.is_live or current is None or current.number != r:
            raise ActionError("error.t_stale")
        if current.tables[k].result is not None:
            raise ActionError("error.t_stale")
        if slot is not None and (
            slot.opened or (slot.claimed_at and now - slot.claimed_at < steps.CLAIM_SECONDS)
        ):
            raise ActionError("error.t_stale")
        return steps.claim(s, r, k, table_id, now)

    return run


class WatchTables:
    """A watcher of the tables' committed changes (``TableService.watch``): a tournament table
    that ends (its match over, or closed) moves its tournament on at once."""

    def __init__(self, tournaments: TournamentRounds) -> None:
        self.tournaments = tournaments

    def __call__(self, change: Changed) -> None:
        table = change.table
        if change.update is not None and is_tournament_table(table) and not table.is_live:
            self.tournaments.table_ended(table.table_id)
