"""What the service asks of a game family: the Hokm family (every format of
``engine.rules.FORMATS``, ``hokm_family``) and V6 Shelem (``shelem_family``) each answer it
with one object, found by a table's format name in ``games`` (the registry).

Outside the family modules and the registry the service never asks which game a table plays:
it asks the table's family to move, to time a seat out, to show a seat what it may see, to
think for a computer and to record the finished match.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple, Protocol

from engine import Card, GameFormat, Match, SeatView, Suit
from engine.shelem import ShelemMatch, ShelemView
from engine.shelem.story import ShelemStory
from engine.story import MatchStory

from .errors import ActionError
from .ports import Pace, PlayerFactory, Update
from .table import Table, TableSettings
from .variants import Decision, ShelemDecision

AnyMatch = Match | ShelemMatch
View = SeatView | ShelemView
"""What one seat may see, of either game: all a computer player (or a hint) is given."""
AnyChoice = Card | Suit | Decision | ShelemDecision
"""A move of either game (a ``Card`` is one in both)."""
WorkerChoice = Card | Suit | ShelemDecision
"""What a worker's search answers (``thinking``): a card, a trump, or a Shelem decision."""


class Recorded(NamedTuple):
    """A finished match's family-made part of its record (``history.finished_match``)."""

    team_stats: list[list[int]]
    """Per team, the standings' three columns: hands won, kots dealt, hakem-kots suffered."""
    hands: list[dict[str, Any]]
    """Each hand's result as JSON-able data."""
    replay: dict[str, Any]
    """The engine's record of the whole match, for ``/hokm history``'s Replay."""
    target_score: int


class GameFamily(Protocol):
    """One game family: its formats, its moves and what it records (R1–R15; V6 for Shelem)."""

    name: str
    """The family's name (``hokm``, ``shelem``): the presenter's key for it (``present``)."""
    hints: bool
    """Whether a member may ask for a hint (the Hint button: none at Shelem, V6)."""

    def formats(self) -> dict[str, GameFormat]:
        """Its formats by stored name (a table's ``settings.game_format``)."""
        ...

    def owns(self, match: AnyMatch | View) -> bool:
        """Whether ``match`` (or a seat's view of one) is of this family."""
        ...

    def start_match(self, table: Table, update: Update, seed: int, pace: Pace) -> None:
        """The table's match begins (R3/R4, or V6.2)."""
        ...

    def apply_card(self, table: Table, update: Update, seat: int, card: Card, pace: Pace) -> None:
        """A member's card click: the seat taken back from the computer if it played for them
        (``moves.reclaimed``), then the card played (V2: laid face down in the discard phase).
        The moves' functions are called side by side from here, so the service asks the
        table's family once and nothing calls back into the registry (``games``)."""
        ...

    def apply_choice(
        self, table: Table, update: Update, seat: int, choice: AnyChoice, pace: Pace
    ) -> None:
        """A computer's (or a timed-out member's) move, of whatever kind the phase asks."""
        ...

    def time_out(self, table: Table, update: Update, seat: int, pace: Pace) -> None:
        """R14 (V6.15): the server decides for a member whose time ran out."""
        ...

    def view_of(self, match: AnyMatch, seat: int) -> View:
        """What ``seat`` may see of ``match``."""
        ...

    def greedy_choice(self, match: AnyMatch, seat: int) -> AnyChoice:
        """The greedy player's move: a computer whose search was not ready."""
        ...

    def quick_choice(
        self, difficulty: str, seed: int, view: View, players: PlayerFactory
    ) -> AnyChoice | None:
        """A computer's move that needs no search (an easy player, a yes/no), else ``None``."""
        ...

    def search_choice(
        self, difficulty: str, seed: int, view: View, players: PlayerFactory
    ) -> AnyChoice:
        """A computer's searched move, run off the event loop (a thread or a worker)."""
        ...

    def think(
        self, difficulty: str, seed: int, view: View, should_stop: Callable[[], bool]
    ) -> WorkerChoice:
        """A worker process's search for ``view``'s seat, stopped when ``should_stop``."""
        ...

    def story(self, replay: Mapping[str, Any]) -> MatchStory | ShelemStory:
        """The stored record of a finished match told again, hand by hand (its Replay).

        :raises InvalidState: a record that is not one of this family's matches.
        """
        ...

    def own_target(self, game_format: str) -> ActionError | None:
        """Why a host may not set ``target_score`` for ``game_format`` (its family or format
        fixes the target itself: the joker six's 124, Shelem's ``shelem_target``), or None."""
        ...

    def with_target(self, settings: TableSettings, target: int) -> TableSettings:
        """``settings`` playing to a tournament's ``target`` (0: the format's own, the seed's
        for Shelem, V6.14; the server's for Hokm, R12); a format fixing its target keeps it."""
        ...

    def recorded(self, table: Table) -> Recorded:
        """What the standings keep of the table's finished match (``history``)."""
        ...
