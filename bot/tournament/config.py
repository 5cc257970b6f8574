"""A tournament's settings (``/hokm tournament new``), validated on construction.

The game's own settings are checked by the engine (``engine.games.check_target``: ``Rules``
for the Hokm family, ``ShelemOptions`` for Shelem), so a tournament can never hold a target a
table would refuse.
The table's shape (sides a table, players a side) follows from the format: ``Shape``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal, get_args

from engine.errors import InvalidSetting
from engine.games import check_target
from engine.rules import FORMATS

from .errors import InvalidConfig

System = Literal["swiss", "knockout", "round_robin"]
Partners = Literal["fixed", "individual"]
ByeScore = Literal["win", "half", "none"]
SYSTEMS: Final[tuple[System, ...]] = get_args(System)
PARTNERS: Final[tuple[Partners, ...]] = get_args(Partners)
BYE_SCORES: Final[tuple[ByeScore, ...]] = get_args(ByeScore)

NAME_LENGTH: Final = (1, 80)
SWISS_ROUNDS: Final = (1, 15)
ROUND_ROBIN_MAX: Final = 8
"""The issue's limit: a round robin of up to 8 entries (7 rounds)."""
MAX_PLAYERS: Final = 512
"""Members in one tournament, whatever its partners: bounds a stored tournament's size."""
TURN_SECONDS: Final = (10, 60)
"""A turn's time at a tournament table: the server setting's range (``guild_settings``)."""
GRACE_SECONDS: Final = (30, 900)
"""How long the players of a round have to join their table before they forfeit."""


@dataclass(frozen=True, slots=True)
class Shape:
    """A table of the format: ``sides`` teams of ``side_size`` players each."""

    sides: int
    side_size: int

    @property
    def seats(self) -> int:
        return self.sides * self.side_size


def shape_of(format_name: str) -> Shape:
    """The table's shape of a format of ``engine.rules.FORMATS``, Hokm's or Shelem's (V6.1)."""
    fmt = FORMATS[format_name]
    return Shape(len(fmt.teams), len(fmt.teams[0]))


def _whole(key: str, value: object, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise InvalidConfig(key, value, f"a whole number {low}–{high}")
    return value


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    """What the host chose. ``rounds`` is the Swiss rounds (0 for the other systems, whose
    number of rounds follows from the entries); ``target_score`` 0 is the format's own target
    (the server's for a Hokm table, the seed's for Shelem); ``registration_closes`` is a Unix
    time in seconds; ``bye`` how a bye scores (a win, half a win, nothing); ``rated`` whether
    its matches change ratings (T12); ``computers`` whether a computer may take the seat of a
    player who did not come (T11)."""

    name: str
    format: str
    system: System
    partners: Partners
    registration_closes: int
    rounds: int = 0
    target_score: int = 0
    turn_seconds: int = 20
    grace_seconds: int = 120
    bye: ByeScore = "win"
    rated: bool = True
    computers: bool = False

    def __post_init__(self) -> None:
        low, high = NAME_LENGTH
        if not isinstance(self.name, str) or not low <= len(self.name.strip()) <= high:
            raise InvalidConfig("name", self.name, f"{low}–{high} characters")
        if self.format not in FORMATS:
            raise InvalidConfig("format", self.format, ", ".join(FORMATS))
        if self.system not in SYSTEMS:
            raise InvalidConfig("system", self.system, ", ".join(SYSTEMS))
        if self.partners not in PARTNERS:
            raise InvalidConfig("partners", self.partners, ", ".join(PARTNERS))
        if self.bye not in BYE_SCORES:
            raise InvalidConfig("bye", self.bye, ", ".join(BYE_SCORES))
        for key in ("rated", "computers"):
            if not isinstance(getattr(self, key), bool):
                raise InvalidConfig(key, getattr(self, key), "true or false")
        _whole("registration_closes", self.registration_closes, 0, 2**40)
        _whole("turn_seconds", self.turn_seconds, *TURN_SECONDS)
        _whole("grace_seconds", self.grace_seconds, *GRACE_SECONDS)
        if self.system == "swiss":
            _whole("rounds", self.rounds, *SWISS_ROUNDS)
        elif self.rounds != 0:
            raise InvalidConfig("rounds", self.rounds, "0: the entries set a bracket's rounds")
        self._check_shape()
        self._check_target()

    def _check_shape(self) -> None:
        shape = self.shape
        if self.system != "swiss" and shape.sides != 2:
            raise InvalidConfig(
                "system", self.system, "swiss only, at a table of more than two sides"
            )
        if self.system != "swiss" and self.individual:
            raise InvalidConfig(
                "partners", self.partners, "fixed: a bracket or a schedule is of fixed teams"
            )

    def _check_target(self) -> None:
        target = self.target_score
        try:
            check_target(self.format, target)
        except InvalidSetting as error:
            raise InvalidConfig("target_score", target, error.allowed) from error

    @property
    def shape(self) -> Shape:
        return shape_of(self.format)

    @property
    def individual(self) -> bool:
        """Members enter alone and teams are formed each round (never at a solo table)."""
        return self.partners == "individual" and self.shape.side_size > 1

    @property
    def entry_size(self) -> int:
        """Members in one entry: a whole team with fixed partners, else one."""
        return 1 if self.individual else self.shape.side_size

    @property
    def max_entries(self) -> int:
        if self.system == "round_robin":
            return ROUND_ROBIN_MAX
        return MAX_PLAYERS // self.entry_size

    @property
    def min_entries(self) -> int:
        """Enough to fill one table (Swiss); two for a bracket or a schedule."""
        if self.system != "swiss":
            return 2
        return self.shape.seats if self.individual else self.shape.sides

    def bye_points(self) -> int:
        """Match points of a bye: a win over every other side of a table, half that, or 0."""
        full = 2 * (self.shape.sides - 1)
        return {"win": full, "half": full // 2, "none": 0}[self.bye]

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "format": self.format,
            "system": self.system,
            "partners": self.partners,
            "registration_closes": self.registration_closes,
            "rounds": self.rounds,
            "target_score": self.target_score,
            "turn_seconds": self.turn_seconds,
            "grace_seconds": self.grace_seconds,
            "bye": self.bye,
            "rated": self.rated,
            "computers": self.computers,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TournamentConfig:
        unknown = sorted(set(data) - set(cls.__dataclass_fields__))
        if unknown:
            raise InvalidConfig(unknown[0], data[unknown[0]], "not a tournament setting")
        try:
            return cls(**data)
        except TypeError as error:  # a missing key
            raise InvalidConfig("config", data, str(error)) from error
