"""The Hint button finds room in Discord's five rows, the
table footer says hints are on, and each reason reads in English and Persian."""

from __future__ import annotations

import dataclasses

import pytest

from bot.present import custom_ids, render
from bot.present.hints import hint_text
from bot.service.table import Seat
from engine import REASONS, Card, Hint, Suit
from tests.engine.helpers import rigged_match

from .helpers import lobby_table

SIX_SIX_ONE = [
    "AS KS QS JS 10S 9S AH KH QH JH 10H 9H AC",  # seat 0: 6 ♠, 6 ♥, 1 ♣: five rows of cards
    "8S 7S 6S 5S 4S 3S 2S 8H 7H 6H 5H 4H 3H",
    "2H AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D",
    "2D KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C",
]


def hinted(lang: str = "en", hints: bool = True):  # type: ignore[no-untyped-def]
    table = lobby_table()
    table.settings = dataclasses.replace(table.settings, language=lang, hints=hints)
    table.seats = [Seat(name=f"p{i}", user_id=10 + i) for i in range(4)]
    table.match = rigged_match(0, SIX_SIX_ONE, trump=Suit.SPADES)
    table.status = "playing"
    return table


def test_the_hint_button_shares_a_row_when_thirteen_cards_fill_five() -> None:
    table = hinted()
    spec = render.hand_message(table, 0)
    assert len(spec.rows) == 5 and all(len(row) <= 5 for row in spec.rows)
    ids = [b.custom_id for row in spec.rows for b in row]
    assert ids.count(custom_ids.hint_id(table.table_id, 1)) == 1
    assert sum(1 for i in ids if i.startswith("hokm:c:")) == 13


def test_only_the_player_to_act_at_a_hinted_table_has_the_button() -> None:
    table = hinted()

    def has_hint(seat: int) -> bool:
        return any(
            b.custom_id.startswith("hokm:i:")
            for row in render.hand_message(table, seat).rows
            for b in row
        )

    assert [has_hint(s) for s in range(4)] == [True, False, False, False]
    table.settings = dataclasses.replace(table.settings, hints=False)
    assert not has_hint(0)


@pytest.mark.parametrize(("lang", "mark"), [("en", "💡 hints on"), ("fa", "💡 با راهنمایی")])
def test_the_table_footer_says_hints_are_on(lang: str, mark: str) -> None:
    on = render.table_message(hinted(lang)).embed
    off = render.table_message(hinted(lang, hints=False)).embed
    assert on is not None and off is not None
    assert on.footer.endswith(mark) and mark not in off.footer


@pytest.mark.parametrize("lang", ["en", "fa"])
@pytest.mark.parametrize("reason", REASONS)
def test_every_reason_reads_in_both_languages(lang: str, reason: str) -> None:
    hint = Hint(Card.parse("QS"), reason, Suit.HEARTS, Card.parse("AS"), 3)  # type: ignore[arg-type]
    text = hint_text(lang, hint)
    assert "Q♠" in text and "{" not in text
    if lang == "en":
        assert text.startswith("💡 Play **Q♠**: ")
    else:
        assert "را بازی کنید" in text


def test_a_trump_hint_names_the_suit_and_the_count() -> None:
    hint = Hint(Suit.HEARTS, "longest_suit", Suit.HEARTS, count=3)
    assert hint_text("en", hint) == (
        "💡 Name **♥ Hearts** as trump: your longest suit (3 of your five cards)."
    )
    assert "۳" in hint_text("fa", hint) and "حکم کنید" in hint_text("fa", hint)
