"""A stored analysis for a sample match's page, made by hand (grading a whole sample match
with the plain-Python solver takes minutes): seat 0 kept the best outcome once and lost a
won hand once, seat 1 named a costly trump, the last seat kept it in all."""

from __future__ import annotations

from typing import Any

from engine.dd_analysis import NOT_COVERED, Graded, HandAnalysis, MatchAnalysis, TrumpGrade
from engine.dd_position import COVERED
from engine.dd_value import Outcome
from engine.rules import FORMATS

WON = Outcome((7, 3), 0, 1, "win")
LOST = Outcome((5, 7), 1, 1, "win")
ACE, TWO, THREE = 12, 0, 1
"""Cards by number: the ace, two and three of the first suit."""


def analysis_of(fmt_name: str) -> dict[str, Any]:
    """The stored form: graded for a two-sided format, "no analysis" for any other."""
    if fmt_name not in COVERED:
        return MatchAnalysis(fmt_name, (), NOT_COVERED).to_dict()
    fmt = FORMATS[fmt_name]
    last = fmt.seats - 1
    decisions = (
        Graded(0, 0, ACE, 3, (ACE,), WON, WON, 0),  # kept
        Graded(1, last, TWO, 2, (TWO, THREE), WON, WON, fmt.team_of[last]),
        Graded(2, 0, TWO, 3, (THREE,), LOST, WON, 0),  # a won hand lost: 2 points
    )
    trumps = TrumpGrade(1, 1, 0, (WON, LOST, LOST, LOST))  # seat 1: 0, where 1 was better
    hand = HandAnalysis(1, 1, 0, WON, LOST, trumps, decisions)
    return MatchAnalysis(fmt_name, (hand,)).to_dict()
