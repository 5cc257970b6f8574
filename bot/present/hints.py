"""A hint in the player's words: the engine's ``Hint`` (a move and a reason code) as the one
private line the Hint button answers with."""

from __future__ import annotations

from engine import Card, Hint, Suit

from .i18n import number, suit_label, t
from .render import MessageSpec


def hint_text(lang: str, hint: Hint) -> str:
    """``💡 Play **A♠**: keeps K♠ for later.``; the reason's suit, card and count said in
    ``lang``."""
    params: dict[str, object] = {}
    if hint.suit is not None:
        params["suit"] = suit_label(lang, hint.suit)
    if hint.card is not None:
        params["card"] = hint.card.label
    if hint.count:
        params["count"] = number(lang, hint.count)
    reason = t(lang, f"hint.{hint.reason}", **params)
    if lang == "fa":
        reason = reason.lstrip("\u200f")  # it goes inside a sentence, not at a line's start
    choice = hint.choice
    if isinstance(choice, Suit):
        return t(lang, "hint.trump", suit=suit_label(lang, choice), reason=reason)
    assert isinstance(choice, Card)
    return t(lang, "hint.card", card=choice.label, reason=reason)


def hint_message(lang: str, hint: Hint) -> MessageSpec:
    """The Hint button's private answer: the move, why, and whose advice it is."""
    return MessageSpec(content=f"{hint_text(lang, hint)}\n{t(lang, 'hint.note')}")
