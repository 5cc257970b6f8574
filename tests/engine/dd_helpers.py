"""Positions for the double-dummy tests: played hands through the engine, and
seeded positions late in a hand."""

from __future__ import annotations

import random

from engine import BID, DISCARD, DRAW, PLAY, TRUMP, HandResult, Match, RandomPlayer, seat_view
from engine.dd_position import Position
from engine.rules import GameFormat


def played_hand(fmt: GameFormat, seed: int) -> tuple[Match, list[Position], list[int], HandResult]:
    """The first hand of a match of ``fmt`` with random legal choices (bids, trump, cards)
    through ``Match``: the match (left after the hand), the position before every card, the
    cards, and the engine's own result."""
    rng = random.Random(seed)
    chooser = RandomPlayer(seed)
    match = Match(seed, None, fmt)
    while match.phase in (BID, TRUMP, DISCARD, DRAW):
        seat = match.to_act
        view = seat_view(match, seat)
        if match.phase == BID:  # a bid, never all pass: a hand to play
            match.bid(seat, rng.choice(view.legal_bids[1:] or (0,)))
        elif match.phase == TRUMP:
            match.choose_trump(seat, rng.randrange(4))
        elif match.phase == DISCARD:  # V2: the discards and draws, at random
            match.discard(seat, chooser.choose_discard(view))
        else:
            match.draw(seat, chooser.choose_draw(view))
    assert match.phase == PLAY
    positions: list[Position] = []
    cards: list[int] = []
    while True:
        positions.append(Position.from_match(match))
        seat = match.turn
        card = rng.choice(match.legal_cards(seat))
        cards.append(int(card))
        for event in match.play(seat, card):
            if isinstance(event, HandResult):
                return match, positions, cards, event


def late_deal(rng: random.Random, fmt: GameFormat, cards: int) -> Position:
    """A random position at a trick's start with ``cards`` cards a seat, the tricks before
    it split as evenly as they go (the closest races), random trump, leader and hakem."""
    deck = list(fmt.deck)
    rng.shuffle(deck)
    hands = []
    for s in range(fmt.seats):
        mask = 0
        for c in deck[s * cards : (s + 1) * cards]:
            mask |= 1 << c
        hands.append(mask)
    played = fmt.hand_size - cards
    t0 = played // 2
    t1 = played - t0
    return Position(
        fmt,
        rng.randrange(4),
        tuple(hands),
        rng.randrange(fmt.seats),
        (t0, t1),
        rng.randrange(fmt.seats),
        bid=rng.choice(fmt.bids) if fmt.bids else 0,
        first=rng.randrange(2) if t0 == t1 > 0 else -1,
    )
