"""The lobby's rules: who may take, leave or fill a seat, and when a match starts.

Plain functions of a ``Table`` and an ``Update``, run under the table's lock by the service
(which saves and publishes). Each checks everything before it changes anything.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, TypedDict, Unpack

from ..names import shown_name
from ..store.guild_settings import GuildSettings
from .errors import ActionError
from .events import Abandoned, Cancelled, ComputerAdded, Expired, Joined, Left, SeatsReleased
from .games import family_or_hokm, start_match
from .moves import finish
from .ports import Pace, Update
from .registry import TableRegistry
from .table import Seat, Table, TableSettings

COMPUTER_NAMES = ("Rostam", "Sohrab", "Gordafarid", "Tahmineh", "Siavash", "Manijeh")


class TableChoices(TypedDict, total=False):
    """What the host may choose at ``/hokm new``, each over the server's setting (None: the
    server's): its name there is ``CHOICE_SETTINGS``' or its own."""

    target_score: int | None
    turn_seconds: int | None
    difficulty: str | None
    hints: bool | None
    game_format: str | None
    redeal: bool | None
    bam: bool | None
    joker: bool | None
    """V6.13, at a Shelem table."""
    modes: str | None
    """V6.7, at a Shelem table (``GuildSettings.shelem_modes``)."""
    shelem_target: int | None
    """V6.14, at a Shelem table."""


CHOICE_SETTINGS: Final = {
    "difficulty": "computer_difficulty",
    "redeal": "redeal_without_court",
    "joker": "shelem_joker",
    "modes": "shelem_modes",
}


def new_table(
    *,
    guild_id: int,
    channel_id: int,
    host_id: int,
    host_name: str,
    settings: GuildSettings,
    now: float,
    **choices: Unpack[TableChoices],
) -> Table:
    """A lobby with the host in seat 1, the server's settings with the host's choices (its
    seats are its format's). A Shelem table (V6) gives no hints: a server's hints
    are off there, and a host asking for them is refused.

    :raises SettingError: a choice out of its range (``GuildSettings.with_changes``).
    :raises ActionError: ``error.hints_shelem``; ``target_score`` where it would not apply
        (``require_own_target``).
    """
    given = {CHOICE_SETTINGS.get(k, k): v for k, v in choices.items() if v is not None}
    if "target_score" in given:
        require_own_target(str(given.get("game_format", settings.game_format)))
    chosen = settings.with_changes(**given)
    hinted = family_or_hokm(chosen.game_format).hints  # a Table refuses an unknown format
    if not hinted and given.get("hints"):
        raise ActionError("error.hints_shelem")
    table = Table(
        table_id=Table.new_id(),
        guild_id=guild_id,
        channel_id=channel_id,
        host_id=host_id,
        settings=TableSettings.from_guild(chosen),
        created_at=now,
    )
    table.settings.hints = table.settings.hints and hinted
    table.seats[0] = Seat(name=host_name, user_id=host_id)
    table.deadline = now + chosen.lobby_timeout_minutes * 60
    return table


class Lobby:
    """The lobby actions, each ``(table, update, …)`` under the table's lock."""

    def __init__(self, registry: TableRegistry, pace: Pace, seed: Callable[[], int]) -> None:
        self.registry = registry
        self.pace = pace
        self.seed = seed

    def join(self, table: Table, update: Update, user_id: int, name: str) -> None:
        """A seat for ``user_id``: the one a rematch keeps for them, else the first free one."""
        require_lobby(table)
        if table.seat_of(user_id) is not None:
            raise ActionError("error.already_seated")
        seat = kept_seat(table, user_id)
        free = table.free_seats()
        if seat is None:
            if not free:
                raise kept_refusal(table) if table.reserved else ActionError("error.table_full")
            seat = free[0]
        self.sit(table, update, seat, user_id, name)

    def sit(self, table: Table, update: Update, seat: int, user_id: int, name: str) -> None:
        """Seat a member (a Join, a Rematch press) in ``seat``: they sit at no other live
        table, a seat kept for them is theirs now, and a full lobby starts.

        :raises ActionError: ``error.seated_elsewhere`` / ``error.seated_elsewhere_other``.
        """
        self.registry.require_unseated(user_id, table.guild_id)
        table.reserved.pop(seat, None)
        table.seats[seat] = Seat(name=name, user_id=user_id)
        # No actor_seat: a Join is answered with the table message, not the hand, so the
        # joiner's DM must still be sent (the last joiner may be the first hakem).
        update.add(Joined(seat))
        self.start_if_full(table, update)

    def leave(self, table: Table, update: Update, user_id: int) -> None:
        require_lobby(table)
        seat = table.seat_of(user_id)
        if seat is None:
            raise ActionError("error.not_seated")
        table.seats[seat] = None
        update.add(Left(seat))
        humans = table.humans()
        if not humans:
            finish(table, "cancelled", self.pace.clock())
            update.add(Cancelled(user_id))
        elif user_id == table.host_id:
            table.host_id = humans[0][1].user_id or table.host_id

    def add_computer(self, table: Table, update: Update, user_id: int, is_admin: bool) -> None:
        """The host's (or a server manager's): filling the last seat starts the match."""
        require_lobby(table)
        require_host(table, user_id, is_admin)
        if not table.settings.allow_computer_players:
            raise ActionError("error.computers_off")
        free = table.free_seats()
        if not free:
            raise kept_refusal(table) if table.reserved else ActionError("error.table_full")
        seat = free[0]
        table.seats[seat] = computer_seat(table, seat)
        update.add(ComputerAdded(seat))
        self.start_if_full(table, update)

    def start(self, table: Table, update: Update, user_id: int, is_admin: bool) -> None:
        """The host's: empty seats go to computers where the table allows them."""
        require_lobby(table)
        require_host(table, user_id, is_admin)
        if table.reserved:  # a rematch waits for its players until its deadline
            raise kept_refusal(table)
        free = table.free_seats()
        if free and not table.settings.allow_computer_players:
            raise ActionError("error.need_players")
        for seat in free:
            table.seats[seat] = computer_seat(table, seat)
            update.add(ComputerAdded(seat))
        self._start(table, update)

    def cancel(self, table: Table, update: Update, user_id: int, is_admin: bool) -> None:
        if not table.is_live:
            raise ActionError("error.stale")
        require_host(table, user_id, is_admin)
        finish(table, "cancelled", self.pace.clock())
        update.add(Cancelled(user_id))

    def abandon(self, table: Table, update: Update) -> None:
        """A table whose channel is gone or unwritable ends, so it is never stuck for ever."""
        if table.is_live:
            finish(table, "cancelled", self.pace.clock())
            update.add(Abandoned())

    def expire(self, table: Table, update: Update) -> bool:
        """A lobby nobody started in time closes (its own timer), and a rematch lobby first
        frees the seats it kept; whether the table changed."""
        if table.deadline is None or self.pace.clock() < table.deadline:
            return False
        if table.reserved:  # a rematch's wait ran out: its kept seats open to all, once
            table.reserved.clear()
            table.deadline = self.pace.clock() + table.settings.lobby_timeout_minutes * 60
            update.add(SeatsReleased())
            return True
        finish(table, "cancelled", self.pace.clock())
        update.add(Expired())
        return True

    def fill_kept(self, table: Table, update: Update) -> None:
        """A tournament's grace time is over (T11, computers allowed): each seat an absent
        player left empty (kept for them, or released by the lobby's own deadline) goes to a
        computer, and the match starts."""
        require_lobby(table)
        if not table.settings.allow_computer_players:
            raise ActionError("error.computers_off")
        table.reserved.clear()
        for seat in table.free_seats():
            table.seats[seat] = computer_seat(table, seat)
            update.add(ComputerAdded(seat))
        self.start_if_full(table, update)

    def start_if_full(self, table: Table, update: Update) -> None:
        """The match starts by itself once every seat is taken and none is kept (a rematch)."""
        if table.status == "lobby" and not table.free_seats() and not table.reserved:
            self._start(table, update)

    def _start(self, table: Table, update: Update) -> None:
        start_match(table, update, self.seed(), self.pace)


def require_own_target(game_format: str) -> None:
    """A host's ``target_score`` must be the one the match plays to: a format that
    fixes its own (the joker six's 124) and Shelem (``shelem_target``) refuse it rather than
    ignore it.

    :raises ActionError: ``error.target_fixed`` / ``error.target_shelem``.
    """
    refusal = family_or_hokm(game_format).own_target(game_format)
    if refusal is not None:
        raise refusal


def require_lobby(table: Table) -> None:
    """:raises ActionError: ``error.already_started`` or ``error.stale`` (ended)."""
    if table.status == "playing":
        raise ActionError("error.already_started")
    if table.status != "lobby":
        raise ActionError("error.stale")


def require_host(table: Table, user_id: int, is_admin: bool) -> None:
    """:raises ActionError: ``error.not_host_or_admin``."""
    if user_id != table.host_id and not is_admin:
        raise ActionError("error.not_host_or_admin")


def computer_seat(table: Table, seat: int) -> Seat:
    used = {s.name for s in table.seats if s is not None}
    name = next((n for n in COMPUTER_NAMES if f"🤖 {n}" not in used), f"Bot {seat + 1}")
    return Seat(name=f"🤖 {name}", difficulty=table.settings.computer_difficulty)


def kept_seat(table: Table, user_id: int) -> int | None:
    """The seat a rematch lobby keeps for ``user_id``, if any."""
    return next((i for i, s in table.reserved.items() if s.user_id == user_id), None)


def kept_refusal(table: Table) -> ActionError:
    """The seats left are kept for a rematch's players until the lobby's deadline."""
    names = tuple(shown_name(s.name) for _, s in sorted(table.reserved.items()))
    when = f"<t:{int(table.deadline or 0)}:R>"
    return ActionError("error.rematch_kept", names=names, when=when)
