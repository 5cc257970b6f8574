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

from .cards import JOKERS, Card, Suit
from .match import PLAY, TRUMP
from .players import _beats, _winning, auto_trump, black_joker_gone, suit_in_play
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
    count = sum(1 for c in view.hand if not c.is_joker and c.suit == suit)
    return Hint(suit, "longest_suit", suit, count=count)


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
    """R7: the leader may lead anything (a joker leads trump, V5 joker six)."""
    if card.is_joker or card.suit == view.trump:
        return Hint(card, "draw_trumps", view.trump)
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
    led = view.led_suit
    winner = _winning(view.trick, trump, black_joker_gone(view))
    beats = _beats(card, winner, trump)
    last = len(view.trick) == view.seats - 1
    suit = suit_in_play(card, trump)
    if beats:
        if suit != led:
            return Hint(card, "trump_in", led)
        return Hint(card, "takes_trick" if last or _is_master(view, card) else "beats_so_far")
    if view.is_partner(winner.seat):
        return Hint(card, "partner_wins")
    if suit != led and suit != trump:
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
    """No card of the suit the seat has not seen is higher (of the trumps, a joker neither:
    V5 joker six)."""
    seen = _seen(view)
    if card.is_joker:
        return all(j in seen for j in JOKERS if j.rank > card.rank)
    higher = [Card.of(r, card.suit) for r in range(card.rank + 1, 13)]
    if card.suit == view.trump:
        higher.extend(j for j in JOKERS if j in view.fmt.deck)
    return all(c in seen for c in higher)


def _kept(view: SeatView, card: Card) -> Card | None:
    """The best card of ``card``'s suit the seat keeps by playing ``card``, if it is higher."""
    suit = suit_in_play(card, view.trump)
    higher = [c for c in view.hand if suit_in_play(c, view.trump) == suit and c.rank > card.rank]
    return max(higher, key=lambda c: c.rank) if higher else None
