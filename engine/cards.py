"""Cards, suits and ranks (R1).

A card is an ``int`` from 0 to 51, ``suit * 13 + rank``, with rank 0 for the 2 and 12 for the
ace, so that within a suit a higher number is a higher card. ``Card`` subclasses ``int`` so the
engine can keep hands as bitmasks and compare cards with plain integer operations, while
callers still get readable objects. Use the canonical instances in ``CARDS`` (or ``Card.parse``)
rather than constructing new ones.

V5's joker six adds two jokers, 52 (black) and 53 (red), as ``JokerCard``: a subclass, so the
52 cards' properties stay the plain arithmetic above. A joker has no suit of its own (it plays
as the highest trump, ``engine.joker``); ``CARDS`` stays the 52 cards, ``ANY_CARDS`` adds them.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from typing import Final

RANKS_PER_SUIT: Final = 13
SUIT_COUNT: Final = 4

#: Rank codes low to high (R1: A K Q J 10 9 8 7 6 5 4 3 2, read backwards).
RANK_CODES: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
_RANK_ALIASES: Final = {"T": 8}


class Suit(IntEnum):
    """The four suits; no suit outranks another until trump is named (R1)."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        return "SHDC"[self]

    @property
    def symbol(self) -> str:
        return "♠♥♦♣"[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Accept ``S``, ``♠``, ``spades`` (any case)."""
        key = text.strip().upper()
        for suit in cls:
            if key in (suit.letter, suit.symbol, suit.name, suit.name[:-1]):
                return suit
        raise ValueError(f"not a suit: {text!r}")

    def __str__(self) -> str:
        return self.symbol


SUITS: Final = tuple(Suit)


class Card(int):
    """One of the 52 cards; an ``int`` so hands can be bitmasks."""

    __slots__ = ()
    is_joker = False

    @property
    def suit(self) -> Suit:
        return SUITS[self // RANKS_PER_SUIT]

    @property
    def rank(self) -> int:
        """0 for the 2 up to 12 for the ace."""
        return self % RANKS_PER_SUIT

    @property
    def rank_code(self) -> str:
        return RANK_CODES[self % RANKS_PER_SUIT]

    @property
    def code(self) -> str:
        """ASCII form, e.g. ``AS``, ``10H``: stable for storage and ``custom_id``s."""
        return RANK_CODES[self % RANKS_PER_SUIT] + "SHDC"[self // RANKS_PER_SUIT]

    @property
    def label(self) -> str:
        """Display form, e.g. ``A♠``, ``10♦``."""
        return RANK_CODES[self % RANKS_PER_SUIT] + "♠♥♦♣"[self // RANKS_PER_SUIT]

    @classmethod
    def of(cls, rank: int, suit: Suit | int) -> Card:
        if not 0 <= rank < RANKS_PER_SUIT or not 0 <= suit < SUIT_COUNT:
            raise ValueError(f"no card with rank {rank} and suit {suit}")
        return CARDS[int(suit) * RANKS_PER_SUIT + rank]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``AS``, ``10H``, ``TH``, ``A♠``, ``10♦`` (case and spaces ignored)."""
        raw = text.strip().upper().replace(" ", "")
        if raw in _JOKER_CODES:
            return JOKERS[_JOKER_CODES.index(raw)]
        if len(raw) < 2:
            raise ValueError(f"not a card: {text!r}")
        rank_text, suit_text = raw[:-1], raw[-1]
        try:
            suit = Suit.parse(suit_text)
        except ValueError:
            raise ValueError(f"not a card: {text!r}") from None
        if rank_text in RANK_CODES:
            rank = RANK_CODES.index(rank_text)
        elif rank_text in _RANK_ALIASES:
            rank = _RANK_ALIASES[rank_text]
        else:
            raise ValueError(f"not a card: {text!r}")
        return CARDS[suit * RANKS_PER_SUIT + rank]

    def __repr__(self) -> str:
        return f"Card({self.code})"

    def __str__(self) -> str:
        return self.label


CARDS: Final = tuple(Card(i) for i in range(SUIT_COUNT * RANKS_PER_SUIT))
_JOKER_CODES: Final = ("BJ", "RJ")


class JokerCard(Card):
    """V5 joker six: 52 the black joker, 53 the red one. No suit: it plays as trump."""

    __slots__ = ()
    is_joker = True

    @property
    def suit(self) -> Suit:
        raise ValueError(f"{self.code}: a joker has no suit (it plays as trump)")

    @property
    def rank(self) -> int:
        """Above the ace: 13 for the black joker, 14 for the red."""
        return 13 + self - len(CARDS)

    @property
    def rank_code(self) -> str:
        return self.code

    @property
    def code(self) -> str:
        return _JOKER_CODES[self - len(CARDS)]

    @property
    def label(self) -> str:
        return ("⚫", "🔴")[self - len(CARDS)] + "🃏"


BLACK_JOKER: Final = JokerCard(52)
RED_JOKER: Final = JokerCard(53)
JOKERS: Final = (BLACK_JOKER, RED_JOKER)
ANY_CARDS: Final = CARDS + JOKERS
"""Every card by number, jokers included: ``ANY_CARDS[n]``."""
BY_CODE: Final = {card.code: card for card in ANY_CARDS}
"""A card's exact code (``AS``, ``10H``, ``RJ``) to the card: a dictionary, for the replays of
stored plays (``engine.story``), where ``Card.parse`` (lenient, for people's input) was three
fifths of a replay's time."""
FULL_DECK_MASK: Final = (1 << len(CARDS)) - 1
SUIT_MASKS: Final = tuple(((1 << RANKS_PER_SUIT) - 1) << (s * RANKS_PER_SUIT) for s in SUITS)


def mask_of(cards: Iterable[int]) -> int:
    """Bitmask of an iterable of cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def _suit_tables() -> tuple[list[tuple[Card, ...]], ...]:
    """For each suit, the cards of every 13-bit rank mask, so ``cards_of`` is 4 lookups."""
    tables = []
    for suit in range(SUIT_COUNT):
        table: list[tuple[Card, ...]] = [()]
        for m in range(1, 1 << RANKS_PER_SUIT):
            top = m.bit_length() - 1
            table.append(table[m ^ (1 << top)] + (CARDS[suit * RANKS_PER_SUIT + top],))
        tables.append(table)
    return tuple(tables)


#: ``SUIT_TABLES[suit][m]``: the cards of ``suit`` whose rank bits are ``m``.
SUIT_TABLES: Final = _suit_tables()
_S0, _S1, _S2, _S3 = SUIT_TABLES


def any_cards_of(mask: int) -> tuple[Card, ...]:
    """``cards_of``, then the jokers (bits 52 and 53) of the mask."""
    jokers = mask >> 52
    return cards_of(mask) + (
        JOKERS if jokers == 3 else JOKERS[jokers - 1 : jokers] if jokers else ()
    )


def cards_of(mask: int) -> tuple[Card, ...]:
    """Cards of a bitmask, by suit (spades, hearts, diamonds, clubs), low rank to high."""
    return (
        _S0[mask & 0x1FFF]
        + _S1[(mask >> 13) & 0x1FFF]
        + _S2[(mask >> 26) & 0x1FFF]
        + _S3[(mask >> 39) & 0x1FFF]
    )


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse a space- or comma-separated list of cards, e.g. ``"AS 10H 3D"``."""
    return tuple(Card.parse(part) for part in text.replace(",", " ").split())


def cards_in(mask: int) -> list[int]:
    """The card numbers of a bitmask (bit ``n`` is card ``n``), lowest first: the one way the
    engine's mask-based searches turn a hand back into cards."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
