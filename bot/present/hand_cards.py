"""A hand on buttons and in words: its cards by suit in Discord's rows (the legal ones marked),
and the same cards as text where no card can be played (a Shelem hand while it is bid for)."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from engine import Card, Suit

from . import custom_ids
from .formats import MAX_ROWS, PER_ROW, pack_rows
from .specs import ButtonSpec

SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
"""Alternating colours, as players sort a hand."""


def cards_text(cards: list[Card] | tuple[Card, ...]) -> str:
    return " ".join(c.label for c in cards)


_GROUP = {suit: 1 + i for i, suit in enumerate(SUIT_ORDER)}
"""A card's group in ``by_suit``: 0 the jokers, then ``SUIT_ORDER``."""


def _high_first(card: Card) -> int:
    return -card.rank


def by_suit(hand: Sequence[Card]) -> list[list[Card]]:
    """The jokers, then each suit in ``SUIT_ORDER``, high to low; empty groups left out.
    One sort, then each card to its group (a hand is rendered a few times a card)."""
    groups: list[list[Card]] = [[] for _ in range(len(_GROUP) + 1)]
    for card in sorted(hand, key=_high_first):
        groups[0 if card.is_joker else _GROUP[card.suit]].append(card)
    return [cards for cards in groups if cards]


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
        tuple(_card_button(tid, hand_no, c, c in legal) for c in row)
        for row in pack_rows(by_suit(hand), free_rows)
    )


@functools.lru_cache(maxsize=16384)
def _card_button(tid: str, hand_no: int, card: Card, legal: bool) -> ButtonSpec:
    """One card's button: the same through a hand but for its legal mark, so a hand's rows,
    made anew after each of its player's cards and turns, take most of theirs from here."""
    style = "success" if legal else "secondary"
    return ButtonSpec(custom_ids.card_id(tid, hand_no, card), card.label, style)


def add_button(rows: list[tuple[ButtonSpec, ...]], button: ButtonSpec) -> None:
    """A row of its own when Discord's five rows allow, else the first row with room (the
    largest hand, 17 cards, fills at most five rows, never all 25 places)."""
    if len(rows) < MAX_ROWS:
        rows.append((button,))
        return
    i = next(i for i, row in enumerate(rows) if len(row) < PER_ROW)
    rows[i] = (*rows[i], button)
