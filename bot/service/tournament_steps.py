"""Every change of a tournament the service makes, as pure functions of its state:
each checks, then returns the new state and what happened, or raises an ``ActionError`` (a
catalog key) and changes nothing. The core's steps (``bot.tournament.steps``) do the
tournament's own rules; here is what the bot adds: who may ask, fixed teams formed by
invitation, the game tables claimed and opened, drops kept until the round ends, the deadline.

``TournamentService`` runs them on the state it just loaded and saves the result under the
version it loaded, so a step is applied once or refused, never twice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Final

from .. import tournament as core
from ..tournament.errors import InvalidConfig, TournamentError
from .errors import ActionError
from .tournament_events import (
    Cancelled,
    DropAsked,
    EntriesChanged,
    Finished,
    ResultIn,
    RoundOver,
    RoundStarted,
    Started,
    TableOpened,
    TournamentEvent,
)
from .tournament_state import Invitation, Slot, TournamentState

Step = tuple[TournamentState, list[TournamentEvent]]

CLAIM_SECONDS: Final = 120.0
"""A table claimed this long ago and still not open: its process is presumably gone, and
another takes it up (the same game table id, so it is never opened twice)."""
RETRY_SECONDS: Final = 5.0
"""How soon a table that could not open (its channel busy) is tried again."""
HEARTBEAT_SECONDS: Final = 60.0
"""A running tournament is looked at this often at least: a result lost with a process that
died between storing a match and recording it is found within this time."""


def refusal(error: TournamentError) -> ActionError:
    """The core's refusal in the member's words: ``error.t_<code>`` with its details."""
    params: dict[str, object] = {}
    for name in ("given", "needed", "limit", "allowed"):
        if hasattr(error, name):
            params[name] = getattr(error, name)
    if hasattr(error, "key"):  # a setting's name (``key`` is the catalog's own parameter)
        params["setting"] = error.key
    return ActionError(f"error.t_{error.code}", **params)


def _core(step: TournamentState, new: core.Tournament) -> TournamentState:
    return replace(step, core=new)


def require_host(state: TournamentState, user_id: int, is_admin: bool) -> None:
    if user_id != state.host_id and not is_admin:
        raise ActionError("error.t_not_host")


def require_live(state: TournamentState) -> None:
    if not state.is_live:
        raise ActionError("error.t_over")


def new_tournament(
    *,
    tournament_id: str,
    guild_id: int,
    channel_id: int,
    host_id: int,
    language: str,
    now: float,
    settings: Mapping[str, object],
) -> TournamentState:
    """A tournament open for registration. :raises ActionError: a setting out of range
    (``error.t_invalid_config`` naming it and what it may be)."""
    try:
        config = core.TournamentConfig(**settings)  # type: ignore[arg-type]
    except InvalidConfig as error:
        raise refusal(error) from None
    if config.registration_closes <= now:
        raise ActionError("error.t_closes_past")
    return TournamentState(
        tournament_id=tournament_id,
        guild_id=guild_id,
        channel_id=channel_id,
        host_id=host_id,
        language=language,
        created_at=now,
        core=core.Tournament(config),
    )


def _register(
    state: TournamentState, members: Sequence[int], now: float, ratings: Mapping[int, float]
) -> TournamentState:
    rating = sum(ratings.get(m, 0.0) for m in members) / len(members)
    try:
        return _core(state, core.register(state.core, members, int(now), rating))
    except TournamentError as error:
        raise refusal(error) from None


def join(
    state: TournamentState,
    user_id: int,
    names: Mapping[int, str],
    partners: Sequence[int],
    now: float,
    ratings: Mapping[int, float],
) -> Step:
    """**Join**: an entry of one; with fixed partners, naming the partner(s) invites them, and
    a member invited joins by confirming (their own **Join**). ``names`` are the shown names of
    the user and the partners, kept for the tournament's messages."""
    require_live(state)
    if state.status != "registration":
        raise ActionError("error.t_wrong_status")
    config = state.core.config
    named = {**state.names, **names}
    if state.core.member_entry(user_id) is not None:
        raise ActionError("error.t_already_registered")
    if config.entry_size == 1:
        if partners:
            raise ActionError("error.t_no_partners")
        return replace(_register(state, [user_id], now, ratings), names=named), [EntriesChanged()]
    if partners:
        return _invite(state, user_id, partners, named, now), [EntriesChanged()]
    invitation = state.invitation_of(user_id)
    if invitation is None:
        raise ActionError("error.t_name_partner", needed=config.entry_size - 1)
    if user_id in invitation.confirmed:
        raise ActionError("error.t_waiting_partner")
    confirmed = Invitation(invitation.members, (*invitation.confirmed, user_id))
    others = tuple(i for i in state.invitations if i is not invitation)
    if confirmed.complete:
        done = _register(state, confirmed.members, now, ratings)
        return replace(done, invitations=others, names=named), [EntriesChanged()]
    return replace(state, invitations=(*others, confirmed), names=named), [EntriesChanged()]


def _invite(
    state: TournamentState,
    user_id: int,
    partners: Sequence[int],
    names: Mapping[int, str],
    now: float,
) -> TournamentState:
    config = state.core.config
    team = (user_id, *dict.fromkeys(partners))
    if len(team) != config.entry_size or len(set(team)) != len(team):
        raise ActionError("error.t_wrong_team_size", given=len(team), needed=config.entry_size)
    if now >= config.registration_closes:
        raise ActionError("error.t_registration_closed")
    for member in team[1:]:
        if state.core.member_entry(member) is not None:
            raise ActionError("error.t_partner_registered", member=f"<@{member}>")
        other = state.invitation_of(member)
        if other is not None and other.members[0] != user_id:
            raise ActionError("error.t_partner_invited", member=f"<@{member}>")
    kept = tuple(i for i in state.invitations if user_id not in i.members)
    kept = tuple(i for i in kept if not set(i.members) & set(team))
    return replace(state, invitations=(*kept, Invitation(team, (user_id,))), names=names)


def leave(state: TournamentState, user_id: int) -> Step:
    """**Leave** before the start: the member's entry (their whole team), or the invitation
    they are part of."""
    require_live(state)
    if state.status != "registration":
        raise ActionError("error.t_wrong_status")
    if state.core.member_entry(user_id) is not None:
        return _core(state, core.withdraw(state.core, user_id)), [EntriesChanged()]
    invitation = state.invitation_of(user_id)
    if invitation is None:
        raise ActionError("error.t_not_registered")
    kept = tuple(i for i in state.invitations if i is not invitation)
    return replace(state, invitations=kept), [EntriesChanged()]


def start(state: TournamentState, now: float, early: bool) -> Step:
    """Close registration and pair round 1: the host's early start, or registration's end
    (then too few entries cancel the tournament instead of refusing)."""
    require_live(state)
    try:
        started = core.start(state.core, int(now), early=early)
    except core.TournamentError as error:
        if not early and error.code == "too_few_entrants":
            return replace(state, cancelled=True, cancel_reason="too_few"), [Cancelled("too_few")]
        raise refusal(error) from None
    return _core(replace(state, invitations=()), started), [Started(), RoundStarted(1)]


def cancel(state: TournamentState) -> Step:
    require_live(state)
    return replace(state, cancelled=True, cancel_reason="host"), [Cancelled("host")]


def drop(state: TournamentState, member: int) -> Step:
    """The host drops a member (their team, with fixed partners) when the round ends."""
    require_live(state)
    if state.status != "running":
        raise ActionError("error.t_wrong_status")
    entry = state.core.member_entry(member)
    if entry is None:
        raise ActionError("error.t_not_registered")
    if entry.dropped is not None or any(m in entry.members for m in state.drops):
        raise ActionError("error.t_already_dropped")
    return replace(state, drops=(*state.drops, member)), [DropAsked(member)]


def claim(state: TournamentState, round_no: int, table_no: int, table_id: str, now: float) -> Step:
    """A process takes a table of the round to open it (the same game table id as any claim
    before it); with threads, it records that a thread is asked for, before the call (T13)."""
    slot = state.slots.get((round_no, table_no))
    if slot is not None and slot.opened:
        raise ActionError("error.t_stale")
    asked = state.threads or (slot is not None and slot.asked)
    taken = Slot(slot.table_id if slot else table_id, None, now, asked=asked)
    return replace(state, slots={**state.slots, (round_no, table_no): taken}), []


def release(state: TournamentState, round_no: int, table_no: int) -> Step:
    """The table could not open now (its channel is busy): another try later."""
    slot = state.slots[(round_no, table_no)]
    if slot.opened:
        return state, []
    return replace(
        state, slots={**state.slots, (round_no, table_no): replace(slot, claimed_at=0.0)}
    ), []


def opened(
    state: TournamentState, round_no: int, table_no: int, channel_id: int, now: float
) -> Step:
    slot = state.slots[(round_no, table_no)]
    if slot.opened:
        return state, []
    done = replace(slot, channel_id=channel_id, opened_at=now)
    members = tuple(m for side in state.table_members(round_no, table_no) for m in side)
    event = TableOpened(round_no, table_no, channel_id, members)
    return replace(state, slots={**state.slots, (round_no, table_no): done}), [event]


def result(
    state: TournamentState, round_no: int, table_no: int, scores: Sequence[int], winner: int
) -> Step:
    """A match played: each side's final score (a negative Shelem score counts 0) and winner."""
    given = [max(0, s) for s in scores]
    new = core.record_result(state.core, round_no, table_no, given, winner)
    return _core(state, new), [ResultIn(round_no, table_no)]


def forfeit(state: TournamentState, round_no: int, table_no: int, absent: Sequence[int]) -> Step:
    new = core.forfeit(state.core, round_no, table_no, absent)
    return _core(state, new), [ResultIn(round_no, table_no, forfeit=True)]


def advance(state: TournamentState) -> Step:
    """Round ``n`` has every result: the drops asked for during it, then round ``n + 1`` (or
    the end). Named by its round, so a second advance of it is refused (``StaleRound``)."""
    number = state.core.current_round
    t = state.core
    for member in state.drops:
        entry = t.member_entry(member)
        if entry is not None and entry.dropped is None:
            t = core.drop(t, member, expected_round=number)
    t = core.advance(t, expected_round=number)
    events: list[TournamentEvent] = [RoundOver(number)]
    if t.status == "finished":
        events.append(Finished(core.winners(t)))
    else:
        events.append(RoundStarted(t.current_round))
    return replace(state, core=t, drops=()), events


def due_at(state: TournamentState, now: float) -> datetime | None:
    """The nearest time a process should look at the tournament: registration's end, a
    table's grace time, a stale claim, a retry, or the heartbeat of a running one."""
    if not state.is_live:
        return None
    config = state.core.config
    if state.status == "registration":
        return _utc(config.registration_closes)
    times = [now + HEARTBEAT_SECONDS]
    current = state.core.rounds[-1]
    for k, table in enumerate(current.tables):
        if table.result is not None:
            continue
        slot = state.slots.get((current.number, k))
        if slot is None or (not slot.opened and slot.claimed_at == 0):
            times.append(now + RETRY_SECONDS)
        elif not slot.opened:
            times.append(slot.claimed_at + CLAIM_SECONDS)
        elif slot.opened_at is not None and slot.opened_at + config.grace_seconds > now:
            times.append(slot.opened_at + config.grace_seconds)
    return _utc(min(times))


def _utc(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)
