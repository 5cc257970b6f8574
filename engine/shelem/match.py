"""A Shelem match (V6): deal, bidding, kitty, mode, twelve tricks and the score, as one state
machine (docs/rules.md V6).

As Hokm's ``Match``: every action is a method that checks everything first and only then
changes the state, so a refused action (an ``IllegalMove``) leaves the match exactly as it was;
a match is fully determined by its seed, its options and its actions (``replay``); ``to_dict``
and ``from_dict`` round-trip it through JSON. A class of its own rather than a ``Match``
subclass: a Shelem hand has a kitty, an auction, a mode and a point count where Hokm's has a
trump phase and a trick count, and sharing Hokm's tuned play path would buy nothing.

Cards are the engine's numbers (``engine.cards``: 0–51, the black joker 52, the red 53) and a
hand is a bitmask of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final, Self, get_args

from .. import serial
from ..cards import ANY_CARDS, CARDS, SUIT_MASKS, SUITS, Card, Suit, any_cards_of, mask_of
from ..errors import (
    BidOutOfRange,
    BidTooLow,
    CardNotInHand,
    DiscardCount,
    IllegalMove,
    InvalidState,
    JokerCannotNameTrump,
    ModeNotAllowed,
    MustFollowSuit,
    NotYourTurn,
    SarShelemNotAllowed,
    UnknownSeat,
    WrongPhase,
)
from ..events import MatchCompleted, Trick
from ..rules import SHELEM_FORMAT, GameFormat
from ..shuffle import permutation
from .errors import DealerMustOpen
from .events import (
    SET_KINDS,
    HakemChosen,
    KittyDiscarded,
    ModeChosen,
    ShelemBid,
    ShelemDealt,
    ShelemEvent,
    ShelemHandResult,
    ShelemKind,
    ShelemRedealt,
    TrumpNamed,
)
from .options import (
    CARD_POINTS,
    HAND_SIZE,
    MAX_HANDS,
    MODES,
    PASS,
    PASSED_DEALS_MAX,
    SAR_SHELEM,
    SEATS,
    SHELEM,
    TRICK_POINTS,
    Mode,
    ShelemOptions,
    mask_points,
)

FORMAT_NAME: Final = SHELEM_FORMAT
"""The name a stored Shelem match carries (``to_dict()["format"]``)."""
SERIAL_VERSION: Final = 1

BID: Final = "bid"
"""V6.3: from the seat after the dealer, each seat still in bids higher or passes."""
DISCARD: Final = "discard"
"""V6.6.1: the hakem holds the kitty too and lays down as many cards as it had."""
MODE: Final = "mode"
"""V6.7: the hakem announces hokm or a mode the table allows (skipped when it allows none)."""
PLAY: Final = "play"
MATCH_OVER: Final = "match_over"
PHASES: Final = (BID, DISCARD, MODE, PLAY, MATCH_OVER)
_DECISION_PHASES: Final = (BID, DISCARD, MODE)

JOKER_MASK: Final = 3 << len(CARDS)
_NOT_NAMED: Final = -1


def _power_table(mode: Mode) -> tuple[int, ...]:
    """V6.7, V6.13: each card's strength within its suit in ``mode`` (jokers above the ace)."""
    out = []
    for card in range(len(CARDS) + 2):
        rank = card % 13 if card < len(CARDS) else 13 + card - len(CARDS)
        if mode == "nars":
            out.append(12 - rank)
        elif mode == "ace_nars":
            out.append(12 if rank == 12 else 11 - rank)
        else:
            out.append(rank)
    return tuple(out)


#: ``POWER[mode][card]``: the strength R9 compares, per mode (V6.7).
POWER: Final[dict[str, tuple[int, ...]]] = {mode: _power_table(mode) for mode in MODES}

Action = Card | tuple[Any, ...]
"""A played ``Card`` (always by the seat whose turn it was), ``("bid", seat, value)``,
``("discard", seat, cards)`` (a tuple of ``Card``), ``("mode", seat, mode)``."""


_PLAIN: Final = len(CARDS)


def suit_in_play(card: int, trump: int) -> int:
    """A card's suit for following and winning: a joker is a trump (V6.13)."""
    return trump if card >= _PLAIN else card // 13


def trick_winner(leader: int, cards: Sequence[int], mode: str, trump: int) -> int:
    """V6.8.2: the seat whose card takes the trick ``cards`` led by ``leader``: the strongest
    card of the led suit, or the strongest trump (``hokm`` only; ``trump`` -1 if none)."""
    power = POWER[mode]
    best = 0
    first = cards[0]
    best_suit = trump if first >= _PLAIN else first // 13
    best_power = power[first]
    for i in range(1, len(cards)):
        card = cards[i]
        suit = trump if card >= _PLAIN else card // 13
        if suit == best_suit:
            if power[card] > best_power:
                best, best_power = i, power[card]
        elif suit == trump:
            best, best_suit, best_power = i, suit, power[card]
    return (leader + best) % SEATS


def score_hand(
    options: ShelemOptions,
    bid: int,
    hakem_team: int,
    points: tuple[int, int],
    all_tricks: bool,
    scores: tuple[int, int],
) -> tuple[ShelemKind, tuple[int, int], tuple[int, int]]:
    """V6.10–V6.12: how a hand is scored: its kind, what each team's score moves by, and the
    points a defending side near the target does not score. ``points`` per team (the hakem's
    laid-down set included), ``all_tricks``: the hakem's side took all 12, ``scores`` before."""
    other = 1 - hakem_team
    ours, theirs = points[hakem_team], points[other]
    kind: ShelemKind
    if bid in (SHELEM, SAR_SHELEM):  # V6.11
        won = options.shelem_points
        if bid == SHELEM:
            kind, change = ("shelem", won) if all_tricks else ("shelem_set", -won)
        else:
            kind, change = ("sar_shelem", won) if all_tricks else ("sar_shelem_set", -won)
    elif all_tricks:  # V6.10
        kind, change = "all_tricks", 2 * bid
    elif ours >= bid:
        kind, change = "made", bid
    elif ours >= theirs:
        kind, change = "set", -bid
    else:
        kind, change = "double_set", -2 * bid
    changes = [0, 0]
    withheld = [0, 0]
    changes[hakem_team] = change
    near = options.target - scores[other] <= options.hand_total
    if near and kind not in SET_KINDS:  # V6.12
        withheld[other] = theirs
    else:
        changes[other] = theirs
    return kind, (changes[0], changes[1]), (withheld[0], withheld[1])


def hand_limit_winner(scores: Sequence[int], last: ShelemHandResult) -> int:
    """V6.14.1: the winner once a match has played ``MAX_HANDS`` hands: the higher score; at
    equal scores the side that won the last hand (the hakem's if it made its bid, else the
    defenders), so the limit always names one."""
    us, them = scores
    if us != them:
        return 0 if us > them else 1
    return last.hakem_team if last.made else 1 - last.hakem_team


def match_winner(options: ShelemOptions, scores: Sequence[int]) -> int | None:
    """V6.14: a team at the target, or ahead of the other by it, wins; else ``None``. Should
    both qualify the higher score wins; equal scores play on."""
    us, them = scores
    target = options.target
    if (max(us, them) < target and abs(us - them) < target) or us == them:
        return None
    return 0 if us > them else 1


class ShelemMatch:
    """The whole state of one Shelem match. Not thread-safe; the bot serializes access."""

    __slots__ = (
        "_decider",
        "_deck_size",
        "_discards",
        "_hands",
        "_kitty",
        "_led",
        "_log",
        "_trump",
        "auction",
        "bid_value",
        "bids",
        "bounded",
        "deal_number",
        "dealer",
        "hakem",
        "hand_number",
        "hand_results",
        "high",
        "high_seat",
        "leader",
        "mode",
        "options",
        "passed_deals",
        "phase",
        "scores",
        "seed",
        "team_points",
        "team_tricks",
        "trick",
        "tricks",
        "trump",
        "turn",
    )

    def __init__(
        self, seed: int, options: ShelemOptions | None = None, *, bounded: bool = True
    ) -> None:
        """``bounded=False`` only replays a record kept before V6.4.1 and V6.14.1 (its all-pass
        deals without end, no hand limit), as that match was played."""
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise InvalidState(f"seed must be a non-negative integer, not {seed!r}")
        self.seed = seed
        self.options = options or ShelemOptions()
        self.bounded = bounded
        self._deck_size = len(self.options.deck)
        self.scores = [0, 0]
        self.hand_results: list[ShelemHandResult] = []
        self.hand_number = 0
        self.deal_number = 0
        self._log: list[Action] = []
        self.dealer = permutation(seed, "shelem-first-dealer", SEATS)[0]  # V6.2
        self._new_hand()

    # ------------------------------------------------------------------ deal (V6.2)

    def _new_hand(self) -> None:
        self.hand_number += 1
        self.passed_deals = 0  # V6.4.1: counted within a hand
        self._deal()

    def _deal(self) -> None:
        """V6.2: 12 cards to each seat from the seat after the dealer, the rest the kitty."""
        self.deal_number += 1
        deck = self.options.deck
        order = permutation(self.seed, f"shelem-deal-{self.deal_number}", len(deck))
        first = (self.dealer + 1) % SEATS
        hands = [0] * SEATS
        for k in range(SEATS):
            mask = 0
            for position in order[k * HAND_SIZE : (k + 1) * HAND_SIZE]:
                mask |= 1 << deck[position]
            hands[(first + k) % SEATS] = mask
        kitty = 0
        for position in order[SEATS * HAND_SIZE :]:
            kitty |= 1 << deck[position]
        self._hands = hands
        self._kitty = kitty
        self._discards = 0
        self.bids = [-1] * SEATS
        self.auction: list[tuple[int, int]] = []
        self.high = PASS
        self.high_seat = -1
        self.hakem = -1
        self.bid_value = PASS
        self.mode: Mode | None = None
        self.trump: Suit | None = None
        self._trump = _NOT_NAMED  # the trump as a plain int, compared on every card
        self.phase = BID
        self._decider = first
        self.leader = -1
        self.turn = -1
        self.trick: list[Card] = []
        self.tricks: list[Trick] = []
        self.team_points = [0, 0]
        self.team_tricks = [0, 0]
        self._led = -1

    # --------------------------------------------------------------- bidding (V6.3–V6.5)

    def legal_bids(self, seat: int) -> tuple[int, ...]:
        """What ``seat`` may bid now, pass (0) first, unless the dealer must open (V6.4.1:
        no pass); empty unless it is its turn to bid."""
        if self.phase != BID or seat != self._decider:
            return ()
        if self.high == SHELEM:  # V6.5.2: only an opponent still in is asked now
            return (PASS, SAR_SHELEM)
        bids = (*(b for b in self.options.point_bids if b > self.high), SHELEM)
        return bids if self.must_open else (PASS, *bids)

    @property
    def must_open(self) -> bool:
        """V6.4.1: ``PASSED_DEALS_MAX`` deals of this hand were passed, the first three passed
        this one too, and the dealer is asked: he may not pass."""
        return (
            self.phase == BID
            and self.final_deal
            and self.high_seat < 0
            and self._decider == self.dealer
        )

    @property
    def final_deal(self) -> bool:
        """V6.4.1: this is the hand's last deal: it may not be passed out, and the dealer opens
        if the first three pass (public: everyone saw the deals passed)."""
        return self.bounded and self.passed_deals >= PASSED_DEALS_MAX

    def bid(self, seat: int, value: int) -> tuple[ShelemEvent, ...]:
        """V6.3: bid ``value`` (above every bid so far), ``SHELEM``, ``SAR_SHELEM`` (V6.5), or
        pass with 0 (not a dealer who must open: ``DealerMustOpen``, V6.4.1)."""
        self._check_decision(seat, BID, "bid")
        options = self.options
        if (
            not isinstance(value, int)
            or isinstance(value, bool)
            or (value not in (PASS, SHELEM, SAR_SHELEM) and value not in options.point_bids)
        ):
            raise BidOutOfRange(seat, value, options.min_bid, options.max_bid, 5)
        if value == PASS and self.must_open:
            raise DealerMustOpen(seat, options.min_bid, self.passed_deals)
        if value == SAR_SHELEM:
            if self.high != SHELEM:
                raise SarShelemNotAllowed(seat, "no shelem has been bid")
        elif value != PASS and value <= self.high:
            raise BidTooLow(seat, value, self.high)
        self.bids[seat] = value
        self.auction.append((seat, value))
        self._log.append(("bid", seat, value))
        events: list[ShelemEvent] = [ShelemBid(seat, value)]
        if value != PASS:
            self.high, self.high_seat = value, seat
        if value == SAR_SHELEM:
            return (*events, *self._end_bidding())
        nxt = self._next_bidder(seat)
        if nxt >= 0:
            self._decider = nxt
            return tuple(events)
        if self.high_seat >= 0:
            return (*events, *self._end_bidding())
        self._deal()  # V6.4: the first three passed
        self.passed_deals += 1
        events.append(ShelemRedealt(self.dealer, self.deal_number))
        return tuple(events)

    def _next_bidder(self, seat: int) -> int:
        """The next seat to speak after ``seat``, or -1 when the bidding is over: V6.3.3 after
        three passes (V6.4.1: on a deal that may not be passed out, the dealer, if nobody has
        bid); V6.5.2 after a shelem only its bidder's opponents still in, each once."""
        bids = self.bids
        if self.high == SHELEM:
            shelem = self.high_seat
            seat = (seat + 1) % SEATS
            while seat != shelem:
                if (seat - shelem) % 2 and bids[seat] != PASS:
                    return seat
                seat = (seat + 1) % SEATS
            return -1
        if bids.count(PASS) >= SEATS - 1:
            return self.dealer if self.high_seat < 0 and self.final_deal else -1
        seat = (seat + 1) % SEATS
        while bids[seat] == PASS:
            seat = (seat + 1) % SEATS
        return seat

    def _end_bidding(self) -> tuple[ShelemEvent, ...]:
        """V6.3.3: the highest bidder is hakem and takes the kitty (V6.6.1); after a
        sar-shelem he only sees it, laid aside as his set (V6.6.3)."""
        hakem = self.hakem = self.high_seat
        self.bid_value = self.high
        events: list[ShelemEvent] = [HakemChosen(hakem, self.high)]
        if self.high == SAR_SHELEM:
            self._discards = self._kitty
            events.extend(self._after_kitty())
            return tuple(events)
        self._hands[hakem] |= self._kitty
        self.phase = DISCARD
        self._decider = hakem
        return tuple(events)

    # ------------------------------------------------------------ kitty (V6.6), mode (V6.7)

    def discard(self, seat: int, cards: Iterable[Card | int]) -> tuple[ShelemEvent, ...]:
        """V6.6.1: the hakem lays down exactly ``kitty_size`` different cards of his hand."""
        self._check_decision(seat, DISCARD, "lay down cards")
        if isinstance(cards, int | str | bytes) or not isinstance(cards, Iterable):
            raise IllegalMove(f"not a list of cards: {cards!r}")
        chosen = list(cards)
        deck = self._deck_size
        for card in chosen:
            if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < deck:
                raise IllegalMove(f"not a card: {card!r}")
        needed = self.options.kitty_size
        if len(chosen) != needed or len(set(chosen)) != needed:
            raise DiscardCount(seat, len(set(chosen)), needed)
        mask = mask_of(chosen)
        for card in chosen:
            if not self._hands[seat] >> card & 1:
                raise CardNotInHand(seat, ANY_CARDS[card])
        self._hands[seat] ^= mask
        self._discards = mask
        self._log.append(("discard", seat, any_cards_of(mask)))
        return (KittyDiscarded(seat, needed), *self._after_kitty())

    def _after_kitty(self) -> tuple[ShelemEvent, ...]:
        """V6.7: the mode phase when the table allows a mode besides hokm, else play."""
        if len(self.options.modes) > 1:
            self.phase = MODE
            self._decider = self.hakem
            return ()
        self.mode = "hokm"
        self._start_play()
        return ()

    def choose_mode(self, seat: int, mode: str) -> tuple[ShelemEvent, ...]:
        """V6.7: the hakem announces the hand's mode before his first card."""
        self._check_decision(seat, MODE, "announce the mode")
        allowed = self.options.modes
        if mode not in allowed:
            raise ModeNotAllowed(seat, mode, allowed)
        chosen = allowed[allowed.index(mode)]  # the ``Mode`` literal, not the caller's str
        self.mode = chosen
        self._log.append(("mode", seat, chosen))
        self._start_play()
        return (ModeChosen(seat, chosen),)

    def _start_play(self) -> None:
        self.phase = PLAY
        self._decider = -1
        self.leader = self.turn = self.hakem  # V6.8.1

    def _check_decision(self, seat: int, phase: str, action: str) -> None:
        self._check_seat(seat)
        if self.phase != phase:
            raise WrongPhase(action, self.phase)
        if seat != self._decider:
            raise NotYourTurn(seat, self._decider)

    def _check_seat(self, seat: int) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < SEATS:
            raise UnknownSeat(seat)

    # --------------------------------------------------------------------- play (V6.8)

    def _suit_mask(self, suit: int) -> int:
        """The cards that follow ``suit``: a joker follows trump (V6.13)."""
        return SUIT_MASKS[suit] | (JOKER_MASK if suit == self._trump else 0)

    def _names_trump(self) -> bool:
        """The next card is the hakem's first, which names trump in ``hokm`` (V6.8.1)."""
        return self._trump < 0 and self.mode == "hokm" and not self.trick

    def _legal_mask(self, seat: int) -> int:
        hand = self._hands[seat]
        if not self.trick:
            return hand & ~JOKER_MASK if self._names_trump() else hand  # V6.13
        follow = hand & self._suit_mask(self._led)
        return follow or hand

    def legal_cards(self, seat: int) -> tuple[Card, ...]:
        """V6.8.2: the cards ``seat`` may play now (empty when it is not its turn)."""
        if self.phase != PLAY or seat != self.turn:
            return ()
        return any_cards_of(self._legal_mask(seat))

    def play(self, seat: int, card: Card | int) -> tuple[ShelemEvent, ...]:
        """Play ``card`` from ``seat``'s hand (V6.8); the hand is scored after trick 12."""
        if type(seat) is not int or seat != self.turn or self.phase != PLAY:
            self._check_play_turn(seat)
        try:
            if type(card) is bool or not 0 <= card < self._deck_size:
                raise TypeError
            card = ANY_CARDS[card]
        except TypeError:
            raise IllegalMove(f"not a card: {card!r}") from None
        hand = self._hands[seat]
        if not hand >> card & 1:
            raise CardNotInHand(seat, card)
        trick = self.trick
        events: tuple[ShelemEvent, ...] = ()
        if trick:
            follow = hand & self._suit_mask(self._led)
            if follow and not follow >> card & 1:
                raise MustFollowSuit(seat, card, SUITS[self._led])
        elif self._trump < 0 and self.mode == "hokm":  # the hakem's first card (V6.8.1)
            if card.is_joker:
                raise JokerCannotNameTrump(seat, card)
            self.trump = card.suit
            self._trump = self._led = card // 13
            events = (TrumpNamed(seat, card.suit),)
        else:
            self._led = self._trump if card >= _PLAIN else card // 13
        self._hands[seat] = hand ^ (1 << card)
        trick.append(card)
        if len(trick) < SEATS:
            self.turn = (seat + 1) % SEATS
            return events
        return events + self._finish_trick()

    def _check_play_turn(self, seat: int) -> None:
        """The slow path of ``play``'s first check: say exactly what is wrong, if anything."""
        self._check_seat(seat)
        if self.phase != PLAY:
            raise WrongPhase("play a card", self.phase)
        if seat != self.turn:
            raise NotYourTurn(seat, self.turn)

    def _finish_trick(self) -> tuple[ShelemEvent, ...]:
        """V6.8.2, V6.9: the winner takes the trick's points and leads next."""
        trick = self.trick
        assert self.mode is not None
        winner = trick_winner(self.leader, trick, self.mode, self._trump)
        done = Trick(len(self.tricks) + 1, self.leader, tuple(trick), winner)
        self.tricks.append(done)
        self._log += trick
        self.trick = []
        self._led = -1
        team = winner % 2
        c0, c1, c2, c3 = trick
        points = CARD_POINTS[c0] + CARD_POINTS[c1] + CARD_POINTS[c2] + CARD_POINTS[c3]
        self.team_points[team] += TRICK_POINTS + points
        self.team_tricks[team] += 1
        self.leader = self.turn = winner
        if len(self.tricks) < HAND_SIZE:
            return (done,)
        return (done, *self._score_hand())

    # ------------------------------------------------------------ scoring (V6.9–V6.14)

    def hand_points(self) -> tuple[int, int]:
        """V6.9: each team's points so far this hand, the hakem's laid-down set included."""
        points = list(self.team_points)
        if self._discards:  # laid down (or, after a sar-shelem, laid aside): V6.6.2
            points[self.hakem % 2] += TRICK_POINTS + mask_points(self._discards)
        return points[0], points[1]

    def _score_hand(self) -> tuple[ShelemEvent, ...]:
        hakem_team = self.hakem % 2
        points = self.hand_points()
        all_tricks = self.team_tricks[hakem_team] == HAND_SIZE
        bid = self.bid_value
        kind, changes, withheld = score_hand(
            self.options, bid, hakem_team, points, all_tricks, (self.scores[0], self.scores[1])
        )
        self.scores[0] += changes[0]
        self.scores[1] += changes[1]
        assert self.mode is not None
        result = ShelemHandResult(
            number=self.hand_number,
            hakem=self.hakem,
            bid=bid,
            mode=self.mode,
            trump=self.trump,
            tricks=(self.team_tricks[0], self.team_tricks[1]),
            points=points,
            kind=kind,
            changes=changes,
            withheld=withheld,
            scores_after=(self.scores[0], self.scores[1]),
        )
        self.hand_results.append(result)
        winner = self._match_winner()
        if winner is not None:  # V6.14
            self.phase = MATCH_OVER
            self.turn = self._decider = -1
            return (result, MatchCompleted(winner, tuple(self.scores)))
        self.dealer = (self.dealer + 1) % SEATS
        self._new_hand()
        return (result, ShelemDealt(self.hand_number, self.dealer, self._decider))

    def _match_winner(self) -> int | None:
        """V6.14; V6.14.1 once the last hand a match may have was scored."""
        winner = match_winner(self.options, self.scores)
        if winner is None and self.bounded and self.hand_number >= MAX_HANDS and self.hand_results:
            return hand_limit_winner(self.scores, self.hand_results[-1])
        return winner

    # -------------------------------------------------------------------- queries

    @property
    def target_score(self) -> int:
        return self.options.target

    @property
    def fmt(self) -> GameFormat:
        """The table's shape (``ShelemOptions.fmt``): seats, teams, deck and kitty."""
        return self.options.fmt

    @property
    def to_act(self) -> int:
        """The seat the table waits for: the bidder, the hakem laying down or announcing, the
        seat to play; -1 when the match is over."""
        return self.turn if self.phase == PLAY else self._decider

    @property
    def hakem_decides(self) -> bool:
        """V6.6, V6.7, V6.15: the hakem lays down cards or announces the mode, decisions with
        the hakem's own (longer) time limit, as naming trump has in Hokm (R14)."""
        return self.phase in (DISCARD, MODE)

    @property
    def is_over(self) -> bool:
        return self.phase == MATCH_OVER

    @property
    def winner_team(self) -> int | None:
        return self._match_winner() if self.phase == MATCH_OVER else None

    @property
    def hands(self) -> list[int]:
        """Each seat's cards as a bitmask (the hakem's with the kitty while he lays down)."""
        return list(self._hands)

    def hand_of(self, seat: int) -> tuple[Card, ...]:
        self._check_seat(seat)
        return any_cards_of(self._hands[seat])

    def kitty_of(self, seat: int) -> tuple[Card, ...]:
        """V6.6.4: the kitty as dealt, for the hakem once the bidding is over; else nothing."""
        self._check_seat(seat)
        if seat != self.hakem or self.phase == BID:
            return ()
        return any_cards_of(self._kitty)

    def discards_of(self, seat: int) -> tuple[Card, ...]:
        """V6.6.4: the hakem's laid-down cards (the kitty after a sar-shelem), for him only."""
        self._check_seat(seat)
        return any_cards_of(self._discards) if seat == self.hakem else ()

    @property
    def kitty_size(self) -> int:
        return self.options.kitty_size

    def current_trick(self) -> tuple[tuple[int, Card], ...]:
        return tuple(((self.leader + i) % SEATS, c) for i, c in enumerate(self.trick))

    def played_mask(self) -> int:
        mask = mask_of(self.trick)
        for trick in self.tricks:
            mask |= mask_of(trick.cards)
        return mask

    @property
    def actions(self) -> list[Action]:
        """Everything done so far, in order: ``replay(seed, actions, options)`` rebuilds it."""
        return self._log + self.trick

    def apply(self, action: Action | Sequence[Any]) -> tuple[ShelemEvent, ...]:
        """Apply one entry of ``actions`` (used by ``replay``)."""
        if isinstance(action, int):
            return self.play(self.turn, action)
        if not isinstance(action, tuple | list):
            raise IllegalMove(f"unknown action {action!r}")
        kind = action[0] if action else None
        if kind == "play" and len(action) == 3:
            return self.play(action[1], action[2])
        if kind == "bid" and len(action) == 3:
            return self.bid(action[1], action[2])
        if kind == "discard" and len(action) == 3:
            return self.discard(action[1], action[2])
        if kind == "mode" and len(action) == 3:
            return self.choose_mode(action[1], action[2])
        raise IllegalMove(f"unknown action {action!r}")

    # ------------------------------------------------------------- serialization

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data that ``from_dict`` turns back into an identical match."""
        return {
            "version": SERIAL_VERSION,
            "format": FORMAT_NAME,
            "seed": self.seed,
            "options": self.options.to_dict(),
            "phase": self.phase,
            "scores": list(self.scores),
            "hand_number": self.hand_number,
            "deal_number": self.deal_number,
            "passed_deals": self.passed_deals,
            "bounded": self.bounded,
            "dealer": self.dealer,
            "decider": self._decider,
            "bids": list(self.bids),
            "auction": [list(a) for a in self.auction],
            "high": self.high,
            "high_seat": self.high_seat,
            "hakem": self.hakem,
            "bid": self.bid_value,
            "mode": self.mode,
            "trump": serial.suit_letter(self.trump),
            "leader": self.leader,
            "turn": self.turn,
            "hands": [serial.codes(h) for h in self._hands],
            "kitty": serial.codes(self._kitty),
            "discards": serial.codes(self._discards),
            "trick": [c.code for c in self.trick],
            "tricks": serial.trick_rows(self.tricks),
            "hand_results": [_result_to_dict(r) for r in self.hand_results],
            "actions": [_action_to_json(a) for a in self.actions],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ShelemMatch:
        """Rebuild a match from ``to_dict`` output; ``InvalidState`` if it is not one."""
        return serial.restored(_from_dict, data, "Shelem match")

    def copy(self) -> Self:
        """An exact copy that no later move of this match changes: its lists are copied, the
        cards, tuples and frozen values in them shared (as ``Match.copy``: the bot shows a
        committed snapshot while the live match moves on)."""
        twin = object.__new__(type(self))
        for name in self.__slots__:
            setattr(twin, name, getattr(self, name))
        for name in _CONTAINERS:
            setattr(twin, name, getattr(self, name)[:])
        return twin

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ShelemMatch):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<ShelemMatch seed={self.seed} hand={self.hand_number} phase={self.phase} "
            f"hakem={self.hakem} bid={self.bid_value} scores={self.scores}>"
        )


_CONTAINERS: Final = (
    "_hands",
    "_log",
    "auction",
    "bids",
    "hand_results",
    "scores",
    "team_points",
    "team_tricks",
    "trick",
    "tricks",
)
"""A Shelem match's flat lists (of ints, cards and tuples), which ``copy`` copies."""


def replay(
    seed: int, actions: Iterable[Any], options: ShelemOptions | None = None, *, bounded: bool = True
) -> ShelemMatch:
    """Rebuild a match from its seed and actions (as logged, or their JSON form);
    ``bounded=False`` as played before V6.4.1 and V6.14.1."""
    match = ShelemMatch(seed, options, bounded=bounded)
    for action in actions:
        match.apply(action_from_json(action))
    return match


# ----------------------------------------------------------------- serialization helpers


def _action_to_json(action: Action) -> str | list[Any]:
    if isinstance(action, int):
        return ANY_CARDS[action].code
    if action[0] == "discard":
        return ["discard", action[1], [ANY_CARDS[c].code for c in action[2]]]
    return list(action)


def action_from_json(action: object) -> Action:
    """One entry of ``ShelemMatch.actions``, or its JSON form, as an action ``apply`` takes:
    ``"AS"`` for a play, ``["bid", seat, 105]``, ``["discard", seat, ["2C", …]]``,
    ``["mode", seat, "nars"]``. A ``Card`` is checked first (2♠ is ``Card(0)``, falsy).

    :raises IllegalMove: for anything else.
    """
    if isinstance(action, Card):
        return action
    if isinstance(action, str):
        try:
            return Card.parse(action)
        except ValueError:
            raise IllegalMove(f"unknown action {action!r}") from None
    if not isinstance(action, list | tuple) or not action:
        raise IllegalMove(f"unknown action {action!r}")
    if action[0] == "play" and len(action) == 3 and isinstance(action[2], str):
        return ("play", action[1], Card.parse(action[2]))
    if action[0] == "discard" and len(action) == 3 and isinstance(action[2], list | tuple):
        try:
            cards = tuple(Card.parse(c) if isinstance(c, str) else c for c in action[2])
        except ValueError:
            raise IllegalMove(f"not a card in {action!r}") from None
        return ("discard", action[1], cards)
    return tuple(action)


def _result_to_dict(r: ShelemHandResult) -> dict[str, Any]:
    return {
        "number": r.number,
        "hakem": r.hakem,
        "bid": r.bid,
        "mode": r.mode,
        "trump": None if r.trump is None else r.trump.letter,
        "tricks": list(r.tricks),
        "points": list(r.points),
        "kind": r.kind,
        "changes": list(r.changes),
        "withheld": list(r.withheld),
        "scores_after": list(r.scores_after),
    }


def _pair(values: Any) -> tuple[int, int]:
    first, second = values
    return int(first), int(second)


def _result_from_dict(d: dict[str, Any]) -> ShelemHandResult:
    if d["mode"] not in MODES or d["kind"] not in get_args(ShelemKind):
        raise InvalidState(f"not a Shelem hand result: {d!r}")
    return ShelemHandResult(
        number=int(d["number"]),
        hakem=int(d["hakem"]),
        bid=int(d["bid"]),
        mode=d["mode"],
        trump=None if d["trump"] is None else Suit.parse(d["trump"]),
        tricks=_pair(d["tricks"]),
        points=_pair(d["points"]),
        kind=d["kind"],
        changes=_pair(d["changes"]),
        withheld=_pair(d["withheld"]),
        scores_after=_pair(d["scores_after"]),
    )


def _seat(value: Any, *, none: bool = False) -> int:
    seat = int(value)
    if not (-1 if none else 0) <= seat < SEATS:
        raise InvalidState(f"not a seat: {value!r}")
    return seat


def _from_dict(data: dict[str, Any]) -> ShelemMatch:
    if data.get("version") != SERIAL_VERSION or data.get("format") != FORMAT_NAME:
        raise InvalidState(
            f"not a stored Shelem match (format {data.get('format')!r}, "
            f"version {data.get('version')!r})"
        )
    phase = data["phase"]
    if phase not in PHASES:
        raise InvalidState(f"unknown phase {phase!r}")
    m = object.__new__(ShelemMatch)
    m.seed = int(data["seed"])
    m.options = ShelemOptions.from_dict(dict(data["options"]))
    options = m.options
    m.phase = PHASES[PHASES.index(phase)]
    m.scores = list(_pair(data["scores"]))
    m.hand_number = int(data["hand_number"])
    m.deal_number = int(data["deal_number"])
    bounded = data.get("bounded", True)  # a match saved before V6.4.1 plays on bounded
    if not isinstance(bounded, bool):
        raise InvalidState(f"bounded must be true or false, not {bounded!r}")
    m.bounded = bounded
    m.dealer = _seat(data["dealer"])
    m._decider = _seat(data["decider"], none=True)
    m.bids = [int(b) for b in data["bids"]]
    valid_bids = {-1, PASS, SHELEM, SAR_SHELEM, *options.point_bids}
    if len(m.bids) != SEATS or not set(m.bids) <= valid_bids:
        raise InvalidState(f"bad bids {data['bids']!r}")
    m.auction = [(_seat(s), int(v)) for s, v in data["auction"]]
    last = [-1] * SEATS
    for seat, value in m.auction:
        last[seat] = value
    if last != m.bids or not {v for _, v in m.auction} <= valid_bids:
        raise InvalidState("the auction does not end with the bids")
    m.high = int(data["high"])
    m.high_seat = _seat(data["high_seat"], none=True)
    m.hakem = _seat(data["hakem"], none=True)
    m.bid_value = int(data["bid"])
    made = [(value, seat) for seat, value in m.auction if value != PASS]
    if (m.high, m.high_seat) != (max(made) if made else (PASS, -1)):
        raise InvalidState("the highest bid is not the auction's")
    if m.hakem >= 0 and (m.hakem, m.bid_value) != (m.high_seat, m.high):
        raise InvalidState("the hakem is not the highest bidder")
    mode = data["mode"]
    if mode is not None and mode not in options.modes:
        raise InvalidState(f"mode {mode!r} is not allowed at this table")
    m.mode = mode
    m.trump = serial.suit_of(data["trump"])
    m._trump = _NOT_NAMED if m.trump is None else int(m.trump)
    m._deck_size = len(options.deck)
    m.leader = _seat(data["leader"], none=True)
    m.turn = _seat(data["turn"], none=True)
    m._hands = [serial.mask(h, unique=True) for h in data["hands"]]
    m._kitty = serial.mask(data["kitty"], unique=True)
    m._discards = serial.mask(data["discards"], unique=True)
    m.trick = [Card.parse(c) for c in data["trick"]]
    m.tricks = serial.tricks_of(data["tricks"], _seat)
    m.hand_results = [_result_from_dict(r) for r in data["hand_results"]]
    actions = [action_from_json(a) for a in data["actions"]]
    m._log = actions[: len(actions) - len(m.trick)]
    if actions[len(m._log) :] != m.trick:
        raise InvalidState("the actions do not end with the trick in progress")
    m.passed_deals = _passed_deals(m, data.get("passed_deals"))
    _check_restored(m)
    return m


def _passed_deals(m: ShelemMatch, stored: object) -> int:
    """V6.4.1: the deals of this hand everyone passed. A match saved before the rule kept no
    count: in the bidding, the bids since the hand's last card less this deal's auction are
    the passed deals' (three passes each); at most ``PASSED_DEALS_MAX`` when bounded."""
    if stored is None:
        since = 0
        for action in reversed(m._log):
            if not isinstance(action, tuple):
                break  # a card: the hand before
            since += 1
        count = (since - len(m.auction)) // (SEATS - 1) if m.phase == BID else 0
        return min(max(count, 0), PASSED_DEALS_MAX) if m.bounded else max(count, 0)
    if not isinstance(stored, int) or isinstance(stored, bool) or stored < 0:
        raise InvalidState(f"not a count of passed deals: {stored!r}")
    if m.bounded and stored > PASSED_DEALS_MAX:
        raise InvalidState(f"more than {PASSED_DEALS_MAX} passed deals in a hand: {stored}")
    return stored


def _check_restored(m: ShelemMatch) -> None:
    """What makes a stored match a possible one: every card once, sizes, turns, the tricks'
    winners; then the derived state (points, tricks per team, the led suit) is recomputed."""
    options = m.options
    if len(m._hands) != SEATS:
        raise InvalidState("wrong number of hands")
    deck = mask_of(options.deck)
    kitty_size = options.kitty_size
    if m._kitty.bit_count() != kitty_size or m._kitty & ~deck:
        raise InvalidState("the kitty is not a kitty of this table")
    if m._discards and m._discards.bit_count() != kitty_size:
        raise InvalidState("the laid-down cards are not a kitty's worth")
    seen = m.played_mask()
    for mask in (*m._hands, m._discards if m.phase != BID else m._kitty):
        if mask & seen:
            raise InvalidState("a card appears twice")
        seen |= mask
    if seen != deck:
        raise InvalidState(f"the cards do not make up the deck ({len(options.deck)} cards)")
    if len(m.trick) >= SEATS or len(m.tricks) > HAND_SIZE:
        raise InvalidState("too many cards in the trick")
    if m.phase == BID:
        if m.hakem != -1 or m.mode is not None or m.tricks or m.trick or m._discards:
            raise InvalidState("a bidding phase with a hakem or cards played")
        if any(h.bit_count() != HAND_SIZE for h in m._hands):
            raise InvalidState("a hand is not 12 cards during the bidding")
        if m._decider < 0 or m.bids[m._decider] == PASS:
            raise InvalidState("the seat to bid has passed")
    elif m.phase != MATCH_OVER:
        if m.hakem < 0 or m.bid_value == PASS or (m.phase != DISCARD and not m._discards):
            raise InvalidState("no hakem, bid or laid-down cards after the bidding")
        if m.phase in (DISCARD, MODE) and (m._decider != m.hakem or m.tricks or m.trick):
            raise InvalidState("the hakem decides before the first card")
        for seat in range(SEATS):
            extra = kitty_size if m.phase == DISCARD and seat == m.hakem else 0
            if m.phase != PLAY and m._hands[seat].bit_count() != HAND_SIZE + extra:
                raise InvalidState(f"seat {seat} holds the wrong number of cards")
    trump = -1 if m.trump is None else int(m.trump)
    if m.mode != "hokm" and m.trump is not None:
        raise InvalidState("a trump in a mode without one")
    m.team_points = [0, 0]
    m.team_tricks = [0, 0]
    leader = m.hakem
    for t in m.tricks:
        if t.leader != leader or len(t.cards) != SEATS or m.mode is None:
            raise InvalidState(f"trick {t.number} does not follow from the one before")
        if trick_winner(t.leader, t.cards, m.mode, trump) != t.winner:
            raise InvalidState(f"trick {t.number} was not won by seat {t.winner}")
        m.team_points[t.winner % 2] += TRICK_POINTS + sum(CARD_POINTS[c] for c in t.cards)
        m.team_tricks[t.winner % 2] += 1
        leader = t.winner
    if m.phase == PLAY:
        if m.leader != leader or m.turn != (leader + len(m.trick)) % SEATS:
            raise InvalidState("the turn does not follow from the tricks")
        played = len(m.tricks) * SEATS + len(m.trick)
        for seat in range(SEATS):
            behind = (seat - leader) % SEATS < len(m.trick)
            expected = HAND_SIZE - len(m.tricks) - behind
            if m._hands[seat].bit_count() != expected:
                raise InvalidState(f"seat {seat} holds the wrong number of cards")
        if m.mode == "hokm" and (m.trump is None) != (played == 0):
            raise InvalidState("trump is named by the hakem's first card")
    m._led = suit_in_play(m.trick[0], trump) if m.trick else -1
    if m.trick and m.mode == "hokm" and not m.tricks and m.trick[0].is_joker:
        raise InvalidState("the hakem's first card cannot be a joker")
