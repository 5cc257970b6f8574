"""The message catalog is complete in both languages; custom_ids parse strictly."""

from __future__ import annotations

import string

import pytest

from bot.present import custom_ids
from bot.present.i18n import CATALOG, LANGUAGES, suit_label, t
from engine import Card, Suit


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


@pytest.mark.parametrize("key", sorted(CATALOG))
def test_every_sentence_exists_in_both_languages_with_the_same_placeholders(key: str) -> None:
    entry = CATALOG[key]
    assert set(entry) == set(LANGUAGES), key
    assert _fields(entry["en"]) == _fields(entry["fa"]), key


def test_persian_suit_names_and_digits() -> None:
    assert [suit_label("fa", s) for s in Suit] == ["♠ پیک", "♥ دل", "♦ خشت", "♣ گشنیز"]
    text = t("fa", "table.hand", n=3)
    assert "۳" in text and "3" not in text
    assert t("en", "table.hand", n=3) == "Hand 3"


def test_persian_line_starting_with_latin_gets_a_right_to_left_mark() -> None:
    line = t("fa", "report.trick", n=2, cards="A♠ K♠", name="bahar")
    assert line.startswith("\u2068") or line.startswith("\u200f") or line[0] >= "\u0600"
    assert "\u2068bahar\u2069" in line  # names keep their own direction


@pytest.mark.parametrize(
    ("made", "kind"),
    [
        (custom_ids.card_id("0123456789ab", 3, Card.parse("10H")), "card"),
        (custom_ids.trump_id("0123456789ab", 1, Suit.CLUBS), "trump"),
        (custom_ids.lobby_id("0123456789ab", "join"), "lobby"),
        (custom_ids.my_hand_id("0123456789ab"), "my_hand"),
        (custom_ids.standings_id(2, "n"), "standings"),
    ],
)
def test_custom_ids_round_trip(made: str, kind: str) -> None:
    assert len(made) <= 100
    click = custom_ids.parse(made)
    assert click.kind == kind
    if kind == "card":
        assert click.card == Card.parse("10H") and click.hand == 3


@pytest.mark.parametrize(
    "bad",
    [
        None,
        "",
        "hokm:",
        "hokm:c:0123456789ab:0:AS",
        "hokm:c:0123456789ab:1:1S",
        "hokm:c:0123456789AB:1:AS",
        "hokm:c:0123456789ab:1:AS:extra",
        "hokm:z:0123456789ab",
        "hokm:p:0:0:p",
        "x" * 101,
        "hokm:c:0123456789ab:1:AS\n",
        42,
    ],
)
def test_custom_ids_refuse_anything_else(bad: object) -> None:
    with pytest.raises(custom_ids.BadCustomId):
        custom_ids.parse(bad)


def test_a_hand_number_id_reaches_every_deal_a_shelem_match_can_have() -> None:
    """V6.4.1 and V6.14.1 bound a Shelem match's deals; the ids' cap stays above the bound, so
    a bid button of the last possible deal still parses."""
    from engine.shelem import MAX_DEALS

    assert MAX_DEALS <= custom_ids.MAX_HAND
