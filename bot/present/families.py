"""The presenter's side of a game family: what a table of the family looks like (its title,
footer and lines, a seat's hand message, a hand's result, the summary's hands, a replay's
lines), one object per family, registered by the service family's name (``service.games``).

The Hokm family's is ``hokm_view``, Shelem's ``shelem_view`` (V6); the package registers both
(``present/__init__``), so this module knows neither and any module of the presenter may ask
it. A renderer asks ``presenter(table)`` instead of which game a table plays.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from engine import Card

from ..service.games import family_of
from ..service.match_history import MatchReplay
from ..service.table import Table
from .specs import MessageSpec, Signatures


class PresentFamily(Protocol):
    """How one game family is shown (R1–R15 and V1–V5 for Hokm; V6 for Shelem)."""

    name: str
    """The service family's name (``GameFamily.name``) this shows."""
    title: str
    """The catalog's prefix for the table message's titles (``table``, ``shelem``)."""
    hand_header: str
    """The catalog key of a hand message's header."""

    def footer(self, table: Table, lang: str) -> str:
        """The table message's footer: the target and settings the match plays with."""
        ...

    def match_lines(self, table: Table, lang: str, closed: frozenset[int]) -> list[str]:
        """The table message's body while the match is on (and once it is over); ``closed``:
        the seats whose DMs are closed (``Delivery``), told to use My hand."""
        ...

    def hand_message(
        self, table: Table, seat: int, *, ephemeral: bool, live: bool, chosen: tuple[Card, ...]
    ) -> MessageSpec:
        """One seat's private hand message (``render.hand_message``)."""
        ...

    def hand_signatures(self, table: Table, seat: int) -> Signatures:
        """What makes the seat's messages worth editing (``render.hand_signatures``)."""
        ...

    def result_line(self, table: Table, lang: str, hand: int) -> str | None:
        """The result line the channel got for ``hand`` (``None`` when it has none)."""
        ...

    def summary_lines(self, table: Table, lang: str) -> tuple[list[str], list[str]]:
        """The finished match's summary: a line per hand, and the family's own totals."""
        ...

    def owns_replay(self, replay: MatchReplay) -> bool:
        """Whether a stored match's replay is of this family."""
        ...

    def replay_about(
        self, lang: str, replay: MatchReplay, names: Sequence[str], hand: int
    ) -> list[str]:
        """A replayed hand's contract (``history.replay_about``)."""
        ...

    def replay_counts(
        self, lang: str, replay: MatchReplay, names: Sequence[str], hand: int, trick: int
    ) -> list[str]:
        """A replay's counts after a trick (``history.replay_counts``)."""
        ...


_PRESENTERS: dict[str, PresentFamily] = {}


def register(family: PresentFamily) -> PresentFamily:
    """Adds a family's presenter (once, at import of the presenter package)."""
    _PRESENTERS[family.name] = family
    return family


def presenter(table: Table) -> PresentFamily:
    """How the family of ``table`` is shown."""
    return _PRESENTERS[family_of(table).name]


def replay_presenter(replay: MatchReplay) -> PresentFamily:
    """How the family of a stored match's replay is shown."""
    for family in _PRESENTERS.values():
        if family.owns_replay(replay):
            return family
    raise LookupError(f"no presenter for a replay of {replay.entry.game_format!r}")
