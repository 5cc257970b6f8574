"""What one seat may know, and nothing more.

Rendering a player's screen and running a computer player both start from a ``SeatView``, so a
hidden card cannot leak by accident: the view simply does not hold the other hands (only how
many cards each seat has left).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, Suit, cards_of
from .events import HandResult, Trick
from .match import PLAY, TRUMP, Match
from .rules import GameFormat


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    seats: int
    team: int
    phase: str
    hand_number: int
    hakem: int
    trump: Suit | None
    to_act: int
    """The seat the table waits for (the hakem while trump is open; -1 when over)."""
    hand: tuple[Card, ...]
    """This seat's cards: the hakem's five during the trump phase, nothing for the others."""
    legal: tuple[Card, ...]
    """Cards this seat may play now; empty unless it is this seat's turn to play."""
    can_choose_trump: bool
    can_redeal: bool
    leader: int
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[Trick, ...]
    team_tricks: tuple[int, ...]
    scores: tuple[int, ...]
    target_score: int
    cards_left: tuple[int, ...]
    first_hakem_deal: tuple[tuple[int, Card], ...]
    hand_results: tuple[HandResult, ...]
    tricks_to_win: int
    seat_teams: tuple[int, ...]
    """``seat_teams[s]`` is the team of seat ``s``."""
    fmt: GameFormat
    """The table's format: seats, teams and points come from it, never from a constant."""

    @property
    def my_turn(self) -> bool:
        return self.to_act == self.seat and self.phase in (TRUMP, PLAY)

    @property
    def led_suit(self) -> Suit | None:
        return self.trick[0][1].suit if self.trick else None

    def team_of(self, seat: int) -> int:
        return self.seat_teams[seat]

    def is_partner(self, seat: int) -> bool:
        return seat != self.seat and self.seat_teams[seat] == self.team


def seat_view(match: Match, seat: int) -> SeatView:
    """The view of ``seat``: its own hand, public table state, its legal cards."""
    match._check_seat(seat)
    fmt = match.fmt
    is_trump_phase = match.phase == TRUMP
    counts = tuple(m.bit_count() for m in match.hands)
    return SeatView(
        seat=seat,
        seats=fmt.seats,
        team=fmt.team_of[seat],
        phase=match.phase,
        hand_number=match.hand_number,
        hakem=match.hakem,
        trump=match.trump,
        to_act=match.to_act,
        hand=cards_of(match.hands[seat]),
        legal=match.legal_cards(seat),
        can_choose_trump=is_trump_phase and seat == match.hakem,
        can_redeal=match.can_redeal(seat),
        leader=match.leader,
        trick=match.current_trick(),
        tricks=tuple(match.tricks),
        team_tricks=tuple(match.team_tricks),
        scores=tuple(match.scores),
        target_score=match.rules.target_score,
        cards_left=counts,
        first_hakem_deal=match.first_hakem_deal,
        hand_results=tuple(match.hand_results),
        tricks_to_win=fmt.tricks_to_win,
        seat_teams=fmt.team_of,
        fmt=fmt,
    )
