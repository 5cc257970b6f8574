"""The one place that turns a click into a move.

``TableService`` owns the live tables: one asyncio lock per table (clicks on one table are
serialized, tables never wait on each other), the lobby, turn and trump timers, computer
players' moves, and persistence of every action *before* it is acknowledged. It takes ids
and returns what changed; it knows no discord.py types, so it is tested without Discord.
After each committed change it hands an ``Update`` to its ``Publisher`` (the Discord layer),
which renders and sends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from typing import Any, Protocol

from engine import (
    MATCH_OVER,
    PLAY,
    TRUMP,
    Card,
    CardNotInHand,
    GreedyPlayer,
    HandResult,
    IllegalMove,
    Match,
    MatchCompleted,
    MustFollowSuit,
    NotHakem,
    NotYourTurn,
    Player,
    SeatView,
    Suit,
    Trick,
    WrongPhase,
    make_player,
    parse_difficulty,
    seat_view,
)

from ..names import seat_name
from ..store import (
    ChannelBusy,
    FinishedMatch,
    MatchPlayer,
    StaleWrite,
    Store,
    TableRecord,
    TeamStats,
)
from ..store.guild_settings import GuildSettings
from .errors import ActionError
from .events import (
    Abandoned,
    Back,
    Cancelled,
    CardPlayed,
    ComputerAdded,
    DmClosed,
    Expired,
    HandDealt,
    HandEnded,
    Joined,
    Left,
    MatchOver,
    Opened,
    Replaced,
    Resumed,
    Started,
    TableEvent,
    TimedOut,
    TimedOutTrump,
    TrickTaken,
    TrumpNamed,
)
from .table import SEATS, LogLine, Seat, Table, TableSettings, TableStatus

log = logging.getLogger(__name__)

COMPUTER_NAMES = ("Rostam", "Sohrab", "Gordafarid", "Tahmineh", "Siavash", "Manijeh")


# --------------------------------------------------------------------------- updates


@dataclass
class Update:
    """What one committed change did: the table as it now is, and what happened."""

    table: Table
    events: list[TableEvent] = field(default_factory=list)
    actor_seat: int | None = None
    """The seat whose click caused this (answered through its interaction, not by an edit)."""
    refusal: ActionError | None = None
    """A move refused inside an otherwise committed change (a member back from autoplay)."""

    def add(self, event: TableEvent) -> None:
        self.events.append(event)

    def has(self, kind: type[TableEvent]) -> bool:
        return any(isinstance(e, kind) for e in self.events)


class Publisher(Protocol):
    """The Discord side: shows an update to the channel and the players."""

    def publish(self, update: Update) -> None: ...


class Cancellable(Protocol):
    """A scheduled call that can be called off (an ``asyncio.TimerHandle``, or a test's)."""

    def cancel(self) -> None: ...


class _NullPublisher:
    def publish(self, update: Update) -> None:
        return None


class TableFeedback(Protocol):
    """The one way back from the Discord side: what it learned while sending (a message id,
    a closed DM, a gone channel). The service applies each under the table's lock and saves
    it, so the publisher never changes a ``Table`` itself and never calls the service."""

    def settled(self, table_id: str) -> AbstractAsyncContextManager[object]:
        """Hold while rendering: only committed state may be shown."""
        ...

    async def message_posted(self, table_id: str, message_id: int) -> None: ...

    async def dm_posted(
        self, table_id: str, seat: int, channel_id: int, message_id: int, hand: int
    ) -> None: ...

    async def dm_gone(self, table_id: str, seat: int) -> None:
        """The hand DM was deleted: the next one is sent anew."""
        ...

    async def dm_closed(self, table_id: str, seat: int) -> None: ...

    async def channel_gone(self, table_id: str) -> None: ...


PlayerFactory = Callable[[str, int], Player]
Thinker = Callable[[str, str, int, SeatView, float], Awaitable[Card | Suit | None]]
"""(table id, difficulty, seed, view, ``time.monotonic`` deadline) -> the move, or ``None`` for
the greedy move (the deadline passed before the table's turn to think came)."""

THINK_GRACE = 0.1
"""Seconds a computer may think past its pause (``computer_delay``) before the greedy move is
played instead: thinking starts when its turn begins, so the pause is the budget, plus this."""


@dataclass
class _Pending:
    """A computer's decision started when its turn began, to be played when its pause is over."""

    key: tuple[int, int]
    """(hand number, actions so far): the position it was asked about."""
    task: asyncio.Task[Card | Suit | None]
    deadline: float
    """``time.monotonic`` past which the greedy move is played instead."""


def default_player_factory(difficulty: str, seed: int) -> Player:
    """Computer players by difficulty (a seat stores its difficulty as plain text)."""
    return make_player(parse_difficulty(difficulty), seed)


def random_seed() -> int:
    """A fresh match seed, unpredictable to the players."""
    return secrets.randbits(63)


# --------------------------------------------------------------------------- the service


class TableService:
    """Live tables, their locks and timers, and every action on them."""

    def __init__(
        self,
        store: Store,
        *,
        publisher: Publisher | None = None,
        make_publisher: Callable[[TableFeedback], Publisher] | None = None,
        clock: Callable[[], float] = time.time,
        computer_delay: float = 1.0,
        seed_source: Callable[[], int] = random_seed,
        player_factory: PlayerFactory = default_player_factory,
        thinker: Thinker | None = None,
        think_grace: float = THINK_GRACE,
        call_later: Callable[[float, Callable[[], None]], Cancellable] | None = None,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.publisher: Publisher = (
            make_publisher(self) if make_publisher else publisher or _NullPublisher()
        )
        """Built here when given ``make_publisher``: it is handed this service as its one
        ``TableFeedback`` port at construction, and knows it through nothing else."""
        self.clock = clock
        self.computer_delay = computer_delay
        self.seed_source = seed_source
        self.player_factory = player_factory
        self.thinker = thinker
        """Runs searching players away from the event loop (a worker process in the bot)."""
        self.think_grace = think_grace
        self.call_later = call_later
        """Schedules the timers; ``None`` is the running loop's ``call_later``."""
        self.monotonic = monotonic
        self.tables: dict[str, Table] = {}
        self._by_channel: dict[int, str] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._saved: dict[str, dict[str, Any]] = {}
        self._timers: dict[str, Cancellable] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._decisions: dict[str, _Pending] = {}
        self._opening: dict[int, tuple[int, int]] = {}
        """Hosts whose new table is being written: member id -> (guild id, channel id)."""
        self._closed = False

    # ----------------------------------------------------------------- lifecycle

    async def restore(self) -> list[Table]:
        """Load every live table after a start-up and re-arm its timers from stored deadlines."""
        restored = []
        for record in await self.store.load_live_tables():
            try:
                table = Table.from_dict(dict(record.state))
            except Exception:
                log.exception("table %s: stored state unreadable, closing it", record.table_id)
                await self._close_unreadable(record)
                continue
            self._register(table)
            self._committed(table, record)
            restored.append(table)
            log.info("table %s: resumed (%s)", table.table_id, table.status)
            update = Update(table)
            update.add(Resumed())
            self.publisher.publish(update)
            self._arm(table)
        return restored

    async def _close_unreadable(self, record: TableRecord) -> None:
        try:
            await self.store.save_table(record.bump(status="cancelled"))
        except Exception:
            log.exception("table %s: could not close unreadable table", record.table_id)

    async def close(self) -> None:
        self._closed = True
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    def _register(self, table: Table) -> None:
        self.tables[table.table_id] = table
        self._by_channel[table.channel_id] = table.table_id
        self._locks.setdefault(table.table_id, asyncio.Lock())

    def _forget(self, table: Table) -> None:
        """Drop everything kept for a table that ended. Its lock goes too: whoever waits on it
        holds it already and finds the table gone once inside (``_act``, ``_wake``)."""
        self.tables.pop(table.table_id, None)
        self._saved.pop(table.table_id, None)
        self._locks.pop(table.table_id, None)
        if self._by_channel.get(table.channel_id) == table.table_id:
            del self._by_channel[table.channel_id]
        handle = self._timers.pop(table.table_id, None)
        if handle:
            handle.cancel()

    # ----------------------------------------------------------------- queries

    def table_in_channel(self, channel_id: int) -> Table | None:
        table_id = self._by_channel.get(channel_id)
        return self.tables.get(table_id) if table_id else None

    def settled(self, table_id: str) -> asyncio.Lock:
        """The table's lock: hold it while rendering the table for anyone to see. An action
        changes the live table before its store write completes, and a move not yet stored
        must never be shown (a failed write or a crash would take it back into a hand).
        An ended table changes no more, so a fresh lock will do for it: keeping one per table
        ever played would grow without bound."""
        return self._locks.get(table_id) or asyncio.Lock()

    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise ActionError("error.stale")
        return table

    def tables_of_user(self, guild_id: int, user_id: int) -> list[Table]:
        return [
            t
            for t in self.tables.values()
            if t.guild_id == guild_id and t.seat_of(user_id) is not None
        ]

    def _seated_at(self, user_id: int) -> tuple[int, int] | None:
        """(guild id, channel id) of the live table ``user_id`` sits at, in any server."""
        opening = self._opening.get(user_id)
        if opening is not None:
            return opening
        for t in self.tables.values():
            if t.is_live and t.seat_of(user_id) is not None:
                return t.guild_id, t.channel_id
        return None

    def _require_unseated(self, user_id: int, guild_id: int) -> None:
        """A member sits at one live table at a time across the bot.

        Called in the same step of the event loop as the seat is taken (no ``await`` between
        the check and the change), so two opens or joins at once cannot both pass it.
        """
        at = self._seated_at(user_id)
        if at is None:
            return
        other_guild, channel_id = at
        code = (
            "error.seated_elsewhere" if other_guild == guild_id else "error.seated_elsewhere_other"
        )
        raise ActionError(code, channel=f"<#{channel_id}>")

    def _require_room(self, guild_id: int, limit: int) -> None:
        """A server has at most ``max_open_tables`` live tables (one server cannot crowd out
        every other on the shared workers and rate limits)."""
        live = sum(1 for t in self.tables.values() if t.guild_id == guild_id and t.is_live)
        live += sum(1 for g, _ in self._opening.values() if g == guild_id)
        if live >= limit:
            raise ActionError("error.server_tables_full", limit=limit)

    # ----------------------------------------------------------------- the lobby

    async def open_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        settings: GuildSettings,
        target_score: int | None = None,
        turn_seconds: int | None = None,
        difficulty: str | None = None,
    ) -> Update:
        existing = self.table_in_channel(channel_id)
        if existing is not None:
            raise ActionError("error.channel_busy", table=existing)
        self._require_unseated(host_id, guild_id)
        self._require_room(guild_id, settings.max_open_tables)
        chosen = settings.with_changes(
            **{
                k: v
                for k, v in (
                    ("target_score", target_score),
                    ("turn_seconds", turn_seconds),
                    ("computer_difficulty", difficulty),
                )
                if v is not None
            }
        )
        now = self.clock()
        table = Table(
            table_id=Table.new_id(),
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            settings=TableSettings.from_guild(chosen),
            created_at=now,
        )
        table.seats[0] = Seat(name=host_name, user_id=host_id)
        table.deadline = now + chosen.lobby_timeout_minutes * 60
        self._opening[host_id] = (guild_id, channel_id)  # held until registered: no await between
        try:
            await self._save(table)
        except ChannelBusy:
            raise ActionError("error.channel_busy", table=None) from None
        finally:
            del self._opening[host_id]
        self._register(table)
        log.info("table %s: opened in channel %s by %s", table.table_id, channel_id, host_id)
        update = Update(table)
        update.add(Opened(0))
        self.publisher.publish(update)
        self._arm(table)
        return update

    async def join(self, table_id: str, user_id: int, name: str) -> Update:
        async def act(table: Table, update: Update) -> None:
            self._require_lobby(table)
            if table.seat_of(user_id) is not None:
                raise ActionError("error.already_seated")
            free = table.free_seats()
            if not free:
                raise ActionError("error.table_full")
            self._require_unseated(user_id, table.guild_id)
            table.seats[free[0]] = Seat(name=name, user_id=user_id)
            # No actor_seat: a Join is answered with the table message, not the hand, so the
            # joiner's DM must still be sent (the last joiner may be the first hakem).
            update.add(Joined(free[0]))
            if len(free) == 1:
                self._start_match(table, update)

        return await self._act(table_id, act)

    async def leave(self, table_id: str, user_id: int) -> Update:
        async def act(table: Table, update: Update) -> None:
            self._require_lobby(table)
            seat = table.seat_of(user_id)
            if seat is None:
                raise ActionError("error.not_seated")
            table.seats[seat] = None
            update.add(Left(seat))
            humans = table.humans()
            if not humans:
                self._finish(table, update, "cancelled")
                update.add(Cancelled(user_id))
            elif user_id == table.host_id:
                table.host_id = humans[0][1].user_id or table.host_id

        return await self._act(table_id, act)

    async def add_computer(self, table_id: str, user_id: int, *, is_admin: bool = False) -> Update:
        """The host's (or a server manager's): filling the last seat starts the match."""

        async def act(table: Table, update: Update) -> None:
            self._require_lobby(table)
            if user_id != table.host_id and not is_admin:
                raise ActionError("error.not_host_or_admin")
            if not table.settings.allow_computer_players:
                raise ActionError("error.computers_off")
            free = table.free_seats()
            if not free:
                raise ActionError("error.table_full")
            seat = free[0]
            table.seats[seat] = self._computer_seat(table, seat)
            update.add(ComputerAdded(seat))
            if len(free) == 1:
                self._start_match(table, update)

        return await self._act(table_id, act)

    async def start(self, table_id: str, user_id: int, *, is_admin: bool = False) -> Update:
        async def act(table: Table, update: Update) -> None:
            self._require_lobby(table)
            if user_id != table.host_id and not is_admin:
                raise ActionError("error.not_host_or_admin")
            free = table.free_seats()
            if free and not table.settings.allow_computer_players:
                raise ActionError("error.need_players")
            for seat in free:
                table.seats[seat] = self._computer_seat(table, seat)
                update.add(ComputerAdded(seat))
            self._start_match(table, update)

        return await self._act(table_id, act)

    async def cancel(self, table_id: str, user_id: int, *, is_admin: bool) -> Update:
        async def act(table: Table, update: Update) -> None:
            if not table.is_live:
                raise ActionError("error.stale")
            if user_id != table.host_id and not is_admin:
                raise ActionError("error.not_host_or_admin")
            self._finish(table, update, "cancelled")
            update.add(Cancelled(user_id))

        return await self._act(table_id, act)

    async def abandon(self, table_id: str) -> None:
        """End a table whose channel is gone or unwritable, so it is never stuck for ever."""

        async def act(table: Table, update: Update) -> None:
            if table.is_live:
                self._finish(table, update, "cancelled")
                update.add(Abandoned())

        with contextlib.suppress(ActionError):
            await self._act(table_id, act)

    def _computer_seat(self, table: Table, seat: int) -> Seat:
        used = {s.name for s in table.seats if s is not None}
        name = next((n for n in COMPUTER_NAMES if f"🤖 {n}" not in used), f"Bot {seat + 1}")
        return Seat(name=f"🤖 {name}", difficulty=table.settings.computer_difficulty)

    @staticmethod
    def _require_lobby(table: Table) -> None:
        if table.status == "playing":
            raise ActionError("error.already_started")
        if table.status != "lobby":
            raise ActionError("error.stale")

    def _start_match(self, table: Table, update: Update) -> None:
        seed = self.seed_source()
        table.match_seed = seed
        table.match = Match(seed, table.rules())
        table.status = "playing"
        table.started_at = self.clock()
        table.deadline = None
        update.add(Started(table.match.hakem, table.match.first_hakem_deal))
        update.add(HandDealt(table.match.hakem, table.match.hand_number))
        self._schedule_turn(table)
        # Never the seed: from it anyone rebuilds every hand of the match.
        log.info("table %s: match started", table.table_id)

    # ----------------------------------------------------------------- play

    async def choose_trump(self, table_id: str, user_id: int, hand: int, suit: Suit) -> Update:
        async def act(table: Table, update: Update) -> None:
            seat = self._player_move(table, user_id, hand)
            update.actor_seat = seat
            self._reclaim_then(
                table, update, seat, lambda: self._apply_trump(table, update, seat, suit)
            )

        return await self._act(table_id, act)

    async def play_card(self, table_id: str, user_id: int, hand: int, card: Card) -> Update:
        async def act(table: Table, update: Update) -> None:
            seat = self._player_move(table, user_id, hand)
            update.actor_seat = seat
            self._reclaim_then(
                table, update, seat, lambda: self._apply_card(table, update, seat, card)
            )

        return await self._act(table_id, act)

    def hand_view(self, table_id: str, user_id: int) -> tuple[Table, int]:
        """The table and seat for a member asking to see their hand (no state change)."""
        table = self.get(table_id)
        seat = table.seat_of(user_id)
        if seat is None:
            raise ActionError("error.not_a_player")
        if table.match is None:
            raise ActionError("error.not_started")
        return table, seat

    def _player_move(self, table: Table, user_id: int, hand: int) -> int:
        if table.status != "playing" or table.match is None:
            raise ActionError("error.stale")
        seat = table.seat_of(user_id)
        if seat is None:
            raise ActionError("error.not_a_player")
        if hand != table.match.hand_number:
            raise ActionError("error.stale")
        return seat

    def _apply_trump(self, table: Table, update: Update, seat: int, suit: Suit) -> None:
        match = table.match
        assert match is not None
        try:
            match.choose_trump(seat, suit)
        except IllegalMove as exc:
            raise _refusal(table, exc) from None
        self._back_in_play(table, update, seat)
        update.add(TrumpNamed(seat, suit, match.hand_number))
        self._schedule_turn(table)

    def _apply_card(self, table: Table, update: Update, seat: int, card: Card) -> None:
        match = table.match
        assert match is not None
        hand_before = match.hand_number
        try:
            events = match.play(seat, card)
        except IllegalMove as exc:
            raise _refusal(table, exc) from None
        self._back_in_play(table, update, seat)
        update.add(CardPlayed(seat, card, hand_before))
        for event in events:
            if isinstance(event, Trick):
                update.add(TrickTaken(event, hand_before))
            elif isinstance(event, HandResult):
                update.add(HandEnded(event))
            elif isinstance(event, MatchCompleted):
                self._finish(table, update, "finished")
                update.add(MatchOver(event.winner_team, tuple(event.scores)))
        if match.phase == TRUMP and match.hand_number != hand_before:
            update.add(HandDealt(match.hakem, match.hand_number))
        if table.status == "playing":
            self._schedule_turn(table)

    def _reclaim_then(
        self, table: Table, update: Update, seat: int, move: Callable[[], None]
    ) -> None:
        """A member the computer was playing for clicks: any click gives the seat back.

        If the click itself is not a legal move now (say, not their turn), they are still back
        at the table; the refusal is kept on the update for the answer to show.
        """
        s = table.seat(seat)
        if not s.autoplay:
            move()
            return
        s.autoplay = False
        s.missed_turns = 0
        update.add(Back(seat))
        self._schedule_turn(table)
        try:
            move()
        except ActionError as exc:
            update.refusal = exc

    def _back_in_play(self, table: Table, update: Update, seat: int) -> None:
        """A member who clicks takes their seat back from the computer (missed turns reset)."""
        s = table.seat(seat)
        if s.autoplay and update.actor_seat == seat:
            s.autoplay = False
            update.add(Back(seat))
        if update.actor_seat == seat:
            s.missed_turns = 0

    def _schedule_turn(self, table: Table) -> None:
        """R14 deadlines for people; a short pause before a computer moves."""
        match = table.match
        table.deadline = table.computer_due = None
        if match is None or match.phase == MATCH_OVER:
            return
        seat = match.to_act
        now = self.clock()
        if table.seat(seat).computer_plays:
            table.computer_due = now + self.computer_delay
        else:
            limit = (
                table.settings.trump_seconds
                if match.phase == TRUMP
                else table.settings.turn_seconds
            )
            table.deadline = now + limit

    # ----------------------------------------------------------------- timers

    def rearm(self, table_id: str) -> None:
        """Re-read a table's deadlines (after a clock change, or at start-up)."""
        table = self.tables.get(table_id)
        if table is not None:
            self._arm(table)

    def _arm(self, table: Table) -> None:
        handle = self._timers.pop(table.table_id, None)
        if handle:
            handle.cancel()
        if self._closed or not table.is_live or self.tables.get(table.table_id) is not table:
            self._drop_decision(table.table_id)
            return
        self._prepare_decision(table)
        due = [t for t in (table.deadline, table.computer_due) if t is not None]
        if not due:
            return
        delay = max(0.0, min(due) - self.clock())
        call_later = self.call_later or asyncio.get_running_loop().call_later
        self._timers[table.table_id] = call_later(delay, partial(self._spawn_wake, table.table_id))

    def _spawn_wake(self, table_id: str) -> None:
        self._timers.pop(table_id, None)
        task = asyncio.get_running_loop().create_task(self._wake(table_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _wake(self, table_id: str) -> None:
        table = self.tables.get(table_id)
        if table is None:
            return
        lock = self._locks[table_id]
        try:
            decision = await self._computer_decision(table) if table.computer_due else None
        except Exception:
            log.exception("table %s: computer player failed; falling back to greedy", table_id)
            decision = None
        async with lock:
            if self.tables.get(table_id) is not table:
                return
            version = table.version
            try:
                await self._wake_locked(table, decision)
            except Exception:
                log.exception("table %s: timer action failed", table_id)
                if table.version == version:
                    await self._reload(table)
            finally:
                self._arm(table)

    async def _computer_decision(self, table: Table) -> tuple[int, int, Card | Suit] | None:
        """The decision started when the computer's turn began, waited for (outside the table
        lock) until its deadline at most; ``None`` plays the greedy move."""
        pending = self._prepare_decision(table)
        if pending is None:
            return None
        remaining = max(0.0, pending.deadline - self.monotonic())
        try:
            choice = await asyncio.wait_for(asyncio.shield(pending.task), timeout=remaining)
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
        wait = max(0.0, table.computer_due - self.clock())
        deadline = self.monotonic() + wait + self.think_grace
        task = asyncio.get_running_loop().create_task(
            self._think(table.table_id, difficulty, seed, seat_view(match, seat), deadline)
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(_retrieved)
        pending = self._decisions[table.table_id] = _Pending(key, task, deadline)
        return pending

    async def _think(
        self, table_id: str, difficulty: str, seed: int, view: SeatView, deadline: float
    ) -> Card | Suit | None:
        """Search off the event loop (a worker process in the bot, a thread without one)."""
        if difficulty == "easy":
            return _decide(self.player_factory(difficulty, seed), view)
        if self.thinker is None:
            player = self.player_factory(difficulty, seed)
            return await asyncio.to_thread(_decide, player, view)
        return await self.thinker(table_id, difficulty, seed, view, deadline)

    def _drop_decision(self, table_id: str) -> None:
        pending = self._decisions.pop(table_id, None)
        if pending is not None and not pending.task.done():
            pending.task.cancel()

    async def _wake_locked(
        self, table: Table, decision: tuple[int, int, Card | Suit] | None
    ) -> None:
        now = self.clock()
        update = Update(table)
        if table.status == "lobby":
            if table.deadline is not None and now >= table.deadline:
                self._finish(table, update, "cancelled")
                update.add(Expired())
                await self._commit(table, update)
            return
        match = table.match
        if table.status != "playing" or match is None:
            return
        seat = match.to_act
        s = table.seat(seat)
        if table.computer_due is not None and now >= table.computer_due and s.computer_plays:
            fresh = decision is not None and decision[:2] == (match.hand_number, len(match.actions))
            choice = (
                decision[2]
                if fresh and decision
                else _decide(GreedyPlayer(), seat_view(match, seat))
            )
            self._computer_move(table, update, seat, choice)
            await self._commit(table, update)
        elif table.deadline is not None and now >= table.deadline and not s.computer_plays:
            choice = _decide(GreedyPlayer(), seat_view(match, seat))  # R14: the server plays
            s.missed_turns += 1
            if isinstance(choice, Suit):
                update.add(TimedOutTrump(seat, choice))
            else:
                update.add(TimedOut(seat, choice))
            if s.missed_turns >= 2 and s.user_id is not None:
                s.autoplay = True
                update.add(Replaced(seat))
            self._computer_move(table, update, seat, choice)
            await self._commit(table, update)

    def _computer_move(self, table: Table, update: Update, seat: int, choice: Card | Suit) -> None:
        if isinstance(choice, Suit):
            self._apply_trump(table, update, seat, choice)
        else:
            self._apply_card(table, update, seat, choice)

    # ----------------------------------------------------------------- commit

    async def _act(
        self, table_id: str, action: Callable[[Table, Update], Awaitable[None] | None]
    ) -> Update:
        table = self.get(table_id)
        async with self._locks[table_id]:
            if self.tables.get(table_id) is not table:
                raise ActionError("error.stale")
            update = Update(table)
            snapshot = self._last_saved(table)
            try:
                result = action(table, update)
                if result is not None:
                    await result
            except ActionError:
                raise  # every action validates before it changes anything
            except Exception:
                _restore_in_place(table, snapshot)
                log.exception("table %s: action failed; state restored", table_id)
                raise ActionError("error.internal") from None
            try:
                await self._commit(table, update)
            except Exception:
                _restore_in_place(table, snapshot)
                log.exception("table %s: could not save; state restored", table_id)
                raise ActionError("error.internal") from None
            self._arm(table)
            return update

    async def _commit(self, table: Table, update: Update) -> None:
        """Persist first (crash safety), then publish; a finished match is recorded once.
        The public lines the events call for are written into the table first, so they are
        saved (and rolled back) with the move behind them."""
        for event in update.events:
            line = _log_line(table, event)
            if line is not None:
                table.add_log(line)
        if table.status == "finished" and update.has(MatchOver):
            record = self._record(table)
            finished = self._finished_match(table)
            stored = await self.store.finish_match(finished, record)
            self._committed(table, record)
            log.info("table %s: match recorded (new=%s)", table.table_id, stored)
        else:
            await self._save(table)
        if not table.is_live:
            self._forget(table)
        if update.events:
            log.info("table %s: %s", table.table_id, ", ".join(e.log_word for e in update.events))
        self.publisher.publish(update)

    def _record(self, table: Table) -> TableRecord:
        return TableRecord(
            table_id=table.table_id,
            guild_id=table.guild_id,
            channel_id=table.channel_id,
            status=table.status,
            version=table.version + 1,
            state=table.to_dict() | {"version": table.version + 1},
        )

    async def _save(self, table: Table) -> None:
        record = self._record(table)
        await self.store.save_table(record)
        self._committed(table, record)

    def _committed(self, table: Table, record: TableRecord) -> None:
        """Remember what the store now holds: the state to go back to if a later write fails
        (kept from the write itself, so an action costs one serialization, not two)."""
        table.version = record.version
        self._saved[table.table_id] = dict(record.state)

    def _last_saved(self, table: Table) -> dict[str, Any]:
        return self._saved.get(table.table_id) or table.to_dict()

    async def _reload(self, table: Table) -> None:
        """After a failed write, go back to what the store holds."""
        try:
            record = await self.store.load_table(table.table_id)
        except Exception:
            log.exception("table %s: reload failed", table.table_id)
            return
        if record is None or not record.is_live:
            self._forget(table)
            return
        fresh = Table.from_dict(dict(record.state))
        fresh.version = record.version
        _restore_in_place(table, fresh.to_dict())
        self._committed(table, record)

    # ----------------------------------------------------------------- feedback port

    async def message_posted(self, table_id: str, message_id: int) -> None:
        def apply(table: Table) -> None:
            table.message_id = message_id

        await self._side_data(table_id, apply)

    async def dm_posted(
        self, table_id: str, seat: int, channel_id: int, message_id: int, hand: int
    ) -> None:
        def apply(table: Table) -> None:
            s = table.seat(seat)
            s.hand_channel_id, s.hand_message_id, s.hand_message_for = channel_id, message_id, hand

        await self._side_data(table_id, apply)

    async def dm_gone(self, table_id: str, seat: int) -> None:
        def apply(table: Table) -> None:
            table.seat(seat).hand_message_id = None

        await self._side_data(table_id, apply)

    async def dm_closed(self, table_id: str, seat: int) -> None:
        """A member's DMs are closed: remember it (they must press "My hand") and say so."""
        log.info("table %s: seat %s has DMs closed", table_id, seat)

        def apply(table: Table) -> None:
            table.seat(seat).dm_closed = True

        table = await self._side_data(table_id, apply)
        if table is not None:
            update = Update(table)
            update.add(DmClosed(seat))
            self.publisher.publish(update)

    async def channel_gone(self, table_id: str) -> None:
        await self.abandon(table_id)

    async def _side_data(self, table_id: str, mutate: Callable[[Table], None]) -> Table | None:
        """Record bookkeeping the Discord layer learns, under the lock, saved; the table, or
        ``None`` when it has ended meanwhile."""
        table = self.tables.get(table_id)
        if table is None:
            return None
        async with self._locks[table_id]:
            if self.tables.get(table_id) is not table:
                return None
            snapshot = self._last_saved(table)
            mutate(table)
            try:
                await self._save(table)
            except StaleWrite:
                _restore_in_place(table, snapshot)
                log.warning("table %s: side data not saved (stale)", table_id)
            return table

    def _finish(self, table: Table, update: Update, status: TableStatus) -> None:
        table.status = status
        table.finished_at = self.clock()
        table.deadline = table.computer_due = None

    def _finished_match(self, table: Table) -> FinishedMatch:
        match = table.match
        assert match is not None and match.winner_team is not None
        stats = [[0, 0, 0] for _ in match.fmt.teams]
        for r in match.hand_results:
            stats[r.winner_team][0] += 1
            stats[r.winner_team][1] += r.is_kot
            suffered = r.hakem_kot_suffered_by(match.fmt)
            if suffered is not None:
                stats[suffered][2] += 1
        return FinishedMatch(
            match_id=table.table_id,
            guild_id=table.guild_id,
            channel_id=table.channel_id,
            started_at=datetime.fromtimestamp(table.started_at or table.created_at, UTC),
            finished_at=datetime.fromtimestamp(table.finished_at or self.clock(), UTC),
            target_score=table.settings.target_score,
            scores=(match.scores[0], match.scores[1]),
            winner_team=match.winner_team,
            hands=[r._asdict() | {"trump": r.trump.letter} for r in match.hand_results],
            players=tuple(
                MatchPlayer(
                    seat=i,
                    team=table.team_of(i),
                    user_id=s.user_id,
                    is_computer=s.is_computer,
                    display_name=s.name,
                )
                for i, s in enumerate(table.seats)
                if s is not None
            ),
            team_stats=(TeamStats(*stats[0]), TeamStats(*stats[1])),
        )


# --------------------------------------------------------------------------- helpers


def _decide(player: Player, view: Any) -> Card | Suit:
    if view.phase == TRUMP:
        return Suit(player.choose_trump(view))
    return player.choose_card(view)


def _retrieved(task: asyncio.Task[Any]) -> None:
    """Mark a dropped decision's failure as seen (the waiting ``_wake`` logs it if it waits)."""
    if not task.cancelled():
        task.exception()


def _log_line(table: Table, event: TableEvent) -> LogLine | None:
    """The public line under the table message an event calls for, as a catalog key (the
    presenter localizes it); ``None`` for events reported only in the channel, or not at all."""
    name = partial(seat_name, table)
    match event:
        case TrumpNamed(seat=seat, suit=suit):
            return LogLine.of("report.trump_named", name=name(seat), suit=int(suit))
        case TrickTaken(trick=trick):
            cards = " ".join(c.label for c in trick.cards)
            return LogLine.of("report.trick", n=trick.number, cards=cards, name=name(trick.winner))
        case TimedOut(seat=seat, card=card):
            return LogLine.of("report.timeout", name=name(seat), card=card.label)
        case TimedOutTrump(seat=seat, suit=suit):
            return LogLine.of("report.timeout_trump", name=name(seat), suit=int(suit))
        case Replaced(seat=seat):
            return LogLine.of("report.replaced", name=name(seat))
        case Back(seat=seat):
            return LogLine.of("report.back", name=name(seat))
        case Cancelled(by=by):
            return LogLine.of("report.cancelled", name=f"<@{by}>")
        case Expired():
            return LogLine.of("report.expired")
        case _:
            return None


def _restore_in_place(table: Table, data: dict[str, Any]) -> None:
    """Put ``table`` back to a snapshot, keeping the object (others hold references)."""
    fresh = Table.from_dict(data)
    for name in table.__dataclass_fields__:
        setattr(table, name, getattr(fresh, name))


def _refusal(table: Table, exc: IllegalMove) -> ActionError:
    """Translate an engine refusal into a catalog key with what the user needs to know."""
    match = table.match
    if isinstance(exc, NotYourTurn) and match is not None:
        return ActionError("error.not_your_turn", name=seat_name(table, match.to_act))
    if isinstance(exc, MustFollowSuit):
        return ActionError("error.must_follow_suit", suit=int(exc.led))
    if isinstance(exc, CardNotInHand):
        return ActionError("error.card_not_in_hand", card=exc.card.label)
    if isinstance(exc, NotHakem) and match is not None:
        return ActionError("error.not_hakem", name=seat_name(table, match.hakem))
    if isinstance(exc, WrongPhase) and match is not None and match.phase == PLAY:
        return ActionError("error.not_your_turn", name=seat_name(table, match.to_act))
    return ActionError("error.wrong_phase")


__all__ = [
    "SEATS",
    "ActionError",
    "Publisher",
    "TableEvent",
    "TableFeedback",
    "TableService",
    "Update",
]
