"""Computer players behind one small interface.

A player sees a ``SeatView`` only, never the match, so it cannot cheat. ``GreedyPlayer`` is the
rule-based player the bot uses for turn time-outs (R14) and empty seats (R15); ``SearchPlayer``
(``search``) searches behind the same methods. Every format is played from its ``GameFormat``
(seats, teams, deck): nothing here counts on four seats or 52 cards. ``VariantPlayer`` adds
the decisions some formats ask for: V2's discards and draws, V1's bam.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Protocol

from .cards import Card, Suit
from .defaults import auto_discard, auto_draw
from .view import SeatView


class Player(Protocol):
    """Anything that can decide for a seat from what that seat may see."""

    def choose_trump(self, view: SeatView) -> Suit: ...

    def choose_card(self, view: SeatView) -> Card: ...


class VariantPlayer(Player, Protocol):
    """A player for the formats with more decisions than trump and cards (V1, V2)."""

    def choose_discard(self, view: SeatView) -> Card:
        """V2: the card to lay face down (``view.can_discard``)."""
        ...

    def choose_draw(self, view: SeatView) -> bool:
        """V2: keep the stock's top card ``view.drawn`` (and lay the next down), or not."""
        ...

    def choose_bam(self, view: SeatView) -> bool:
        """V1: play on for every trick (``view.can_bam``), or stop."""
        ...


def auto_trump(cards: Iterable[Card]) -> Suit:
    """R14: the suit with most cards among the five, ties broken by high cards."""
    by_suit: dict[Suit, list[int]] = {suit: [] for suit in Suit}
    for card in cards:
        by_suit[card.suit].append(card.rank)
    return max(Suit, key=lambda s: (len(by_suit[s]), sorted(by_suit[s], reverse=True), -s))


class RandomPlayer:
    """Uniformly random legal choices; a baseline and a fuzzer."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose_trump(self, view: SeatView) -> Suit:
        return self._rng.choice(tuple(Suit))

    def choose_card(self, view: SeatView) -> Card:
        return self._rng.choice(view.legal)

    def choose_discard(self, view: SeatView) -> Card:
        return self._rng.choice(view.hand)

    def choose_draw(self, view: SeatView) -> bool:
        return self._rng.random() < 0.5

    def choose_bam(self, view: SeatView) -> bool:
        return self._rng.random() < 0.5


class GreedyPlayer:
    """Plays each trick on its own merits, as a careful beginner would.

    Win a trick as cheaply as possible when it can, don't overtake a partner who is already
    winning, otherwise throw the lowest card; trump in when void and it wins.
    """

    def choose_trump(self, view: SeatView) -> Suit:
        return auto_trump(view.hand)

    def choose_discard(self, view: SeatView) -> Card:
        return auto_discard(view)

    def choose_draw(self, view: SeatView) -> bool:
        return auto_draw(view)

    def choose_bam(self, view: SeatView) -> bool:
        return greedy_bam(view)

    def choose_card(self, view: SeatView) -> Card:
        forced = forced_card(view)
        if forced is not None:
            return forced
        legal = view.legal
        if not view.trick:
            return self._lead(view, legal)
        return self._follow(view, legal)

    def _lead(self, view: SeatView, legal: Sequence[Card]) -> Card:
        played = {c for t in view.tricks for c in t.cards}
        played.update(view.discards)  # V2: cards it laid down are out of play too
        masters = [c for c in legal if c.suit != view.trump and _is_master(c, legal, played)]
        if masters:
            return max(masters, key=lambda c: c.rank)
        return _lowest(legal, view.trump)

    def _follow(self, view: SeatView, legal: Sequence[Card]) -> Card:
        trump = view.trump
        led = view.trick[0][1].suit
        win_seat, win_card = _winning(view.trick, trump)
        if view.is_partner(win_seat):
            return _lowest(legal, trump)
        beating = [c for c in legal if _beats(c, win_card, led, trump)]
        if beating:
            return min(beating, key=lambda c: (c.suit == trump, c.rank))
        return _lowest(legal, trump)


def greedy_bam(view: SeatView) -> bool:
    """V1: always play on. A failed bam scores the kot the side had anyway (docs/rules.md), so
    playing on can only gain: the match, if every trick falls to the side. (``auto_bam``, the
    server's answer for a seat that let its time run out, stops: a bam is insisted on.)"""
    return True


def forced_card(view: SeatView) -> Card | None:
    """The card that needs no thought (the only legal one), else None; a view without legal
    cards is a caller's mistake: it is not this seat's turn."""
    legal = view.legal
    if not legal:
        raise ValueError("no legal card: it is not this seat's turn")
    return legal[0] if len(legal) == 1 else None


def _winning(trick: Sequence[tuple[int, Card]], trump: Suit | None) -> tuple[int, Card]:
    """R9 applied to a partial trick: the seat and card winning so far."""
    led = trick[0][1].suit
    best_seat, best = trick[0]
    for seat, card in trick[1:]:
        if _beats(card, best, led, trump):
            best_seat, best = seat, card
    return best_seat, best


def _beats(card: Card, best: Card, led: Suit, trump: Suit | None) -> bool:
    if card.suit == best.suit:
        return card.rank > best.rank
    return card.suit == trump


def _lowest(cards: Sequence[Card], trump: Suit | None) -> Card:
    """The cheapest card to give away: lowest rank, keeping trumps."""
    return min(cards, key=lambda c: (c.suit == trump, c.rank))


def _is_master(card: Card, hand: Sequence[Card], played: set[Card]) -> bool:
    """No unseen card of the suit is higher."""
    for rank in range(card.rank + 1, 13):
        higher = Card.of(rank, card.suit)
        if higher not in played and higher not in hand:
            return False
    return True
