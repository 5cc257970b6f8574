"""What a Shelem transition reports (V6): the bot renders these, the engine never prints.

A finished trick is Hokm's ``Trick`` and the end of the match Hokm's ``MatchCompleted``; the
rest are Shelem's own. No event names a hidden card: the kitty and the laid-down cards appear
only in the hakem's own view (V6.6.4).
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from ..cards import Suit
from ..events import MatchCompleted, Trick
from .options import Mode

ShelemKind = Literal[
    "made",
    "all_tricks",
    "set",
    "double_set",
    "shelem",
    "shelem_set",
    "sar_shelem",
    "sar_shelem_set",
]
"""V6.10: ``made`` (+bid), ``all_tricks`` (+2·bid), ``set`` (−bid), ``double_set`` (−2·bid, the
hakem's side took fewer points than the other); V6.11: ``shelem`` / ``sar_shelem`` (+330) and
``shelem_set`` / ``sar_shelem_set`` (−330)."""

SET_KINDS: frozenset[str] = frozenset({"set", "double_set", "shelem_set", "sar_shelem_set"})
ALL_TRICKS_KINDS: frozenset[str] = frozenset({"all_tricks", "shelem", "sar_shelem"})
"""V6.10, V6.11: the hakem's side took every trick (``ShelemHandResult.every_trick``)."""


class ShelemDealt(NamedTuple):
    """V6.2: a new hand is dealt; ``first`` (the seat after the dealer) bids first (V6.3.1)."""

    number: int
    dealer: int
    first: int


class ShelemBid(NamedTuple):
    """V6.3, V6.5: ``seat`` bid ``value`` (0: passed; ``SHELEM``, ``SAR_SHELEM``)."""

    seat: int
    value: int


class ShelemRedealt(NamedTuple):
    """V6.4: the first three to speak passed; the same dealer deals again."""

    dealer: int
    deal_number: int


class HakemChosen(NamedTuple):
    """V6.3.3, V6.5.2: the bidding is over: ``hakem`` plays for ``bid``; he has taken the kitty
    (or, after a sar-shelem, only seen it: V6.6.3)."""

    hakem: int
    bid: int


class KittyDiscarded(NamedTuple):
    """V6.6.1: the hakem laid down ``cards`` cards (which ones, only he knows)."""

    hakem: int
    cards: int


class ModeChosen(NamedTuple):
    """V6.7: the hakem announced the hand's mode."""

    hakem: int
    mode: Mode


class TrumpNamed(NamedTuple):
    """V6.8.1: the hakem's first card named trump (``hokm`` mode)."""

    hakem: int
    trump: Suit


class ShelemHandResult(NamedTuple):
    """V6.9–V6.12: how a hand was scored.

    ``points`` are what each team took (the hakem's laid-down set included): they add up to the
    hand's total (165, 200 with jokers). ``changes`` is what each team's score moved by;
    ``withheld`` the points a defending side near the target did not score (V6.12).
    """

    number: int
    hakem: int
    bid: int
    mode: Mode
    trump: Suit | None
    tricks: tuple[int, int]
    points: tuple[int, int]
    kind: ShelemKind
    changes: tuple[int, int]
    withheld: tuple[int, int]
    scores_after: tuple[int, int]

    @property
    def hakem_team(self) -> int:
        return self.hakem % 2

    @property
    def made(self) -> bool:
        """The hakem's side made its bid (any kind but the ``…set`` ones)."""
        return self.kind not in SET_KINDS

    @property
    def every_trick(self) -> bool:
        """The hakem's side took all twelve tricks (V6.11: a shelem, bid or not)."""
        return self.kind in ALL_TRICKS_KINDS


ShelemEvent = (
    ShelemDealt
    | ShelemBid
    | ShelemRedealt
    | HakemChosen
    | KittyDiscarded
    | ModeChosen
    | TrumpNamed
    | Trick
    | ShelemHandResult
    | MatchCompleted
)
