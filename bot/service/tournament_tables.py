"""A tournament's game tables: how one is built for a table of a round, who may
sit at it, and what its stored record says about the match.

A tournament table is a lobby whose every seat is kept for its players, as a rematch keeps
seats (``Table.reserved``): each player's **Join** takes their own seat, and the match starts
by itself when all have. It has no host (``TOURNAMENT_HOST``): nobody but a server manager
may cancel it, and nobody else may sit there. When the round's grace time ends with the lobby
not full, the tournament closes it (``expire``) and the absent lose that match.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

from ..store import TableRecord
from ..store.guild_settings import GuildSettings
from .errors import ActionError
from .events import Expired
from .games import family_named
from .lobby import kept_seat
from .moves import finish
from .ports import Update
from .table import Seat, Table, TableSettings
from .tournament_state import TournamentState

TOURNAMENT_HOST: Final = 0
"""The host id of every tournament table: no member's, so only a server manager may cancel
one, and the tables of a tournament are told from others by their stored state alone."""

Sides = tuple[tuple[int, ...], ...]


def is_tournament_table(table: Table) -> bool:
    return table.host_id == TOURNAMENT_HOST


def require_player(table: Table, user_id: int) -> None:
    """Only the players of a tournament table sit at it, each in their own seat, and once
    there they stay (their match is the tournament's).

    :raises ActionError: ``error.t_not_your_table``.
    """
    if is_tournament_table(table) and kept_seat(table, user_id) is None:
        raise ActionError("error.t_not_your_table")


def table_settings(state: TournamentState, settings: GuildSettings) -> TableSettings:
    """The server's table settings with the tournament's own: its format, target and turn
    time, whether computers may take an absent player's seat (T11) and whether its results
    change ratings (T12); no hints."""
    config = state.core.config
    base = TableSettings.from_guild(settings)
    chosen = replace(
        base,
        game_format=config.format,
        turn_seconds=config.turn_seconds,
        allow_computer_players=config.computers,
        hints=False,
        rated=config.rated,
        language=state.language,
    )
    return family_named(config.format).with_target(chosen, config.target_score)


def game_table(
    state: TournamentState,
    round_no: int,
    table_no: int,
    *,
    table_id: str,
    channel_id: int,
    settings: GuildSettings,
    now: float,
) -> Table:
    """The lobby of a table of a round: side ``i`` in team ``i``'s seats, every seat kept for
    its player until the round's grace time ends (the lobby's deadline)."""
    table = Table(
        table_id=table_id,
        guild_id=state.guild_id,
        channel_id=channel_id,
        host_id=TOURNAMENT_HOST,
        settings=table_settings(state, settings),
        created_at=now,
    )
    for team, members in zip(table.fmt.teams, state.table_members(round_no, table_no), strict=True):
        for seat, member in zip(team, members, strict=True):
            name = state.names.get(member, str(member))
            table.reserved[seat] = Seat(name=name, user_id=member)
    table.deadline = now + state.core.config.grace_seconds
    return table


@dataclass(frozen=True, slots=True)
class Played:
    scores: tuple[int, ...]
    winner: int


@dataclass(frozen=True, slots=True)
class NotPlayed:
    """The match will not be played: ``absent`` lose it (every player when all were there)."""

    absent: tuple[int, ...]


Outcome = Played | NotPlayed | None
"""``None``: the game table is still live."""


def outcome(record: TableRecord | None, sides: Sides) -> Outcome:
    """What a tournament table's stored record says: a match played to its end, a lobby or a
    match closed without one (the absent forfeit: the players not seated when it closed; if
    all were, because a manager cancelled it or its channel went, every side), or nothing yet.
    """
    expected = tuple(m for side in sides for m in side)
    if record is None:
        return NotPlayed(expected)
    if record.is_live:
        return None
    table = Table.from_dict(dict(record.state))
    match = table.match
    if record.status == "finished" and match is not None and match.winner_team is not None:
        return Played(tuple(match.scores), match.winner_team)
    seated = {s.user_id for s in table.seats if s is not None and s.user_id is not None}
    absent = tuple(m for m in expected if m not in seated)
    return NotPlayed(absent or expected)


def expire(table: Table, update: Update, now: float) -> None:
    """The round's grace time is over and the lobby is not full: it closes (the absent
    forfeit). A table whose match began meanwhile plays on.

    :raises ActionError: ``error.already_started``, ``error.stale``.
    """
    if table.status != "lobby":
        raise ActionError("error.already_started" if table.is_live else "error.stale")
    finish(table, "cancelled", now)
    update.add(Expired())


def computers_may_sit(allowed: bool, table: Table, sides: Sides) -> bool:
    """T11: with computers allowed, a lobby whose every side has a player seated plays on with
    computers in the absent players' seats; one with a side nobody joined is a forfeit (T9)."""
    if not allowed or table.status != "lobby":
        return False
    seated = {s.user_id for _, s in table.humans()}
    return all(any(m in seated for m in side) for side in sides)


def members_of(sides: Sequence[Sequence[int]]) -> tuple[int, ...]:
    return tuple(m for side in sides for m in side)
