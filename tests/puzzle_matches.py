"""A seeded finished match analysed for puzzles, as the analysis worker would (the tests of
puzzles in the store, the service and end to end): each hand's decisions from a late trick on
(``engine.dd_analysis``), so the solver's work stays small."""

from __future__ import annotations

from engine.dd_analysis import Decision, analyse_hand
from engine.dd_position import Position
from engine.story import story

FROM_TRICK = 5
"""Tricks of each hand left unanalysed: a puzzle has at most 8 cards a seat anyway."""


def analysed(replay: object, from_trick: int = FROM_TRICK) -> list[list[Decision]]:
    """Every hand of a finished match's replay record analysed from trick ``from_trick`` on."""
    told = story(replay)
    fmt = told.fmt
    out: list[list[Decision]] = []
    for hand in told.hands:
        done = hand.tricks[:from_trick]
        counts = [0, 0]
        first = best = -1
        for trick in done:
            team = fmt.team_of[trick.winner]
            counts[team] += 1
            if counts[team] > best:
                best, first = counts[team], team
        held = hand.held(len(done))
        start = Position(
            fmt,
            int(hand.trump),
            tuple(sum(1 << int(c) for c in cards) for cards in held),
            done[-1].winner if done else hand.hakem,
            (counts[0], counts[1]),
            hand.hakem,
            (),
            hand.bid,
            first,
        )
        cards = [int(c) for trick in hand.tricks[from_trick:] for c in trick.cards]
        out.append(analyse_hand(start, cards))
    return out
