"""The one message a finished match leaves in its channel: who won, each hand with its points
and why (R11; a Shelem hand's bid and how it went, ``shelem_summary``), who was hakem, the
kots, how long it took, and the Rematch button.

Public facts only (results, hakems, trumps): no card of a hand appears, so the channel may see
it all. It fits Discord's embed limits however long the match (target 13 can take 25 hands,
names up to 32 characters, escaped): when the hand lines would pass ``HANDS_BUDGET`` the
earliest are folded into one "… earlier hands" line.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from engine import HandResult, Match, Suit
from engine.dd_analysis import MatchAnalysis

from ..names import seat_name
from ..service.table import Table
from . import custom_ids
from .analysis_lines import summary_lines
from .budget import fitted, keep_newest
from .families import presenter
from .formats import is_solo
from .i18n import named, number, score_pair, signed, t
from .render import COLOR_DONE, ButtonSpec, EmbedSpec, MessageSpec
from .standings import decimal
from .teams import team_counts, team_label

DESCRIPTION_LIMIT = 4000
"""Characters for the description: Discord allows 4,096 there (6,000 in the whole embed; the
title and footer take under 400), with room to spare for what Discord counts differently."""
WHY = {
    "win": "summary.why_win",
    "kot": "summary.why_kot",
    "hakem_kot": "summary.why_hakem_kot",
    "bam": "summary.why_bam",  # V1
    "hakem_bam": "summary.why_hakem_bam",
    "made": "summary.why_made",  # V5 joker six: the bid made, or set
    "set": "summary.why_set",
}


def match_summary(table: Table, analysis: MatchAnalysis | None = None) -> MessageSpec:
    """The finished match of ``table``, in the table's language, with a Rematch button; its
    names shortened when the title (every team of a six-player table) or the rest would not
    fit (``budget.fitted``). With ``analysis`` (made after the match, in a worker), a line per
    player graded with every hand known (``analysis_lines``)."""
    return fitted(partial(_match_summary, analysis=analysis), table)


def _match_summary(table: Table, analysis: MatchAnalysis | None = None) -> MessageSpec:
    match = table.match
    assert match is not None and match.winner_team is not None
    lang = table.settings.language
    teams = range(len(table.fmt.teams))
    scores = match.scores
    winner = match.winner_team
    ordered = [scores[winner], *(scores[team] for team in teams if team != winner)]
    title = t(
        lang,
        "summary.title_solo" if is_solo(table.fmt) else "summary.title",
        team=team_label(table, lang, winner),
        score=score_pair(lang, ordered),
    )
    totals = [t(lang, "summary.score", teams=team_counts(table, lang, scores))]
    hands, own = presenter(table).summary_lines(table, lang)
    totals += own
    rated = _rating_changes(table, lang)
    if rated:
        totals.append(t(lang, "summary.ratings", changes=rated))
    if analysis is not None:
        names = [seat_name(table, seat) for seat in range(table.fmt.seats)]
        humans = [seat for seat, _ in table.humans()]
        totals += summary_lines(lang, table.fmt, names, analysis, humans)
    totals.append(
        t(
            lang,
            "summary.played",
            hands=number(lang, len(hands)),
            duration=duration(lang, (table.finished_at or 0) - (table.started_at or 0)),
            target=number(lang, match.target_score),
        )
    )
    budget = DESCRIPTION_LIMIT - sum(len(line) + 1 for line in totals) - 1
    description = "\n".join([*_fold(lang, hands, budget), "", *totals])
    button = ButtonSpec(custom_ids.rematch_id(table.table_id), t(lang, "button.rematch"), "success")
    embed = EmbedSpec(title, description, COLOR_DONE, footer=t(lang, "summary.rematch_hint"))
    return MessageSpec(embed=embed, rows=((button,),))


def hokm_lines(table: Table, lang: str) -> tuple[list[str], list[str]]:
    """The Hokm family's summary (``hokm_view``): a line per hand, and the kots per team."""
    match = table.match
    assert isinstance(match, Match)
    teams = range(len(table.fmt.teams))
    hands = [_hand_line(table, lang, r) for r in match.hand_results]
    return hands, _kot_totals(table, lang, match.hand_results, teams)


def _rating_changes(table: Table, lang: str) -> list[str]:
    """Each rated member's change of skill rating, in seat order."""
    out = []
    for i, seat in enumerate(table.seats):
        if seat is not None and seat.user_id is not None and seat.user_id in table.rating_changes:
            change = decimal(lang, table.rating_changes[seat.user_id], signed=True)
            out.append(named(lang, seat_name(table, i), change))
    return out


def _kot_totals(table: Table, lang: str, results: Sequence[HandResult], teams: range) -> list[str]:
    """R11: the kots each team dealt, and the hakem-kots suffered if any."""
    lines = [t(lang, "summary.kots", teams=team_counts(table, lang, _kots(results, teams)))]
    suffered = [0 for _ in teams]
    for r in results:
        team = r.hakem_kot_suffered_by(table.fmt)
        if team is not None:
            suffered[team] += 1
    if any(suffered):
        lines.append(t(lang, "summary.hakem_kots", teams=team_counts(table, lang, suffered)))
    return lines


def _fold(lang: str, lines: list[str], budget: int) -> list[str]:
    """One line per hand; past ``budget`` characters the earliest fold into one line."""
    return keep_newest(lines, budget, lambda n: t(lang, "summary.earlier", count=number(lang, n)))


def _hand_line(table: Table, lang: str, r: HandResult) -> str:
    """The winners' tricks first, then every other team's in seat order (``7–4``, ``7–5–5``)."""
    tricks = [r.tricks[r.winner_team]] + [n for i, n in enumerate(r.tricks) if i != r.winner_team]
    return t(
        lang,
        "summary.hand",
        n=number(lang, r.number),
        hakem=seat_name(table, r.hakem),
        trump=Suit(int(r.trump)).symbol,
        team=team_label(table, lang, r.winner_team),
        tricks=score_pair(lang, tricks),
        points=number(lang, r.points),
        change=signed(lang, r.points),
        why=t(lang, WHY[r.kind]),
    )


def _kots(results: Sequence[HandResult], teams: range) -> list[int]:
    """R11: kots dealt per team (a kot or a hakem-kot: the losers took no trick)."""
    return [sum(1 for r in results if r.is_kot and r.winner_team == team) for team in teams]


def duration(lang: str, seconds: float) -> str:
    """Whole minutes (at least one), with hours past the hour."""
    minutes = max(1, round(seconds / 60))
    if minutes < 60:
        return t(lang, "summary.minutes", m=number(lang, minutes))
    return t(lang, "summary.hours", h=number(lang, minutes // 60), m=number(lang, minutes % 60))
