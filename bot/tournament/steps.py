"""Every step of a tournament, each a pure function: it checks, then returns a new
``Tournament``; a refusal raises a ``TournamentError`` and the tournament it was given is
untouched (it is frozen). Steps of a running tournament name the round they are for, so a
step another process already took is refused (``StaleRound``) instead of done twice.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import replace

from . import knockout, round_robin
from .errors import (
    AlreadyDropped,
    AlreadyRegistered,
    InvalidResult,
    NotAtTable,
    NotRegistered,
    RegistrationClosed,
    RegistrationOpen,
    ResultAlreadyRecorded,
    RoundNotComplete,
    StaleRound,
    TooFewEntrants,
    TournamentFull,
    UnknownTable,
    WrongStatus,
    WrongTeamSize,
)
from .state import Entrant, Result, Round, Tournament
from .swiss import swiss_round


def _status(t: Tournament, action: str, status: str) -> None:
    if t.status != status:
        raise WrongStatus(action, t.status)


def register(t: Tournament, members: Sequence[int], now: int, rating: float = 0.0) -> Tournament:
    """A new entry: a fixed team's members, or one member when members enter alone."""
    _status(t, "register", "registration")
    if now >= t.config.registration_closes:
        raise RegistrationClosed("registration has closed")
    team = tuple(members)
    if len(team) != t.config.entry_size:
        raise WrongTeamSize(len(team), t.config.entry_size)
    for member in team:
        if team.count(member) > 1 or t.member_entry(member) is not None:
            raise AlreadyRegistered(member)
    if len(t.entrants) >= t.config.max_entries:
        raise TournamentFull(t.config.max_entries)
    if not isinstance(rating, int | float) or not math.isfinite(rating):
        raise InvalidResult(f"rating {rating!r} is not a finite number")
    entry = Entrant(len(t.entrants), team, float(rating))
    return replace(t, entrants=(*t.entrants, entry))


def withdraw(t: Tournament, member: int) -> Tournament:
    """A member's entry (their whole team's) leaves before the start."""
    _status(t, "withdraw", "registration")
    entry = t.member_entry(member)
    if entry is None:
        raise NotRegistered(member)
    kept = [e for e in t.entrants if e is not entry]
    return replace(t, entrants=tuple(replace(e, number=i) for i, e in enumerate(kept)))


def start(t: Tournament, now: int, early: bool = False) -> Tournament:
    """Close registration and pair round 1 (``early``: the host starts before the time)."""
    _status(t, "start", "registration")
    if now < t.config.registration_closes and not early:
        raise RegistrationOpen("registration is still open")
    if len(t.entrants) < t.config.min_entries:
        raise TooFewEntrants(len(t.entrants), t.config.min_entries)
    system, count = t.config.system, len(t.entrants)
    if system == "knockout":
        total = knockout.rounds_for(count)
    elif system == "round_robin":
        total = round_robin.rounds_for(count)
    else:
        total = t.config.rounds
    running = replace(t, status="running", total_rounds=total)
    if system == "knockout":
        first = knockout.knockout_round(running, 1, knockout.first_slots(running))
    else:
        first = _build(running, 1)
    return replace(running, rounds=(first,))


def _build(t: Tournament, number: int) -> Round:
    if t.config.system == "round_robin":
        return round_robin.round_robin_round(t, number)
    return swiss_round(t, number)


def _current(t: Tournament, round_no: int) -> Round:
    _status(t, "play a round", "running")
    if round_no != t.current_round:
        raise StaleRound(round_no, t.current_round)
    return t.rounds[-1]


def _with_result(t: Tournament, table_no: int, result: Result) -> Tournament:
    r = t.rounds[-1]
    tables = list(r.tables)
    tables[table_no] = replace(tables[table_no], result=result)
    return replace(t, rounds=(*t.rounds[:-1], replace(r, tables=tuple(tables))))


def _open_table(t: Tournament, round_no: int, table_no: int) -> int:
    r = _current(t, round_no)
    if not isinstance(table_no, int) or not 0 <= table_no < len(r.tables):
        raise UnknownTable(round_no, table_no)
    if r.tables[table_no].result is not None:
        raise ResultAlreadyRecorded(round_no, table_no)
    return len(r.tables[table_no].sides)


def record_result(
    t: Tournament, round_no: int, table_no: int, scores: Sequence[int], winner: int
) -> Tournament:
    """A played match's result: each side's final score and the winning side."""
    sides = _open_table(t, round_no, table_no)
    given = tuple(scores)
    if len(given) != sides or not all(
        isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in given
    ):
        raise InvalidResult(f"{sides} scores of 0 or more, not {given!r}")
    if not isinstance(winner, int) or isinstance(winner, bool) or not 0 <= winner < sides:
        raise InvalidResult(f"winner {winner!r} is not a side 0–{sides - 1}")
    if given[winner] < max(given):
        raise InvalidResult(f"side {winner} cannot win with less than another side")
    return _with_result(t, table_no, Result(given, winner))


def forfeit(t: Tournament, round_no: int, table_no: int, absent: Collection[int]) -> Tournament:
    """The members ``absent`` had not joined when the grace time ended: their sides lose the
    match, which is not played (the sides present win it, tying with one another)."""
    sides = _open_table(t, round_no, table_no)
    table = t.rounds[-1].tables[table_no]
    lost = set()
    for member in absent:
        entry = t.member_entry(member)
        where = [i for i, side in enumerate(table.sides) if entry and entry.number in side]
        if not where:
            raise NotAtTable(member, table_no)
        lost.add(where[0])
    if not lost:
        raise InvalidResult("a forfeit names at least one absent member")
    return _with_result(t, table_no, Result((0,) * sides, None, tuple(sorted(lost))))


def _between_rounds(t: Tournament, expected_round: int) -> Round:
    r = _current(t, expected_round)
    if r.pending:
        raise RoundNotComplete(r.number, r.pending)
    return r


def drop(t: Tournament, member: int, expected_round: int) -> Tournament:
    """The host drops a member (with fixed partners, their team) after round
    ``expected_round``: they are paired no more; their results so far stay."""
    _between_rounds(t, expected_round)
    entry = t.member_entry(member)
    if entry is None:
        raise NotRegistered(member)
    if entry.dropped is not None:
        raise AlreadyDropped(member)
    entrants = list(t.entrants)
    entrants[entry.number] = replace(entry, dropped=expected_round)
    return replace(t, entrants=tuple(entrants))


def advance(t: Tournament, expected_round: int) -> Tournament:
    """After round ``expected_round`` has every result: pair the next round, or finish.
    Two processes advancing the same round: the second is refused (``StaleRound``)."""
    _between_rounds(t, expected_round)
    finished = replace(t, status="finished")
    if expected_round >= t.total_rounds:
        return finished
    number = expected_round + 1
    if t.config.system == "knockout":
        slots = knockout.following(t)
        if knockout.is_over(slots):
            return finished
        nxt = knockout.knockout_round(t, number, slots)
    else:
        if len(t.active()) < t.config.min_entries:
            return finished
        nxt = _build(t, number)
    return replace(t, rounds=(*t.rounds, nxt))
