"""Which game a table plays: the Hokm family's ``Match`` (``moves``) or Shelem's
``ShelemMatch`` (``shelem_moves``, V6). The timers, the computer players and a card's click
go through here, so they need not ask.
"""

from __future__ import annotations

from engine import Card, GreedyPlayer, Match, SeatView, seat_view
from engine.shelem import GreedyShelemPlayer, ShelemMatch, ShelemView
from engine.shelem import seat_view as shelem_view

from . import moves, shelem_moves
from .moves import Choice
from .ports import Pace, Update
from .shelem_moves import ShelemChoice
from .table import Table
from .variants import ShelemDecision

View = SeatView | ShelemView
"""What one seat may see, of either game: all a computer player (or a hint) is given."""
AnyChoice = Choice | ShelemDecision
"""A move of either game (a ``Card`` is one in both)."""


def view_of(match: Match | ShelemMatch, seat: int) -> View:
    if isinstance(match, ShelemMatch):
        return shelem_view(match, seat)
    return seat_view(match, seat)


def greedy_choice(match: Match | ShelemMatch, seat: int) -> AnyChoice:
    """The greedy player's move for ``seat``: a computer whose search was not ready."""
    if isinstance(match, ShelemMatch):
        return shelem_moves.decide(GreedyShelemPlayer(), shelem_view(match, seat))
    return moves.decide(GreedyPlayer(), seat_view(match, seat))


def apply_choice(table: Table, update: Update, seat: int, choice: AnyChoice, pace: Pace) -> None:
    if isinstance(table.match, ShelemMatch):
        if not isinstance(choice, Card | ShelemDecision):
            raise TypeError(f"not a Shelem move: {choice!r}")
        shelem_moves.apply_choice(table, update, seat, choice, pace)
        return
    if isinstance(choice, ShelemDecision):
        raise TypeError(f"not a Hokm move: {choice!r}")
    moves.apply_choice(table, update, seat, choice, pace)


def apply_card(table: Table, update: Update, seat: int, card: Card, pace: Pace) -> None:
    """A card clicked: played (V2: laid face down in the discard phase; Shelem's own)."""
    if isinstance(table.match, ShelemMatch):
        shelem_moves.apply_card(table, update, seat, card, pace)
    else:
        moves.apply_card(table, update, seat, card, pace)


def time_out(table: Table, update: Update, seat: int, pace: Pace) -> None:
    """R14 (V6.15 at a Shelem table): the server decides for a member whose time ran out."""
    if isinstance(table.match, ShelemMatch):
        shelem_moves.time_out(table, update, seat, pace)
    else:
        moves.time_out(table, update, seat, pace)


def start_match(table: Table, update: Update, seed: int, pace: Pace) -> None:
    """The table's game begins (R3/R4, or V6.2)."""
    if table.is_shelem:
        shelem_moves.start_match(table, update, seed, pace)
    else:
        moves.start_match(table, update, seed, pace)


__all__ = ["AnyChoice", "ShelemChoice", "View"]
