"""The registry of game families: each family (``family.GameFamily``) registered once, found
by a table's format name, by its match or by a seat's view. The timers, the computer players,
a card's click, the history and the presenter go through here, so they need not ask which game
a table plays. A new family is a new module and one line in ``FAMILIES``.
"""

from __future__ import annotations

from engine import GameFormat
from engine.rules import FORMATS

from .events import HandEnded, MatchOver
from .family import AnyChoice, AnyMatch, GameFamily, View
from .hokm_family import HOKM_FAMILY
from .ports import Pace, Update
from .shelem_events import ShelemHandEnded
from .shelem_family import SHELEM_FAMILY
from .table import Table

FAMILIES: tuple[GameFamily, ...] = (HOKM_FAMILY, SHELEM_FAMILY)
"""Every game family the bot plays (R1–R15 and V1–V5: Hokm's formats; V6: Shelem)."""
SUMMARY_EVENTS = (HandEnded, ShelemHandEnded, MatchOver)
"""A hand's end in any family, and the match's: what a finished match's summary tells."""


def formats() -> dict[str, GameFormat]:
    """Every format a table can be opened with, by stored name, Shelem's among them."""
    return dict(FORMATS)


def family_named(game_format: str) -> GameFamily:
    """The family playing the format ``game_format``.

    :raises KeyError: a format no family plays.
    """
    named = FORMATS[game_format].family  # the format says its game (V6: ``shelem``)
    for family in FAMILIES:
        if family.name == named:
            return family
    raise KeyError(game_format)


def family_or_hokm(game_format: str) -> GameFamily:
    """The family of ``game_format``, or the Hokm family for a name no family plays: what
    comes next refuses it (a ``Table``, the engine's story of a stored record)."""
    try:
        return family_named(game_format)
    except KeyError:
        return HOKM_FAMILY


def family_of(table: Table) -> GameFamily:
    """The family of a table's match (or, in its lobby, of its chosen format)."""
    match = table.match
    if match is not None:
        return family_of_match(match)
    return family_named(table.settings.game_format)


def family_of_match(match: AnyMatch | View) -> GameFamily:
    """The family a match, or a seat's view of one, belongs to."""
    for family in FAMILIES:
        if family.owns(match):
            return family
    raise TypeError(f"no game family plays {type(match).__name__}")


def view_of(match: AnyMatch, seat: int) -> View:
    return family_of_match(match).view_of(match, seat)


def greedy_choice(match: AnyMatch, seat: int) -> AnyChoice:
    """The greedy player's move for ``seat``: a computer whose search was not ready."""
    return family_of_match(match).greedy_choice(match, seat)


def apply_choice(table: Table, update: Update, seat: int, choice: AnyChoice, pace: Pace) -> None:
    family_of(table).apply_choice(table, update, seat, choice, pace)


def time_out(table: Table, update: Update, seat: int, pace: Pace) -> None:
    """R14 (V6.15 at a Shelem table): the server decides for a member whose time ran out."""
    family_of(table).time_out(table, update, seat, pace)


def start_match(table: Table, update: Update, seed: int, pace: Pace) -> None:
    """The table's game begins (R3/R4, or V6.2)."""
    family_of(table).start_match(table, update, seed, pace)


__all__ = ["HOKM_FAMILY", "SHELEM_FAMILY", "AnyChoice", "GameFamily", "View"]
