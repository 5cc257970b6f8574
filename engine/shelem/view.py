"""What one Shelem seat may know, and nothing more (V6.6.4).

Rendering a player's screen and running a computer player both start from a ``ShelemView``:
it holds the seat's own hand, the public table (bids, tricks, the points taken in tricks,
scores), and, for the hakem only, the kitty and the cards he laid down. Another seat's hand,
the kitty before the bidding ends and the laid-down cards are simply not in it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Card, Suit
from ..events import Trick
from .events import ShelemHandResult
from .match import DISCARD, MATCH_OVER, MODE, PLAY, ShelemMatch
from .options import TEAM_OF, TRICK_POINTS, Mode, ShelemOptions, mask_points


@dataclass(frozen=True, slots=True)
class ShelemView:
    seat: int
    team: int
    phase: str
    hand_number: int
    dealer: int
    to_act: int
    """The seat the table waits for (-1 when the match is over)."""
    hand: tuple[Card, ...]
    """This seat's cards (the hakem's with the kitty while he lays down)."""
    legal: tuple[Card, ...]
    """Cards this seat may play now; empty unless it is this seat's turn to play."""
    bids: tuple[int, ...]
    """Each seat's last bid this deal: -1 not yet spoken, 0 passed, else the bid (V6.3)."""
    auction: tuple[tuple[int, int], ...]
    """V6.3: this deal's bids in the order made, ``(seat, value)`` (public)."""
    high: int
    """The highest bid so far (0: none), ``high_seat`` its bidder (-1: none)."""
    high_seat: int
    legal_bids: tuple[int, ...]
    """What this seat may bid now, pass (0) first (none for a dealer who must open, V6.4.1);
    empty unless it is its turn to bid."""
    passed_deals: int
    """V6.4, V6.4.1: the deals of this hand everyone passed (public)."""
    final_deal: bool
    """V6.4.1: this deal may not be passed out: the dealer opens if the first three pass."""
    must_open: bool
    """V6.4.1: this seat is the dealer, asked after the first three passed a deal that may not
    be passed out: it must bid (``legal_bids`` holds no pass)."""
    hakem: int
    """-1 until the bidding is over."""
    bid: int
    """The hakem's bid (0 until the bidding is over)."""
    kitty: tuple[Card, ...]
    """V6.6.4: the kitty as dealt, for the hakem once the bidding is over; else empty."""
    discards: tuple[Card, ...]
    """V6.6.4: the cards the hakem laid down (or aside), for the hakem only."""
    kitty_size: int
    can_discard: bool
    modes: tuple[Mode, ...]
    """V6.7: what the hakem may announce at this table."""
    can_choose_mode: bool
    mode: Mode | None
    trump: Suit | None
    leader: int
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[Trick, ...]
    team_tricks: tuple[int, int]
    trick_points: tuple[int, int]
    """V6.9: the points each team has taken in tricks this hand (public). The hakem's laid-down
    set is not in it: ``own_set_points`` gives it to the hakem alone."""
    own_set_points: int
    """V6.6.2: the points of the hakem's laid-down set (5 and its cards), for the hakem; 0 for
    every other seat."""
    scores: tuple[int, int]
    target_score: int
    hand_total: int
    cards_left: tuple[int, ...]
    hand_results: tuple[ShelemHandResult, ...]
    options: ShelemOptions

    @property
    def my_turn(self) -> bool:
        return self.to_act == self.seat and self.phase != MATCH_OVER

    @property
    def can_bid(self) -> bool:
        return bool(self.legal_bids)

    @property
    def names_trump(self) -> bool:
        """This seat's next card is the hakem's first, which names trump (V6.8.1)."""
        return (
            self.phase == PLAY
            and self.mode == "hokm"
            and not self.tricks
            and not self.trick
            and self.seat == self.hakem
        )

    @property
    def led_suit(self) -> Suit | None:
        """The suit to follow: a led joker leads trump (V6.13)."""
        if not self.trick:
            return None
        card = self.trick[0][1]
        return self.trump if card.is_joker else card.suit

    def team_of(self, seat: int) -> int:
        return TEAM_OF[seat]

    def is_partner(self, seat: int) -> bool:
        return seat != self.seat and TEAM_OF[seat] == self.team


def seat_view(match: ShelemMatch, seat: int) -> ShelemView:
    """The view of ``seat``: its own hand and what is public, the kitty and laid-down cards
    only for the hakem (V6.6.4)."""
    match._check_seat(seat)
    phase = match.phase
    to_act = match.to_act
    discards = match.discards_of(seat)
    own_set = TRICK_POINTS + mask_points(sum(1 << c for c in discards)) if discards else 0
    return ShelemView(
        seat=seat,
        team=TEAM_OF[seat],
        phase=phase,
        hand_number=match.hand_number,
        dealer=match.dealer,
        to_act=to_act,
        hand=match.hand_of(seat),
        legal=match.legal_cards(seat),
        bids=tuple(match.bids),
        auction=tuple(match.auction),
        high=match.high,
        high_seat=match.high_seat,
        legal_bids=match.legal_bids(seat),
        passed_deals=match.passed_deals,
        final_deal=match.final_deal,
        must_open=match.must_open and seat == to_act,
        hakem=match.hakem,
        bid=match.bid_value,
        kitty=match.kitty_of(seat),
        discards=discards,
        kitty_size=match.kitty_size,
        can_discard=phase == DISCARD and to_act == seat,
        modes=match.options.modes,
        can_choose_mode=phase == MODE and to_act == seat,
        mode=match.mode,
        trump=match.trump,
        leader=match.leader,
        trick=match.current_trick(),
        tricks=tuple(match.tricks),
        team_tricks=(match.team_tricks[0], match.team_tricks[1]),
        trick_points=(match.team_points[0], match.team_points[1]),
        own_set_points=own_set,
        scores=(match.scores[0], match.scores[1]),
        target_score=match.target_score,
        hand_total=match.options.hand_total,
        cards_left=tuple(m.bit_count() for m in match.hands),
        hand_results=tuple(match.hand_results),
        options=match.options,
    )
