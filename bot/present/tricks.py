"""The lines that tell a hand's story: this hand's tricks, each card with its player, and
how a finished hand went.

Players track who is out of a suit from who played what, so each trick line
names every card's player (``4 · amir 6♠ · bahar K♠ · cyrus 7♠ · dara 9♥ → cyrus``). The
lines are rendered from the engine's state (``Match.tricks`` is the current hand's list), not
from saved log lines, so a new hand starts with an empty list. A hand's result names the
teams by their players (item 4), in the channel report and on the table message alike.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine import HandResult, Trick

from ..names import seat_name, shown_name
from ..service.table import Table
from .budget import DESCRIPTION, keep_newest, size
from .formats import format_is_named, is_solo
from .i18n import named, number, play, score_pair, signed, t
from .teams import team_label

SHORT_NAME: int = 10
"""Characters of a name in a trick line when the full names would not fit the embed."""

Namer = Callable[[int], str]


def trick_line(table: Table, lang: str, trick: Trick, name: Namer | None = None) -> str:
    """One finished trick: its number, every card after the seat that played it (from the
    leader, R7), and who took it (R9)."""
    name = name or (lambda seat: seat_name(table, seat))
    shown = [play(lang, name(s), c.label) for s, c in trick.plays(table.fmt.seats)]
    return t(
        lang, "table.trick_line", n=number(lang, trick.number), cards=shown, name=name(trick.winner)
    )


def trick_lines(table: Table, lang: str, budget: int = DESCRIPTION) -> list[str]:
    """The current hand's tricks, oldest first, in at most ``budget`` characters (newlines
    between them counted): full names if they fit, short names if not, and if even that is
    too long the oldest tricks give way to one "… n earlier tricks" line (``keep_newest``)."""
    match = table.match
    if match is None or not match.tricks:
        return []
    tricks = list(match.tricks)
    lines = [trick_line(table, lang, tr) for tr in tricks]
    if size(lines) <= budget:
        return lines

    def short(seat: int) -> str:
        s = table.seats[seat]
        return "?" if s is None else shown_name(s.name, computer=s.is_computer, limit=SHORT_NAME)

    lines = [trick_line(table, lang, tr, short) for tr in tricks]
    return keep_newest(
        lines, budget, lambda n: t(lang, "table.tricks_earlier", count=number(lang, n))
    )


_HAND_KEYS = {
    "win": "report.hand_win",
    "kot": "report.hand_kot",
    "hakem_kot": "report.hand_hakem_kot",
}
_OTHER_KEYS = {"made": "report.hand_made", "set": "report.hand_set"}


def scores_text(table: Table, lang: str, scores: Sequence[int]) -> str:
    """``amir & cyrus 0 — bahar & dara 1``: every team by its players, with its score (in
    Persian each team read before its score, the first team first)."""
    parts = [
        named(lang, team_label(table, lang, team), number(lang, s)) for team, s in enumerate(scores)
    ]
    return " — ".join(parts)


def hand_result_line(table: Table, lang: str, result: HandResult) -> str:
    """R10–R11: who took the hand, by how many tricks (theirs first), the points and the score
    after it (``bahar & dara take hand 1 (7–4): +1 · amir & cyrus 0 — bahar & dara 1``)."""
    winner = result.winner_team
    counts = [result.tricks[winner]] + [n for i, n in enumerate(result.tricks) if i != winner]
    # V1's bam and hakem-bam, the joker six's made and set bids read alike at any table
    key = _HAND_KEYS.get(result.kind) or _OTHER_KEYS.get(result.kind, "report.hand_bam")
    if result.kind not in _HAND_KEYS:
        pass
    elif is_solo(table.fmt):  # a player alone "takes"
        key += "_solo"
    elif format_is_named(table.fmt.name) and result.kind != "win":  # not always seven–nil
        key += "_teams"
    return t(
        lang,
        key,
        n=number(lang, result.number),
        team=team_label(table, lang, winner),
        tricks=score_pair(lang, counts),
        points=number(lang, result.points),
        change=signed(lang, result.points),
        score=scores_text(table, lang, result.scores_after),
    )
