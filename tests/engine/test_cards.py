"""R1: the deck, the suits and the rank order."""

from __future__ import annotations

import pytest

from engine import CARDS, Card, Suit, cards_of, mask_of, parse_cards


def test_r1_deck_has_52_distinct_cards_in_four_suits() -> None:
    assert len(CARDS) == 52
    assert len({c.code for c in CARDS}) == 52
    for suit in Suit:
        assert sum(1 for c in CARDS if c.suit == suit) == 13


def test_r1_rank_order_ace_high_two_low() -> None:
    order = [
        Card.parse(f"{r}S")
        for r in ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    ]
    assert order == sorted(order, reverse=True)
    assert Card.parse("AS").rank == 12 and Card.parse("2S").rank == 0


@pytest.mark.parametrize(
    ("text", "code", "label"),
    [
        ("AS", "AS", "A♠"),
        ("10H", "10H", "10♥"),
        ("th", "10H", "10♥"),
        ("A♠", "AS", "A♠"),
        ("10♦", "10D", "10♦"),
        (" q c ", "QC", "Q♣"),
        ("2♣", "2C", "2♣"),
    ],
)
def test_r1_parse_and_format(text: str, code: str, label: str) -> None:
    card = Card.parse(text)
    assert card.code == code
    assert card.label == label
    assert str(card) == label
    assert Card.parse(card.code) is card
    assert Card.parse(card.label) is card


@pytest.mark.parametrize("text", ["", "A", "1S", "11H", "AX", "ZS", "10", "♠", "AS♠"])
def test_r1_parse_rejects_non_cards(text: str) -> None:
    with pytest.raises(ValueError, match="not a card"):
        Card.parse(text)


def test_r1_suit_parse_and_symbols() -> None:
    assert Suit.parse("s") is Suit.SPADES
    assert Suit.parse("♥") is Suit.HEARTS
    assert Suit.parse("Diamonds") is Suit.DIAMONDS
    assert Suit.parse("club") is Suit.CLUBS
    with pytest.raises(ValueError):
        Suit.parse("stars")
    assert [s.symbol for s in Suit] == ["♠", "♥", "♦", "♣"]


def test_r1_masks_round_trip() -> None:
    cards = parse_cards("AS 10H 3D 2C KC")
    assert set(cards_of(mask_of(cards))) == set(cards)
    assert cards_of(0) == ()
    assert cards_of(mask_of(CARDS)) == CARDS


def test_card_of_rank_and_suit() -> None:
    assert Card.of(12, Suit.SPADES).code == "AS"
    with pytest.raises(ValueError):
        Card.of(13, Suit.SPADES)
