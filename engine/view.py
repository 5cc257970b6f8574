"""What one seat may know, and nothing more.

Rendering a player's screen and running a computer player both start from a ``SeatView``, so a
hidden card cannot leak by accident: the view simply does not hold the other hands (only how
many cards each seat has left).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, Suit
from .events import HandResult, Trick
from .match import BAM, BID, DISCARD, DRAW, MATCH_OVER, TRUMP, Match
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
    discards: tuple[Card, ...] = ()
    """V2: the cards this seat laid face down this hand (never another seat's)."""
    discard_counts: tuple[int, ...] = ()
    """V2: how many cards each seat has laid face down (their faces are hidden)."""
    drawn: Card | None = None
    """V2: the stock's top card, shown only to the seat whose turn it is to draw."""
    stock_left: int = 0
    """V2: cards left in the stock (their faces and order are hidden)."""
    can_discard: bool = False
    can_draw: bool = False
    can_bam: bool = False
    """V1: this seat took its side's seventh trick, the others none: bam or stop."""
    bam_team: int = -1
    """V1: the side playing on for every trick, or -1."""
    bids: tuple[int, ...] = ()
    """V5 joker six: each seat's bid this deal (-1 not yet spoken, 0 passed, else tricks)."""
    dealer: int = -1
    """V5 joker six: the seat that dealt (bidding starts after it); -1 in the other formats."""
    can_bid: bool = False

    @property
    def my_turn(self) -> bool:
        return self.to_act == self.seat and self.phase != MATCH_OVER

    @property
    def led_suit(self) -> Suit | None:
        """The suit of the trick's first card; a led joker leads trump (V5 joker six)."""
        if not self.trick:
            return None
        card = self.trick[0][1]
        return self.trump if card.is_joker else card.suit

    @property
    def legal_bids(self) -> tuple[int, ...]:
        """V5 joker six: what this seat may bid now, 0 (pass) first, then every bid of the
        format above the highest so far; empty unless it is this seat's turn to bid."""
        if not self.can_bid:
            return ()
        high = max(self.bids, default=0)
        return (0, *(b for b in self.fmt.bids if b > high))

    def team_of(self, seat: int) -> int:
        return self.seat_teams[seat]

    def is_partner(self, seat: int) -> bool:
        return seat != self.seat and self.seat_teams[seat] == self.team


def seat_view(match: Match, seat: int) -> SeatView:
    """The view of ``seat``: its own hand, public table state, its legal cards."""
    match._check_seat(seat)
    fmt = match.fmt
    phase = match.phase
    is_trump_phase = phase == TRUMP
    counts = tuple(m.bit_count() for m in match.hands)
    to_act = match.to_act
    draws = bool(fmt.discards)
    return SeatView(
        seat=seat,
        seats=fmt.seats,
        team=fmt.team_of[seat],
        phase=match.phase,
        hand_number=match.hand_number,
        hakem=match.hakem,
        trump=match.trump,
        to_act=match.to_act,
        hand=match.hand_of(seat),
        legal=match.legal_cards(seat),
        can_choose_trump=is_trump_phase and seat == match.hakem,
        can_redeal=match.can_redeal(seat),
        leader=match.leader,
        trick=match.current_trick(),
        tricks=tuple(match.tricks),
        team_tricks=tuple(match.team_tricks),
        scores=tuple(match.scores),
        target_score=match.target_score,
        cards_left=counts,
        first_hakem_deal=match.first_hakem_deal,
        hand_results=tuple(match.hand_results),
        tricks_to_win=fmt.tricks_to_win,
        seat_teams=fmt.team_of,
        fmt=fmt,
        discards=match.discards_of(seat),
        discard_counts=tuple(len(match.discards_of(s)) for s in range(fmt.seats)) if draws else (),
        drawn=match.drawn if to_act == seat else None,
        stock_left=match.stock_left,
        can_discard=phase == DISCARD and to_act == seat,
        can_draw=phase == DRAW and to_act == seat,
        can_bam=phase == BAM and to_act == seat,
        bam_team=match._bam_team,
        bids=getattr(match, "bids", ()),
        dealer=getattr(match, "dealer", -1),
        can_bid=phase == BID and to_act == seat,
    )
