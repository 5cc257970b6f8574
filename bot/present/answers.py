"""The private lines that answer a member's command or button: what the edge tells the member
once the service has done (or refused) what they asked.

The Discord edge says *what* happened (a seat taken, a rematch joined, a tournament started);
the words are made here, in the table's or the tournament's language, like every other
sentence of the bot.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

from ..service.rematch import waiting_for
from ..service.table import Table
from ..service.tournament_state import TournamentState
from .i18n import t
from .tournament import members, title

SeatAnswer = Literal["joined", "left", "cancelled"]
TournamentAnswer = Literal[
    "created", "joined", "invited", "confirmed", "left", "started", "cancelled", "dropped"
]


def table_opened(lang: str) -> str:
    """``/hokm new``: the table is open (its own message shows everyone the rest)."""
    return t(lang, "ok.table_opened")


def seat_answer(table: Table, user_id: int, what: SeatAnswer) -> str:
    """A lobby command's answer in the table's language: the seat is said 1-based."""
    seat = table.seat_of(user_id)
    return t(table.settings.language, f"ok.{what}", seat=(seat or 0) + 1)


def rematch_answer(table: Table) -> str:
    """A Rematch press: the rematch lobby still waits for members (named), or it began."""
    lang = table.settings.language
    if table.status == "lobby":
        return t(lang, "ok.rematch_waiting", names=waiting_for(table))
    return t(lang, "ok.rematch_started")


def missing_permissions(lang: str, missing: Iterable[str]) -> str:
    """The permissions the bot lacks (``discord.Permissions`` names), as Discord's settings
    name them, joined as the language joins a list."""
    return ("، " if lang == "fa" else ", ").join(t(lang, f"perm.{p}") for p in missing)


def tournament_answer(state: TournamentState, what: TournamentAnswer, **params: object) -> str:
    """A ``/tournament`` command's or button's answer, in the tournament's language, naming
    the tournament."""
    return t(state.language, f"ok.t_{what}", name=title(state), **params)


def tournament_invited(state: TournamentState, partners: Sequence[int]) -> str:
    """``/tournament join`` naming partners not yet in (T2, a fixed team): who must press
    **Join**, as mentions (the answer is private, so nobody is notified)."""
    return tournament_answer(state, "invited", members=members(state, partners))


def tournament_dropped(state: TournamentState, member_id: int) -> str:
    """``/tournament drop``: who leaves when this round ends."""
    return tournament_answer(state, "dropped", member=f"<@{member_id}>")
