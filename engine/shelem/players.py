"""Shelem computer players behind one small interface (V6.15).

A player sees a ``ShelemView`` only, never the match, so it cannot cheat. ``GreedyShelemPlayer``
is the rule-based player: the bot's answer for a seat whose time ran out and its ``easy``
level; the searching player (``search``) decides behind the same four methods.

- Bidding (``greedy_bid``): ``hand_estimate`` guesses the points the seat's side would take
  with it as hakem, from its twelve cards (fitted on deals played out by greedy players); it
  bids the lowest bid it may still make while the estimate clears it by ``BID_MARGIN``, else
  passes. It never bids shelem: taking every trick is too rare to promise from twelve cards.
- The kitty (``greedy_discard``): keep the trump it means to name (its best suit of sixteen),
  the aces, the jokers and guarded kings; lay down the rest by how little they would do in
  play, a 10 or a 5 that could be caught first (laid down, its points are safe, V6.6.2) and
  the short side suits next (a void lets it cut).
- The mode (``greedy_mode``): hokm unless the table allows a mode in which its hand holds
  clearly more sure tricks (``mode_strength``).
- Cards: ``fastsim.choose_card``, the point-counting greedy policy.
"""

from __future__ import annotations

import random
from typing import Final, Protocol

from ..cards import CARDS, SUIT_MASKS, Card, any_cards_of, cards_in, mask_of
from .events import ShelemEvent
from .fastsim import best_suit, choose_card
from .match import BID, DISCARD, MODE, POWER, ShelemMatch
from .options import CARD_POINTS, PASS, Mode, ShelemOptions
from .view import ShelemView, seat_view


class ShelemPlayer(Protocol):
    """Anything that can decide for a Shelem seat from what that seat may see."""

    def choose_bid(self, view: ShelemView) -> int:
        """One of ``view.legal_bids`` (0 passes)."""
        ...

    def choose_discard(self, view: ShelemView) -> tuple[Card, ...]:
        """``view.kitty_size`` cards of ``view.hand`` to lay down."""
        ...

    def choose_mode(self, view: ShelemView) -> Mode:
        """One of ``view.modes``."""
        ...

    def choose_card(self, view: ShelemView) -> Card:
        """One of ``view.legal``."""
        ...


# ------------------------------------------------------------------------ hand estimate

#: ``hand_estimate``'s weights for (the constant, aces, 10s, 5s, the best suit's length, its
#: A/K/Q, kings, void suits, jokers), fitted by least squares on deals played out by greedy
#: players with the seat as hakem (``bench/shelem_fit.py``: 20 000 deals at the plain table,
#: residual spread 20.6 points; 10 000 with jokers, 25.7).
EST_WEIGHTS: Final = (77.6, 7.9, 2.4, 0.0, 5.3, 2.5, 3.0, 2.4, 0.0)
EST_WEIGHTS_JOKER: Final = (99.8, 8.3, 1.8, 0.0, 4.8, 1.3, 2.1, 0.7, 20.4)
#: How far above a bid the estimate must be to make it. At an estimate equal to the bid the
#: greedy side made it about 70% of the time (the points are skewed: a strong hand takes
#: many), and a made bid wins what a set loses, so the estimate itself is the limit.
BID_MARGIN: Final = 0.0


def hand_features(hand: int) -> tuple[float, ...]:
    """What ``hand_estimate`` weighs: aces, 10s, 5s, the best suit's length and its top cards
    (A, K, Q), kings, void suits and jokers."""
    cards = cards_in(hand)
    plain = [c for c in cards if c < len(CARDS)]
    trump = best_suit(hand)
    trumps = [c % 13 for c in plain if c // 13 == trump]
    aces = sum(1 for c in plain if c % 13 == 12)
    tens = sum(1 for c in plain if c % 13 == 8)
    fives = sum(1 for c in plain if c % 13 == 3)
    kings = sum(1 for c in plain if c % 13 == 11)
    top = sum(1 for r in (12, 11, 10) if r in trumps)
    voids = sum(1 for s in range(4) if not hand & SUIT_MASKS[s])
    jokers = len(cards) - len(plain)
    return (aces, tens, fives, len(trumps), top, kings, voids, jokers)


def hand_estimate(hand: int, options: ShelemOptions | None = None) -> float:
    """The points the seat's side may expect with it as hakem, from its twelve cards."""
    options = options or ShelemOptions()
    weights = EST_WEIGHTS_JOKER if options.joker else EST_WEIGHTS
    value = weights[0] + sum(w * x for w, x in zip(weights[1:], hand_features(hand), strict=True))
    return min(float(options.hand_total), value)


def greedy_bid(view: ShelemView, margin: float = BID_MARGIN) -> int:
    """The lowest bid it may still make if ``hand_estimate`` clears it by ``margin``, else
    pass; a dealer who must open (V6.4.1) bids the lowest. No shelem, no sar-shelem (V6.5):
    too rare to promise."""
    bids = [b for b in view.legal_bids if PASS < b <= view.options.max_bid]
    if not bids:
        return PASS
    if view.must_open:
        return bids[0]
    estimate = hand_estimate(mask_of(view.hand), view.options)
    return bids[0] if estimate >= bids[0] + margin else PASS


# ------------------------------------------------------------------------ the kitty


def _keep_value(card: int, hand: int, trump: int) -> float:
    """How much a card of the hakem's sixteen is worth keeping (higher: keep)."""
    if card >= len(CARDS):
        return 300.0
    suit, rank = divmod(card, 13)
    if suit == trump:
        return 200.0 + rank
    suit_cards = hand & SUIT_MASKS[suit]
    has_ace = bool(suit_cards >> (suit * 13 + 12) & 1)
    if rank == 12:
        return 150.0
    if rank == 11 and has_ace:
        return 100.0
    length = suit_cards.bit_count()
    return rank + 3.0 * length - 2.0 * CARD_POINTS[card]


def greedy_discard(hand: int, count: int) -> int:
    """The ``count`` cards the greedy hakem lays down, as a mask (V6.6.1)."""
    trump = best_suit(hand)
    cards = sorted(cards_in(hand), key=lambda c: (_keep_value(c, hand, trump), c))
    return mask_of(cards[:count])


# ------------------------------------------------------------------------ the mode


def mode_strength(hand: int, mode: Mode) -> float:
    """Sure tricks, roughly: each suit's unbroken run from its top card in ``mode``'s order,
    and in hokm the best suit's length past four as cuts."""
    power = POWER[mode]
    sure = 0.0
    trump = best_suit(hand)
    for suit in range(4):
        ranks = sorted((power[c] for c in cards_in(hand & SUIT_MASKS[suit])), reverse=True)
        expected = 12
        for p in ranks:
            if p != expected:
                break
            sure += 1
            expected -= 1
    if mode == "hokm":
        sure += max(0, (hand & SUIT_MASKS[trump]).bit_count() - 4)
        sure += (hand >> len(CARDS)).bit_count()
    return sure


def greedy_mode(view: ShelemView) -> Mode:
    """Hokm, unless an allowed mode holds at least two sure tricks more (V6.7)."""
    hand = mask_of(view.hand)
    best: Mode = "hokm"
    score = mode_strength(hand, "hokm") + 2.0
    for mode in view.modes:
        if mode != "hokm" and mode_strength(hand, mode) > score:
            best, score = mode, mode_strength(hand, mode)
    return best


# ------------------------------------------------------------------------ cards


def unseen_mask(view: ShelemView) -> int:
    """The cards this seat does not know the place of: not played, not its own, not laid
    down by it."""
    known = mask_of(view.hand) | mask_of(view.discards)
    for trick in view.tricks:
        known |= mask_of(trick.cards)
    known |= mask_of(c for _, c in view.trick)
    return mask_of(view.options.deck) & ~known


def greedy_card(view: ShelemView) -> Card:
    """``fastsim.choose_card`` from the view."""
    if not view.legal:
        raise ValueError("no legal card: it is not this seat's turn")
    if len(view.legal) == 1:
        return view.legal[0]
    trump = -1 if view.trump is None else int(view.trump)
    assert view.mode is not None
    card = choose_card(
        mask_of(view.hand),
        unseen_mask(view),
        [c for _, c in view.trick],
        view.leader,
        view.seat,
        view.mode,
        trump,
        -1,
        view.team == view.team_of(view.hakem),
    )
    return any_cards_of(1 << card)[0]


class GreedyShelemPlayer:
    """Bids from ``hand_estimate``, lays down with ``greedy_discard``, plays the greedy policy."""

    def choose_bid(self, view: ShelemView) -> int:
        return greedy_bid(view)

    def choose_discard(self, view: ShelemView) -> tuple[Card, ...]:
        return any_cards_of(greedy_discard(mask_of(view.hand), view.kitty_size))

    def choose_mode(self, view: ShelemView) -> Mode:
        return greedy_mode(view)

    def choose_card(self, view: ShelemView) -> Card:
        return greedy_card(view)


class RandomShelemPlayer:
    """Uniformly random legal choices (passing half the time); a baseline and a fuzzer."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose_bid(self, view: ShelemView) -> int:
        if self._rng.random() < 0.5 and not view.must_open:  # V6.4.1
            return PASS
        return self._rng.choice(view.legal_bids)

    def choose_discard(self, view: ShelemView) -> tuple[Card, ...]:
        return tuple(self._rng.sample(view.hand, view.kitty_size))

    def choose_mode(self, view: ShelemView) -> Mode:
        return self._rng.choice(view.modes)

    def choose_card(self, view: ShelemView) -> Card:
        return self._rng.choice(view.legal)


def auto_bid(view: ShelemView) -> int:
    """V6.15: a bid not made in time is a pass; a dealer who must open (V6.4.1) bids the
    lowest bid instead."""
    if not view.can_bid:
        raise ValueError("this seat is not bidding")
    return view.legal_bids[0] if view.must_open else PASS


def act(match: ShelemMatch, player: ShelemPlayer) -> tuple[ShelemEvent, ...]:
    """Let ``player`` make the decision the match waits for (its seat's), through the match's
    own checked methods: a player's mistake is an ``IllegalMove``, as a person's would be."""
    seat = match.to_act
    view = seat_view(match, seat)
    if match.phase == BID:
        return match.bid(seat, player.choose_bid(view))
    if match.phase == DISCARD:
        return match.discard(seat, player.choose_discard(view))
    if match.phase == MODE:
        return match.choose_mode(seat, player.choose_mode(view))
    return match.play(seat, player.choose_card(view))
