"""The Hokm family as one ``GameFamily`` (``family``): every format of ``engine.rules.FORMATS``
(R1–R15, V1–V5), played by the engine's ``Match``; its moves are ``moves``'.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from engine import TRUMP, Card, GameFormat, GreedyPlayer, Match, SeatView, Suit, seat_view
from engine.rules import FORMATS, hokm_format, hokm_formats
from engine.shelem.story import ShelemStory
from engine.story import MatchStory, record, story

from . import moves
from .errors import ActionError
from .family import AnyChoice, AnyMatch, Recorded, View, WorkerChoice
from .ports import Pace, PlayerFactory, Update
from .table import Table, TableSettings
from .variants import PHASES, ShelemDecision


def _match(match: AnyMatch) -> Match:
    if not isinstance(match, Match):
        raise TypeError(f"not a Hokm match: {match!r}")
    return match


def _view(view: View) -> SeatView:
    if not isinstance(view, SeatView):
        raise TypeError(f"not a Hokm seat's view: {view!r}")
    return view


def team_stats(match: Match) -> list[list[int]]:
    """R11 per team: hands won, kots dealt, hakem-kots suffered."""
    stats = [[0, 0, 0] for _ in match.fmt.teams]
    for r in match.hand_results:
        stats[r.winner_team][0] += 1
        stats[r.winner_team][1] += r.is_kot
        suffered = r.hakem_kot_suffered_by(match.fmt)
        if suffered is not None:
            stats[suffered][2] += 1
    return stats


class HokmFamily:
    """Hokm's formats: trump named by the hakem (R5), or bid for (V5), tricks to win (R10)."""

    name = "hokm"
    hints = True

    def formats(self) -> dict[str, GameFormat]:
        return hokm_formats()  # read now: a format added to FORMATS is one of the family's

    def owns(self, match: AnyMatch | View) -> bool:
        return isinstance(match, Match | SeatView)

    def start_match(self, table: Table, update: Update, seed: int, pace: Pace) -> None:
        moves.start_match(table, update, seed, pace)

    def apply_card(self, table: Table, update: Update, seat: int, card: Card, pace: Pace) -> None:
        with moves.reclaimed(table, update, seat, pace):
            moves.apply_card(table, update, seat, card, pace)

    def apply_choice(
        self, table: Table, update: Update, seat: int, choice: AnyChoice, pace: Pace
    ) -> None:
        if isinstance(choice, ShelemDecision):
            raise TypeError(f"not a Hokm move: {choice!r}")
        moves.apply_choice(table, update, seat, choice, pace)

    def time_out(self, table: Table, update: Update, seat: int, pace: Pace) -> None:
        moves.time_out(table, update, seat, pace)

    def view_of(self, match: AnyMatch, seat: int) -> View:
        return seat_view(_match(match), seat)

    def greedy_choice(self, match: AnyMatch, seat: int) -> AnyChoice:
        return moves.decide(GreedyPlayer(), seat_view(_match(match), seat))

    def quick_choice(
        self, difficulty: str, seed: int, view: View, players: PlayerFactory
    ) -> AnyChoice | None:
        seat = _view(view)
        if difficulty == "easy" or seat.phase in PHASES:  # the variants' yes/no: no search
            return moves.decide(players(difficulty, seed), seat)
        return None

    def search_choice(
        self, difficulty: str, seed: int, view: View, players: PlayerFactory
    ) -> AnyChoice:
        return moves.decide(players(difficulty, seed), _view(view))

    def think(
        self, difficulty: str, seed: int, view: View, should_stop: Callable[[], bool]
    ) -> WorkerChoice:
        from engine import make_player, parse_difficulty

        seat = _view(view)
        player = make_player(parse_difficulty(difficulty), seed, should_stop)
        if seat.phase == TRUMP:
            return Suit(player.choose_trump(seat))
        return player.choose_card(seat)

    def story(self, replay: Mapping[str, Any]) -> MatchStory | ShelemStory:
        return story(replay)

    def own_target(self, game_format: str) -> ActionError | None:
        fmt = hokm_format(game_format)
        if fmt is not None and fmt.target_score:
            return ActionError("error.target_fixed", target=fmt.target_score)
        return None

    def with_target(self, settings: TableSettings, target: int) -> TableSettings:
        if target and not FORMATS[settings.game_format].target_score:  # V5 joker six: its own
            return replace(settings, target_score=target)
        return settings

    def recorded(self, table: Table) -> Recorded:
        match = _match(table.match) if table.match is not None else None
        assert match is not None
        hands = [r._asdict() | {"trump": r.trump.letter} for r in match.hand_results]
        target = table.settings.target_score
        return Recorded(team_stats(match), hands, record(match), target)


HOKM_FAMILY = HokmFamily()
"""The Hokm family's one object, registered in ``games``."""
