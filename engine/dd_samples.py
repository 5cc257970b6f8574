"""Random double-dummy positions for the exactness checks and the bench.

Seeded (``random.Random``), so a failing check names a position anyone can rebuild. An *end
position* is a few cards a seat late in a hand, counts and all consistent with the format (the
hand not over), possibly part way through a trick played legally; a *deal* is a whole hand at
its first lead.
"""

from __future__ import annotations

import random

from .dd_position import Position
from .dd_rules import legal_cards
from .rules import GameFormat


def random_deal(rng: random.Random, fmt: GameFormat) -> Position:
    """A uniformly random deal of ``fmt`` at its first lead: random trump, hakem (and bid)."""
    deck = list(fmt.deck)
    rng.shuffle(deck)
    size = fmt.hand_size
    hands = tuple(_mask(deck[s * size : (s + 1) * size]) for s in range(fmt.seats))
    bid = rng.choice(fmt.bids) if fmt.bids else 0
    return Position.deal(fmt, rng.randrange(4), hands, rng.randrange(fmt.seats), bid)


def random_end(rng: random.Random, fmt: GameFormat, most: int = 4) -> Position:
    """A random position with 1 to ``most`` cards a seat at the start of its trick, some of
    that trick played (random legal cards), tricks split so that the hand is not over."""
    n = rng.randint(1, min(most, fmt.hand_size))
    played = fmt.hand_size - n
    if fmt.bids:
        low, high = 0, played
    else:
        cap = fmt.tricks_to_win - 1
        low, high = max(0, played - cap), min(played, cap)
    t0 = rng.randint(low, high)
    t1 = played - t0
    first = rng.randrange(2) if t0 == t1 > 0 else -1
    deck = list(fmt.deck)
    rng.shuffle(deck)
    hands = [_mask(deck[s * n : (s + 1) * n]) for s in range(fmt.seats)]
    trump = rng.randrange(4)
    leader = rng.randrange(fmt.seats)
    trick: list[int] = []
    for k in range(rng.randrange(fmt.seats)):
        seat = (leader + k) % fmt.seats
        card = rng.choice(legal_cards(hands[seat], trick, trump))
        hands[seat] ^= 1 << card
        trick.append(card)
    bid = rng.choice(fmt.bids) if fmt.bids else 0
    return Position(
        fmt,
        trump,
        tuple(hands),
        leader,
        (t0, t1),
        rng.randrange(fmt.seats),
        tuple(trick),
        bid,
        first,
    )


def _mask(cards: list[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask
