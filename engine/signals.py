"""The computer partners' signal: which small card a searching player follows suit with.

A searching seat that follows suit with a card that cannot take the trick (it is below the
card winning it, or the trick is trumped) has a free choice among its losing cards of that
suit, which costs little either way. Its partners cannot see its hand, and what they miss
most is its masters (``docs/experiments/six-pairs-partner.md``: shown the partner's aces and kings, ``six_pairs``
goes from 0.690 to 0.830). So the choice carries one bit, like a bridge player's signal:

- the **second lowest** of its losing cards of the suit led: it holds a master (the highest
  card still unplayed) of a side suit other than the one led, trumps left out;
- the **lowest**: it holds none.

A seat that plays it exactly is read exactly (``PlayModel``'s ``signal_seats``): a deal that
would have made it play another card is all but ruled out.

An experiment, off at every level (``SearchSettings.signals``): measured with
``bench/arena.py --a hard:signals=1`` (partners of the same spec read each other), it did not
move ``six_pairs`` (``docs/experiments/partner-signals.md``), so the bot's computers neither play nor read it.
"""

from __future__ import annotations

from collections.abc import Sequence

from .fastsim import ABOVE, RM_SUIT, trick_winner


def losing_follows(hand: int, led: int, win: int, trump: int) -> int:
    """The cards of ``hand`` (rank-major) in suit ``led`` that would not beat ``win``, the
    card winning the trick so far (itself a card of the suit led, or a trump)."""
    follow = hand & RM_SUIT[led]
    if win & 3 == led:
        return follow & ~ABOVE[win]
    return follow if win & 3 == trump else 0


def side_masters(rest: int, led: int, trump: int) -> int:
    """The highest unplayed card of each suit other than ``led`` and ``trump`` (``rest``:
    every card not yet played, hands included)."""
    out = 0
    for suit in range(4):
        if suit != led and suit != trump:
            cards = rest & RM_SUIT[suit]
            if cards:
                out |= 1 << (cards.bit_length() - 1)
    return out


def signal_card(hand: int, led: int, win: int, trump: int, rest: int) -> int:
    """The losing card of suit ``led`` the signal plays from ``hand`` (its cards at that
    moment), or -1 when it holds fewer than two and there is nothing to choose."""
    losing = losing_follows(hand, led, win, trump)
    low = losing & -losing
    others = losing ^ low
    if not others:
        return -1
    if hand & side_masters(rest, led, trump):
        return (others & -others).bit_length() - 1
    return low.bit_length() - 1


def winning_card(leader: int, cards: Sequence[int], trump: int, seats: int) -> int:
    """The card winning a partial trick of rank-major ``cards`` led by ``leader`` (R9, as
    ``trick_winner`` finds its seat)."""
    return cards[(trick_winner(leader, cards, trump, seats) - leader) % seats]
