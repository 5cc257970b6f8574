"""Hand-built deals for rule tests, made through the engine's own (validated) deserializer."""

from __future__ import annotations

import json
import random

from engine import (
    Event,
    GameFormat,
    GreedyPlayer,
    HandResult,
    Match,
    Rules,
    Suit,
    Trick,
    parse_cards,
    seat_view,
)
from engine.match import BAM, BID, DISCARD, DRAW, TRUMP


def rigged_match(
    hakem: int,
    hands: list[str],
    *,
    scores: tuple[int, int] = (0, 0),
    rules: Rules | None = None,
    trump: Suit | None = None,
) -> Match:
    """A match whose current deal is ``hands`` (13 cards a seat, the hakem's first five first).

    With ``trump`` the hakem names it at once, so the match is ready for the first lead.
    """
    base = Match(1, rules)
    data = base.to_dict()
    cards = [parse_cards(h) for h in hands]
    assert all(len(c) == 13 for c in cards), [len(c) for c in cards]
    assert len({c for h in cards for c in h}) == 52
    five = cards[hakem][:5]
    data["hakem"] = hakem
    data["hands"] = [[c.code for c in five] if s == hakem else [] for s in range(4)]
    data["rest"] = [[c.code for c in (cards[s][5:] if s == hakem else cards[s])] for s in range(4)]
    data["scores"] = list(scores)
    data["leader"] = hakem
    data["actions"] = []
    match = Match.from_dict(data)
    if trump is not None:
        match.choose_trump(hakem, trump)
    return match


def suit_hands() -> list[str]:
    """Seat 0 all spades, 1 all hearts, 2 all diamonds, 3 all clubs."""
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    return [" ".join(r + s for r in reversed(ranks)) for s in "SHDC"]


def spade_lead_hands() -> list[str]:
    """Seat 0 holds the A♠ and hearts, seat 1 spades and low diamonds, seat 2 K♠ Q♠ and
    diamonds, seat 3 clubs, 2♥ and A♥ but no spade: with clubs trump, seat 3 cuts a spade lead."""
    return [
        "AS 2S 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
        "3S 4S 5S 6S 7S 8S 9S 10S JS 2D 3D 4D 5D",
        "KS QS 6D 7D 8D 9D 10D JD QD KD AD 2C 3C",
        "4C 5C 6C 7C 8C 9C 10C JC QC KC AC 2H AH",
    ]


def rigged_format_match(
    fmt: GameFormat,
    hakem: int,
    hands: list[str],
    *,
    scores: tuple[int, ...] | None = None,
    rules: Rules | None = None,
    trump: Suit | None = None,
) -> Match:
    """``rigged_match`` for any format without a draw (V3–V5): ``hands`` are whole hands, the
    hakem's first packet first."""
    data = Match(1, rules, fmt).to_dict()
    cards = [parse_cards(h) for h in hands]
    assert all(len(c) == fmt.hand_size for c in cards), [len(c) for c in cards]
    assert sorted(c for h in cards for c in h) == sorted(fmt.deck)
    first = cards[hakem][: fmt.first_deal]
    data["hakem"] = hakem
    data["hands"] = [[c.code for c in first] if s == hakem else [] for s in range(fmt.seats)]
    data["rest"] = [
        [c.code for c in (cards[s][fmt.first_deal :] if s == hakem else cards[s])]
        for s in range(fmt.seats)
    ]
    data["scores"] = list(scores or (0,) * len(fmt.teams))
    data["leader"] = hakem
    data["actions"] = []
    match = Match.from_dict(data)
    if trump is not None:
        match.choose_trump(hakem, trump)
    return match


def random_move(match: Match, rng: random.Random) -> tuple[Event, ...]:
    """One uniformly random legal decision for the seat to act, in any phase."""
    seat = match.to_act
    if match.phase == TRUMP:
        return match.choose_trump(seat, rng.choice(list(Suit)))
    if match.phase == DISCARD:
        return match.discard(seat, rng.choice(match.hand_of(seat)))
    if match.phase == DRAW:
        return match.draw(seat, rng.random() < 0.5)
    if match.phase == BAM:
        return match.declare_bam(seat, rng.random() < 0.5)
    if match.phase == BID:  # pass, or a random bid above the highest
        higher = [b for b in match.fmt.bids if b > max(getattr(match, "bids", (0,)))]
        return match.bid(seat, rng.choice([0, 0, *higher]) if higher else 0)
    return match.play(seat, rng.choice(match.legal_cards(seat)))


def greedy_hand_out(m: Match) -> tuple[list[Trick], HandResult]:
    """Play the hand in progress to its end with ``GreedyPlayer`` at every seat: its tricks
    and its result (what a rollout of the same position must reproduce)."""
    greedy = GreedyPlayer()
    seen: list[Trick] = []
    final: HandResult | None = None
    while final is None:
        for event in m.play(m.turn, greedy.choose_card(seat_view(m, m.turn))):
            if isinstance(event, Trick):
                seen.append(event)
            elif isinstance(event, HandResult) and final is None:
                final = event
    return seen, final


def through_json(data: dict[str, object]) -> dict[str, object]:
    """As the store keeps it: compact JSON text, read back."""
    loaded: dict[str, object] = json.loads(json.dumps(data, separators=(",", ":")))
    return loaded
