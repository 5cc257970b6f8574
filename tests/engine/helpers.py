"""Hand-built deals for rule tests, made through the engine's own (validated) deserializer."""

from __future__ import annotations

from engine import Match, Rules, Suit, parse_cards


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
