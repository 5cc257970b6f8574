"""The typed events of a Shelem table (V6), beside ``events``' of the Hokm family.

A Shelem hand reuses what it shares with Hokm (``Started``, ``HandDealt``, ``CardPlayed``,
``TrickTaken``, ``TrumpNamed``, ``MatchOver``, the time-outs); these are its own: the auction,
the kitty, the mode and the hand's score. None names a card: the kitty and the laid-down cards
are the hakem's alone (V6.6.4), so an event says only that they were laid down.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.shelem import ShelemHandResult


@dataclass(frozen=True, slots=True)
class BidMade:
    """V6.3, V6.5: ``seat`` bid ``value`` (0 passed; ``SHELEM``, ``SAR_SHELEM``)."""

    seat: int
    value: int
    hand: int

    @property
    def log_word(self) -> str:
        return f"shelem_bid seat={self.seat} value={self.value} hand={self.hand}"


@dataclass(frozen=True, slots=True)
class AllPassed:
    """V6.4: the first three to speak passed; ``dealer`` deals the hand again."""

    dealer: int
    hand: int

    @property
    def log_word(self) -> str:
        return f"all_passed dealer={self.dealer} hand={self.hand}"


@dataclass(frozen=True, slots=True)
class BidWon:
    """V6.3.3: the auction is over: ``hakem`` plays for ``bid`` and has the kitty (after a
    sar-shelem he has only seen it, V6.6.3)."""

    hakem: int
    bid: int
    hand: int

    @property
    def log_word(self) -> str:
        return f"bid_won seat={self.hakem} bid={self.bid} hand={self.hand}"


@dataclass(frozen=True, slots=True)
class KittyLaidDown:
    """V6.6.1: the hakem laid ``count`` cards down, which ones only he knows."""

    hakem: int
    count: int
    hand: int

    @property
    def log_word(self) -> str:
        return f"laid_down seat={self.hakem} count={self.count} hand={self.hand}"


@dataclass(frozen=True, slots=True)
class ModeAnnounced:
    """V6.7: the hakem announced the hand's mode (hokm, nars, ace_nars, sars)."""

    hakem: int
    mode: str
    hand: int

    @property
    def log_word(self) -> str:
        return f"mode seat={self.hakem} mode={self.mode} hand={self.hand}"


@dataclass(frozen=True, slots=True)
class ShelemHandEnded:
    """V6.9–V6.12: a hand was scored (points per team, the hakem's set included; never its
    cards)."""

    result: ShelemHandResult

    @property
    def log_word(self) -> str:
        return f"shelem_hand_result kind={self.result.kind}"


ShelemTableEvent = BidMade | AllPassed | BidWon | KittyLaidDown | ModeAnnounced | ShelemHandEnded
