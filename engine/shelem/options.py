"""V6 Shelem's table options and the numbers the seed fixes (docs/rules.md V6).

Everything a table may choose is one frozen ``ShelemOptions``, validated on construction; the
numbers that follow from it (deck, kitty, bid range, hand total, target) are its properties, so
no caller restates the seed's constants.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal

from ..cards import CARDS, RED_JOKER
from ..errors import InvalidSetting
from ..rules import SHELEM_DEFAULT, GameFormat, shelem_format

Mode = Literal["hokm", "nars", "ace_nars", "sars"]
MODES: Final[tuple[Mode, ...]] = ("hokm", "nars", "ace_nars", "sars")
"""V6.7: hokm (a trump named by the first card), nars (2 high, ace low, no trump), ace-nars
(ace high, then 2 up to the king low, no trump), sars (the usual ranks, no trump)."""

PASS: Final = 0
"""V6.3.2: a pass, always allowed and final."""
SHELEM: Final = 1000
"""V6.5.1: the shelem bid, above every points bid: the bidder's side will take every trick."""
SAR_SHELEM: Final = 2000
"""V6.5.2: sar-shelem, over a shelem, by an opponent of its bidder still in."""
BID_STEP: Final = 5
SEATS: Final = SHELEM_DEFAULT.seats
HAND_SIZE: Final = SHELEM_DEFAULT.hand_size
TEAMS: Final = SHELEM_DEFAULT.teams
TEAM_OF: Final = SHELEM_DEFAULT.team_of
TRICK_POINTS: Final = 5
"""V6.9: each set of four cards, a trick or the hakem's laid-down cards."""
PASSED_DEALS_MAX: Final = 3
"""V6.4.1: the deals of one hand everyone may pass (V6.4) before the dealer must open: on the
next deal, when the first three pass again, he is asked and may not pass. A hand is dealt at
most ``PASSED_DEALS_MAX + 1`` times."""
MAX_HANDS: Final = 500
"""V6.14.1: the most hands a match lasts; after the last the higher score wins. With
``PASSED_DEALS_MAX`` it bounds a match's deals (``MAX_DEALS``) and everything it records."""
MAX_DEALS: Final = MAX_HANDS * (PASSED_DEALS_MAX + 1)
"""V6.4.1, V6.14.1: the highest ``ShelemMatch.deal_number`` a match can reach (2000)."""

TARGET_RANGE: Final = (200, 5000)
_OPTION_KEYS: Final = ("joker", "nars", "ace_nars", "sars", "target_score")


def card_points(card: int) -> int:
    """V6.9 and V6.13: 5 for a 5, 10 for a 10 or an ace, 20 the red joker, 15 the black."""
    if card >= len(CARDS):
        return 20 if card == RED_JOKER else 15
    rank = card % 13
    return 5 if rank == 3 else 10 if rank in (8, 12) else 0


#: ``CARD_POINTS[card]`` for every card number, jokers included.
CARD_POINTS: Final = tuple(card_points(c) for c in range(len(CARDS) + 2))


def mask_points(mask: int) -> int:
    """The card points of a bitmask of cards (no set bonus)."""
    total = 0
    while mask:
        low = mask & -mask
        total += CARD_POINTS[low.bit_length() - 1]
        mask ^= low
    return total


@dataclass(frozen=True, slots=True)
class ShelemOptions:
    """A Shelem table's options (V6.7, V6.13, V6.14), validated on construction."""

    joker: bool = False
    """V6.13: two jokers, a kitty of 6, bids 120–200, 200 points a hand, target 1400."""
    nars: bool = False
    """V6.7: the hakem may announce nars (2 high, ace low, no trump)."""
    ace_nars: bool = False
    """V6.7: the hakem may announce ace-nars (ace high, then 2 up to the king, no trump)."""
    sars: bool = False
    """V6.7: the hakem may announce sars (the usual ranks, no trump)."""
    target_score: int = 0
    """V6.14: 0 for the seed's target (1165, or 1400 with jokers), else a multiple of 5 in
    ``TARGET_RANGE``."""

    def __post_init__(self) -> None:
        for key in ("joker", "nars", "ace_nars", "sars"):
            if not isinstance(getattr(self, key), bool):
                raise InvalidSetting(key, getattr(self, key), "true or false")
        target = self.target_score
        low, high = TARGET_RANGE
        if (
            not isinstance(target, int)
            or isinstance(target, bool)
            or (target != 0 and (not low <= target <= high or target % BID_STEP))
        ):
            raise InvalidSetting(
                "target_score", target, f"0 (the seed's) or a multiple of 5 from {low} to {high}"
            )
        if self.joker and (self.nars or self.ace_nars or self.sars):
            raise InvalidSetting(
                "joker",
                True,
                "not with nars, ace-nars or sars: the seed plays those without jokers",
            )

    # ------------------------------------------------------------ what follows from it

    @property
    def deck(self) -> tuple[int, ...]:
        """V6.2: the 52 cards, and the two jokers with the option (V6.13)."""
        return tuple(range(len(CARDS) + (2 if self.joker else 0)))

    @property
    def kitty_size(self) -> int:
        """V6.2, V6.6: the kitty and the hakem's laid-down cards: 4, or 6 with jokers."""
        return 6 if self.joker else 4

    @property
    def hand_total(self) -> int:
        """V6.9: the points of a hand: 165, or 200 with jokers."""
        return 200 if self.joker else 165

    @property
    def min_bid(self) -> int:
        """V6.3.2: 100, or 120 with jokers."""
        return 120 if self.joker else 100

    @property
    def max_bid(self) -> int:
        """V6.3.2: the hand's total (165, or 200 with jokers)."""
        return self.hand_total

    @property
    def point_bids(self) -> tuple[int, ...]:
        """V6.3.2: every points bid, low to high."""
        return tuple(range(self.min_bid, self.max_bid + 1, BID_STEP))

    @property
    def shelem_points(self) -> int:
        """V6.11: what a shelem or sar-shelem wins or loses: double the hand's total."""
        return 2 * self.hand_total

    @property
    def target(self) -> int:
        """V6.14: the score that wins the match."""
        return self.target_score or (1400 if self.joker else 1165)

    @property
    def modes(self) -> tuple[Mode, ...]:
        """V6.7: what the hakem may announce: hokm, and the modes the table allows."""
        allowed = {"nars": self.nars, "ace_nars": self.ace_nars, "sars": self.sars}
        return tuple(m for m in MODES if m == "hokm" or allowed[m])

    @property
    def fmt(self) -> GameFormat:
        """The table's shape in the terms of the Hokm family's formats, for whoever seats and
        names teams by them (the bot): four seats, partners opposite (V6.1), 12 cards each and
        the kitty (V6.2), every trick played, the bids and the target. Its match is
        ``ShelemMatch``, never a ``Match`` of this format."""
        return _format(self)

    def to_dict(self) -> dict[str, object]:
        """Only the options that differ from the default, so a plain table stores ``{}``."""
        out: dict[str, object] = {}
        for key in _OPTION_KEYS:
            value = getattr(self, key)
            if value:
                out[key] = value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> ShelemOptions:
        unknown = sorted(set(data) - set(_OPTION_KEYS))
        if unknown:
            raise InvalidSetting(unknown[0], data[unknown[0]], "not a Shelem option")
        return cls(**data)  # type: ignore[arg-type]


@lru_cache(maxsize=64)
def _format(options: ShelemOptions) -> GameFormat:
    fmt = shelem_format(options.deck, options.kitty_size, options.point_bids, options.target)
    return SHELEM_DEFAULT if fmt == SHELEM_DEFAULT else fmt  # the registry's own, by default


def bid_label(value: int) -> str:
    """A bid as text for logs and tests: ``pass``, ``105``, ``shelem``, ``sar-shelem``."""
    if value == PASS:
        return "pass"
    if value == SHELEM:
        return "shelem"
    if value == SAR_SHELEM:
        return "sar-shelem"
    return str(value)


def is_joker(card: int) -> bool:
    return card >= len(CARDS)
