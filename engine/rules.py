"""Rule settings and the table format, as data in one place.

``GameFormat`` holds what a variant changes (seats, teams, deck, deal pattern, tricks to win,
points): the standard game is one instance of it, and the variants of RULES.md V2–V5 are
further instances in ``FORMATS`` rather than scattered constants. ``FORMATS`` is every format a
table can have, V6 Shelem's among them; each names its ``family`` (``hokm``: played by
``Match``; ``shelem``: by ``engine.shelem.ShelemMatch``), so a caller asks the format which game
it is rather than comparing names. ``Rules`` holds the settings a table chooses (R3, R6, R12,
V1).

Removed cards (V2–V5): the seed (``002_…``) names the 2 of diamonds as its example
("مثلاً ۲ خشت"), so the 2s leave the deck in the order 2♦, 2♣, 2♥, 2♠ (``REMOVAL_ORDER``):
three and two players play without 2♦, five without 2♦ and 2♣, six without every 2.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

from .cards import CARDS, Card
from .errors import InvalidSetting

Family = Literal["hokm", "shelem"]
"""The game a format belongs to: Hokm (R1–R15, V1–V5, ``Match``) or V6 Shelem (``ShelemMatch``)."""
FAMILIES: Final[tuple[Family, ...]] = ("hokm", "shelem")
HakemSelection = Literal["first_ace", "random"]
HAKEM_SELECTIONS: Final = ("first_ace", "random")
TARGET_SCORE_RANGE: Final = (1, 13)


@dataclass(frozen=True, slots=True)
class GameFormat:
    """What a variant of the game is made of (R1, R2, R4, R10, R11, V2–V5)."""

    name: str
    seats: int
    teams: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]
    first_deal: int
    """Cards the hakem sees before naming trump (R4, R5): the first packet of ``deal``."""
    hand_size: int
    """Cards each seat holds when play begins, so also the number of tricks in a hand."""
    tricks_to_win: int
    points_win: int
    points_kot: int
    points_hakem_kot: int
    deal: tuple[int, ...] = ()
    """The packets dealt to every seat in turn, e.g. ``(5, 4, 4)`` (R4), ``(5, 4, 4, 4)`` (V3).
    Empty means the first deal, then fours."""
    bids: tuple[int, ...] = ()
    """V5 joker six: the bids a seat may make for hakem (5–9 tricks); empty means no bidding."""
    target_score: int = 0
    """A target the format fixes (joker six: 124); 0 means the table's ``Rules.target_score``."""
    discards: int = 0
    """V2: cards each seat throws away after trump is named; non-zero means the hands are
    completed by the draw-and-discard procedure (the ``draw`` phase) rather than by the deal."""
    kitty: int = 0
    """V6 Shelem: cards dealt face down to the middle (the kitty) besides the hands."""
    family: Family = "hokm"
    """Which game plays the format: a Shelem format is never a ``Match``'s (V6)."""
    team_of: tuple[int, ...] = field(init=False)
    next_seat: tuple[int, ...] = field(init=False)
    """Who plays after each seat: seat numbers follow the direction of play (R2)."""
    dealt: int = field(init=False)
    """Cards each seat is dealt: ``hand_size``, or ``first_deal`` when the hands are drawn."""
    win_at: tuple[int, ...] = field(init=False)
    """``win_at[n]``: the tricks that end the hand after trick ``n`` (R10). ``tricks_to_win``,
    but 0 after the last trick where every side can stay below it (V3–V5: 6–6–5 of 17 tricks),
    so the engine's one comparison per trick also catches a hand that runs out."""

    def __post_init__(self) -> None:
        if self.family not in FAMILIES:
            raise ValueError(f"format {self.name}: no game family {self.family!r}")
        team_of = [-1] * self.seats
        for team, members in enumerate(self.teams):
            for seat in members:
                team_of[seat] = team
        if -1 in team_of:
            raise ValueError(f"format {self.name}: every seat needs a team")
        if len(set(self.deck)) != len(self.deck) or not set(self.deck) <= set(range(54)):
            raise ValueError(f"format {self.name}: a card twice in the deck")
        deal = self.deal
        if not deal:
            rest = self.hand_size - self.first_deal
            deal = (self.first_deal,) + (4,) * (rest // 4) + ((rest % 4,) if rest % 4 else ())
            object.__setattr__(self, "deal", deal)
        if deal[0] != self.first_deal:
            raise ValueError(f"format {self.name}: the first packet is the first deal")
        if self.discards:
            dealt = self.first_deal
            draws = self.hand_size - dealt + self.discards  # draw turns per seat, 2 cards each
            if sum(deal) != dealt or self.seats * (dealt + 2 * draws) > len(self.deck):
                raise ValueError(f"format {self.name}: the stock cannot complete the hands")
        else:
            dealt = self.hand_size
            if sum(deal) != dealt or self.seats * dealt + self.kitty != len(self.deck):
                raise ValueError(f"format {self.name}: deck does not deal evenly")
        object.__setattr__(self, "dealt", dealt)
        win_at = [self.tricks_to_win] * (self.hand_size + 1)
        if len(self.teams) * (self.tricks_to_win - 1) >= self.hand_size:
            win_at[self.hand_size] = 0
        object.__setattr__(self, "win_at", tuple(win_at))
        object.__setattr__(self, "team_of", tuple(team_of))
        object.__setattr__(
            self, "next_seat", tuple((s + 1) % self.seats for s in range(self.seats))
        )

    def seats_of(self, team: int) -> tuple[int, ...]:
        """The seats playing for ``team``, so callers never restate the seating (R2)."""
        return self.teams[team]

    @property
    def is_default(self) -> bool:
        """The standard table (R1): the format a setting, a link or a page leaves unsaid."""
        return self.name == STANDARD.name

    @property
    def can_run_out(self) -> bool:
        """Whether a hand can end with no side at ``tricks_to_win`` (V3–V5, not R10's 13)."""
        return self.win_at[self.hand_size] == 0

    @property
    def solo(self) -> bool:
        """Every seat plays for itself (V2–V4): each team is one seat."""
        return all(len(members) == 1 for members in self.teams)

    @property
    def jokers(self) -> int:
        """How many jokers the deck holds (V5 joker six: 2)."""
        return sum(1 for c in self.deck if c >= len(CARDS))

    @property
    def removed(self) -> tuple[Card, ...]:
        """The cards of the 52 that this format leaves out of the deck (V2–V5)."""
        kept = set(self.deck)
        return tuple(c for c in CARDS if c not in kept)

    @property
    def draws(self) -> int:
        """V2: draw turns per seat (each takes two cards of the stock, keeps one); else 0."""
        return self.hand_size - self.first_deal + self.discards if self.discards else 0


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

#: The 2s in the order the variants leave them out: the seed's example (2♦) first (V2–V5).
REMOVAL_ORDER: Final = tuple(CARDS[suit * 13] for suit in (2, 3, 1, 0))


def _deck_without(count: int) -> tuple[int, ...]:
    removed = set(REMOVAL_ORDER[:count])
    return tuple(c for c in range(len(CARDS)) if c not in removed)


#: V3: three alone, without 2♦ (51 cards), 17 each dealt 5, 4, 4, 4; 7 tricks; kot applies.
THREE: Final = GameFormat(
    name="three",
    seats=3,
    teams=((0,), (1,), (2,)),
    deck=_deck_without(1),
    first_deal=5,
    hand_size=17,
    deal=(5, 4, 4, 4),
    tricks_to_win=7,
    points_win=1,
    points_kot=2,
    points_hakem_kot=3,
)

#: V4: five alone, without 2♦ and 2♣ (50 cards), 10 each dealt 5, 5; 7 tricks.
FIVE: Final = GameFormat(
    name="five",
    seats=5,
    teams=((0,), (1,), (2,), (3,), (4,)),
    deck=_deck_without(2),
    first_deal=5,
    hand_size=10,
    deal=(5, 5),
    tricks_to_win=7,
    points_win=1,
    points_kot=2,
    points_hakem_kot=3,
)

#: V5: six in two teams of three (the seed's recommended form), partners every other seat,
#: without the four 2s (48 cards), 8 each dealt 4, 4; 7 tricks.
SIX_TEAMS: Final = GameFormat(
    name="six_teams",
    seats=6,
    teams=((0, 2, 4), (1, 3, 5)),
    deck=_deck_without(4),
    first_deal=4,
    hand_size=8,
    deal=(4, 4),
    tricks_to_win=7,
    points_win=1,
    points_kot=2,
    points_hakem_kot=3,
)

#: V5: six in three teams of two, partners opposite (seats 0 and 3, 1 and 4, 2 and 5).
SIX_PAIRS: Final = GameFormat(
    name="six_pairs",
    seats=6,
    teams=((0, 3), (1, 4), (2, 5)),
    deck=_deck_without(4),
    first_deal=4,
    hand_size=8,
    deal=(4, 4),
    tricks_to_win=7,
    points_win=1,
    points_kot=2,
    points_hakem_kot=3,
)

#: V2: two alone, without 2♦ (51 cards): five each, trump, two discards each, then ten draw
#: turns each (keep the top card and discard the next, or discard it and keep the next).
TWO: Final = GameFormat(
    name="two",
    seats=2,
    teams=((0,), (1,)),
    deck=_deck_without(1),
    first_deal=5,
    hand_size=13,
    deal=(5,),
    discards=2,
    tricks_to_win=7,
    points_win=1,
    points_kot=2,
    points_hakem_kot=3,
)

#: V5 joker six: 52 cards and the two jokers (52 black, 53 red), 9 each, two teams of three;
#: everyone sees all nine, then bids 5–9 tricks for hakem; scored by the bid, to 124
#: (``engine.joker``). ``tricks_to_win`` 9: every trick is played.
JOKER_SIX: Final = GameFormat(
    name="joker_six",
    seats=6,
    teams=((0, 2, 4), (1, 3, 5)),
    deck=tuple(range(54)),
    first_deal=9,
    hand_size=9,
    deal=(9,),
    tricks_to_win=9,
    points_win=1,
    points_kot=2,
    points_hakem_kot=3,
    bids=(5, 6, 7, 8, 9),
    target_score=124,
)

SHELEM_FORMAT: Final = "shelem"
"""V6 Shelem's stored format name. Its match is ``engine.shelem.ShelemMatch`` (an auction, a
kitty, card points), never a ``Match``; a table's own shape is its ``ShelemOptions.fmt``."""


def shelem_format(
    deck: tuple[int, ...], kitty: int, bids: tuple[int, ...], target: int
) -> GameFormat:
    """V6 Shelem's table shape for the options' deck, kitty, bids and target (V6.2, V6.3.2,
    V6.13, V6.14): four seats, partners opposite (V6.1), 12 cards each, every trick played.
    ``ShelemOptions.fmt`` calls it; the points of R11 are 0, a hand is scored by its card
    points (V6.9–V6.12)."""
    return GameFormat(
        name=SHELEM_FORMAT,
        family="shelem",
        seats=4,
        teams=((0, 2), (1, 3)),
        deck=deck,
        first_deal=12,
        hand_size=12,
        deal=(12,),
        kitty=kitty,
        tricks_to_win=12,
        points_win=0,
        points_kot=0,
        points_hakem_kot=0,
        bids=bids,
        target_score=target,
    )


#: V6 Shelem with the default options: 52 cards, a kitty of 4, bids 100–165 by 5, to 1165
#: (``ShelemOptions().fmt`` is this very object; a test holds them together).
SHELEM_DEFAULT: Final = shelem_format(tuple(range(len(CARDS))), 4, tuple(range(100, 166, 5)), 1165)

#: Every known format by its stored name, of both families: a saved match names its own
#: format (R1), and a table is opened with one of these (V6 Shelem's with default options).
FORMATS: Final[dict[str, GameFormat]] = {
    f.name: f for f in (STANDARD, THREE, FIVE, SIX_TEAMS, SIX_PAIRS, TWO, JOKER_SIX, SHELEM_DEFAULT)
}


def hokm_formats() -> dict[str, GameFormat]:
    """The formats of ``FORMATS`` that ``Match`` plays (R1, V2–V5), read now so a format added
    to ``FORMATS`` is seen: what the Hokm-only parts (search, solver, benches) iterate."""
    return {name: f for name, f in FORMATS.items() if f.family == "hokm"}


def hokm_format(name: object) -> GameFormat | None:
    """The Hokm format stored as ``name``, or None for an unknown name or a Shelem one: what
    reading a stored ``Match`` (or a position, a story, an analysis) accepts."""
    fmt = FORMATS.get(str(name))
    return fmt if fmt is not None and fmt.family == "hokm" else None


@dataclass(frozen=True, slots=True)
class Rules:
    """A table's rule settings, validated on construction."""

    target_score: int = 7
    hakem_selection: HakemSelection = "first_ace"
    redeal_without_court: bool = False
    bam: bool = False
    """V1 (house rule, off by default): a side at 7 tricks to none may play on for every trick."""

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
        if not isinstance(self.bam, bool):
            raise InvalidSetting("bam", self.bam, "true or false")

    def to_dict(self) -> dict[str, object]:
        """The settings as JSON; ``bam`` only when on, so tables stored before V1 read the same."""
        data: dict[str, object] = {
            "target_score": self.target_score,
            "hakem_selection": self.hakem_selection,
            "redeal_without_court": self.redeal_without_court,
        }
        if self.bam:
            data["bam"] = True
        return data

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Rules:
        unknown = set(data) - {"target_score", "hakem_selection", "redeal_without_court", "bam"}
        if unknown:
            raise InvalidSetting(sorted(unknown)[0], data[sorted(unknown)[0]], "not a rule setting")
        return cls(**data)  # type: ignore[arg-type]
