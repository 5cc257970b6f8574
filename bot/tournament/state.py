"""A tournament as data: frozen, and a plain JSON-able dict with a version both ways.

The service stores ``Tournament.to_dict()`` and resumes from ``Tournament.from_dict`` after a
restart; loading checks the dict describes a possible tournament (``InvalidTournament``),
so a damaged row is refused rather than half-used. Entrants are numbered in registration
order; a table's sides hold entrant numbers (one per side with fixed partners, the players
of the side when members enter alone).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

from .config import TournamentConfig
from .errors import InvalidConfig, InvalidTournament

Status = Literal["registration", "running", "finished"]
STATUSES: Final[tuple[Status, ...]] = ("registration", "running", "finished")
VERSION: Final = 1


@dataclass(frozen=True, slots=True)
class Entrant:
    """One entry: a fixed team's members, or one member. ``dropped`` is the number of rounds
    played before the host dropped it (``None`` while it plays on)."""

    number: int
    members: tuple[int, ...]
    rating: float = 0.0
    dropped: int | None = None


@dataclass(frozen=True, slots=True)
class Result:
    """A table's outcome: each side's score and the winning side of a played match; or, when
    ``forfeits`` names sides, a match not played (``winner`` ``None``, scores 0)."""

    scores: tuple[int, ...]
    winner: int | None
    forfeits: tuple[int, ...] = ()

    @property
    def played(self) -> bool:
        return self.winner is not None

    def against(self, a: int, b: int) -> int:
        """What side ``a`` scores against side ``b`` (docs/rules.md T4): 2 for beating it, 1
        for a tie, 0 for a loss. A side that forfeited loses to every side present; sides
        present at a match not played tie."""
        if a in self.forfeits:
            return 0
        if b in self.forfeits:
            return 2
        if self.winner is None:
            return 1
        if self.winner in (a, b):
            return 2 if self.winner == a else 0
        sa, sb = self.scores[a], self.scores[b]
        return 2 if sa > sb else 1 if sa == sb else 0


@dataclass(frozen=True, slots=True)
class Table:
    sides: tuple[tuple[int, ...], ...]
    result: Result | None = None

    @property
    def entrants(self) -> tuple[int, ...]:
        return tuple(e for side in self.sides for e in side)


@dataclass(frozen=True, slots=True)
class Round:
    """Round ``number`` (from 1): its tables, its byes, and for a knockout the bracket's slots
    this round (entrant numbers, ``None`` for an empty slot)."""

    number: int
    tables: tuple[Table, ...]
    byes: tuple[int, ...] = ()
    slots: tuple[int | None, ...] = ()

    @property
    def pending(self) -> int:
        return sum(1 for t in self.tables if t.result is None)


@dataclass(frozen=True, slots=True)
class Tournament:
    config: TournamentConfig
    status: Status = "registration"
    entrants: tuple[Entrant, ...] = ()
    rounds: tuple[Round, ...] = ()
    total_rounds: int = 0
    """Rounds the tournament will have, fixed at the start (a knockout's bracket, a round
    robin's schedule, the Swiss rounds asked for)."""

    @property
    def current_round(self) -> int:
        """The number of the round being played or last played; 0 before the first."""
        return len(self.rounds)

    def member_entry(self, member: int) -> Entrant | None:
        return next((e for e in self.entrants if member in e.members), None)

    def active(self) -> tuple[Entrant, ...]:
        return tuple(e for e in self.entrants if e.dropped is None)

    def seed_order(self) -> list[int]:
        """Entrant numbers by seed: the higher rating first, then the earlier registration."""
        return [e.number for e in sorted(self.entrants, key=lambda e: (-e.rating, e.number))]

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": VERSION,
            "config": self.config.to_dict(),
            "status": self.status,
            "total_rounds": self.total_rounds,
            "entrants": [
                {"members": list(e.members), "rating": e.rating, "dropped": e.dropped}
                for e in self.entrants
            ],
            "rounds": [_round_to_dict(r) for r in self.rounds],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Tournament:
        try:
            return _load(data)
        except InvalidTournament:
            raise
        except (InvalidConfig, KeyError, TypeError, ValueError, AttributeError) as error:
            raise InvalidTournament(f"not a stored tournament: {error!r}") from error


def _round_to_dict(r: Round) -> dict[str, Any]:
    out: dict[str, Any] = {
        "number": r.number,
        "tables": [_table_to_dict(t) for t in r.tables],
        "byes": list(r.byes),
    }
    if r.slots:
        out["slots"] = list(r.slots)
    return out


def _table_to_dict(t: Table) -> dict[str, Any]:
    out: dict[str, Any] = {"sides": [list(s) for s in t.sides]}
    if t.result is not None:
        res = t.result
        out["result"] = {
            "scores": list(res.scores),
            "winner": res.winner,
            "forfeits": list(res.forfeits),
        }
    return out


def _ints(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise InvalidTournament(f"not a list of whole numbers: {value!r}")
    return tuple(value)


def _load(data: dict[str, Any]) -> Tournament:
    if data.get("version") != VERSION:
        raise InvalidTournament(f"unknown version {data.get('version')!r}")
    config = TournamentConfig.from_dict(dict(data["config"]))
    entrants = tuple(
        Entrant(n, _ints(e["members"]), float(e["rating"]), e["dropped"])
        for n, e in enumerate(data["entrants"])
    )
    rounds = tuple(_load_round(r) for r in data["rounds"])
    out = Tournament(config, data["status"], entrants, rounds, int(data["total_rounds"]))
    check(out)
    return out


def _load_round(data: dict[str, Any]) -> Round:
    tables = []
    for t in data["tables"]:
        sides = tuple(_ints(s) for s in t["sides"])
        result = None
        if "result" in t:
            res = t["result"]
            winner = res["winner"]
            if winner is not None and (not isinstance(winner, int) or isinstance(winner, bool)):
                raise InvalidTournament(f"winner {winner!r}")
            result = Result(_ints(res["scores"]), winner, _ints(res["forfeits"]))
        tables.append(Table(sides, result))
    slots = tuple(data.get("slots", ()))
    if not all(s is None or (isinstance(s, int) and not isinstance(s, bool)) for s in slots):
        raise InvalidTournament(f"slots {slots!r}")
    return Round(int(data["number"]), tuple(tables), _ints(data["byes"]), slots)


def check(t: Tournament) -> None:
    """Raise ``InvalidTournament`` unless ``t`` is consistent: what loading relies on."""
    if t.status not in STATUSES:
        raise InvalidTournament(f"status {t.status!r}")
    members = [m for e in t.entrants for m in e.members]
    if len(members) != len(set(members)):
        raise InvalidTournament("a member in two entries")
    if any(len(e.members) != t.config.entry_size for e in t.entrants):
        raise InvalidTournament("an entry of the wrong size")
    if len(t.entrants) > t.config.max_entries:
        raise InvalidTournament("more entries than allowed")
    for e in t.entrants:
        if e.dropped is not None and not 0 <= e.dropped <= len(t.rounds):
            raise InvalidTournament(f"entry {e.number} dropped after round {e.dropped}")
    if t.status == "registration" and t.rounds:
        raise InvalidTournament("rounds before the start")
    if t.status != "registration" and not 1 <= len(t.rounds) <= t.total_rounds:
        raise InvalidTournament("rounds outside the tournament's")
    if t.status == "finished" and t.rounds[-1].pending:
        raise InvalidTournament("finished with a table still open")
    shape = t.config.shape
    for index, r in enumerate(t.rounds):
        if r.number != index + 1:
            raise InvalidTournament(f"round {r.number} in place {index + 1}")
        if index + 1 < len(t.rounds) and r.pending:
            raise InvalidTournament(f"round {r.number} left unfinished")
        seen = list(r.byes)
        for table in r.tables:
            _check_table(table, shape.sides, _side_len(t))
            seen += table.entrants
        if len(seen) != len(set(seen)) or not all(0 <= e < len(t.entrants) for e in seen):
            raise InvalidTournament(f"round {r.number}: an entrant placed twice or unknown")


def _side_len(t: Tournament) -> int:
    return t.config.shape.side_size if t.config.individual else 1


def _check_table(table: Table, sides: int, side_len: int) -> None:
    if len(table.sides) != sides or any(len(s) != side_len for s in table.sides):
        raise InvalidTournament(f"a table of the wrong shape: {table.sides!r}")
    res = table.result
    if res is None:
        return
    if len(res.scores) != sides or any(s < 0 for s in res.scores):
        raise InvalidTournament(f"scores {res.scores!r}")
    if res.winner is None:
        if not res.forfeits or any(res.scores):
            raise InvalidTournament("a match not played without a forfeit, or with scores")
    elif res.forfeits or not 0 <= res.winner < sides:
        raise InvalidTournament(f"winner {res.winner!r} with forfeits {res.forfeits!r}")
    if len(set(res.forfeits)) != len(res.forfeits) or not all(0 <= f < sides for f in res.forfeits):
        raise InvalidTournament(f"forfeits {res.forfeits!r}")
