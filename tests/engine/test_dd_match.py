"""A finished match graded with every hand known (``engine.dd_analysis``'s
``analyse_match``): every card decision and each hand's trump, the stored form read back and
checked, and the formats the solver does not value said so."""

from __future__ import annotations

import random

import pytest

from engine import BAM, FORMATS, PLAY, Match, Rules
from engine.dd import Solver
from engine.dd_analysis import AFTER_BAM, NOT_COVERED, MatchAnalysis, analyse_match
from engine.dd_position import Position
from engine.dd_value import final
from engine.story import record, story

from .helpers import random_move


def finished(name: str, seed: int) -> Match:
    """A match to one point of random legal moves."""
    match = Match(seed, Rules(target_score=1), FORMATS[name])
    rng = random.Random(seed)
    while not match.is_over:
        random_move(match, rng)
    return match


@pytest.mark.parametrize(("name", "seed"), [("standard", 0), ("two", 0), ("two", 1)])
def test_every_card_and_trump_is_graded_against_the_solver(name: str, seed: int) -> None:
    match = finished(name, seed)
    fmt = match.fmt
    analysis = analyse_match(record(match))
    told = story(record(match))
    assert analysis.skipped == "" and len(analysis.hands) == len(told.hands)
    for hand, seen in zip(analysis.hands, told.hands, strict=True):
        cards = [int(c) for trick in seen.tricks for c in trick.cards]
        assert [d.card for d in hand.decisions] == cards
        dealt = tuple(sum(1 << int(c) for c in cs) for cs in seen.dealt)
        start = Position.deal(fmt, hand.trump, dealt, hand.hakem)
        assert hand.best == Solver(fmt, hand.trump).value(start)
        t0, t1 = seen.team_tricks(fmt, len(seen.tricks))
        assert hand.played == final(fmt, fmt.team_of[hand.hakem], 0, t0, t1, -1)
        assert hand.played is not None and hand.played.points == seen.result.points
        trumps = hand.trumps
        if fmt.discards:  # V2: the hands are drawn after trump is named: not graded
            assert trumps is None
        else:
            assert trumps is not None and trumps.outcomes[hand.trump] == hand.best
        for d in hand.decisions:
            assert d.best.score_for(d.side) >= d.outcome.score_for(d.side)
            assert d.kept == (d.card in d.best_cards)
            assert d.costly == (d.cost[0] > 0) and 1 <= len(d.best_cards) <= d.legal
    assert MatchAnalysis.from_dict(analysis.to_dict()) == analysis


def bammed(name: str, seed: int) -> Match:
    """A match whose first hand has a bam (V1): the hakem's side plays its highest cards
    (trumps first), the other its lowest, and a bam offered is declared."""
    match = Match(seed, Rules(bam=True, target_score=3), FORMATS[name])
    rng = random.Random(seed)
    while not (match.hand_results and match.hand_results[-1].bam):
        if match.phase == BAM:
            match.declare_bam(match.to_act, True)
        elif match.phase == PLAY:
            seat, trump = match.turn, match.trump
            legal = match.legal_cards(seat)
            ours = match.fmt.team_of[seat] == match.fmt.team_of[match.hakem]
            pick = max if ours else min
            match.play(seat, pick(legal, key=lambda c: (c.suit == trump, c.rank)))
        else:
            random_move(match, rng)
    return match


@pytest.mark.parametrize(("name", "seed"), [("standard", 16), ("two", 10)])
def test_a_bam_hand_is_graded_up_to_its_seventh_trick(name: str, seed: int) -> None:
    """The cards up to the bam are graded against the hand's value as R10 ends it (the kot
    the side had), the trump too outside V2; the cards after the bam are not."""
    match = bammed(name, seed)
    fmt = match.fmt
    analysis = analyse_match(record(match))
    (hand,), (seen,) = analysis.hands, story(record(match)).hands
    assert seen.result.bam and len(seen.tricks) > fmt.tricks_to_win
    assert hand.skipped == AFTER_BAM
    cards = [int(c) for trick in seen.tricks[: fmt.tricks_to_win] for c in trick.cards]
    assert [d.card for d in hand.decisions] == cards  # the seventh trick's last card, no more
    dealt = tuple(sum(1 << int(c) for c in cs) for cs in seen.dealt)
    assert hand.best == Solver(fmt, hand.trump).value(
        Position.deal(fmt, hand.trump, dealt, hand.hakem)
    )
    assert hand.played is not None and hand.played.kind in ("kot", "hakem_kot")
    assert sorted(hand.played.tricks) == [0, fmt.tricks_to_win]
    assert (hand.trumps is None) == bool(fmt.discards)
    assert analysis.seat_grade(match.hakem).decisions > 0
    assert MatchAnalysis.from_dict(analysis.to_dict()) == analysis


def test_a_seat_grade_counts_its_choices_and_finds_the_costliest() -> None:
    analysis = analyse_match(record(finished("standard", 0)))
    for seat in range(4):
        grade = analysis.seat_grade(seat)
        choices = [
            d for h in analysis.hands for d in h.decisions if d.seat == seat and d.legal > 1
        ] + [h.trumps for h in analysis.hands if h.trumps and h.trumps.seat == seat]
        assert grade.decisions == len(choices)
        assert grade.kept == sum(g.kept for g in choices if g is not None)
        worst = max((g.cost for g in choices if g is not None), default=(0, 0))
        assert (grade.costliest is None) == (worst == (0, 0))
        if grade.costliest is not None:
            assert grade.costliest[1].cost == worst


@pytest.mark.parametrize("name", ["three", "five", "six_pairs"])
def test_formats_of_more_than_two_sides_are_not_graded(name: str) -> None:
    analysis = analyse_match(record(finished(name, 0)))
    assert analysis.skipped == NOT_COVERED and analysis.hands == ()
    assert MatchAnalysis.from_dict(analysis.to_dict()) == analysis


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.update(v=2),
        lambda d: d.update(format="poker"),
        lambda d: d["hands"][0]["cards"][0].__setitem__(1, "ZZ"),
        lambda d: d["hands"][0]["cards"][0].__setitem__(0, 9),
        lambda d: d["hands"][0].__setitem__("best", [7, 0, 2, 1, "lucky"]),
        lambda d: d["hands"][0].__setitem__("trumps", [None, None]),
        lambda d: d["hands"][0].__setitem__("hakem", "x"),
        lambda d: d.update(skipped="why not"),
    ],
)
def test_a_damaged_stored_analysis_is_refused(damage: object) -> None:
    data = analyse_match(record(finished("standard", 0))).to_dict()
    damage(data)  # type: ignore[operator]
    with pytest.raises(ValueError):
        MatchAnalysis.from_dict(data)


def test_a_two_trump_grade_stored_before_v2_was_left_ungraded_is_not_read() -> None:
    """V2: analyses stored before `two`'s trump went ungraded still hold four outcomes; they
    read as no trump grade, and the cards' grades are kept as stored."""
    analysis = analyse_match(record(finished("two", 0)))
    data = analysis.to_dict()
    best = data["hands"][0]["best"]
    data["hands"][0]["trumps"] = [best, best, best, best]
    read = MatchAnalysis.from_dict(data)
    assert read == analysis and read.hands[0].trumps is None
    assert read.hands[0].decisions == analysis.hands[0].decisions
