"""Why the tournament core refused a step, as data.

Every refusal is a ``TournamentError`` whose ``code`` is stable, so the service can choose the
member's sentence without parsing English, and whose raising left the tournament as it was:
the steps are pure functions that check everything before they build the new state.
"""

from __future__ import annotations


class TournamentError(ValueError):
    """Base of everything the tournament core refuses."""

    code = "tournament_error"


class InvalidConfig(TournamentError):
    """A setting of ``/hokm tournament new`` outside what is allowed."""

    code = "invalid_config"

    def __init__(self, key: str, value: object, allowed: str) -> None:
        super().__init__(f"{key}={value!r} is not allowed ({allowed})")
        self.key = key
        self.value = value
        self.allowed = allowed


class InvalidTournament(TournamentError):
    """Stored data that does not describe a possible tournament."""

    code = "invalid_tournament"


class WrongStatus(TournamentError):
    """A step asked of a tournament in another phase (registering, running, finished)."""

    code = "wrong_status"

    def __init__(self, action: str, status: str) -> None:
        super().__init__(f"cannot {action} while the tournament is {status}")
        self.action = action
        self.status = status


class RegistrationClosed(TournamentError):
    code = "registration_closed"


class RegistrationOpen(TournamentError):
    """Start asked for before registration closes (and not as an early start)."""

    code = "registration_open"


class AlreadyRegistered(TournamentError):
    code = "already_registered"

    def __init__(self, member: int) -> None:
        super().__init__(f"member {member} is already registered")
        self.member = member


class NotRegistered(TournamentError):
    code = "not_registered"

    def __init__(self, member: int) -> None:
        super().__init__(f"member {member} is not registered")
        self.member = member


class WrongTeamSize(TournamentError):
    """A fixed team of the wrong number of members, or a team where players enter alone."""

    code = "wrong_team_size"

    def __init__(self, given: int, needed: int) -> None:
        super().__init__(f"an entry of {given} members, this tournament needs {needed}")
        self.given = given
        self.needed = needed


class TournamentFull(TournamentError):
    code = "tournament_full"

    def __init__(self, limit: int) -> None:
        super().__init__(f"the tournament is full ({limit} entries)")
        self.limit = limit


class TooFewEntrants(TournamentError):
    code = "too_few_entrants"

    def __init__(self, given: int, needed: int) -> None:
        super().__init__(f"{given} entries, at least {needed} are needed")
        self.given = given
        self.needed = needed


class StaleRound(TournamentError):
    """A step for a round that is no longer the current one: another process already did it."""

    code = "stale_round"

    def __init__(self, asked: int, current: int) -> None:
        super().__init__(f"round {asked} asked, the current round is {current}")
        self.asked = asked
        self.current = current


class RoundNotComplete(TournamentError):
    code = "round_not_complete"

    def __init__(self, round_no: int, pending: int) -> None:
        super().__init__(f"round {round_no} still has {pending} table(s) without a result")
        self.round_no = round_no
        self.pending = pending


class UnknownTable(TournamentError):
    code = "unknown_table"

    def __init__(self, round_no: int, table: object) -> None:
        super().__init__(f"round {round_no} has no table {table!r}")
        self.round_no = round_no
        self.table = table


class ResultAlreadyRecorded(TournamentError):
    """A table's result comes once: a second report (another process, a retry) is refused."""

    code = "result_already_recorded"

    def __init__(self, round_no: int, table: int) -> None:
        super().__init__(f"round {round_no} table {table} already has its result")
        self.round_no = round_no
        self.table = table


class InvalidResult(TournamentError):
    code = "invalid_result"


class NotAtTable(TournamentError):
    """A forfeit named a member who does not play at that table."""

    code = "not_at_table"

    def __init__(self, member: int, table: int) -> None:
        super().__init__(f"member {member} does not play at table {table}")
        self.member = member
        self.table = table


class AlreadyDropped(TournamentError):
    code = "already_dropped"

    def __init__(self, member: int) -> None:
        super().__init__(f"member {member} has already left the tournament")
        self.member = member
