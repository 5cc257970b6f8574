"""A Hokm match: hands, tricks and score, as one state machine (R2–R13).

Every action is a method that checks everything first and only then changes the state, so a
refused action (an ``IllegalMove``) leaves the match exactly as it was. A match is fully
determined by its seed, its rules and its actions: ``replay`` rebuilds it.

Speed: ``bench/engine_bench.py`` counts hands per second, and the hot path (``play``,
``legal_cards``) is written for CPython. A hand is held as one 13-bit rank mask per suit,
small ints that take the interpreter's fast paths (a 52-bit mask does not); ``play`` does a
handful of operations on small plain ints; plays are logged a trick at a time.
Callgrind counted 621k instructions per random hand before this layout and 462k after.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar, Final, Self

from . import serial
from .cards import (
    ANY_CARDS,
    CARDS,
    FULL_DECK_MASK,
    RANKS_PER_SUIT,
    SUIT_TABLES,
    SUITS,
    Card,
    Suit,
    cards_of,
    mask_of,
)
from .errors import (
    CardNotInHand,
    IllegalMove,
    InvalidState,
    MustFollowSuit,
    NotHakem,
    NotYourTurn,
    RedealNotAllowed,
    UnknownSeat,
    WrongPhase,
)
from .events import (
    BamDeclared,
    BamOffered,
    Discarded,
    Drew,
    Event,
    HandKind,
    HandResult,
    HandStarted,
    MatchCompleted,
    Redealt,
    Trick,
    TrumpChosen,
)
from .rules import STANDARD, GameFormat, Rules, hokm_format
from .shuffle import permutation

_new_tuple = tuple.__new__  # builds a NamedTuple without its Python-level __new__
_DEFAULT_RULES: Final = Rules()  # frozen: one instance serves every match
_S0, _S1, _S2, _S3 = SUIT_TABLES
_CARD_INFO: Final[dict[int, tuple[Card, int, int, int]]] = {
    card: (card, int(card), 1 << card % RANKS_PER_SUIT, card // RANKS_PER_SUIT) for card in CARDS
}
"""What ``play`` needs of a card, keyed by the card (a ``Card`` or the equal plain ``int``):
the card, its number as a plain int, its bit in its suit's rank mask, its suit."""

_ALWAYS: Final = (0,) * 64
"""``Match._win_at`` during a bam (V1): every trick goes through ``_decide_hand``."""
_RANKS: Final = (1 << RANKS_PER_SUIT) - 1
_NO_SUIT: Final = 4
"""Index of the always-empty fifth entry of a held hand: the "led suit" of an empty trick."""


def _split(mask: int) -> list[int]:
    """A card bitmask as a held hand: one rank mask per suit, then the empty ``_NO_SUIT``.

    Play works on the rank masks: they fit in one machine word, so CPython's fast paths apply,
    where the 52-bit mask of a whole hand goes through its general big-integer code.
    """
    return [
        mask & _RANKS,
        (mask >> RANKS_PER_SUIT) & _RANKS,
        (mask >> 2 * RANKS_PER_SUIT) & _RANKS,
        mask >> 3 * RANKS_PER_SUIT,
        0,
    ]


def _join(held: list[int]) -> int:
    return (
        held[0]
        | held[1] << RANKS_PER_SUIT
        | held[2] << 2 * RANKS_PER_SUIT
        | held[3] << 3 * RANKS_PER_SUIT
    )


_DECK_BITS: dict[str, list[int]] = {}


def _deck_bits(fmt: GameFormat) -> list[int]:
    """``1 << card`` for each deck position, per format (keyed by name: hashing the whole
    frozen format on every deal would cost more than the deal's arithmetic). A list, because
    ``list.__getitem__`` is a fast call for ``map`` and ``tuple.__getitem__`` is not."""
    bits = _DECK_BITS.get(fmt.name)
    if bits is None:
        bits = _DECK_BITS[fmt.name] = [1 << card for card in fmt.deck]
    return bits


TRUMP: Final = "trump"
PLAY: Final = "play"
MATCH_OVER: Final = "match_over"
DISCARD: Final = "discard"
"""V2: after trump, each seat from the hakem on lays ``fmt.discards`` cards face down."""
DRAW: Final = "draw"
"""V2: from the hakem on, each seat in turn takes two cards of the stock and keeps one."""
BAM: Final = "bam"
"""V1: the seat that took its side's seventh trick (the others none) says bam or stop."""
BID: Final = "bid"
"""V5 joker six: from the seat after the dealer, each seat bids for hakem once or passes."""
PHASES: Final = (TRUMP, PLAY, MATCH_OVER, DISCARD, DRAW, BAM, BID)
_DECISION_PHASES: Final = (DISCARD, DRAW, BAM, BID)

#: Formats whose rules need more than data (V5 joker six: bidding, jokers), by format name
#: of a ``Match`` subclass; ``Match(seed, rules, fmt)`` builds the right one.
_VARIANT_CLASSES: dict[str, type[Match]] = {}

SERIAL_VERSION: Final = 1
_LOWEST_COURT_RANK: Final = 9  # the jack (R6: "no card above 10")

Action = Card | tuple[Any, ...]
"""A played ``Card`` (always by the seat whose turn it was), ``("trump", seat, suit)``,
``("redeal", seat)``, and in the variants ``("discard", seat, card)`` and ``("draw", seat, keep)``
(V2, ``keep`` 1 or 0), ``("bam", seat)`` / ``("stop", seat)`` (V1) and ``("bid", seat, tricks)``
(V5 joker six, 0 to pass). Plays are logged as bare cards."""


class Match:
    """The whole state of one match. Not thread-safe; the bot serializes access per table."""

    __slots__ = (
        "_bam_team",
        "_dealt",
        "_decider",
        "_discards",
        "_held",
        "_last_trick",
        "_led_suit",
        "_led_table",
        "_log",
        "_next_seat",
        "_seats",
        "_stock",
        "_target",
        "_team_of",
        "_trump_suit",
        "_win_at",
        "_win_seat",
        "_win_suit",
        "_win_value",
        "deal_number",
        "first_hakem_deal",
        "fmt",
        "hakem",
        "hand_number",
        "hand_results",
        "leader",
        "phase",
        "rules",
        "scores",
        "seed",
        "team_tricks",
        "trick",
        "tricks",
        "trump",
        "turn",
    )

    def __new__(
        cls, seed: int = 0, rules: Rules | None = None, fmt: GameFormat = STANDARD
    ) -> Match:
        """The ``Match`` subclass a format needs, if any (V5 joker six), else a ``Match``."""
        if cls is Match and fmt.name in _VARIANT_CLASSES:
            cls = _VARIANT_CLASSES[fmt.name]
        return object.__new__(cls)

    def __init__(self, seed: int, rules: Rules | None = None, fmt: GameFormat = STANDARD) -> None:
        if not isinstance(seed, int) or seed < 0:
            raise InvalidState(f"seed must be a non-negative integer, not {seed!r}")
        self.seed = seed
        self.rules = rules or _DEFAULT_RULES
        self.fmt = fmt
        self._target = fmt.target_score or self.rules.target_score
        self._seats = fmt.seats
        self._team_of = fmt.team_of
        self._win_at = fmt.win_at
        self._last_trick = fmt.hand_size
        self._stock: list[int] = []  # V2: the stock, top first
        self._discards: list[int] = []  # V2: each seat's face-down cards
        self._decider = -1  # who decides in the phases without a card to play
        self._bam_team = -1  # V1: the side playing on for every trick
        self.scores = [0] * len(fmt.teams)
        self.hand_results: list[HandResult] = []
        self._next_seat = fmt.next_seat
        self._log: list[Action] = []  # ``actions`` without the trick in progress
        self.hand_number = 0
        self.deal_number = 0
        self.hakem, self.first_hakem_deal = self._first_hakem()
        self._start_hand()

    # ----------------------------------------------------------------- set-up (R3, R4)

    def _first_hakem(self) -> tuple[int, tuple[tuple[int, Card], ...]]:
        """R3: the first ace dealt face up from a random seat, or a random seat."""
        n = self.fmt.seats
        start = permutation(self.seed, "first-seat", n)[0]
        if self.rules.hakem_selection == "random":
            return start, ()
        deck = self.fmt.deck
        shown: list[tuple[int, Card]] = []
        for i, position in enumerate(permutation(self.seed, "first-hakem", len(deck))):
            card = deck[position]
            seat = (start + i) % n
            shown.append((seat, CARDS[card]))
            if card % RANKS_PER_SUIT == RANKS_PER_SUIT - 1:
                return seat, tuple(shown)
        raise AssertionError("a deck without an ace")  # pragma: no cover

    def _start_hand(self) -> None:
        self.hand_number += 1
        self._deal()

    def _deal(self) -> None:
        """R4: the hakem's five now; the rest waits, unseen, until trump is named.

        The shuffled deck is cut into one block per seat from the hakem on, the hakem's first
        packet (``fmt.first_deal``) at the head of his block: as uniform as dealing the packets of
        ``fmt.deal`` round the table, and the standard deal of a seed is what it always was.
        V2: the seats are dealt ``fmt.first_deal`` each and the rest is the stock, in order.
        """
        fmt = self.fmt
        n = fmt.seats
        size = fmt.dealt
        self.deal_number += 1
        order = permutation(self.seed, f"deal-{self.deal_number}", len(fmt.deck))
        bit = _deck_bits(fmt).__getitem__
        hakem = self.hakem
        five = sum(map(bit, order[: fmt.first_deal]))
        dealt = [0] * n
        dealt[hakem] = five + sum(map(bit, order[fmt.first_deal : size]))
        for k in range(1, n):
            dealt[(hakem + k) % n] = sum(map(bit, order[k * size : (k + 1) * size]))
        self._held = [_split(five) if seat == hakem else [0] * 5 for seat in range(n)]
        self._dealt = list(map(_split, dealt))  # every hand, complete
        if fmt.discards:
            self._stock = [fmt.deck[i] for i in order[n * size :]]
            self._discards = [0] * n
        self.phase = TRUMP
        self.trump: Suit | None = None
        self._trump_suit = -1  # plain int: compared on every card
        self.leader = hakem
        self.turn = -1  # nobody plays a card until trump is named
        self.trick: list[Card] = []
        self.tricks: list[Trick] = []
        self.team_tricks = [0] * len(fmt.teams)
        self._led_suit = _NO_SUIT
        self._led_table = SUIT_TABLES[0]
        self._win_seat = -1
        self._win_suit = -1
        self._win_value = -1

    # ------------------------------------------------------------------ trump (R5, R6)

    def choose_trump(self, seat: int, suit: Suit | int) -> tuple[Event, ...]:
        """R5: the hakem names trump from the five; then the deal completes."""
        self._check_hakem_action(seat, "choose trump")
        if not isinstance(suit, int) or not 0 <= suit < 4:
            raise IllegalMove(f"not a suit: {suit!r}")
        trump = SUITS[suit]
        self._held = self._dealt
        self.trump = trump
        self._trump_suit = int(trump)
        self._log.append(("trump", seat, int(trump)))
        if self.fmt.discards:  # V2: the hands are built by discarding and drawing first
            self.phase = DISCARD
            self._decider = self.hakem
        else:
            self.phase = PLAY
            self.leader = self.turn = self.hakem  # R7
        return (TrumpChosen(self.hakem, trump),)

    # ------------------------------------------------------ V2: discard and draw

    def discard(self, seat: int, card: Card | int) -> tuple[Event, ...]:
        """V2: lay one of the five face down; each seat lays ``fmt.discards``, the hakem first."""
        self._check_decision(seat, DISCARD, "discard")
        if not isinstance(card, int) or card not in _CARD_INFO:
            raise IllegalMove(f"not a card: {card!r}")
        card = CARDS[card]
        held = self._held[seat]
        bit = 1 << card % RANKS_PER_SUIT
        if not held[card // RANKS_PER_SUIT] & bit:
            raise CardNotInHand(seat, card)
        held[card // RANKS_PER_SUIT] ^= bit
        self._discards[seat] |= 1 << card
        self._log.append(("discard", seat, card))
        fmt = self.fmt
        if sum(map(int.bit_count, held)) == fmt.first_deal - fmt.discards:
            self._decider = fmt.next_seat[seat]
            if self._decider == self.hakem:
                self.phase = DRAW
        return (Discarded(seat),)

    @property
    def drawn(self) -> Card | None:
        """V2: the stock's top card, which only the seat to draw has looked at."""
        return CARDS[self._stock[0]] if self.phase == DRAW else None

    def draw(self, seat: int, keep: bool | int) -> tuple[Event, ...]:
        """V2: keep the top card of the stock and lay the next one face down (``keep``), or lay
        the top card face down and keep the next one; then the next seat draws. When every
        hand is complete the hakem leads (R7)."""
        self._check_decision(seat, DRAW, "draw")
        if keep not in (True, False) or not isinstance(keep, int):
            raise IllegalMove(f"keep must be true or false, not {keep!r}")
        stock = self._stock
        first, second = stock[0], stock[1]
        kept, thrown = (first, second) if keep else (second, first)
        held = self._held[seat]
        held[kept // RANKS_PER_SUIT] |= 1 << kept % RANKS_PER_SUIT
        self._discards[seat] |= 1 << thrown
        del stock[:2]
        self._log.append(("draw", seat, int(bool(keep))))
        nxt = self.fmt.next_seat[seat]
        if sum(map(int.bit_count, self._held[nxt])) == self.fmt.hand_size:
            self.phase = PLAY
            self._decider = -1
            self.leader = self.turn = self.hakem  # R7
        else:
            self._decider = nxt
        return (Drew(seat),)

    def _check_decision(self, seat: int, phase: str, action: str) -> None:
        self._check_seat(seat)
        if self.phase != phase:
            raise WrongPhase(action, self.phase)
        if seat != self._decider:
            raise NotYourTurn(seat, self._decider)

    # ------------------------------------------------------------------- V1: bam

    def declare_bam(self, seat: int, bam: bool) -> tuple[Event, ...]:
        """V1: with ``bam`` play on for every trick of the hand; else the hand ends now (a kot)."""
        self._check_decision(seat, BAM, "declare bam")
        if bam not in (True, False) or not isinstance(bam, int):
            raise IllegalMove(f"bam must be true or false, not {bam!r}")
        team = self._team_of[seat]
        self._decider = -1
        self.phase = PLAY
        if not bam:
            self._log.append(("stop", seat))
            return self._finish_hand(team)
        self._log.append(("bam", seat))
        self._bam_team = team
        self._win_at = _ALWAYS  # every trick now goes through ``_decide_hand``
        self.turn = self.leader
        return (BamDeclared(seat),)

    def can_redeal(self, seat: int | None = None) -> bool:
        """R6: the house rule is on and the hakem's five hold no J, Q, K or A."""
        if self.phase != TRUMP or not self.rules.redeal_without_court:
            return False
        if seat is not None and seat != self.hakem:
            return False
        return all(c.rank < _LOWEST_COURT_RANK for c in cards_of(self.hands[self.hakem]))

    def redeal(self, seat: int) -> tuple[Event, ...]:
        self._check_hakem_action(seat, "ask for a redeal")
        if not self.can_redeal(seat):
            raise RedealNotAllowed(
                "a redeal needs the house rule and five cards without J, Q, K or A"
            )
        self._log.append(("redeal", seat))
        self._deal()
        return (Redealt(self.hakem),)

    def _check_hakem_action(self, seat: int, action: str) -> None:
        self._check_seat(seat)
        if self.phase != TRUMP:
            raise WrongPhase(action, self.phase)
        if seat != self.hakem:
            raise NotHakem(seat, self.hakem)

    def _check_seat(self, seat: int) -> None:
        if not isinstance(seat, int) or not 0 <= seat < self.fmt.seats:
            raise UnknownSeat(seat)

    # ---------------------------------------------------------------- play (R7–R10)

    def legal_cards(self, seat: int) -> tuple[Card, ...]:
        """R8: the cards ``seat`` may play now (empty when it is not its turn)."""
        if seat != self.turn or seat < 0:
            return ()
        held = self._held[seat]
        follow = held[self._led_suit]  # always 0 while the trick is empty
        if follow:
            return self._led_table[follow]
        return _S0[held[0]] + _S1[held[1]] + _S2[held[2]] + _S3[held[3]]

    def play(self, seat: int, card: Card | int) -> tuple[Event, ...]:
        """Play ``card`` from ``seat``'s hand; R8 is enforced, R9/R10 applied."""
        if seat != self.turn or seat < 0:
            self._refuse_out_of_turn(seat)
        try:
            # plain ints from here on: CPython specializes operations on exact ints only
            card, value, bit, suit = _CARD_INFO[card]
        except (KeyError, TypeError):
            raise IllegalMove(f"not a card: {card!r}") from None
        held = self._held[seat]
        ranks = held[suit]
        if not ranks & bit:
            raise CardNotInHand(seat, card)
        trick = self.trick
        if trick:
            led = self._led_suit
            if suit != led and held[led]:
                raise MustFollowSuit(seat, card, SUITS[led])
            if suit == self._win_suit:
                if value > self._win_value:
                    self._win_value = value
                    self._win_seat = seat
            elif suit == self._trump_suit:  # the winner so far is no trump: the cut wins (R9)
                self._win_suit = suit
                self._win_value = value
                self._win_seat = seat
        else:
            self._led_suit = suit
            self._led_table = SUIT_TABLES[suit]
            self._win_suit = suit
            self._win_value = value
            self._win_seat = seat
        held[suit] = ranks ^ bit
        trick.append(card)
        if len(trick) < self._seats:
            self.turn = self._next_seat[seat]
            return ()
        return self._finish_trick()

    def _refuse_out_of_turn(self, seat: int) -> None:
        self._check_seat(seat)
        if self.phase != PLAY:
            raise WrongPhase("play a card", self.phase)
        raise NotYourTurn(seat, self.turn)

    def _finish_trick(self) -> tuple[Event, ...]:
        """R9 decided the winner as cards fell; R7: the winner leads next."""
        winner = self._win_seat
        tricks = self.tricks
        trick = self.trick
        number = len(tricks) + 1
        done = _new_tuple(Trick, (number, self.leader, tuple(trick), winner))
        tricks.append(done)
        self._log += trick
        self.trick = []
        self._led_suit = _NO_SUIT
        team = self._team_of[winner]
        team_tricks = self.team_tricks
        team_tricks[team] += 1
        self.leader = self.turn = winner
        if team_tricks[team] < self._win_at[number]:
            return (done,)
        return (done, *self._decide_hand(team))

    # -------------------------------------------------------------- scoring (R10–R13)

    def _decide_hand(self, team: int) -> tuple[Event, ...]:
        """After a trick that may end the hand: ``team`` took it.

        R10: a side at ``tricks_to_win`` takes the hand, unless V1 lets it play on. After the
        last trick with nobody there (V3–V5 can: 6–6–5 of 17), the side with most tricks takes
        it, of those tied the side that got there first. During a bam the hand ends at the first
        trick the bam side loses, or when it has taken them all.
        """
        fmt = self.fmt
        team_tricks = self.team_tricks
        bam_team = self._bam_team
        if bam_team >= 0:
            if team != bam_team:
                return self._finish_hand(bam_team, bam=False)
            if len(self.tricks) < self._last_trick:
                return ()
            return self._finish_hand(bam_team, bam=True)
        if team_tricks[team] >= fmt.tricks_to_win:
            if self.rules.bam and self._bam_possible(team):
                self.phase = BAM
                self._decider = self.leader
                self.turn = -1
                return (BamOffered(self.leader),)
            return self._finish_hand(team)
        return self._finish_hand(self._most_tricks(), by_count=True)

    def _bam_possible(self, team: int) -> bool:
        """V1: house rule on, tricks still to play, every other side at none, and the kot it has
        would not already win the match (a bam could win no more)."""
        if len(self.tricks) >= self._last_trick:
            return False
        if sum(self.team_tricks) != self.team_tricks[team]:
            return False
        fmt = self.fmt
        kot = fmt.points_kot if team == fmt.team_of[self.hakem] else fmt.points_hakem_kot
        return self.scores[team] + kot < self._target

    def _most_tricks(self) -> int:
        """The side with most tricks; of those tied, the first to reach that many (R10)."""
        best = max(self.team_tricks)
        counts = [0] * len(self.team_tricks)
        for trick in self.tricks:
            team = self._team_of[trick.winner]
            counts[team] += 1
            if counts[team] == best:
                return team
        raise AssertionError("no side took the most tricks")  # pragma: no cover

    @property
    def target_score(self) -> int:
        """R12: the score that wins the match (the format's own, else the table's)."""
        return self._target

    def _finish_hand(
        self, winner_team: int, *, bam: bool | None = None, by_count: bool = False
    ) -> tuple[Event, ...]:
        """R11 (generalised): score the hand for ``winner_team``; R12, R13.

        A kot is any other side without a trick (in a two-side game, the other side); a
        hakem-kot when the hakem's side is one of those. A hand taken on most tricks without
        reaching ``tricks_to_win`` is an ordinary win. V1: ``bam`` is ``True`` when the bam side
        took every trick (the match is won), ``False`` when it lost one (the kot it had stands).
        """
        fmt = self.fmt
        hakem_team = fmt.team_of[self.hakem]
        team_tricks = self.team_tricks
        kind: HandKind
        if bam is None:
            if by_count or 0 not in team_tricks:  # the winners have tricks: 0 is another side's
                points, kind = fmt.points_win, "win"
            elif hakem_team != winner_team and not team_tricks[hakem_team]:
                points, kind = fmt.points_hakem_kot, "hakem_kot"
            else:
                points, kind = fmt.points_kot, "kot"
        elif bam:
            kind = "bam" if winner_team == hakem_team else "hakem_bam"
            points = max(self._target - self.scores[winner_team], 0)
        elif winner_team == hakem_team:
            points, kind = fmt.points_kot, "kot"
        else:
            points, kind = fmt.points_hakem_kot, "hakem_kot"
        self.scores[winner_team] += points
        assert self.trump is not None
        # (number, hakem, trump, tricks, winner_team, points, kind, scores_after, bam, bid),
        # built as ``Trick`` is, without the named tuple's Python-level ``__new__``
        result: HandResult = _new_tuple(
            HandResult,
            (
                self.hand_number,
                self.hakem,
                self.trump,
                tuple(team_tricks),
                winner_team,
                points,
                kind,
                tuple(self.scores),
                bam is not None,
                0,
            ),
        )
        if bam is not None:
            self._bam_team = -1
            self._win_at = fmt.win_at
        self.hand_results.append(result)
        events: list[Event] = [result]
        if self.scores[winner_team] >= self._target:  # R12
            self.phase = MATCH_OVER
            self.turn = -1
            self._decider = -1
            events.append(MatchCompleted(winner_team, tuple(self.scores)))
            return tuple(events)
        if winner_team != hakem_team:  # R13: to the nearest seat after the hakem on the winners
            seat = fmt.next_seat[self.hakem]
            while fmt.team_of[seat] != winner_team:
                seat = fmt.next_seat[seat]
            self.hakem = seat
        self._start_hand()
        events.append(HandStarted(self.hand_number, self.hakem))
        return tuple(events)

    # -------------------------------------------------------------------- queries

    def _rest(self) -> list[int]:
        """The cards dealt but not yet seen by their seat (all but the hakem's five, R4)."""
        return [
            _join(dealt) & ~_join(held) for dealt, held in zip(self._dealt, self._held, strict=True)
        ]

    @property
    def hands(self) -> list[int]:
        """Each seat's cards as a bitmask of card numbers (the hakem's five while trump is open)."""
        return [_join(held) for held in self._held]

    @property
    def actions(self) -> list[Action]:
        """Everything done so far, in order: ``replay(seed, actions)`` rebuilds the match.

        Plays are logged a trick at a time (the trick in progress is added here), which keeps
        a list append off the path of every card.
        """
        return self._log + self.trick

    @property
    def to_act(self) -> int:
        """The seat whose decision the table waits for: the hakem while trump is open, the seat
        to discard, draw (V2) or say bam (V1) in those phases, -1 when the match is over."""
        phase = self.phase
        if phase == PLAY:
            return self.turn
        if phase == TRUMP:
            return self.hakem
        return self._decider

    @property
    def hakem_decides(self) -> bool:
        """R5, R14: the hakem is naming trump, a decision with its own (longer) time limit."""
        return self.phase == TRUMP

    def discards_of(self, seat: int) -> tuple[Card, ...]:
        """V2: the cards ``seat`` laid face down this hand (only ``seat`` may see them)."""
        self._check_seat(seat)
        return cards_of(self._discards[seat]) if self._discards else ()

    @property
    def stock_left(self) -> int:
        """V2: cards left in the stock (their order and faces are hidden from every seat)."""
        return len(self._stock)

    @property
    def is_over(self) -> bool:
        return self.phase == MATCH_OVER

    @property
    def winner_team(self) -> int | None:
        if self.phase != MATCH_OVER:
            return None
        return self.hand_results[-1].winner_team

    def hand_of(self, seat: int) -> tuple[Card, ...]:
        """What ``seat`` holds now (the hakem's five during the trump phase)."""
        self._check_seat(seat)
        return cards_of(_join(self._held[seat]))

    def played_mask(self) -> int:
        """Cards played so far in this hand, as a bitmask."""
        mask = mask_of(self.trick)
        for trick in self.tricks:
            mask |= mask_of(trick.cards)
        return mask

    def current_trick(self) -> tuple[tuple[int, Card], ...]:
        n = self.fmt.seats
        return tuple(((self.leader + i) % n, c) for i, c in enumerate(self.trick))

    def team_of(self, seat: int) -> int:
        return self.fmt.team_of[seat]

    def apply(self, action: Action | Sequence[Any]) -> tuple[Event, ...]:
        """Apply one entry of ``actions`` (used by ``replay``)."""
        if isinstance(action, int):
            return self.play(self.turn, action)
        kind = action[0] if action else None
        if kind == "play" and len(action) == 3:
            return self.play(action[1], action[2])
        if kind == "trump" and len(action) == 3:
            return self.choose_trump(action[1], action[2])
        if kind == "redeal" and len(action) == 2:
            return self.redeal(action[1])
        if kind == "discard" and len(action) == 3:
            return self.discard(action[1], action[2])
        if kind == "draw" and len(action) == 3:
            return self.draw(action[1], bool(action[2]) if action[2] in (0, 1) else action[2])
        if kind in ("bam", "stop") and len(action) == 2:
            return self.declare_bam(action[1], kind == "bam")
        if kind == "bid" and len(action) == 3:
            return self.bid(action[1], action[2])
        raise IllegalMove(f"unknown action {action!r}")

    # ------------------------------------------------------------- serialization

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data that ``from_dict`` turns back into an identical match.

        A variant's own state is written only where it has one (``stock`` and ``discards`` for
        V2, ``decider`` in a decision phase, ``bam_team`` with V1 on), so a standard match is
        stored exactly as before the variants."""
        data: dict[str, Any] = {
            "version": SERIAL_VERSION,
            "format": self.fmt.name,
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "phase": self.phase,
            "scores": list(self.scores),
            "hand_number": self.hand_number,
            "deal_number": self.deal_number,
            "hakem": self.hakem,
            "first_hakem_deal": [[s, c.code] for s, c in self.first_hakem_deal],
            "trump": serial.suit_letter(self.trump),
            "leader": self.leader,
            "turn": self.turn,
            "hands": [serial.codes(h) for h in self.hands],
            "rest": [serial.codes(m) for m in self._rest()],
            "trick": [c.code for c in self.trick],
            "tricks": serial.trick_rows(self.tricks),
            "team_tricks": list(self.team_tricks),
            "hand_results": [_result_to_dict(r) for r in self.hand_results],
            "actions": [_action_to_json(a) for a in self.actions],
        }
        if self.fmt.discards:
            data["stock"] = [CARDS[c].code for c in self._stock]
            data["discards"] = [serial.codes(m) for m in self._discards]
        if self.phase in _DECISION_PHASES:
            data["decider"] = self._decider
        if self.rules.bam:
            data["bam_team"] = self._bam_team
        self._variant_to_dict(data)
        return data

    # ------------------------------------------------- hooks for the variant subclasses

    def bid(self, seat: int, tricks: int) -> tuple[Event, ...]:
        """V5 joker six only (``engine.joker``): bid for hakem."""
        self._check_seat(seat)
        raise WrongPhase("bid", self.phase)

    def _variant_to_dict(self, data: dict[str, Any]) -> None:
        """A subclass's own state into ``to_dict``'s output (none here)."""

    def _restore_variant(self, data: dict[str, Any]) -> None:
        """A subclass's own state from ``to_dict``'s output (none here)."""

    def _restore_running_winner(self) -> None:
        """Recompute the running winner of the trick in progress (R9)."""
        _restore_trick_winner(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Match:
        """Rebuild a match from ``to_dict`` output; ``InvalidState`` if it is not one."""
        return serial.restored(lambda d: _from_dict(cls, d), data, "match")

    _CONTAINERS: ClassVar[tuple[str, ...]] = (
        "_discards",
        "_log",
        "_stock",
        "hand_results",
        "scores",
        "team_tricks",
        "trick",
        "tricks",
    )
    """The state's flat lists (of ints, cards and named tuples), which ``copy`` copies."""

    def copy(self) -> Self:
        """An exact copy that no later move of this match changes: its lists are copied, the
        cards, named tuples and frozen values in them shared. The bot shows a committed
        snapshot while the live match moves on, once per change: ``from_dict(to_dict())``
        costs milliseconds, this some microseconds (``bench/copy_bench.py``)."""
        twin = object.__new__(type(self))
        for name in _slot_names(type(self)):
            setattr(twin, name, getattr(self, name))
        for name in self._CONTAINERS:
            setattr(twin, name, getattr(self, name)[:])
        held = self._held
        twin._held = [h[:] for h in held]  # a rank mask per suit, changed in place by a play
        # after trump (R5) the complete deal is the held hand itself: one list, as in the original
        twin._dealt = twin._held if self._dealt is held else [d[:] for d in self._dealt]
        return twin

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Match):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<Match seed={self.seed} hand={self.hand_number} phase={self.phase} "
            f"hakem={self.hakem} trump={self.trump} scores={self.scores}>"
        )


_SLOTS: dict[type, tuple[str, ...]] = {}


def _slot_names(cls: type) -> tuple[str, ...]:
    """Every slot of ``cls`` and its bases (a variant adds its own), found once per class."""
    names = _SLOTS.get(cls)
    if names is None:
        found = (n for c in cls.__mro__ for n in getattr(c, "__slots__", ()))
        names = _SLOTS[cls] = tuple(dict.fromkeys(found))
    return names


def replay(
    seed: int, actions: Iterable[Any], rules: Rules | None = None, fmt: GameFormat = STANDARD
) -> Match:
    """Rebuild a match from its seed and actions (as logged, or their JSON form)."""
    match = Match(seed, rules, fmt)
    for action in actions:
        match.apply(_action_from_json(action))
    return match


# ----------------------------------------------------------------- serialization helpers


def _action_to_json(action: Action) -> str | list[Any]:
    if isinstance(action, int):
        return ANY_CARDS[action].code
    if action[0] == "trump":
        return ["trump", action[1], Suit(action[2]).letter]
    if action[0] == "discard":
        return ["discard", action[1], CARDS[action[2]].code]
    return list(action)


def _action_from_json(action: object) -> Action:
    """One entry of ``Match.actions``, or its JSON form, as an action ``apply`` takes.

    ``Match.actions`` holds played ``Card`` objects and ``("trump", seat, Suit)`` /
    ``("redeal", seat)`` tuples; the JSON form has ``"AS"`` for a play (``["play", seat, "AS"]``
    is accepted too) and ``["trump", seat, "S"]``. A ``Card`` is checked first: it is an
    ``int`` and 2♠ is ``Card(0)``, which is falsy.

    :raises IllegalMove: for anything else (a bare ``int``, ``None``, a float, an empty list).
    """
    if isinstance(action, Card):
        return action
    if isinstance(action, str):
        return Card.parse(action)
    if not isinstance(action, list | tuple):
        raise IllegalMove(f"unknown action {action!r}")
    if not action:
        raise IllegalMove("empty action")
    kind = action[0]
    if kind == "play" and len(action) == 3 and isinstance(action[2], str):
        return Card.parse(action[2])  # the seat is implied: always the seat to play
    if kind == "trump" and len(action) == 3 and isinstance(action[2], str):
        return ("trump", action[1], Suit.parse(action[2]))
    if kind == "discard" and len(action) == 3 and isinstance(action[2], str):
        return ("discard", action[1], Card.parse(action[2]))
    return tuple(action)


def _result_to_dict(r: HandResult) -> dict[str, Any]:
    return (
        {
            "number": r.number,
            "hakem": r.hakem,
            "trump": r.trump.letter,
            "tricks": list(r.tricks),
            "winner_team": r.winner_team,
            "points": r.points,
            "kind": r.kind,
            "scores_after": list(r.scores_after),
        }
        | ({"bam": True} if r.bam else {})
        | ({"bid": r.bid} if r.bid else {})
    )


def _result_from_dict(d: dict[str, Any]) -> HandResult:
    return HandResult(
        number=int(d["number"]),
        hakem=int(d["hakem"]),
        trump=Suit.parse(d["trump"]),
        tricks=tuple(int(x) for x in d["tricks"]),
        winner_team=int(d["winner_team"]),
        points=int(d["points"]),
        kind=d["kind"],
        scores_after=tuple(int(x) for x in d["scores_after"]),
        bam=d.get("bam") is True,
        bid=int(d.get("bid", 0)),
    )


def _from_dict(cls: type[Match], data: dict[str, Any]) -> Match:
    if data.get("version") != SERIAL_VERSION:
        raise InvalidState(f"unsupported stored match version {data.get('version')!r}")
    fmt = hokm_format(data.get("format"))  # a Shelem record is ShelemMatch's (V6)
    if fmt is None:
        raise InvalidState(f"unknown game format {data.get('format')!r}")
    if data["phase"] not in PHASES:
        raise InvalidState(f"unknown phase {data['phase']!r}")
    match = object.__new__(_VARIANT_CLASSES.get(fmt.name, cls))
    match.fmt = fmt
    match._seats = fmt.seats
    match._team_of = fmt.team_of
    match._last_trick = fmt.hand_size
    match._next_seat = fmt.next_seat
    match.seed = int(data["seed"])
    match.rules = Rules.from_dict(data["rules"])
    match._target = fmt.target_score or match.rules.target_score
    match.phase = PHASES[PHASES.index(data["phase"])]
    match.scores = [int(x) for x in data["scores"]]
    match.hand_number = int(data["hand_number"])
    match.deal_number = int(data["deal_number"])
    match.hakem = int(data["hakem"])
    match.first_hakem_deal = tuple((int(s), Card.parse(c)) for s, c in data["first_hakem_deal"])
    match.trump = serial.suit_of(data["trump"])
    match._trump_suit = -1 if match.trump is None else int(match.trump)
    match.leader = int(data["leader"])
    match.turn = int(data["turn"])
    match._held = [_split(serial.mask(h) & FULL_DECK_MASK) for h in data["hands"]]
    rest = [serial.mask(h) for h in data["rest"]]
    match.trick = [Card.parse(c) for c in data["trick"]]
    match.tricks = serial.tricks_of(data["tricks"])
    match.team_tricks = [int(x) for x in data["team_tricks"]]
    match.hand_results = [_result_from_dict(r) for r in data["hand_results"]]
    actions = [_action_from_json(a) for a in data["actions"]]
    match._log = actions[: len(actions) - len(match.trick)]
    if actions[len(match._log) :] != match.trick:
        raise InvalidState("the actions do not end with the trick in progress")
    if len(match._held) != fmt.seats or len(rest) != fmt.seats:
        raise InvalidState("wrong number of hands")
    if fmt.discards:
        match._stock = [int(Card.parse(c)) for c in data["stock"]]
        match._discards = [serial.mask(d) for d in data["discards"]]
        if len(match._discards) != fmt.seats:
            raise InvalidState("wrong number of discard piles")
    else:
        match._stock, match._discards = [], []
    match._decider = int(data["decider"]) if match.phase in _DECISION_PHASES else -1
    match._bam_team = int(data.get("bam_team", -1)) if match.rules.bam else -1
    match._win_at = _ALWAYS if match._bam_team >= 0 else fmt.win_at
    match._restore_variant(data)
    everything = match.played_mask()
    for mask in (*match.hands, *rest, *match._discards, mask_of(match._stock)):
        if mask & everything:
            raise InvalidState("a card appears twice")
        everything |= mask
    if everything & ~mask_of(fmt.deck):
        raise InvalidState(f"a card that is not in the {fmt.name} deck")
    if match.phase == TRUMP:
        match._dealt = [
            _split((h | r) & FULL_DECK_MASK) for h, r in zip(match.hands, rest, strict=True)
        ]
    elif any(rest):
        raise InvalidState("cards still to be dealt after trump was named")
    else:
        match._dealt = match._held  # as after ``choose_trump``: one list, played from
    match._restore_running_winner()
    return match


def _restore_trick_winner(match: Match) -> None:
    """Recompute the running winner of the trick in progress (R9)."""
    match._led_suit = _NO_SUIT
    match._led_table = SUIT_TABLES[0]
    match._win_seat = -1
    match._win_suit = -1
    match._win_value = -1
    n = match.fmt.seats
    for i, card in enumerate(match.trick):
        seat = (match.leader + i) % n
        if i == 0:
            match._led_suit = int(card.suit)
            match._led_table = SUIT_TABLES[card.suit]
            match._win_suit, match._win_value, match._win_seat = int(card.suit), int(card), seat
        elif card.suit == match._win_suit:
            if card > match._win_value:
                match._win_value, match._win_seat = int(card), seat
        elif card.suit == match.trump:
            match._win_suit, match._win_value, match._win_seat = int(card.suit), int(card), seat
