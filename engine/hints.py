"""Hints for learners: the move the hard computer player would make, and one short reason.

A hint is a pure function of one ``SeatView``: the search sees only that view (as every
computer player does), its seed comes from the view (``view_seed``), and the reason
(``explain``) reads nothing else. So a hint can never tell a player anything about cards
their seat cannot see: two deals that differ only in hidden cards give the same hint.

The reason is a code and its parameters (a suit, a card, a count), not a sentence: the
presenter says it in the player's language.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Final, Literal, get_args

from .cards import Card, Suit
from .match import PLAY, TRUMP
from .players import _beats, _winning, auto_trump
from .search import LEVELS, SearchPlayer, StopCheck
from .view import SeatView

Reason = Literal[
    "only_card",
    "partner_wins",
    "trump_in",
    "takes_trick",
    "beats_so_far",
    "discard",
    "keeps_high",
    "cheap",
    "master",
    "draw_trumps",
    "draw_out",
    "longest_suit",
]
REASONS: Final[tuple[Reason, ...]] = get_args(Reason)


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested move and why: ``suit`` and ``card`` are what the reason names (the led
    suit one is out of, the card kept for later), ``count`` a number it names."""

    choice: Card | Suit
    reason: Reason
    suit: Suit | None = None
    card: Card | None = None
    count: int = 0


def view_seed(view: SeatView) -> int:
    """A search seed from what the seat knows only (never the match's seed, which deals
    every hand): the same view always gets the same hint."""
    plays = [(s, int(c)) for t in view.tricks for s, c in t.plays(view.seats)]
    trick = [(s, int(c)) for s, c in view.trick]
    key = (view.seat, view.hand_number, tuple(map(int, view.hand)), plays, trick)
    return zlib.crc32(repr(key).encode())


def hint(view: SeatView, should_stop: StopCheck | None = None) -> Hint:
    """The hard player's move for this seat, explained (R5 trump, or R7–R9 a card).

    Every format is hinted from its own view (seats, teams, deck); V2's discards and draws
    and V1's bam are not hinted (``ValueError``): they have no reason to say yet.

    :raises ValueError: it is not this seat's turn (nothing to hint), or it is not a trump or
        card decision.
    """
    if not view.my_turn:
        raise ValueError("no hint: it is not this seat's turn")
    if view.phase not in (TRUMP, PLAY):
        raise ValueError(f"no hint in the {view.phase} phase: only for trump and cards")
    if view.phase == TRUMP:
        return explain_trump(view, auto_trump(view.hand))
    player = SearchPlayer(view_seed(view), LEVELS["hard"], should_stop)
    return explain(view, player.choose_card(view))


def explain_trump(view: SeatView, suit: Suit) -> Hint:
    """R5: the hakem names trump from five cards; the hard player names the longest suit."""
    return Hint(suit, "longest_suit", suit, count=sum(1 for c in view.hand if c.suit == suit))


def explain(view: SeatView, card: Card) -> Hint:
    """Why ``card`` is a good card for this seat now, from its view alone (R7–R9).

    :raises ValueError: ``card`` is not one of the seat's legal cards.
    """
    if card not in view.legal:
        raise ValueError(f"{card} is not a legal card for seat {view.seat}")
    if len(view.legal) == 1:
        return Hint(card, "only_card")
    if not view.trick:
        return _lead(view, card)
    return _follow(view, card)


def _lead(view: SeatView, card: Card) -> Hint:
    """R7: the leader may lead anything."""
    if card.suit == view.trump:
        return Hint(card, "draw_trumps", card.suit)
    if _is_master(view, card):
        return Hint(card, "master", card.suit)
    kept = _kept(view, card)
    if kept is not None:
        return Hint(card, "keeps_high", card=kept)
    return Hint(card, "draw_out", card.suit)


def _follow(view: SeatView, card: Card) -> Hint:
    """R8 (follow suit, else anything) and R9 (the highest trump, else the highest of the
    led suit, wins)."""
    trump = view.trump
    led = view.trick[0][1].suit
    win_seat, win_card = _winning(view.trick, trump)
    beats = _beats(card, win_card, led, trump)
    last = len(view.trick) == view.seats - 1
    if beats:
        if card.suit != led:
            return Hint(card, "trump_in", led)
        return Hint(card, "takes_trick" if last or _is_master(view, card) else "beats_so_far")
    if view.is_partner(win_seat):
        return Hint(card, "partner_wins")
    if card.suit != led and card.suit != trump:
        return Hint(card, "discard", led)
    kept = _kept(view, card)
    if kept is not None:
        return Hint(card, "keeps_high", card=kept)
    return Hint(card, "cheap")


def _seen(view: SeatView) -> set[Card]:
    """Cards this seat knows are out of play or its own: its hand, the tricks, this trick."""
    seen = set(view.hand)
    seen.update(view.discards)  # V2: the cards it laid down itself
    seen.update(c for t in view.tricks for c in t.cards)
    seen.update(c for _, c in view.trick)
    return seen


def _is_master(view: SeatView, card: Card) -> bool:
    """No card of the suit the seat has not seen is higher."""
    seen = _seen(view)
    return all(Card.of(r, card.suit) in seen for r in range(card.rank + 1, 13))


def _kept(view: SeatView, card: Card) -> Card | None:
    """The best card of ``card``'s suit the seat keeps by playing ``card``, if it is higher."""
    higher = [c for c in view.hand if c.suit == card.suit and c.rank > card.rank]
    return max(higher, key=lambda c: c.rank) if higher else None
