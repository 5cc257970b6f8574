"""V5 joker six: bidding for hakem and two jokers, on top of ``Match`` (docs/rules.md).

The seed (``002_…``): 54 cards (the 52 and two jokers), 9 each, two teams of three; no hakem
before the deal: from the seat after the dealer each seat bids once how many tricks (5–9) its
team would take with it as hakem, higher than any bid so far, or passes ("معاف"); the highest
bidder is hakem and names trump on his nine. The red joker is the highest card, the black next,
but the red counts only once the black has been played; before that it is "burnt" (worthless).
A made bid scores the tricks taken (9 tricks: doubled, 18; a bid of 9 made: 36); a failed bid
gives the other team ``2·X + 2·(X − Y − 1)``, at most 18 (X the bid, Y the tricks taken). The
team with fewer points deals; if all pass, the dealer's team scores 1 and deals again. 124 wins.

The project's readings where the seed is silent (docs/rules.md): a joker is a trump (as in the
related Shelem seed ``004_…``: "جوکرها همیشه خال حکم در نظر گرفته می شوند"), so it follows a trump
lead, may be played only when void in a led plain suit, and a joker lead leads trump; a burnt red
joker ranks below the 2 of trump; every trick of the hand is played.

A subclass rather than branches in ``Match``: the standard game's ``play`` and ``legal_cards``
stay exactly as tuned, and ``Match(seed, rules, JOKER_SIX)`` builds a ``JokerMatch``.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from . import serial
from .cards import (
    BLACK_JOKER,
    CARDS,
    FULL_DECK_MASK,
    JOKERS,
    RANKS_PER_SUIT,
    SUIT_TABLES,
    SUITS,
    Card,
    any_cards_of,
)
from .errors import BidNotAllowed, CardNotInHand, InvalidState, MustFollowSuit
from .events import Bid, Event, HandResult, HandStarted, MatchCompleted, PassedOut
from .match import (
    _NO_SUIT,
    _VARIANT_CLASSES,
    BID,
    MATCH_OVER,
    TRUMP,
    Match,
    _join,
    _split,
)
from .rules import JOKER_SIX
from .shuffle import permutation

_BLACK_VALUE: Final = 100  # above every plain card's number (0–51) as a running trick winner
_RED_VALUE: Final = 101
_MADE_ALL_POINTS: Final = 18  # 9 tricks of 9 on a lower bid: "۹ دست را بگیرند ۱۸ امتیاز"
_NINE_OF_NINE_POINTS: Final = 36  # a bid of 9 made: "۳۶ امتیاز"
_SET_CAP: Final = 18  # "همان عدد ۱۸ در نظر گرفته میشود و نه بزرگتر از آن"
_JOKERS_OF: Final = ((), (JOKERS[0],), (JOKERS[1],), JOKERS)


def set_points(bid: int, took: int) -> int:
    """What the other team scores when the hakem's team took ``took`` < ``bid`` tricks:
    ``2·bid + 2·(bid − took − 1)``, at most 18 (the seed's examples: 5 bid, 4 taken → 10;
    3 taken → 12; 7 bid, 5 taken → 16)."""
    return min(2 * bid + 2 * (bid - took - 1), _SET_CAP)


def made_points(bid: int, took: int) -> int:
    """What the hakem's team scores for a made bid: the tricks taken; all 9 doubled (18), and a
    bid of 9 made 36."""
    if took == 9:
        return _NINE_OF_NINE_POINTS if bid == 9 else _MADE_ALL_POINTS
    return took


class JokerMatch(Match):
    """A match of ``joker_six``: the ``bid`` phase, jokers in play, scoring by the bid."""

    __slots__ = ("_bids", "_black_played", "_dealer", "_jokers")

    _CONTAINERS: ClassVar[tuple[str, ...]] = (*Match._CONTAINERS, "_bids", "_jokers")

    # ------------------------------------------------------------------- set-up

    def _first_hakem(self) -> tuple[int, tuple[tuple[int, Card], ...]]:
        """No hakem before the deal: the first dealer is a random seat ("یکی از بازیکنان")."""
        n = self.fmt.seats
        self._dealer = permutation(self.seed, "first-seat", n)[0]
        self._jokers = [0] * n
        self._bids = [-1] * n
        self._black_played = False
        return -1, ()

    def _deal(self) -> None:
        """All nine to every seat, from the seat after the dealer; then the bidding."""
        fmt = self.fmt
        n = fmt.seats
        size = fmt.hand_size
        self.deal_number += 1
        order = permutation(self.seed, f"deal-{self.deal_number}", len(fmt.deck))
        first = fmt.next_seat[self._dealer]
        held: list[list[int]] = [[]] * n
        jokers = [0] * n
        for k in range(n):
            seat = (first + k) % n
            mask = 0
            for position in order[k * size : (k + 1) * size]:
                mask |= 1 << fmt.deck[position]
            held[seat] = _split(mask & FULL_DECK_MASK)
            jokers[seat] = mask >> len(CARDS)
        self._held = self._dealt = held
        self._jokers = jokers
        self._black_played = False
        self._bids = [-1] * n
        self.hakem = -1
        self.phase = BID
        self._decider = first
        self.trump = None
        self._trump_suit = -1
        self.leader = -1
        self.turn = -1
        self.trick = []
        self.tricks = []
        self.team_tricks = [0] * len(fmt.teams)
        self._led_suit = _NO_SUIT
        self._led_table = SUIT_TABLES[0]
        self._win_seat = -1
        self._win_suit = -1
        self._win_value = -1

    # ------------------------------------------------------------------ bidding

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def bids(self) -> tuple[int, ...]:
        """Each seat's bid this deal: -1 not yet spoken, 0 passed, else the tricks bid."""
        return tuple(self._bids)

    @property
    def high_bid(self) -> int:
        return max(self._bids)

    def bid(self, seat: int, tricks: int) -> tuple[Event, ...]:
        """Bid ``tricks`` for hakem, higher than every bid so far, or pass with 0. The dealer
        speaks last; a bid of 9 ends the bidding (nobody can go higher)."""
        self._check_decision(seat, BID, "bid")
        allowed = self.fmt.bids
        if (
            not isinstance(tricks, int)
            or isinstance(tricks, bool)
            or (tricks != 0 and (tricks not in allowed or tricks <= self.high_bid))
        ):
            raise BidNotAllowed(seat, tricks, max(allowed[0], self.high_bid + 1), allowed[-1])
        self._bids[seat] = tricks
        self._log.append(("bid", seat, tricks))
        events: list[Event] = [Bid(seat, tricks)]
        if seat != self._dealer and tricks != allowed[-1]:
            self._decider = self.fmt.next_seat[seat]
            return tuple(events)
        self._decider = -1
        high = self.high_bid
        if high > 0:
            self.hakem = self._bids.index(high)
            self.phase = TRUMP
            return tuple(events)
        team = self.fmt.team_of[self._dealer]  # everyone passed: a point, the same dealer
        self.scores[team] += 1
        events.append(PassedOut(self._dealer, tuple(self.scores)))
        if self.scores[team] >= self._target:
            self.phase = MATCH_OVER
            events.append(MatchCompleted(team, tuple(self.scores)))
            return tuple(events)
        self._deal()
        return tuple(events)

    def can_redeal(self, seat: int | None = None) -> bool:
        """R6 does not apply: the hakem is chosen by bidding, on all nine cards."""
        return False

    # --------------------------------------------------------------------- play

    @property
    def hands(self) -> list[int]:
        shift = len(CARDS)
        return [_join(held) | j << shift for held, j in zip(self._held, self._jokers, strict=True)]

    def hand_of(self, seat: int) -> tuple[Card, ...]:
        self._check_seat(seat)
        return any_cards_of(self.hands[seat])

    def legal_cards(self, seat: int) -> tuple[Card, ...]:
        """R8 with jokers as trumps: they follow a trump lead (and must, if the seat has no other
        trump), may be led, and may be played on a plain suit only by a seat void in it."""
        plain = super().legal_cards(seat)
        if seat != self.turn or seat < 0:
            return ()
        jokers = _JOKERS_OF[self._jokers[seat]]
        if not jokers or not self.trick:
            return plain + jokers
        held = self._held[seat]
        led = self._led_suit
        if led == self._trump_suit:
            return plain + jokers if held[led] else jokers
        return plain if held[led] else plain + jokers

    def play(self, seat: int, card: Card | int) -> tuple[Event, ...]:
        if isinstance(card, int) and not isinstance(card, bool) and card in JOKERS:
            return self._play_joker(seat, JOKERS[card - len(CARDS)])
        if (
            seat == self.turn
            and seat >= 0
            and self.trick
            and self._jokers[seat]
            and self._led_suit == self._trump_suit
            and not self._held[seat][self._trump_suit]
            and isinstance(card, int)
            and 0 <= card < len(CARDS)
            and self._held[seat][card // RANKS_PER_SUIT] & 1 << card % RANKS_PER_SUIT
        ):
            raise MustFollowSuit(seat, CARDS[card], SUITS[self._trump_suit])
        return super().play(seat, card)

    def _play_joker(self, seat: int, joker: Card) -> tuple[Event, ...]:
        if seat != self.turn or seat < 0:
            self._refuse_out_of_turn(seat)
        bit = 1 << (joker - len(CARDS))
        if not self._jokers[seat] & bit:
            raise CardNotInHand(seat, joker)
        trump = self._trump_suit
        trick = self.trick
        if trick and self._led_suit != trump and self._held[seat][self._led_suit]:
            raise MustFollowSuit(seat, joker, SUITS[self._led_suit])
        value = self._joker_value(joker)
        self._jokers[seat] ^= bit
        if not trick:
            self._led_suit = trump
            self._led_table = SUIT_TABLES[trump]
            self._win_suit, self._win_value, self._win_seat = trump, value, seat
        elif self._win_suit != trump or value > self._win_value:
            self._win_suit, self._win_value, self._win_seat = trump, value, seat
        trick.append(joker)
        if len(trick) < self._seats:
            self.turn = self._next_seat[seat]
            return ()
        return self._finish_trick()

    def _joker_value(self, joker: Card) -> int:
        """The joker's worth as a trump; playing the black joker makes the red one count."""
        if joker == BLACK_JOKER:
            self._black_played = True
            return _BLACK_VALUE
        if self._black_played:
            return _RED_VALUE
        return self._trump_suit * RANKS_PER_SUIT - 1  # burnt: below the 2 of trump

    # ------------------------------------------------------------------ scoring

    def _decide_hand(self, team: int) -> tuple[Event, ...]:
        """After the ninth trick: the bid made or not, 124 to win; the next dealer."""
        fmt = self.fmt
        assert self.trump is not None
        hakem_team = fmt.team_of[self.hakem]
        bid = self._bids[self.hakem]
        took = self.team_tricks[hakem_team]
        if took >= bid:
            winner, kind, points = hakem_team, "made", made_points(bid, took)
        else:
            winner, kind, points = 1 - hakem_team, "set", set_points(bid, took)
        self.scores[winner] += points
        result = HandResult(
            number=self.hand_number,
            hakem=self.hakem,
            trump=self.trump,
            tricks=tuple(self.team_tricks),
            winner_team=winner,
            points=points,
            kind=kind,  # type: ignore[arg-type]
            scores_after=tuple(self.scores),
            bid=bid,
        )
        self.hand_results.append(result)
        events: list[Event] = [result]
        if self.scores[winner] >= self._target:
            self.phase = MATCH_OVER
            self.turn = -1
            events.append(MatchCompleted(winner, tuple(self.scores)))
            return tuple(events)
        self._dealer = self._next_dealer()
        self._start_hand()
        events.append(HandStarted(self.hand_number, -1))
        return tuple(events)

    def _next_dealer(self) -> int:
        """ "تیمی که امتیاز کمتری قبل هر دست دارد، دست میدهد": the team with fewer points deals,
        by its nearest seat after the last dealer; at equal scores the next seat deals."""
        fmt = self.fmt
        seat = fmt.next_seat[self._dealer]
        if self.scores[0] == self.scores[1]:
            return seat
        lower = 0 if self.scores[0] < self.scores[1] else 1
        while fmt.team_of[seat] != lower:
            seat = fmt.next_seat[seat]
        return seat

    # ------------------------------------------------------------ serialization

    def _variant_to_dict(self, data: dict[str, Any]) -> None:
        data["dealer"] = self._dealer
        data["bids"] = list(self._bids)

    def _restore_variant(self, data: dict[str, Any]) -> None:
        self._dealer = int(data["dealer"])
        self._bids = [int(b) for b in data["bids"]]
        if len(self._bids) != self.fmt.seats or not 0 <= self._dealer < self.fmt.seats:
            raise InvalidState("bad bidding state")
        self._jokers = [serial.mask(h) >> len(CARDS) for h in data["hands"]]

    def _restore_running_winner(self) -> None:
        self._black_played = any(BLACK_JOKER in t.cards for t in self.tricks)
        trick, self.trick = self.trick, []
        self._led_suit = _NO_SUIT
        self._led_table = SUIT_TABLES[0]  # set with no trick led too: a copy reads every slot
        self._win_seat = self._win_suit = self._win_value = -1
        n = self._seats
        for i, card in enumerate(trick):
            seat = (self.leader + i) % n
            if card.is_joker:
                value, suit = self._joker_value(card), self._trump_suit
            else:
                value, suit = int(card), card // RANKS_PER_SUIT
            if i == 0:
                self._led_suit = suit
                self._led_table = SUIT_TABLES[suit]
                self._win_suit, self._win_value, self._win_seat = suit, value, seat
            elif suit == self._win_suit:
                if value > self._win_value:
                    self._win_value, self._win_seat = value, seat
            elif suit == self._trump_suit:
                self._win_suit, self._win_value, self._win_seat = suit, value, seat
            self.trick.append(card)


_VARIANT_CLASSES[JOKER_SIX.name] = JokerMatch
