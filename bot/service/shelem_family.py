"""V6 Shelem as one ``GameFamily`` (``family``): the engine's ``ShelemMatch`` (an auction, a
kitty, card points); its moves are ``shelem_moves``'.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from engine import Card, GameFormat
from engine.rules import FORMATS
from engine.shelem import (
    GreedyShelemPlayer,
    ShelemHandResult,
    ShelemMatch,
    ShelemView,
    make_shelem_player,
    seat_view,
)
from engine.shelem.story import ShelemStory, record, story
from engine.story import MatchStory

from . import moves, shelem_moves
from .errors import ActionError
from .family import AnyChoice, AnyMatch, Recorded, View, WorkerChoice
from .ports import Pace, PlayerFactory, Update
from .table import Table, TableSettings
from .variants import ShelemDecision


def _match(match: AnyMatch | None) -> ShelemMatch:
    if not isinstance(match, ShelemMatch):
        raise TypeError(f"not a Shelem match: {match!r}")
    return match


def _view(view: View) -> ShelemView:
    if not isinstance(view, ShelemView):
        raise TypeError(f"not a Shelem seat's view: {view!r}")
    return view


def team_stats(results: list[ShelemHandResult]) -> list[list[int]]:
    """V6 per team, in the standings' three columns: hands won (the hakem's side made its
    bid, or the defenders set it), "kots" (all twelve tricks taken as hakem), and no
    hakem-kots (Shelem has none)."""
    stats = [[0, 0, 0], [0, 0, 0]]
    for r in results:
        stats[r.hakem_team if r.made else 1 - r.hakem_team][0] += 1
        stats[r.hakem_team][1] += r.every_trick
    return stats


class ShelemFamily:
    """V6: four seats bid for hakem, take the kitty and play for card points."""

    name = "shelem"
    hints = False  # no hints at Shelem tables (V6): the hint search is Hokm's

    def formats(self) -> dict[str, GameFormat]:
        return {name: f for name, f in FORMATS.items() if f.family == self.name}

    def owns(self, match: AnyMatch | View) -> bool:
        return isinstance(match, ShelemMatch | ShelemView)

    def start_match(self, table: Table, update: Update, seed: int, pace: Pace) -> None:
        shelem_moves.start_match(table, update, seed, pace)

    def apply_card(self, table: Table, update: Update, seat: int, card: Card, pace: Pace) -> None:
        with moves.reclaimed(table, update, seat, pace):
            shelem_moves.apply_card(table, update, seat, card, pace)

    def apply_choice(
        self, table: Table, update: Update, seat: int, choice: AnyChoice, pace: Pace
    ) -> None:
        if not isinstance(choice, Card | ShelemDecision):
            raise TypeError(f"not a Shelem move: {choice!r}")
        shelem_moves.apply_choice(table, update, seat, choice, pace)

    def time_out(self, table: Table, update: Update, seat: int, pace: Pace) -> None:
        shelem_moves.time_out(table, update, seat, pace)

    def view_of(self, match: AnyMatch, seat: int) -> View:
        return seat_view(_match(match), seat)

    def greedy_choice(self, match: AnyMatch, seat: int) -> AnyChoice:
        return shelem_moves.decide(GreedyShelemPlayer(), seat_view(_match(match), seat))

    def quick_choice(
        self, difficulty: str, seed: int, view: View, players: PlayerFactory
    ) -> AnyChoice | None:
        if difficulty == "easy":  # the Shelem players, bids included (not ``players``')
            return shelem_moves.decide(GreedyShelemPlayer(), _view(view))
        return None

    def search_choice(
        self, difficulty: str, seed: int, view: View, players: PlayerFactory
    ) -> AnyChoice:
        return shelem_moves.decide(make_shelem_player(difficulty, seed), _view(view))

    def think(
        self, difficulty: str, seed: int, view: View, should_stop: Callable[[], bool]
    ) -> WorkerChoice:
        return shelem_moves.decide(make_shelem_player(difficulty, seed, should_stop), _view(view))

    def story(self, replay: Mapping[str, Any]) -> MatchStory | ShelemStory:
        return story(replay)

    def own_target(self, game_format: str) -> ActionError | None:
        return ActionError("error.target_shelem")  # V6.14: ``shelem_target`` sets it

    def with_target(self, settings: TableSettings, target: int) -> TableSettings:
        return replace(settings, shelem_target=target)  # 0: the seed's target (V6.14)

    def recorded(self, table: Table) -> Recorded:
        match = _match(table.match)
        hands = [
            r._asdict() | {"trump": None if r.trump is None else r.trump.letter}
            for r in match.hand_results
        ]
        return Recorded(team_stats(match.hand_results), hands, record(match), match.target_score)


SHELEM_FAMILY = ShelemFamily()
"""Shelem's one object, registered in ``games``."""
