"""A hand's card buttons are made a few times a card (the player's answer, their turn, every
trick's end): ``by_suit`` sorts once and ``card_rows`` takes each card's button from those
already made. Both must give exactly what the plain way gave, jokers and every suit included."""

from __future__ import annotations

import random

import pytest

from bot.present import custom_ids, hand_cards
from bot.present.formats import pack_rows
from bot.present.specs import ButtonSpec
from engine.cards import BLACK_JOKER, CARDS, RED_JOKER, Card


def plain_by_suit(hand: tuple[Card, ...]) -> list[list[Card]]:
    jokers = sorted((c for c in hand if c.is_joker), key=lambda c: -c.rank)
    suits = [jokers] + [
        sorted((c for c in hand if not c.is_joker and c.suit == suit), key=lambda c: -c.rank)
        for suit in hand_cards.SUIT_ORDER
    ]
    return [cards for cards in suits if cards]


@pytest.mark.parametrize("seed", range(40))
def test_by_suit_groups_as_the_plain_way(seed: int) -> None:
    rng = random.Random(seed)
    deck = [*CARDS, BLACK_JOKER, RED_JOKER]
    hand = tuple(rng.sample(deck, rng.randint(0, 17)))
    assert hand_cards.by_suit(hand) == plain_by_suit(hand)


@pytest.mark.parametrize("seed", range(10))
def test_card_rows_are_the_buttons_made_the_plain_way(seed: int) -> None:
    rng = random.Random(seed)
    hand = tuple(rng.sample([*CARDS, RED_JOKER], 13))
    legal = frozenset(rng.sample(hand, rng.randint(0, 13)))
    plain = tuple(
        tuple(
            ButtonSpec(
                custom_ids.card_id("0123456789ab", 3, c),
                c.label,
                "success" if c in legal else "secondary",
            )
            for c in row
        )
        for row in pack_rows(plain_by_suit(hand), 4)
    )
    rows = hand_cards.card_rows("0123456789ab", 3, hand, legal, 4)
    assert rows == plain
    again = hand_cards.card_rows.__wrapped__("0123456789ab", 3, hand, legal, 4)
    assert again == plain and again[0][0] is rows[0][0]  # the buttons are the ones made
