"""The value the double-dummy solver returns: the hand's outcome as R10, R11 and
the joker six's bid score it, its order, and the ladder of races that finds it."""

from __future__ import annotations

from itertools import pairwise

import pytest

from engine.dd_position import COVERED, Position
from engine.dd_rules import legal_cards, step, trick_winner
from engine.dd_value import Outcome, final, ladder
from engine.rules import FORMATS, SIX_TEAMS, STANDARD

from .dd_helpers import played_hand


@pytest.mark.parametrize("name", COVERED)
@pytest.mark.parametrize("seed", range(12))
def test_outcome_is_the_engines_hand_result(name: str, seed: int) -> None:
    """A random hand played through ``Match``: ``dd_rules.step`` follows it card by card (the
    same legal cards, the same trick winners) and ends in the outcome ``Match`` scored."""
    _, positions, cards, result = played_hand(FORMATS[name], seed)
    at: Position | Outcome = positions[0]
    for k, (p, card) in enumerate(zip(positions, cards, strict=True)):
        assert at == p
        hand = p.hands[p.to_play]
        assert card in legal_cards(hand, p.trick, p.trump)
        at = step(p, card)
        if k + 1 < len(positions):
            assert isinstance(at, Position)
    assert isinstance(at, Outcome)
    assert at.tricks == result.tricks
    assert at.winner == result.winner_team
    assert at.points == result.points
    assert at.kind == result.kind


def test_r11_kot_and_hakem_kot_points() -> None:
    """7–0 for the hakem's side is a kot (2); 7–0 against it a hakem-kot (3); 7–1 a win."""
    assert final(STANDARD, 0, 0, 7, 0, -1) == Outcome((7, 0), 0, 2, "kot")
    assert final(STANDARD, 1, 0, 7, 0, -1) == Outcome((7, 0), 0, 3, "hakem_kot")
    assert final(STANDARD, 0, 0, 0, 7, -1) == Outcome((0, 7), 1, 3, "hakem_kot")
    assert final(STANDARD, 0, 0, 7, 1, -1) == Outcome((7, 1), 0, 1, "win")
    assert final(STANDARD, 0, 0, 6, 6, -1) is None


def test_r10_six_teams_runs_out_to_the_side_first_there() -> None:
    """Eight tricks, nobody at 7: most tricks take the hand, 4–4 the side first to 4."""
    assert final(SIX_TEAMS, 0, 0, 4, 4, 1) == Outcome((4, 4), 1, 1, "win")
    assert final(SIX_TEAMS, 0, 0, 4, 4, 0) == Outcome((4, 4), 0, 1, "win")
    assert final(SIX_TEAMS, 0, 0, 3, 5, 0) == Outcome((3, 5), 1, 1, "win")
    assert final(SIX_TEAMS, 1, 0, 7, 0, -1) == Outcome((7, 0), 0, 3, "hakem_kot")


def test_joker_six_is_scored_by_the_bid() -> None:
    joker = FORMATS["joker_six"]
    assert final(joker, 0, 6, 6, 3, -1) == Outcome((6, 3), 0, 6, "made")
    assert final(joker, 0, 6, 4, 5, -1) == Outcome((4, 5), 1, 14, "set")  # 2·6 + 2·(6−4−1)
    assert final(joker, 1, 9, 0, 9, -1) == Outcome((0, 9), 1, 36, "made")
    assert final(joker, 1, 9, 4, 4, -1) is None


@pytest.mark.parametrize("name", COVERED)
@pytest.mark.parametrize("hakem_team", [0, 1])
def test_ladder_is_one_chain_of_races(name: str, hakem_team: int) -> None:
    """Every outcome once, worst for team 0 first, each rung's race implying the one below
    it (team 0 needs no more, team 1 no fewer), the lowest always won, each race decided
    within the hand."""
    fmt = FORMATS[name]
    for bid in fmt.bids or (0,):
        rungs = ladder(fmt, hakem_team, bid)
        scores = [r.outcome.score for r in rungs]
        assert scores == sorted(scores) and len(set(scores)) == len(scores)
        assert rungs[0].need0 == 0
        for low, high in pairwise(rungs):
            assert high.need0 >= low.need0 and high.need1 <= low.need1
        for rung in rungs:
            assert rung.need0 + rung.need1 - 1 <= fmt.hand_size


def test_standard_ladder_has_every_result_of_r10() -> None:
    """Team 1's 7–0 to team 0's 7–0: fourteen outcomes; "team 0 takes the hand" is the race
    to 7 before 7."""
    rungs = ladder(STANDARD, 0, 0)
    assert [r.outcome.tricks for r in rungs] == (
        [(j, 7) for j in range(7)] + [(7, k) for k in range(6, -1, -1)]
    )
    assert (rungs[7].need0, rungs[7].need1) == (7, 7)


def test_trick_winner_burns_the_red_joker_before_the_black() -> None:
    """V5: the red joker played while the black is out ranks below the 2 of trump; after the
    black (in an earlier trick or earlier in this one) it is the highest card."""
    spades = 0
    three_of_spades, ace_of_spades, two_of_hearts = 1, 12, 13
    assert trick_winner(spades, 0, [53, three_of_spades], 6, False) == 1
    assert trick_winner(spades, 0, [52, 53], 6, False) == 1
    assert trick_winner(spades, 0, [53, ace_of_spades], 6, True) == 0
    assert trick_winner(spades, 0, [53, two_of_hearts], 6, False) == 0  # the only trump
