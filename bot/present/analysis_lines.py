"""A finished match's analysis in words: every decision graded with every hand known.

Three places show it: the match summary (one line per player: how many of their decisions
kept the best outcome, and the costliest), and the Replay, on Discord and on the web page
(beside a hand's contract its best outcome and what was played, and the best trump when the
hakem's cost something; under a trick each card that cost points with the best card beside
it). Always "with every hand known", the double-dummy view: a player saw only their own cards,
so no line says what they should have known. A format the solver does not value (more than
two sides, Shelem) says so once. Only a finished match has an analysis: the worker makes it
from the stored match, never from a live table.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import GameFormat
from engine.cards import ANY_CARDS, Suit
from engine.dd_analysis import (
    AFTER_BAM,
    BAM_HAND,
    Graded,
    HandAnalysis,
    MatchAnalysis,
    SeatGrade,
    TrumpGrade,
)
from engine.dd_value import Outcome

from .history_parts import team_label
from .i18n import LIST_SEPARATOR, ltr, named, number, play, score_pair, signed, suit_label, t


def _card(lang: str, card: int) -> str:
    return ltr(lang, ANY_CARDS[card].label)


def _cards(lang: str, cards: Sequence[int]) -> str:
    return LIST_SEPARATOR.join(_card(lang, c) for c in cards)


def outcome_text(lang: str, fmt: GameFormat, names: Sequence[str], out: Outcome) -> str:
    """``Team A (7–3): +1``: who takes the hand, the tricks (theirs first), the points."""
    tricks = [out.tricks[out.winner], out.tricks[1 - out.winner]]
    return t(
        lang,
        "analysis.outcome",
        team=team_label(fmt, names, lang, out.winner),
        tricks=score_pair(lang, tricks),
        change=signed(lang, out.points),
    )


def cost_text(lang: str, cost: tuple[int, int]) -> str:
    """What a decision cost its side: points of the hand first, else tricks."""
    points, tricks = cost
    if points:
        return t(lang, "analysis.cost_points", n=number(lang, points))
    return t(lang, "analysis.cost_tricks", n=number(lang, tricks))


def _hand_of(analysis: MatchAnalysis | None, number_: int) -> HandAnalysis | None:
    if analysis is None:
        return None
    return next((h for h in analysis.hands if h.number == number_), None)


def about_lines(
    lang: str, fmt: GameFormat, names: Sequence[str], analysis: MatchAnalysis | None, hand: int
) -> list[str]:
    """Beside a hand's contract: its best outcome with every hand known and what was played;
    the best trump when the hakem's cost something. Nothing before the analysis is made."""
    if analysis is None:
        return []
    if analysis.skipped:
        return [t(lang, "analysis.no_format")]
    found = _hand_of(analysis, hand)
    if found is not None and found.skipped == BAM_HAND:
        return [t(lang, "analysis.bam_hand")]  # stored before bam hands were graded
    if found is None or found.best is None or found.played is None:
        return []
    lines = [
        t(
            lang,
            "analysis.hand",
            best=outcome_text(lang, fmt, names, found.best),
            played=outcome_text(lang, fmt, names, found.played),
        )
    ]
    if found.skipped == AFTER_BAM:
        lines.append(t(lang, "analysis.after_bam"))
    trumps = found.trumps
    if trumps is None and fmt.discards:
        lines.append(t(lang, "analysis.trump_not_graded"))
    if trumps is not None and not trumps.kept:
        best = trumps.best_trumps[0]
        lines.append(
            t(
                lang,
                "analysis.trump",
                suit=suit_label(lang, Suit(best)),
                outcome=outcome_text(lang, fmt, names, trumps.outcomes[best]),
            )
        )
    return lines


def trick_marks(
    lang: str,
    fmt: GameFormat,
    names: Sequence[str],
    analysis: MatchAnalysis | None,
    hand: int,
    trick: int,
) -> list[str]:
    """Under trick ``trick`` (from 1) of hand ``hand``: each card that cost points, with the
    best card(s) beside it."""
    found = _hand_of(analysis, hand)
    if found is None or trick < 1:
        return []
    first = (trick - 1) * fmt.seats
    return [
        t(
            lang,
            "analysis.mark",
            play=play(lang, names[d.seat], ANY_CARDS[d.card].label),
            cost=cost_text(lang, d.cost),
            best=_cards(lang, d.best_cards),
        )
        for d in found.decisions[first : first + fmt.seats]
        if d.costly
    ]


def summary_lines(
    lang: str, fmt: GameFormat, names: Sequence[str], analysis: MatchAnalysis, humans: Sequence[int]
) -> list[str]:
    """The match summary's lines: a heading, then one per seat of ``humans`` (accuracy and the
    costliest decision); one line for a format the solver does not value."""
    if analysis.skipped:
        return [t(lang, "analysis.no_format")]
    lines = [t(lang, "analysis.heading")]
    for seat in humans:
        grade = analysis.seat_grade(seat)
        if grade.decisions:
            lines.append(named(lang, names[seat], grade_text(lang, fmt, grade)))
    return lines + _not_graded(lang, fmt, analysis)


def grade_text(lang: str, fmt: GameFormat, grade: SeatGrade) -> str:
    """A player's accuracy and costliest decision, with every hand known: the summary's line
    and the web page's say it alike."""
    line = t(
        lang,
        "analysis.player",
        kept=number(lang, grade.kept),
        decisions=number(lang, grade.decisions),
        rate=number(lang, round(100 * grade.accuracy)),
    )
    if grade.costliest is not None:
        line += costliest_text(lang, fmt, *grade.costliest)
    return line


def _not_graded(lang: str, fmt: GameFormat, analysis: MatchAnalysis) -> list[str]:
    """What the accuracy leaves out, said rather than left unsaid: V2's trumps (the hands
    are drawn after trump is named) and the cards after a bam (V1)."""
    what = []
    if fmt.discards and any(h.trumps is None for h in analysis.hands):
        what.append(t(lang, "analysis.not_graded_trumps"))
    bams = [h.number for h in analysis.hands if h.skipped in (AFTER_BAM, BAM_HAND)]
    if bams:
        hands = LIST_SEPARATOR.join(number(lang, n) for n in bams)
        what.append(t(lang, "analysis.not_graded_bam", hands=hands))
    return [t(lang, "analysis.not_graded", what=LIST_SEPARATOR.join(what))] if what else []


def costliest_text(lang: str, fmt: GameFormat, hand: int, graded: Graded | TrumpGrade) -> str:
    """`` · costliest: hand 3, trick 5: 9♠ instead of A♠ (1 point fewer)``."""
    if isinstance(graded, TrumpGrade):
        return t(
            lang,
            "analysis.costliest_trump",
            hand=number(lang, hand),
            suit=suit_label(lang, Suit(graded.chosen)),
            best=suit_label(lang, Suit(graded.best_trumps[0])),
            cost=cost_text(lang, graded.cost),
        )
    return t(
        lang,
        "analysis.costliest",
        hand=number(lang, hand),
        trick=number(lang, graded.index // fmt.seats + 1),
        card=_card(lang, graded.card),
        best=_cards(lang, graded.best_cards),
        cost=cost_text(lang, graded.cost),
    )
