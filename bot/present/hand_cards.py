"""A hand on buttons and in words: its cards by suit in Discord's rows (the legal ones marked),
and the same cards as text where no card can be played (a Shelem hand while it is bid for)."""

from __future__ import annotations

import functools

from engine import Card, Suit

from . import custom_ids
from .formats import MAX_ROWS, PER_ROW, pack_rows
from .specs import ButtonSpec

SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
"""Alternating colours, as players sort a hand."""


def cards_text(cards: list[Card] | tuple[Card, ...]) -> str:
    return " ".join(c.label for c in cards)


def by_suit(hand: tuple[Card, ...]) -> list[list[Card]]:
    """The jokers, then each suit in ``SUIT_ORDER``, high to low; empty groups left out."""
    jokers = sorted((c for c in hand if c.is_joker), key=lambda c: -c.rank)
    suits = [jokers] + [
        sorted((c for c in hand if not c.is_joker and c.suit == suit), key=lambda c: -c.rank)
        for suit in SUIT_ORDER
    ]
    return [cards for cards in suits if cards]


def hand_text(hand: tuple[Card, ...]) -> str:
    """``A♠ K♠ 5♠ · Q♥ 10♥ · …``: a hand by suit, for a message without its card buttons
    (in a Persian line a left-to-right run, as the buttons show it: ``i18n.ltr``)."""
    return " · ".join(cards_text(group) for group in by_suit(hand))


@functools.lru_cache(maxsize=4096)
def card_rows(
    tid: str, hand_no: int, hand: tuple[Card, ...], legal: frozenset[Card], free_rows: int
) -> tuple[tuple[ButtonSpec, ...], ...]:
    """A hand's card buttons, by suit, in the rows the other buttons leave (up to 17 cards
    in V3). Cached: a player's cards and their legal marks stay the same through the
    other players' cards, and the live edit of each of those would build them again."""
    return tuple(
        tuple(
            ButtonSpec(
                custom_ids.card_id(tid, hand_no, c),
                c.label,
                "success" if c in legal else "secondary",
            )
            for c in row
        )
        for row in pack_rows(by_suit(hand), free_rows)
    )


def add_button(rows: list[tuple[ButtonSpec, ...]], button: ButtonSpec) -> None:
    """A row of its own when Discord's five rows allow, else the first row with room (the
    largest hand, 17 cards, fills at most five rows, never all 25 places)."""
    if len(rows) < MAX_ROWS:
        rows.append((button,))
        return
    i = next(i for i, row in enumerate(rows) if len(row) < PER_ROW)
    rows[i] = (*rows[i], button)
