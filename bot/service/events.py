"""What a committed change did, as typed events the publisher matches on.

One frozen dataclass per kind, so the publisher reads fields with their types (no kind strings,
no re-parsed cards). ``log_word`` is the event's word in the service's INFO line
(``table <id>: <words>``; ``bench/attack.py`` parses it): public facts only, never a card of
a hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import Card, HandResult, Suit, Trick

from .shelem_events import ShelemTableEvent


@dataclass(frozen=True, slots=True)
class Opened:
    seat: int

    @property
    def log_word(self) -> str:
        return f"opened seat={self.seat}"


@dataclass(frozen=True, slots=True)
class Joined:
    seat: int

    @property
    def log_word(self) -> str:
        return f"joined seat={self.seat}"


@dataclass(frozen=True, slots=True)
class Left:
    seat: int

    @property
    def log_word(self) -> str:
        return f"left seat={self.seat}"


@dataclass(frozen=True, slots=True)
class ComputerAdded:
    seat: int

    @property
    def log_word(self) -> str:
        return f"computer_added seat={self.seat}"


@dataclass(frozen=True, slots=True)
class Started:
    """The match began; ``first_ace`` is the public deal that found the hakem (empty when the
    hakem was drawn at random)."""

    hakem: int
    first_ace: tuple[tuple[int, Card], ...] = ()

    @property
    def log_word(self) -> str:
        return f"started seat={self.hakem}"


@dataclass(frozen=True, slots=True)
class HandDealt:
    hakem: int
    hand: int

    @property
    def log_word(self) -> str:
        return f"hand_dealt seat={self.hakem} hand={self.hand}"


@dataclass(frozen=True, slots=True)
class TrumpNamed:
    seat: int
    suit: Suit
    hand: int

    @property
    def log_word(self) -> str:
        return f"trump_named seat={self.seat} suit={int(self.suit)} hand={self.hand}"


@dataclass(frozen=True, slots=True)
class Redealt:
    """R6: the hakem's five held no court card and they asked for a redeal (the five are
    gone, unseen by anyone else; the hakem has five new cards)."""

    seat: int
    hand: int

    @property
    def log_word(self) -> str:
        return f"redealt seat={self.seat} hand={self.hand}"


@dataclass(frozen=True, slots=True)
class BamOffer:
    """V1: ``seat`` took its side's seventh trick and the others have none: bam or stop."""

    seat: int
    hand: int

    @property
    def log_word(self) -> str:
        return f"bam_offered seat={self.seat} hand={self.hand}"


@dataclass(frozen=True, slots=True)
class Decided:
    """A decision of the variants (``what``: bam, stop, discard, draw; V5's ``pass`` or
    ``bid<n>``), public by its name only: a card laid face down or drawn is never said."""

    seat: int
    what: str
    hand: int
    tricks: int = field(default=0, compare=False)
    """V5: the tricks bid (``what`` ``bid<n>``), so no reader parses them out of ``what``;
    0 for every other decision. Left out of equality: ``what`` already says it."""

    @property
    def log_word(self) -> str:
        return f"decided seat={self.seat} what={self.what} hand={self.hand}"


@dataclass(frozen=True, slots=True)
class NobodyBid:
    """V5 joker six: every seat passed; the dealer's team scored a point, and deals again."""

    dealer: int
    scores: tuple[int, ...]

    @property
    def log_word(self) -> str:
        return f"passed_out dealer={self.dealer}"


@dataclass(frozen=True, slots=True)
class TimedOutDecision:
    """R14 in a variant's phase: the server decided for a member whose time ran out."""

    seat: int
    what: str

    @property
    def log_word(self) -> str:
        return f"timeout_decision seat={self.seat} what={self.what}"


@dataclass(frozen=True, slots=True)
class CardPlayed:
    seat: int
    card: Card
    hand: int

    @property
    def log_word(self) -> str:
        return f"card_played seat={self.seat} hand={self.hand}"


@dataclass(frozen=True, slots=True)
class TrickTaken:
    """The engine's ``Trick`` and the hand it belongs to (the match may have moved on)."""

    trick: Trick
    hand: int

    @property
    def log_word(self) -> str:
        return f"trick seat={self.trick.winner} number={self.trick.number} hand={self.hand}"


@dataclass(frozen=True, slots=True)
class HandEnded:
    result: HandResult

    @property
    def log_word(self) -> str:
        return "hand_result"


@dataclass(frozen=True, slots=True)
class MatchOver:
    winner_team: int
    scores: tuple[int, ...]

    @property
    def log_word(self) -> str:
        return f"match_over winner_team={self.winner_team}"


@dataclass(frozen=True, slots=True)
class TimedOut:
    """R14: the server played ``card`` for a member whose time ran out (it is on the table
    now, so it is public)."""

    seat: int
    card: Card

    @property
    def log_word(self) -> str:
        return f"timeout seat={self.seat}"


@dataclass(frozen=True, slots=True)
class TimedOutTrump:
    seat: int
    suit: Suit

    @property
    def log_word(self) -> str:
        return f"timeout_trump seat={self.seat} suit={int(self.suit)}"


@dataclass(frozen=True, slots=True)
class Replaced:
    seat: int

    @property
    def log_word(self) -> str:
        return f"replaced seat={self.seat}"


@dataclass(frozen=True, slots=True)
class Back:
    seat: int

    @property
    def log_word(self) -> str:
        return f"back seat={self.seat}"


@dataclass(frozen=True, slots=True)
class Cancelled:
    by: int

    @property
    def log_word(self) -> str:
        return "cancelled"


@dataclass(frozen=True, slots=True)
class Expired:
    @property
    def log_word(self) -> str:
        return "expired"


@dataclass(frozen=True, slots=True)
class Abandoned:
    @property
    def log_word(self) -> str:
        return "abandoned"


@dataclass(frozen=True, slots=True)
class Resumed:
    @property
    def log_word(self) -> str:
        return "resumed"


@dataclass(frozen=True, slots=True)
class CaughtUp:
    """Another process saved the table and this one has loaded what it saved:
    the surfaces only this process can edit (the interaction tokens it holds) show it now.
    That process published the change itself (its reports, the table message)."""

    @property
    def log_word(self) -> str:
        return "caught up"


@dataclass(frozen=True, slots=True)
class DmClosed:
    seat: int

    @property
    def log_word(self) -> str:
        return f"dm_closed seat={self.seat}"


@dataclass(frozen=True, slots=True)
class SeatsReleased:
    """A rematch lobby's wait ran out: the seats kept for members who did not press Rematch
    are free now (anyone may join, the host may fill them with computers)."""

    @property
    def log_word(self) -> str:
        return "seats_released"


TableEvent = (
    Opened
    | Joined
    | Left
    | ComputerAdded
    | Started
    | HandDealt
    | TrumpNamed
    | Redealt
    | BamOffer
    | Decided
    | TimedOutDecision
    | NobodyBid
    | CardPlayed
    | TrickTaken
    | HandEnded
    | MatchOver
    | TimedOut
    | TimedOutTrump
    | Replaced
    | Back
    | Cancelled
    | Expired
    | Abandoned
    | Resumed
    | CaughtUp
    | DmClosed
    | SeatsReleased
    | ShelemTableEvent
)
"""Every event the service reports (a Shelem table's own in ``shelem_events``); the
publisher's ``match`` covers them all."""

__all__ = [
    "Abandoned",
    "Back",
    "BamOffer",
    "Cancelled",
    "CardPlayed",
    "ComputerAdded",
    "Decided",
    "DmClosed",
    "Expired",
    "HandDealt",
    "HandEnded",
    "Joined",
    "Left",
    "MatchOver",
    "NobodyBid",
    "Opened",
    "Redealt",
    "Replaced",
    "Resumed",
    "SeatsReleased",
    "Started",
    "TableEvent",
    "TimedOut",
    "TimedOutDecision",
    "TimedOutTrump",
    "TrickTaken",
    "TrumpNamed",
]
