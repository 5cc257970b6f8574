"""A finished Shelem match's hands, for its summary (V6): each hand's hakem, bid,
mode or trump, and how it went (V6.10–V6.11), and how often each side took every trick.

Public facts only: a hand's result gives the hakem side's points, never the cards it laid down
(V6.6.4).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.shelem import MAX_HANDS, ShelemHandResult, match_winner

from ..names import seat_name
from ..service.table import Table
from .i18n import number, t
from .shelem import bid_label, mode_label, signed
from .teams import team_counts


def hand_line(table: Table, lang: str, r: ShelemHandResult) -> str:
    """``3. amir 120 ♥ — bid made: +120``: the hakem, the bid, trump (or the mode without
    one), why, and what the hakem's side scored."""
    how = r.trump.symbol if r.trump is not None else mode_label(lang, r.mode)
    return t(
        lang,
        "shelem.summary.hand",
        n=number(lang, r.number),
        hakem=seat_name(table, r.hakem),
        bid=bid_label(lang, r.bid),
        how=how,
        why=t(lang, f"shelem.why.{r.kind}"),
        change=signed(lang, r.changes[r.hakem_team]),
    )


def totals(table: Table, lang: str, results: Sequence[ShelemHandResult]) -> list[str]:
    """Every trick taken as hakem, per team, when any side did; that the hand limit ended the
    match (V6.14.1), when it did."""
    shelems = [0, 0]
    for r in results:
        shelems[r.hakem_team] += r.every_trick
    lines = []
    if any(shelems):
        lines.append(t(lang, "shelem.summary.shelems", teams=team_counts(table, lang, shelems)))
    options = table.settings.shelem_options()
    if len(results) >= MAX_HANDS and match_winner(options, results[-1].scores_after) is None:
        lines.append(t(lang, "shelem.summary.hand_limit", n=number(lang, MAX_HANDS)))
    return lines
