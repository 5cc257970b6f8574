"""What a transition reports: the bot renders these, the engine never prints.

Named tuples rather than frozen dataclasses: immutable, and cheap enough to create on the hot
path (a trick ends every four cards).
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from .cards import Card, Suit
from .rules import GameFormat

HandKind = Literal["win", "kot", "hakem_kot", "bam", "hakem_bam", "made", "set"]
"""R11 and V1: ``bam`` when the hakem's side took every trick after declaring bam,
``hakem_bam`` when the defenders did (the seed's "پر بام" / "حاکم بام"). V5 joker six: ``made``
when the hakem's side took its bid, ``set`` when it did not."""


class Trick(NamedTuple):
    """A completed trick: cards in play order, starting with the leader's.

    Also the event ``play`` returns when a trick completes.
    """

    number: int
    leader: int
    cards: tuple[Card, ...]
    winner: int

    def plays(self, seats: int = 4) -> tuple[tuple[int, Card], ...]:
        """``(seat, card)`` pairs in play order."""
        return tuple(((self.leader + i) % seats, c) for i, c in enumerate(self.cards))


class HandResult(NamedTuple):
    """R10/R11: who took the hand, with how many points and why.

    Also the event ``play`` returns when a hand completes.
    """

    number: int
    hakem: int
    trump: Suit
    tricks: tuple[int, ...]
    winner_team: int
    points: int
    kind: HandKind
    scores_after: tuple[int, ...]
    bam: bool = False
    """V1: the winners declared bam (then ``kind`` is ``bam``/``hakem_bam`` if they took every
    trick, else the ``kot``/``hakem_kot`` they had when they declared)."""
    bid: int = 0
    """V5 joker six: the hakem's bid (tricks); 0 in the formats without bidding."""

    @property
    def is_kot(self) -> bool:
        """R11: a side took no trick (a kot or a hakem-kot, or a bam), so the winners dealt a kot.

        In the solo formats (V2–V4) that is any other seat, not every other seat (see
        ``docs/rules.md``)."""
        return self.kind != "win"

    def hakem_kot_suffered_by(self, fmt: GameFormat) -> int | None:
        """R11: the team that suffered a hakem-kot (the hakem's own, which took no trick), or
        ``None``; it takes the format because the hand result does not restate the seating."""
        return fmt.team_of[self.hakem] if self.kind == "hakem_kot" else None


class HandStarted(NamedTuple):
    """A new deal: the hakem holds the first five cards and must name trump (R4, R5)."""

    number: int
    hakem: int


class Redealt(NamedTuple):
    """R6: the hakem threw in five cards without a court card."""

    hakem: int


class TrumpChosen(NamedTuple):
    hakem: int
    trump: Suit


class Discarded(NamedTuple):
    """V2: ``seat`` laid a card face down (which one is not said: the other seat may not know)."""

    seat: int


class Drew(NamedTuple):
    """V2: ``seat`` took its turn at the stock (kept one card, laid the other face down)."""

    seat: int


class BamOffered(NamedTuple):
    """V1: ``seat``'s side has 7 tricks and the others none: it may play on for every trick."""

    seat: int


class BamDeclared(NamedTuple):
    """V1: ``seat`` declared bam; play goes on, ``seat`` leads."""

    seat: int


class Bid(NamedTuple):
    """V5 joker six: ``seat`` bid ``tricks`` for hakem, or passed (``tricks`` 0, "معاف")."""

    seat: int
    tricks: int


class PassedOut(NamedTuple):
    """V5 joker six: everyone passed; the dealer's team scores a point and deals again."""

    dealer: int
    scores: tuple[int, ...]


class MatchCompleted(NamedTuple):
    winner_team: int
    scores: tuple[int, ...]


Event = (
    HandStarted
    | Redealt
    | TrumpChosen
    | Trick
    | HandResult
    | MatchCompleted
    | Discarded
    | Drew
    | BamOffered
    | BamDeclared
    | Bid
    | PassedOut
)
