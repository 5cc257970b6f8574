"""The one place that turns a click into a move.

``TableService`` is the service layer's front: it takes ids and returns what changed, and
knows no discord.py types, so it is tested without Discord. Each action runs under the
table's lock (``registry``), applies the lobby's or the engine's rules (``lobby``,
``moves``), is stored *before* it is acknowledged (``persistence``), and is then handed as an
``Update`` to the ``Publisher``. Timers and computer moves (``turns``) go the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable
from functools import partial
from typing import Unpack

from engine import Card, Suit

from ..store import ChannelBusy, SeatTaken, Store
from ..store.guild_settings import GuildSettings
from .analysis import Analyses
from .commits import Action, Commits, Watcher
from .delivery import Deliveries, Delivery, Shown
from .errors import ActionError
from .events import DmClosed, Opened, Resumed, TableEvent
from .games import family_of
from .hints import Hints
from .lobby import Lobby, TableChoices, new_table
from .match_history import MatchHistory
from .moves import apply_decision, apply_redeal, apply_trump, player_seat, reclaim_then
from .persistence import TableKeeper
from .ports import (
    THINK_GRACE,
    CallLater,
    NullPublisher,
    Pace,
    PlayerFactory,
    Publisher,
    TableFeedback,
    Thinker,
    Update,
    Via,
)
from .puzzles import PuzzleBook
from .registry import TableRegistry, seated_elsewhere
from .rematch import Rematches
from .shelem_actions import ShelemTables
from .table import SEATS, Table
from .turns import VISITOR_GRACE, TurnTimers, default_player_factory
from .variants import Decision

log = logging.getLogger(__name__)

Move = Callable[..., None]
"""A move of ``moves``: ``(table, update, seat, [choice=…,] pace=…)``."""


SWEEP_SECONDS = 1.0
"""How often a process looks for overdue tables nobody plays (``sweep``)."""


def random_seed() -> int:
    """A fresh match seed, unpredictable to the players."""
    return secrets.randbits(63)


class TableService:
    """Live tables, their locks and timers, and every action on them."""

    def __init__(
        self,
        store: Store,
        *,
        publisher: Publisher | None = None,
        make_publisher: Callable[[TableFeedback], Publisher] | None = None,
        clock: Callable[[], float] | None = None,
        monotonic: Callable[[], float] | None = None,
        call_later: CallLater | None = None,
        computer_delay: float = 1.0,
        seed_source: Callable[[], int] = random_seed,
        player_factory: PlayerFactory = default_player_factory,
        thinker: Thinker | None = None,
        think_grace: float = THINK_GRACE,
        shared: bool = False,
        owns: Callable[[int], bool] | None = None,
        analyses: Analyses | None = None,
    ) -> None:
        self.store = store
        self.shared = shared
        """Other processes write the same tables (``docs/scaling.md``): a table may
        be loaded on a click, and a write that finds a newer version reloads and retries."""
        self.owns: Callable[[int], bool] = owns or (lambda guild_id: True)
        """Whether this process serves a server (its shards): it restores that server's
        tables and runs their timers first; another process's tables only after a grace."""
        self.pace = Pace(computer_delay=computer_delay, think_grace=think_grace)
        if clock is not None:
            self.pace.clock = clock
        if monotonic is not None:
            self.pace.monotonic = monotonic
        self.registry = TableRegistry()
        self.keeper = TableKeeper(store, self.pace)
        self.analyses = analyses
        """Each finished match graded in a worker; ``None``: not here."""
        if analyses is not None:
            self.keeper.on_finished = lambda m: analyses.submit(
                m.match_id, m.guild_id, m.game_format, m.replay
            )
        self.deliveries = Deliveries(store)
        """Where each table is shown on Discord: the Discord side's, out of the game table."""
        self.commits = Commits(self.registry, self.keeper, self.deliveries, store, shared=shared)
        self.lobby = Lobby(self.registry, self.pace, seed_source)
        self.rematches = Rematches(
            store, self.registry, self.lobby, self.pace, act=self.commits.act, open_table=self._open
        )
        self.turns = TurnTimers(
            self.registry,
            self.lobby,
            self.pace,
            commits=self.commits,
            call_later=call_later,
            player_factory=player_factory,
            thinker=thinker,
            owns=lambda table: self.owns(table.guild_id),
        )
        self.hints = Hints(self.turns, self.pace)
        self.commits.watch(self.hints.changed)
        self.shelem = ShelemTables(self.shown, self.pace, act=self.commits.act)
        """A Shelem table's bids, laid-down cards and mode (V6)."""
        self.history = MatchHistory(store)
        """``/hokm history`` and its Replay: finished matches only."""
        self.puzzles = PuzzleBook(store)
        """Double-dummy puzzles from finished matches (``/hokm puzzle``)."""
        if analyses is not None:  # a match's puzzles are found in its analysed hands
            analyses.listen(lambda done: self.puzzles.harvest(done.match_id, done.decisions))
        self.publisher = make_publisher(self) if make_publisher else publisher or NullPublisher()

    # ----------------------------------------------------------------- tunables
    # Each lives on the part that reads it; set here (by tests and tools) it reaches that part.

    clock: Via[Callable[[], float]] = Via("pace")
    computer_delay: Via[float] = Via("pace")
    think_grace: Via[float] = Via("pace")
    player_factory: Via[PlayerFactory] = Via("turns")
    thinker: Via[Thinker | None] = Via("turns")

    # ----------------------------------------------------------------- lifecycle

    async def restore(self) -> list[Table]:
        """Load every live table after a start-up and re-arm its timers from stored deadlines."""
        restored = []
        for record in await self.store.load_live_tables():
            if not self.owns(record.guild_id):
                continue  # another process serves that server
            try:
                table = Table.from_dict(dict(record.state))
            except Exception:
                log.exception("table %s: stored state unreadable, closing it", record.table_id)
                await self.keeper.close_unreadable(record)
                continue
            self.registry.register(table)
            self.keeper.committed(table, record)
            restored.append(table)
        await self.deliveries.load(table.table_id for table in restored)
        for table in restored:
            log.info("table %s: resumed (%s)", table.table_id, table.status)
            self._publish(table, Resumed())
            self.turns.arm(table)
        return restored

    async def close(self) -> None:
        await self.turns.close()
        await self.commits.close()

    async def sweep(self) -> int:
        """``Commits.sweep``: a dead process's overdue tables, played here."""
        return await self.commits.sweep(self.pace.clock() - VISITOR_GRACE)

    async def sweep_forever(self, every: float = SWEEP_SECONDS) -> None:
        """``sweep`` every ``every`` seconds, for as long as the bot runs."""
        while True:
            await asyncio.sleep(every)
            try:
                await self.sweep()
            except Exception:
                log.exception("sweep of overdue tables failed")

    def saved_elsewhere(self, table_id: str, version: int) -> None:
        """``Commits.saved_elsewhere``: the store's news of a save by any process."""
        self.commits.saved_elsewhere(table_id, version)

    @property
    def publisher(self) -> Publisher:
        """Shows every update (``Commits`` hands it each committed one). Built here when given
        ``make_publisher``: it is handed this service as its one ``TableFeedback`` port at
        construction, and knows it through nothing else."""
        return self.commits.publisher

    @publisher.setter
    def publisher(self, publisher: Publisher) -> None:
        self.commits.publisher = publisher

    def watch(self, watcher: Watcher) -> None:
        """``Commits.watch``: ``watcher`` is told of every change of a table from now on."""
        self.commits.watch(watcher)

    # ----------------------------------------------------------------- queries

    @property
    def tables(self) -> dict[str, Table]:
        return self.registry.tables

    def table_in_channel(self, channel_id: int) -> Table | None:
        return self.registry.in_channel(channel_id)

    def shown(self, table_id: str) -> Table:
        """A live table as last committed (``Commits.latest``), to render without its lock."""
        return self.commits.latest(self.get(table_id))

    def get(self, table_id: str) -> Table:
        return self.registry.get(table_id)

    def tables_of_user(self, guild_id: int, user_id: int) -> list[Table]:
        return self.registry.of_user(guild_id, user_id)

    def hand_view(self, table_id: str, user_id: int) -> tuple[Table, int]:
        """The table as last committed (``shown``) and the seat of a member asking for their hand.

        :raises ActionError: ``error.stale``, ``error.not_started``, ``error.spectator`` (a
            member not seated at a match: they watch it).
        """
        table = self.shown(table_id)
        if table.match is None:
            raise ActionError("error.not_started")
        seat = table.seat_of(user_id)
        if seat is None:
            raise ActionError("error.spectator")
        return table, seat

    def rearm(self, table_id: str) -> None:
        """Re-read a table's deadlines (after a clock change, or at start-up)."""
        table = self.tables.get(table_id)
        if table is not None:
            self.turns.arm(table)

    # ----------------------------------------------------------------- the lobby

    async def open_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        settings: GuildSettings,
        **choices: Unpack[TableChoices],
    ) -> Update:
        """:raises ActionError: a table in the channel, the host seated elsewhere, the
        server's tables full. :raises SettingError: a choice out of range."""
        existing = self.table_in_channel(channel_id)
        if existing is not None:
            raise ActionError("error.channel_busy", table=existing)
        table = new_table(
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            host_name=host_name,
            settings=settings,
            now=self.clock(),
            **choices,
        )
        return await self._open(table, settings.max_open_tables)

    async def _open(self, table: Table, max_open_tables: int) -> Update:
        """Store and show a new lobby (``/hokm new`` or a rematch): the host sits nowhere
        else and the server has room; a lobby already full starts at once."""
        host_id, guild_id, channel_id = table.host_id, table.guild_id, table.channel_id
        self.registry.require_unseated(host_id, guild_id)
        self.registry.require_room(guild_id, max_open_tables)
        with self.registry.opening(host_id, guild_id, channel_id):  # no await before it
            try:
                await self.keeper.save(table)
            except ChannelBusy:
                raise ActionError("error.channel_busy", table=None) from None
            except SeatTaken as taken:  # the host sits at a table another process holds
                raise seated_elsewhere(guild_id, taken.guild_id, taken.channel_id) from None
        self.registry.register(table)
        log.info("table %s: opened in channel %s by %s", table.table_id, channel_id, host_id)
        update = self._publish(table, Opened(0))
        self.turns.arm(table)
        if not table.free_seats() and not table.reserved:
            return await self._act(table.table_id, self.lobby.start_if_full)
        return update

    async def join(self, table_id: str, user_id: int, name: str) -> Update:
        return await self._act(table_id, lambda t, u: self.lobby.join(t, u, user_id, name))

    async def leave(self, table_id: str, user_id: int) -> Update:
        return await self._act(table_id, lambda t, u: self.lobby.leave(t, u, user_id))

    async def add_computer(self, table_id: str, user_id: int, *, is_admin: bool = False) -> Update:
        """The host's (or a server manager's): filling the last seat starts the match."""
        return await self._act(
            table_id, lambda t, u: self.lobby.add_computer(t, u, user_id, is_admin)
        )

    async def start(self, table_id: str, user_id: int, *, is_admin: bool = False) -> Update:
        return await self._act(table_id, lambda t, u: self.lobby.start(t, u, user_id, is_admin))

    async def cancel(self, table_id: str, user_id: int, *, is_admin: bool) -> Update:
        return await self._act(table_id, lambda t, u: self.lobby.cancel(t, u, user_id, is_admin))

    async def abandon(self, table_id: str) -> None:
        """End a table whose channel is gone or unwritable, so it is never stuck for ever."""
        with contextlib.suppress(ActionError):
            await self._act(table_id, self.lobby.abandon)

    # ----------------------------------------------------------------- play

    async def choose_trump(self, table_id: str, user_id: int, hand: int, suit: Suit) -> Update:
        return await self._move(table_id, user_id, hand, partial(apply_trump, suit=suit))

    async def redeal(self, table_id: str, user_id: int, hand: int) -> Update:
        """R6: the hakem throws in five cards without a court card (the table's house rule)."""
        return await self._move(table_id, user_id, hand, apply_redeal)

    async def decide(self, table_id: str, user_id: int, hand: int, choice: Decision) -> Update:
        """V1's bam or stop, V2's draw (a V2 discard is a card's click, ``play_card``)."""
        return await self._move(table_id, user_id, hand, partial(apply_decision, choice=choice))

    async def play_card(self, table_id: str, user_id: int, hand: int, card: Card) -> Update:
        """The most common action, with no callback: this one change's body asks the table's
        family once (which takes a seat back from the computer, then plays the card)."""
        for attempt in self.commits.change(table_id):
            async with attempt as update:
                table = update.table
                seat = update.actor_seat = player_seat(table, user_id, hand)
                family_of(table).apply_card(table, update, seat, card, self.pace)
        return update

    async def _move(self, table_id: str, user_id: int, hand: int, apply: Move) -> Update:
        """A seat's move on this hand: ``apply(table, update, seat, pace=…)``; a member the
        computer was playing for takes the seat back with it."""

        def act(table: Table, update: Update) -> None:
            seat = update.actor_seat = player_seat(table, user_id, hand)
            move = partial(apply, table, update, seat, pace=self.pace)
            reclaim_then(table, update, seat, move, self.pace)

        return await self._act(table_id, act)

    # ----------------------------------------------------------------- commit

    async def _act(self, table_id: str, action: Action) -> Update:
        """``Commits.act``: the one way an action becomes a stored, published change."""
        return await self.commits.act(table_id, action)

    async def held(self, table_id: str) -> Table:
        """``Commits.held``. :raises ActionError: ``error.stale``: no live table of that id."""
        return await self.commits.held(table_id)

    def _publish(self, table: Table, event: TableEvent) -> Update:
        """Show a table no change publishes (opened, resumed, a DM closed) as last committed."""
        update = Update(table, snapshot=self.commits.latest(table))
        update.add(event)
        self.publisher.publish(update)
        return update

    # ----------------------------------------------------------------- feedback port

    def delivery(self, table_id: str) -> Shown:
        """Where the table is shown (``Deliveries``): kept while the table is live."""
        return self.deliveries.shown(table_id, keep=self._live(table_id))

    async def fresh_delivery(self, table_id: str) -> Delivery:
        """Before a message is posted anew: with other processes (``shared``) what the store
        holds now, as one of them may have posted it; else what is kept here."""
        if self.shared:
            return await self.deliveries.fresh(table_id)
        return self.deliveries.of(table_id)

    async def message_posted(self, table_id: str, message_id: int) -> None:
        await self.deliveries.message_posted(table_id, message_id, keep=self._live(table_id))

    async def dm_posted(
        self, table_id: str, seat: int, channel_id: int, message_id: int, hand: int
    ) -> None:
        dm = (channel_id, message_id, hand)
        await self.deliveries.dm_posted(table_id, seat, dm, keep=self._live(table_id))

    async def dm_gone(self, table_id: str, seat: int) -> None:
        await self.deliveries.dm_gone(table_id, seat, keep=self._live(table_id))

    async def dm_closed(self, table_id: str, seat: int) -> None:
        """A member's DMs are closed: remember it (they must press "My hand") and say so."""
        log.info("table %s: seat %s has DMs closed", table_id, seat)
        await self.deliveries.dm_closed(table_id, seat, keep=self._live(table_id))
        table = self.registry.tables.get(table_id)
        if table is not None and table.is_live:
            self._publish(table, DmClosed(seat))

    def _live(self, table_id: str) -> bool:
        """Held here and live: where it is shown is kept (an ended table's only written)."""
        return table_id in self.registry.tables

    async def channel_gone(self, table_id: str) -> None:
        await self.abandon(table_id)


__all__ = [
    "SEATS",
    "ActionError",
    "Publisher",
    "TableEvent",
    "TableFeedback",
    "TableService",
    "Update",
]
