"""Computer players behind one small interface.

A player sees a ``SeatView`` only, never the match, so it cannot cheat. ``GreedyPlayer`` is the
rule-based player the bot uses for turn time-outs (R14) and empty seats (R15); ``SearchPlayer``
(``search``) searches behind the same methods. Every format is played from its ``GameFormat``
(seats, teams, deck): nothing here counts on four seats or 52 cards. ``VariantPlayer`` adds
the decisions some formats ask for: V2's discards and draws, V1's bam, V5's bids.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Final, NamedTuple, Protocol

from .cards import BLACK_JOKER, RED_JOKER, Card, Suit
from .defaults import auto_discard, auto_draw
from .view import SeatView


class Player(Protocol):
    """Anything that can decide for a seat from what that seat may see."""

    def choose_trump(self, view: SeatView) -> Suit: ...

    def choose_card(self, view: SeatView) -> Card: ...


class VariantPlayer(Player, Protocol):
    """A player for the formats with more decisions than trump and cards (V1, V2, V5)."""

    def choose_discard(self, view: SeatView) -> Card:
        """V2: the card to lay face down (``view.can_discard``)."""
        ...

    def choose_draw(self, view: SeatView) -> bool:
        """V2: keep the stock's top card ``view.drawn`` (and lay the next down), or not."""
        ...

    def choose_bam(self, view: SeatView) -> bool:
        """V1: play on for every trick (``view.can_bam``), or stop."""
        ...

    def choose_bid(self, view: SeatView) -> int:
        """V5 joker six: tricks to bid for hakem, one of ``view.legal_bids`` (0 passes)."""
        ...


def auto_trump(cards: Iterable[Card]) -> Suit:
    """R14: the suit with most cards among the five, ties broken by high cards. A joker
    (V5 joker six) is a trump whatever the suit named, so it does not count for any."""
    by_suit: dict[Suit, list[int]] = {suit: [] for suit in Suit}
    for card in cards:
        if not card.is_joker:
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

    def choose_bid(self, view: SeatView) -> int:
        """V5 joker six: pass or any higher bid, all equally likely."""
        return self._rng.choice(view.legal_bids)


class GreedyPlayer:
    """Plays each trick on its own merits, as a careful beginner would.

    Win a trick as cheaply as possible when it can, don't overtake a partner who is already
    winning, otherwise throw the lowest card; trump in when void and it wins. V5 joker six:
    a joker is a trump above the ace (the red above the black, but burnt while the black is
    out), kept for last like the other trumps; bids follow ``greedy_bid``.
    """

    def choose_trump(self, view: SeatView) -> Suit:
        return auto_trump(view.hand)

    def choose_discard(self, view: SeatView) -> Card:
        return auto_discard(view)

    def choose_draw(self, view: SeatView) -> bool:
        return auto_draw(view)

    def choose_bam(self, view: SeatView) -> bool:
        return greedy_bam(view)

    def choose_bid(self, view: SeatView) -> int:
        return greedy_bid(view)

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
        trump = view.trump
        masters = [
            c for c in legal if not c.is_joker and c.suit != trump and _is_master(c, legal, played)
        ]
        if masters:
            return max(masters, key=lambda c: c.rank)
        return _lowest(legal, trump)

    def _follow(self, view: SeatView, legal: Sequence[Card]) -> Card:
        trump = view.trump
        winner = _winning(view.trick, trump, black_joker_gone(view))
        if view.is_partner(winner.seat):
            return _lowest(legal, trump)
        beating = [c for c in legal if _beats(c, winner, trump)]
        if beating:
            return min(beating, key=lambda c: (_is_trump(c, trump), c.rank))
        return _lowest(legal, trump)


def greedy_bam(view: SeatView) -> bool:
    """V1: always play on. A failed bam scores the kot the side had anyway (docs/rules.md), so
    playing on can only gain: the match, if every trick falls to the side. (``auto_bam``, the
    server's answer for a seat that let its time run out, stops: a bam is insisted on.)"""
    return True


#: ``bid_estimate``: the tricks of a hakem's team of three against ``hand_tricks`` of the
#: hakem's nine, fitted on 3000 deals played out by ``GreedyPlayer``s (the bidder made hakem,
#: trump by ``auto_trump``): 3.85 + 0.51 per trick counted, residual spread 1.47 tricks.
TEAM_BASE: Final = 3.85
OWN_WEIGHT: Final = 0.51
#: Above the bid the estimate must be: bid b when the team takes b or more about 65% of the
#: time. A set costs the others' 10-18 points where a made bid earns its 5-9, so a bid pays
#: from about that chance (the measured rate at the estimate's 5.4: 72%; at 4.9: 60%).
BID_MARGIN: Final = 0.1


def hand_tricks(hand: Sequence[Card]) -> float:
    """V5 joker six: the tricks a hand of nine may take as hakem, trump being its longest suit
    (``auto_trump``): each joker (the red only half, unless the black is in the hand too: it
    is burnt while the black is out), the ace of trump and the king with a guard, every trump
    past the third, and a side ace or a guarded side king (a seat of six holds about two
    cards of each suit, so a side king rarely lives)."""
    jokers = {c for c in hand if c.is_joker}
    tricks = float(len(jokers))
    if len(jokers) == 1 and RED_JOKER in jokers:
        tricks -= 0.5
    trump = auto_trump(hand)
    trumps = sorted((c.rank for c in hand if not c.is_joker and c.suit == trump), reverse=True)
    length = len(trumps)
    for rank, needs, worth in ((12, 1, 1.0), (11, 2, 0.7), (10, 3, 0.4)):
        if rank in trumps and length >= needs:
            tricks += worth
    tricks += max(0, length + len(jokers) - 3) * 0.8
    for suit in Suit:
        if suit == trump:
            continue
        ranks = {c.rank for c in hand if not c.is_joker and c.suit == suit}
        if 12 in ranks:
            tricks += 0.8
        if 11 in ranks and len(ranks) >= 2:
            tricks += 0.3
    return tricks


def bid_estimate(hand: Sequence[Card]) -> float:
    """V5 joker six: the tricks the seat's team may take with it as hakem, of nine
    (``TEAM_BASE`` and ``OWN_WEIGHT``: measured)."""
    return min(9.0, TEAM_BASE + OWN_WEIGHT * hand_tricks(hand))


def greedy_bid(view: SeatView) -> int:
    """V5 joker six: the lowest bid it may still make, if ``bid_estimate`` is at least
    ``BID_MARGIN`` above it (the points are the tricks taken, not the bid, so bidding higher
    than needed only risks a set). Else pass (0)."""
    bids = view.legal_bids
    if len(bids) == 1:
        return 0
    lowest = bids[1]
    if bid_estimate(view.hand) >= lowest + BID_MARGIN:
        return lowest
    return 0


def forced_card(view: SeatView) -> Card | None:
    """The card that needs no thought (the only legal one), else None; a view without legal
    cards is a caller's mistake: it is not this seat's turn."""
    legal = view.legal
    if not legal:
        raise ValueError("no legal card: it is not this seat's turn")
    return legal[0] if len(legal) == 1 else None


def suit_in_play(card: Card, trump: Suit | None) -> Suit | None:
    """A card's suit for R8 and R9: a joker is a trump (V5 joker six, docs/rules.md)."""
    return trump if card.is_joker else card.suit


def _is_trump(card: Card, trump: Suit | None) -> bool:
    return card.is_joker or card.suit == trump


def black_joker_gone(view: SeatView) -> bool:
    """V5 joker six: the black joker was played in an earlier trick of this hand (the red one
    counts from then on)."""
    return any(BLACK_JOKER in t.cards for t in view.tricks)


def _power(card: Card, black_gone: bool) -> int:
    """A card's worth within its suit: its rank (a joker's is 13 or 14, above the ace); a red
    joker played while the black is still out is burnt, below the 2 (V5 joker six)."""
    if card == RED_JOKER and not black_gone:
        return -1
    return card.rank


class Winner(NamedTuple):
    """The card winning a (partial) trick so far, and what it counts for (R9)."""

    seat: int
    card: Card
    suit: Suit | None
    power: int
    black_gone: bool
    """The black joker has been played, in this trick or before (a red played now counts)."""


def _winning(
    trick: Sequence[tuple[int, Card]], trump: Suit | None, black_gone: bool = False
) -> Winner:
    """R9 applied to a partial trick: the seat and card winning so far; ``black_gone``: the
    black joker was played in an earlier trick (V5 joker six)."""
    best: Winner | None = None
    for seat, card in trick:
        power = _power(card, black_gone)
        if card == BLACK_JOKER:
            black_gone = True
        suit = suit_in_play(card, trump)
        if best is None or (power > best.power if suit == best.suit else suit == trump):
            best = Winner(seat, card, suit, power, black_gone)
        else:
            best = best._replace(black_gone=black_gone)
    if best is None:
        raise ValueError("an empty trick has no winner")
    return best


def _beats(card: Card, winner: Winner, trump: Suit | None) -> bool:
    """``card`` played now would win the trick that ``winner`` wins so far (R9)."""
    suit = suit_in_play(card, trump)
    if suit == winner.suit:
        return _power(card, winner.black_gone) > winner.power
    return suit == trump


def _lowest(cards: Sequence[Card], trump: Suit | None) -> Card:
    """The cheapest card to give away: lowest rank, keeping trumps (and the jokers above)."""
    return min(cards, key=lambda c: (_is_trump(c, trump), c.rank))


def _is_master(card: Card, hand: Sequence[Card], played: set[Card]) -> bool:
    """No unseen card of the suit is higher."""
    for rank in range(card.rank + 1, 13):
        higher = Card.of(rank, card.suit)
        if higher not in played and higher not in hand:
            return False
    return True
