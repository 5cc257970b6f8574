"""Rule settings and the table format, as data in one place.

``GameFormat`` holds what a variant changes (seats, teams, deck, deal sizes, tricks to win,
points): the standard game is one instance of it, so the variants of RULES.md V2–V5 can be
added as further instances rather than as scattered constants. ``Rules`` holds the settings
a table chooses (R3, R6, R12).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

from .cards import CARDS
from .errors import InvalidSetting

HakemSelection = Literal["first_ace", "random"]
HAKEM_SELECTIONS: Final = ("first_ace", "random")
TARGET_SCORE_RANGE: Final = (1, 13)


@dataclass(frozen=True, slots=True)
class GameFormat:
    """What a variant of the game is made of (R1, R2, R4, R10, R11)."""

    name: str
    seats: int
    teams: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]
    first_deal: int
    hand_size: int
    tricks_to_win: int
    points_win: int
    points_kot: int
    points_hakem_kot: int
    team_of: tuple[int, ...] = field(init=False)
    next_seat: tuple[int, ...] = field(init=False)
    """Who plays after each seat: seat numbers follow the direction of play (R2)."""

    def __post_init__(self) -> None:
        team_of = [-1] * self.seats
        for team, members in enumerate(self.teams):
            for seat in members:
                team_of[seat] = team
        if -1 in team_of:
            raise ValueError(f"format {self.name}: every seat needs a team")
        if self.seats * self.hand_size != len(self.deck):
            raise ValueError(f"format {self.name}: deck does not deal evenly")
        object.__setattr__(self, "team_of", tuple(team_of))
        object.__setattr__(
            self, "next_seat", tuple((s + 1) % self.seats for s in range(self.seats))
        )

    def seats_of(self, team: int) -> tuple[int, ...]:
        """The seats playing for ``team``, so callers never restate the seating (R2)."""
        return self.teams[team]


#: R1, R2, R4, R10, R11: four seats, partners opposite, 52 cards, 5 then 13, 7 tricks.
STANDARD: Final = GameFormat(
    name="standard",
    seats=4,
    teams=((0, 2), (1, 3)),
    deck=tuple(range(len(CARDS))),
    first_deal=5,
    hand_size=13,
    tricks_to_win=7,
    points_win=1,
    points_kot=2,
    points_hakem_kot=3,
)

#: Every known format by its stored name: a saved match names its own format (R1).
FORMATS: Final[dict[str, GameFormat]] = {STANDARD.name: STANDARD}


@dataclass(frozen=True, slots=True)
class Rules:
    """A table's rule settings, validated on construction."""

    target_score: int = 7
    hakem_selection: HakemSelection = "first_ace"
    redeal_without_court: bool = False

    def __post_init__(self) -> None:
        low, high = TARGET_SCORE_RANGE
        if (
            not isinstance(self.target_score, int)
            or isinstance(self.target_score, bool)
            or not low <= self.target_score <= high
        ):
            raise InvalidSetting("target_score", self.target_score, f"a whole number {low}–{high}")
        if self.hakem_selection not in HAKEM_SELECTIONS:
            raise InvalidSetting(
                "hakem_selection", self.hakem_selection, " or ".join(HAKEM_SELECTIONS)
            )
        if not isinstance(self.redeal_without_court, bool):
            raise InvalidSetting("redeal_without_court", self.redeal_without_court, "true or false")

    def to_dict(self) -> dict[str, object]:
        return {
            "target_score": self.target_score,
            "hakem_selection": self.hakem_selection,
            "redeal_without_court": self.redeal_without_court,
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Rules:
        unknown = set(data) - {"target_score", "hakem_selection", "redeal_without_court"}
        if unknown:
            raise InvalidSetting(sorted(unknown)[0], data[sorted(unknown)[0]], "not a rule setting")
        return cls(**data)  # type: ignore[arg-type]
