"""Hand-built Shelem deals for rule tests, made through the engine's own (validated)
deserializer, a random mover for the properties, and the worst case's mover (V6.4.1,
V6.14.1: the most a match can record)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from engine import parse_cards
from engine.shelem import (
    BID,
    DISCARD,
    MODE,
    PASS,
    PLAY,
    ShelemMatch,
    ShelemOptions,
    card_points,
)
from engine.shelem.match import POWER

#: One suit a seat (3 up to the ace), the 2s in the kitty: whoever leads first wins every
#: trick by leading his own suit (nobody else can follow it, so nobody can cut it either).
ONE_SUIT = [
    "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S",
    "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D",
    "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H",
    "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C",
]
ONE_SUIT_KITTY = "2S 2H 2D 2C"


def rigged(
    hands: Sequence[str],
    kitty: str,
    *,
    dealer: int = 3,
    scores: tuple[int, int] = (0, 0),
    options: ShelemOptions | None = None,
) -> ShelemMatch:
    """A match in the bidding of a deal of ``hands`` (12 cards a seat) and ``kitty``, dealt by
    ``dealer`` (so seat ``dealer + 1`` bids first), with ``scores`` before the hand."""
    data = ShelemMatch(1, options).to_dict()
    cards = [parse_cards(h) for h in hands]
    assert [len(c) for c in cards] == [12] * 4
    data.update(
        hands=[[c.code for c in h] for h in cards],
        kitty=[c.code for c in parse_cards(kitty)],
        dealer=dealer,
        decider=(dealer + 1) % 4,
        scores=list(scores),
        actions=[],
    )
    return ShelemMatch.from_dict(data)


def auction(m: ShelemMatch, *values: int) -> None:
    """The next bids, in turn, from whoever is to speak."""
    for value in values:
        m.bid(m.to_act, value)


def random_move(m: ShelemMatch, rng: random.Random, pass_rate: float = 0.6) -> tuple[object, ...]:
    """One random legal decision for the seat to act; returns its events."""
    seat = m.to_act
    if m.phase == BID:
        bids = m.legal_bids(seat)
        passes = rng.random() < pass_rate and not m.must_open  # V6.4.1: the dealer opens
        return m.bid(seat, 0 if passes else rng.choice(bids))
    if m.phase == DISCARD:
        return m.discard(seat, rng.sample(m.hand_of(seat), m.kitty_size))
    if m.phase == MODE:
        return m.choose_mode(seat, rng.choice(m.options.modes))
    assert m.phase == PLAY
    return m.play(seat, rng.choice(m.legal_cards(seat)))


#: Seat 0 strong (six spades to the ace, three more aces), seat 1 weak, for the players.
PLAYER_HANDS = [
    "AS KS QS JS 10S 9S AH AD AC KH 5S 4S",
    "2S 3S 6S 2H 3H 4H 2D 3D 4D 2C 3C 4C",
    "7S 8S 5H 6H 7H 8H 9H 10H JH QH 5D 6D",
    "7D 8D 9D 10D JD QD KD 5C 6C 7C 8C 9C",
]
MIXED_KITTY_FOR_PLAYERS = "10C JC QC KC"


def finished(seed: int, options: ShelemOptions) -> ShelemMatch:
    """A whole match of random legal moves (bids, kitty, modes, cards), seeded."""
    match = ShelemMatch(seed, options)
    rng = random.Random(seed)
    while not match.is_over:
        random_move(match, rng)
    return match


def _strength(m: ShelemMatch, card: int) -> tuple[bool, int]:
    trump = -1 if m.trump is None else int(m.trump)
    assert m.mode is not None
    return (card >= 52 or card // 13 == trump, POWER[m.mode][card])


def worst_case_move(m: ShelemMatch, longest: bool) -> None:
    """Every seat passes while it may (V6.4: three deals a hand passed out); on the final deal
    either the first three pass and the dealer opens at the lowest bid (``longest`` False),
    or each seat in turn bids the lowest it may, up to shelem and sar-shelem (the longest
    auction); the hakem's side then plays to lose, so that no side reaches the target."""
    seat = m.to_act
    if m.phase == BID:
        legal = m.legal_bids(seat)
        if PASS in legal and (not m.final_deal or not longest):
            m.bid(seat, PASS)
        else:
            m.bid(seat, next(b for b in legal if b != PASS))
    elif m.phase == DISCARD:
        m.discard(seat, sorted(m.hand_of(seat), key=lambda c: (card_points(c), c))[: m.kitty_size])
    elif m.phase == MODE:
        m.choose_mode(seat, "hokm")
    else:
        pick: Callable[..., int] = min if seat % 2 == m.hakem % 2 else max
        m.play(seat, pick(m.legal_cards(seat), key=lambda c: _strength(m, c)))
