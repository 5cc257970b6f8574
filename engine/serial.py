"""The stored form both match classes share: ``Match`` (so every Hokm format, the joker six's
``JokerMatch`` too) and V6's ``ShelemMatch`` write their cards, hands and tricks and read
them back through here, so the two stored forms cannot drift apart in how a card, a hand or
a trick is written. Each class keeps its own keys and checks; the stored form is unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from .cards import Card, Suit, any_cards_of, mask_of
from .errors import InvalidState
from .events import Trick

T = TypeVar("T")


def codes(mask: int) -> list[str]:
    """A card mask (jokers included) as card codes, low to high."""
    return [c.code for c in any_cards_of(mask)]


def mask(stored: Iterable[str], *, unique: bool = False) -> int:
    """Card codes back as a mask; ``unique``: a card twice is refused, not merged.

    :raises InvalidState: a card twice, with ``unique``.
    """
    cards = [Card.parse(code) for code in stored]
    if unique and len(set(cards)) != len(cards):
        raise InvalidState("a card twice in one list")
    return mask_of(cards)


def suit_letter(suit: Suit | None) -> str | None:
    """A trump as stored: its letter, or None before it is named."""
    return None if suit is None else suit.letter


def suit_of(stored: str | None) -> Suit | None:
    return None if stored is None else Suit.parse(stored)


def trick_rows(tricks: Sequence[Trick]) -> list[list[Any]]:
    """Each finished trick as ``[leader, [codes], winner]`` (its number is its place)."""
    return [[t.leader, [c.code for c in t.cards], t.winner] for t in tricks]


def tricks_of(rows: Iterable[Sequence[Any]], seat: Callable[[Any], int] = int) -> list[Trick]:
    """``trick_rows`` back as ``Trick``s, each seat read by ``seat`` (which may refuse one)."""
    return [
        Trick(i + 1, seat(leader), tuple(Card.parse(c) for c in cards), seat(winner))
        for i, (leader, cards, winner) in enumerate(rows)
    ]


def restored(load: Callable[[dict[str, Any]], T], data: dict[str, Any], what: str) -> T:
    """``load(data)``, anything malformed in ``data`` refused as ``InvalidState``.

    :raises InvalidState: not a stored ``what``.
    """
    try:
        return load(data)
    except InvalidState:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise InvalidState(f"not a stored {what}: {exc!r}") from exc
