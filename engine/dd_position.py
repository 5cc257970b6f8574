"""A double-dummy position: every hand known, checked before anything is solved.

``Position`` is what the solver (``engine.dd``) answers questions about: the format, trump,
every seat's cards, the trick in progress, the tricks each side has taken, the hakem (R11's
hakem-kot), the joker six's bid, and who reached a tied count first (R10 generalised, the
six-player tie rule). Every field is checked on construction, so an impossible position is
refused with an ``InvalidPosition`` whose ``problem`` says which check failed, before any
search could return a value for a deal that cannot exist.

Covered formats (docs/rules.md, "Double dummy"): the two-sided ones, ``standard``, ``two``,
``six_teams`` and ``joker_six`` after its bid. With three or more sides "best play by
everyone" is not one number (a side may prefer one rival's win to another's), so ``three``,
``five`` and ``six_pairs`` are refused with ``UnsupportedFormat``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .cards import ANY_CARDS, CARDS, RANKS_PER_SUIT, cards_in
from .errors import HokmError
from .match import PLAY, Match
from .rules import GameFormat, hokm_format

COVERED: Final = ("standard", "two", "six_teams", "joker_six")
"""The formats with exactly two sides, which the solver values."""

BLACK: Final = 52
RED: Final = 53


class InvalidPosition(HokmError):
    """A position no deal of the format can reach; ``problem`` names the failed check."""

    code = "invalid_position"

    def __init__(self, problem: str, reason: str) -> None:
        super().__init__(f"{problem}: {reason}")
        self.problem = problem
        self.reason = reason


class UnsupportedFormat(InvalidPosition):
    """A format the solver does not value: more than two sides (or not a known format)."""

    code = "unsupported_format"

    def __init__(self, name: str, reason: str) -> None:
        super().__init__("unsupported_format", f"{name}: {reason}")
        self.name = name


def suit_of(card: int, trump: int) -> int:
    """The suit a card is played as: its own, a joker's the trump's (V5 joker six)."""
    return trump if card >= len(CARDS) else card // RANKS_PER_SUIT


def _code(card: int) -> str:
    return ANY_CARDS[card].code


@dataclass(frozen=True, slots=True)
class Position:
    """A moment of a hand's play with every hand known (checked on construction)."""

    fmt: GameFormat
    trump: int
    hands: tuple[int, ...]
    """Each seat's cards now, as a bitmask of card numbers (``1 << card``; jokers 52, 53)."""
    leader: int
    """The seat that led the trick in progress, or leads the next one when it is empty."""
    tricks: tuple[int, int]
    """Tricks each side (team 0, team 1) has taken in this hand so far."""
    hakem: int
    trick: tuple[int, ...] = ()
    """The cards of the trick in progress, in play order from ``leader``."""
    bid: int = 0
    """V5 joker six: the hakem's bid (5–9), which scores the hand; 0 in every other format."""
    first: int = -1
    """The side that reached the current count first when both sides have taken as many tricks
    (R10's tie rule where a hand can run out, ``six_teams`` 4–4); -1 when no trick is taken,
    and implied (the side ahead) when the counts differ."""
    turn: int = -1
    """When given, the seat the caller believes is to play: checked against the trick."""

    def __post_init__(self) -> None:
        _check(self)

    @property
    def seats(self) -> int:
        return self.fmt.seats

    @property
    def to_play(self) -> int:
        """The seat whose card is next."""
        return (self.leader + len(self.trick)) % self.fmt.seats

    @property
    def cards_left(self) -> int:
        """Tricks still to be played in full or in part, counting the one in progress."""
        return self.fmt.hand_size - sum(self.tricks)

    @classmethod
    def deal(
        cls, fmt: GameFormat, trump: int, hands: tuple[int, ...], hakem: int, bid: int = 0
    ) -> Position:
        """The first lead of a hand: the hakem leads (R7), nobody has a trick."""
        return cls(fmt, trump, tuple(hands), hakem, (0, 0), hakem, bid=bid)

    @classmethod
    def from_match(cls, match: Match) -> Position:
        """The position of a live ``Match`` in its play phase (the table's true hands)."""
        if match.phase != PLAY or match.trump is None:
            raise InvalidPosition("phase", f"the match is in phase {match.phase!r}, not play")
        fmt = match.fmt
        if fmt.name not in COVERED:
            _unsupported(fmt)
        if match.rules.bam and match._bam_team >= 0:
            raise InvalidPosition("bam", "a bam (V1) is being played: its value is the match's")
        counts = [0, 0]
        first = best = -1
        for trick in match.tricks:  # R10's "first to get there", as Match._most_tricks
            team = fmt.team_of[trick.winner]
            counts[team] += 1
            if counts[team] > best:
                best, first = counts[team], team
        bid = 0
        if fmt.bids:
            bids: tuple[int, ...] = match.bids  # type: ignore[attr-defined]
            bid = bids[match.hakem]
        return cls(
            fmt,
            int(match.trump),
            tuple(match.hands),
            match.leader,
            (match.team_tricks[0], match.team_tricks[1]),
            match.hakem,
            tuple(int(c) for c in match.trick),
            bid,
            first,
        )


def _unsupported(fmt: GameFormat) -> None:
    sides = len(fmt.teams)
    if sides != 2:
        raise UnsupportedFormat(
            fmt.name,
            f"{sides} sides: with more than two, best play by everyone is not one number",
        )
    raise UnsupportedFormat(fmt.name, "not a format the solver knows")


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check(p: Position) -> None:
    """Every check of a position, in an order where each message can name the culprit."""
    fmt = p.fmt
    if not isinstance(fmt, GameFormat) or hokm_format(fmt.name) != fmt:
        raise UnsupportedFormat(str(getattr(fmt, "name", fmt)), "not a Hokm format of FORMATS")
    if fmt.name not in COVERED:
        _unsupported(fmt)
    n = fmt.seats
    if not _int(p.trump) or not 0 <= p.trump < 4:
        raise InvalidPosition("trump", f"trump must be a suit 0–3, not {p.trump!r}")
    for name, seat in (("leader", p.leader), ("hakem", p.hakem)):
        if not _int(seat) or not 0 <= seat < n:
            raise InvalidPosition("seat", f"{name} {seat!r} is not a seat 0–{n - 1}")
    if not isinstance(p.hands, tuple) or len(p.hands) != n:
        raise InvalidPosition("hands", f"{fmt.name} needs {n} hands")
    if not isinstance(p.trick, tuple) or not isinstance(p.tricks, tuple):
        raise InvalidPosition("shape", "hands, trick and tricks must be tuples")
    deck = 0
    for card in fmt.deck:
        deck |= 1 << card
    seen = 0
    for seat, hand in enumerate(p.hands):
        if not _int(hand) or hand < 0:
            raise InvalidPosition("hands", f"seat {seat}'s hand is not a card bitmask")
        if hand & ~deck:
            stray = _code(cards_in(hand & ~deck)[0]) if hand & ~deck < 1 << 54 else "?"
            raise InvalidPosition("not_in_deck", f"seat {seat} holds {stray}, not in {fmt.name}")
        if hand & seen:
            card = cards_in(hand & seen)[0]
            raise InvalidPosition("duplicate_card", f"{_code(card)} is held by two seats")
        seen |= hand
    if len(p.trick) >= n:
        raise InvalidPosition("trick", f"a trick of {len(p.trick)} cards at {n} seats")
    played = 0
    for card in p.trick:
        if not _int(card) or not 0 <= card < 54 or not deck >> card & 1:
            raise InvalidPosition("not_in_deck", f"{card!r} in the trick is not in {fmt.name}")
        if seen >> card & 1:
            raise InvalidPosition("played_and_held", f"{_code(card)} is in the trick and a hand")
        if played >> card & 1:
            raise InvalidPosition("duplicate_card", f"{_code(card)} is twice in the trick")
        played |= 1 << card
    if len(p.tricks) != 2 or not all(_int(t) and t >= 0 for t in p.tricks):
        raise InvalidPosition("tricks", f"tricks must be two counts, not {p.tricks!r}")
    _check_counts(p)
    _check_voids(p)
    if not _int(p.turn) or p.turn not in (-1, p.to_play):
        raise InvalidPosition(
            "wrong_turn", f"seat {p.turn!r} is not to play: seat {p.to_play} is, after the trick"
        )
    if fmt.bids:
        if not _int(p.bid) or p.bid not in fmt.bids:
            raise InvalidPosition("bid", f"a joker six hand needs the hakem's bid, not {p.bid!r}")
    elif p.bid != 0:
        raise InvalidPosition("bid", f"{fmt.name} has no bid")
    _check_first(p)


def _check_counts(p: Position) -> None:
    """R10: the hand is not over, and every seat holds the cards the tricks leave it."""
    fmt = p.fmt
    t0, t1 = p.tricks
    done = t0 + t1
    if fmt.bids:
        over = done >= fmt.hand_size
    else:
        over = max(t0, t1) >= fmt.tricks_to_win or done >= fmt.hand_size
    if over:
        raise InvalidPosition("hand_over", f"the hand ended at {t0}–{t1}: nothing to solve")
    left = fmt.hand_size - done
    n = fmt.seats
    for k in range(n):
        seat = (p.leader + k) % n
        want = left - 1 if k < len(p.trick) else left
        have = p.hands[seat].bit_count()
        if have != want:
            why = "has played to this trick" if k < len(p.trick) else "is still to play"
            raise InvalidPosition(
                "card_count",
                f"seat {seat} holds {have} cards; after {done} tricks a seat that {why} holds "
                f"{want}",
            )


def _check_voids(p: Position) -> None:
    """R8 (and the joker six's reading): a seat that did not follow the led suit holds none."""
    if not p.trick:
        return
    n = p.fmt.seats
    led = suit_of(p.trick[0], p.trump)
    for k, card in enumerate(p.trick[1:], 1):
        seat = (p.leader + k) % n
        if suit_of(card, p.trump) == led:
            continue
        hand = p.hands[seat]
        if any(suit_of(c, p.trump) == led for c in cards_in(hand)):
            raise InvalidPosition(
                "void_contradicted",
                f"seat {seat} played {_code(card)} on a {'SHDC'[led]} lead but holds that suit",
            )


def _check_first(p: Position) -> None:
    t0, t1 = p.tricks
    if p.first not in (-1, 0, 1) or not _int(p.first):
        raise InvalidPosition("first", f"first must be -1, 0 or 1, not {p.first!r}")
    if t0 != t1:
        ahead = 0 if t0 > t1 else 1
        if p.first not in (-1, ahead):
            raise InvalidPosition("first", f"at {t0}–{t1} side {ahead} got there first")
    elif t0 == 0:
        if p.first != -1:
            raise InvalidPosition("first", "no side has a trick yet")
    elif p.first == -1 and p.fmt.can_run_out:
        raise InvalidPosition("first", f"at {t0}–{t1} say which side reached {t0} first")


def first_there(p: Position) -> int:
    """The side that reached the current most tricks first (-1: no trick yet)."""
    t0, t1 = p.tricks
    if t0 != t1:
        return 0 if t0 > t1 else 1
    return p.first
