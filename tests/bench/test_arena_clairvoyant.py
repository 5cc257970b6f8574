"""The arena's double-dummy ceiling: ``clairvoyant`` sees every hand and plays a
card the exact solver says keeps its side's best outcome; ``--dd-share`` counts how often
another player's cards did."""

from __future__ import annotations

from bench import arena
from engine import PLAY, GreedyPlayer, Match, seat_view
from engine.dd import Solver
from engine.dd_position import Position
from engine.dd_value import Outcome


def late_match(seed: int, cards_left: int = 5) -> Match:
    """A standard match's first hand played by greedy players until ``cards_left`` a seat."""
    match = Match(seed)
    greedy = GreedyPlayer()
    match.choose_trump(match.hakem, greedy.choose_trump(seat_view(match, match.hakem)))
    while match.phase == PLAY and len(match.hand_of(match.turn)) > cards_left:
        seat = match.turn
        match.play(seat, greedy.choose_card(seat_view(match, seat)))
    return match


def best_for(match: Match) -> tuple[dict[int, Outcome], set[int]]:
    p = Position.from_match(match)
    values = Solver(p.fmt, p.trump, native=False).card_values(p)
    side = match.fmt.team_of[match.turn]
    top = max(out.score_for(side) for out in values.values())
    return values, {c for c, out in values.items() if out.score_for(side) == top}


def test_make_knows_the_clairvoyant() -> None:
    assert isinstance(arena.make("clairvoyant", 0), arena.Clairvoyant)
    assert "clairvoyant" in arena.NAMES


def test_the_clairvoyant_plays_a_best_card() -> None:
    for seed in range(6):
        match = late_match(seed)
        player = arena.Clairvoyant()
        player.match = match
        seat = match.turn
        card = player.choose_card(seat_view(match, seat))
        _, best = best_for(match)
        assert int(card) in best
        assert card in match.legal_cards(seat)


def test_best_share_counts_the_cards_that_kept_the_best() -> None:
    judged = 0
    for seed in range(10):
        match = late_match(seed)
        values, best = best_for(match)
        if len(set(values.values())) < 2:
            continue  # every card leads to one outcome: not a decision that mattered
        worse = next(c for c in values if c not in best)
        share = arena.BestShare()
        share.judge(match, match.turn, min(best))
        share.judge(match, match.turn, worse)
        assert (share.best, share.total) == (1, 2)
        judged += 1
    assert judged
