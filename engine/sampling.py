"""What one seat knows about the hidden cards, and deals drawn consistently with it.

A searching player imagines complete deals ("determinizations"). Each must agree with everything
the seat has seen: its own hand, the cards played, how many cards every seat still holds, and
the suits a seat is known not to hold because it did not follow them (R8). ``Sampler`` draws
among the deals that agree, uniformly or under a ``Bias`` on one seat's length in one suit;
``PlayModel`` then scores deals by how well they explain the cards the others chose.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from math import factorial

from .fastsim import RM_FULL, RM_SUIT, TO_RM, greedy_card, to_rm
from .view import SeatView

_Splits = tuple[int, list[int], list[tuple[int, ...]]]
"""Completions from here on; for each split of the next suit, cumulative weight and split."""


@dataclass(frozen=True, slots=True)
class Knowledge:
    """The hidden-card facts of one seat, as rank-major masks (see ``fastsim``)."""

    seat: int
    known: tuple[int, int, int, int]
    """Cards known to be in each seat's hand (only the seat's own, as things stand)."""
    unseen: int
    """Cards the seat has not seen: held by the others, or not yet dealt."""
    counts: tuple[int, int, int, int]
    """How many of the unseen cards each seat will hold."""
    voids: tuple[int, int, int, int]
    """Per seat, a 4-bit mask of the suits it cannot hold (it failed to follow them)."""


def knowledge(view: SeatView) -> Knowledge:
    """Everything ``view`` reveals about where the unseen cards are."""
    me = view.seat
    played: list[int] = []
    voids = [0, 0, 0, 0]
    plays = [t.plays(view.seats) for t in view.tricks]
    if view.trick:
        plays.append(view.trick)
    for trick in plays:
        led = trick[0][1].suit
        for seat, card in trick:
            played.append(card)
            if card.suit != led:
                voids[seat] |= 1 << led
    own = to_rm(view.hand)
    unseen = RM_FULL & ~own & ~to_rm(played)
    if view.can_choose_trump:  # R4: only the hakem's five are dealt; 8 more come to it
        counts = [13, 13, 13, 13]
        counts[me] = 13 - len(view.hand)
    else:
        counts = list(view.cards_left)
        counts[me] = 0
    known = [0, 0, 0, 0]
    known[me] = own
    voids[me] = 0
    return Knowledge(me, _four(known), unseen, _four(counts), _four(voids))


def _four(values: list[int]) -> tuple[int, int, int, int]:
    a, b, c, d = values
    return a, b, c, d


@dataclass(frozen=True, slots=True)
class Bias:
    """A prior on how many cards of ``suit`` the hidden hand of ``seat`` holds.

    ``weights[k]`` (whole numbers, relative) weighs deals that give ``seat`` ``k`` unseen cards
    of ``suit``. The search uses it for the hakem's trumps: a hakem names a suit it is long in.
    """

    seat: int
    suit: int
    weights: tuple[int, ...]


class Sampler:
    """Uniformly random deals of ``unseen`` that respect ``counts`` and ``voids``.

    Rejection sampling would waste most draws late in a hand, so the draw is direct. A suit
    some receiving seat is void in is "constrained". The number of completions of a split of
    those suits is a product of multinomials times the multinomial of the unconstrained cards
    over the room left, so one pass over the constrained suits (memoised by room left) gives
    every split its exact weight; the unconstrained cards are then shuffled into the room left.
    With a ``Bias`` its suit is treated as constrained too and each split's weight multiplied
    by the prior, so deals are drawn in proportion to it.
    """

    __slots__ = ("_bias", "_constrained", "_free", "_known", "_memo", "_seats", "_start")

    def __init__(self, know: Knowledge, bias: Bias | None = None) -> None:
        seats = [s for s in range(4) if know.counts[s] > 0]
        if know.unseen.bit_count() != sum(know.counts):
            raise ValueError("the unseen cards do not fill the hands")
        self._seats = seats
        self._known = list(know.known)
        self._start = tuple(know.counts[s] for s in seats)
        if bias is not None and bias.seat not in seats:
            bias = None
        self._bias = bias
        constrained: list[tuple[list[int], tuple[int, ...]]] = []
        free: list[int] = []
        for suit in range(4):
            cards = [1 << c for c in _bits(know.unseen & RM_SUIT[suit])]
            if not cards:
                continue
            allowed = tuple(i for i, s in enumerate(seats) if not know.voids[s] >> suit & 1)
            if len(allowed) == len(seats) and (bias is None or bias.suit != suit):
                free.extend(cards)
            elif not allowed:
                raise ValueError(f"nobody can hold the unseen cards of suit {suit}")
            else:
                constrained.append((cards, allowed))
        constrained.sort(key=lambda item: len(item[1]))  # forced suits first: fewer states
        self._constrained = constrained
        self._free = free
        self._memo: dict[tuple[int, tuple[int, ...]], _Splits] = {}
        if self._ways(0, self._start)[0] == 0:
            raise ValueError("no deal agrees with what the seat has seen")

    def _ways(self, index: int, room: tuple[int, ...]) -> _Splits:
        """Completions from constrained suit ``index`` on, and each split's cumulative weight."""
        key = (index, room)
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        if index == len(self._constrained):
            out: _Splits = (_multinomial(room), [], [])
        else:
            cards, allowed = self._constrained[index]
            bias = self._bias
            weighted = -1
            prior: tuple[int, ...] = ()
            if bias is not None and (cards[0].bit_length() - 1) & 3 == bias.suit:
                weighted = self._seats.index(bias.seat)
                prior = bias.weights
            total = 0
            cums: list[int] = []
            takes: list[tuple[int, ...]] = []
            zeros = [0] * len(room)
            for split, ways in _split_table(len(cards), tuple(room[i] for i in allowed)):
                take = zeros[:]
                for i, k in zip(allowed, split, strict=True):
                    take[i] = k
                left = tuple([r - k for r, k in zip(room, take, strict=True)])
                rest = self._ways(index + 1, left)[0]
                if rest:
                    ways *= rest
                    if weighted >= 0:
                        ways *= prior[take[weighted]]
                    total += ways
                    cums.append(total)
                    takes.append(tuple(take))
            out = (total, cums, takes)
        self._memo[key] = out
        return out

    def sample(self, rng: random.Random) -> list[int]:
        """One deal: every seat's hand as a rank-major mask (its known cards included)."""
        hands = list(self._known)
        seats = self._seats
        room = self._start
        rnd = rng.random
        for index, (cards, _) in enumerate(self._constrained):
            total, cums, takes = self._ways(index, room)
            take = takes[bisect_right(cums, rng.randrange(total))]
            for i, mask in enumerate(_deal(cards, take, rnd)):
                hands[seats[i]] |= mask
            room = tuple(r - k for r, k in zip(room, take, strict=True))
        for i, mask in enumerate(_deal(self._free, room, rnd)):
            hands[seats[i]] |= mask
        return hands


def _deal(cards: list[int], room: tuple[int, ...], rnd: Callable[[], float]) -> list[int]:
    """Share out ``cards`` (single-bit masks), ``room[i]`` to seat i, all sharings equally likely.

    Sorting by independent uniform keys gives a uniformly random order (a tie, which keeps
    the old order, has probability 2^-53 per pair) and, unlike ``random.shuffle``, runs
    mostly in C.
    """
    order = sorted(cards, key=lambda _: rnd())
    masks = []
    pos = 0
    for k in room:
        mask = 0
        for bit in order[pos : pos + k]:
            mask |= bit
        masks.append(mask)
        pos += k
    return masks


def _bits(mask: int) -> list[int]:
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@lru_cache(maxsize=4096)
def _multinomial(parts: tuple[int, ...]) -> int:
    out = factorial(sum(parts))
    for k in parts:
        out //= factorial(k)
    return out


@lru_cache(maxsize=4096)
def _split_table(n: int, caps: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every way to put ``n`` cards into bins of at most ``caps`` cards, with its count."""
    return tuple((split, _multinomial(split)) for split in _splits(n, list(caps)))


def _splits(n: int, caps: list[int]) -> list[tuple[int, ...]]:
    """Every way to put ``n`` cards into bins of at most ``caps`` cards."""
    if len(caps) == 1:
        return [(n,)] if n <= caps[0] else []
    out: list[tuple[int, ...]] = []
    rest_cap = sum(caps[1:])
    for k in range(max(0, n - rest_cap), min(n, caps[0]) + 1):
        out.extend((k, *tail) for tail in _splits(n - k, caps[1:]))
    return out


@lru_cache(maxsize=1 << 15)
def telltale(
    seat: int, leader: int, before: tuple[int, ...], card: int, trump: int, rest: int
) -> int:
    """The cards whose presence in ``seat``'s hand would have made a greedy player not play
    ``card`` here (``rest``: every card unplayed at that moment, ``card`` included).

    Every rule of ``greedy_card`` is "play the best card of a kind": a greedy seat that played
    ``card`` held no better card of that kind, so it is consistent with exactly the hands that
    avoid this set. Found by asking ``greedy_card`` about ``card`` plus each other card in turn.
    """
    out = 0
    base = 1 << card
    probe = rest & ~base
    while probe:
        low = probe & -probe
        probe ^= low
        if greedy_card(base | low, seat, leader, list(before), trump, rest) != card:
            out |= low
    return out


class PlayModel:
    """How well a deal explains the cards the other seats played, were they greedy players.

    For each past card of another seat, ``telltale`` gives the cards a greedy player could not
    have held when playing it. A deal giving the seat one of those (now or in what it played
    since) has that card "unexplained" and its weight multiplied by ``eps`` (``eps_partner``
    for the partner; 1 ignores). Real players are not greedy, so this is a soft preference,
    never a hard constraint. Telltales are cached (``telltale`` is pure): a past card's is
    worked out once, not at every later decision.
    """

    __slots__ = ("_checks",)

    def __init__(self, view: SeatView, eps: float, eps_partner: float) -> None:
        assert view.trump is not None
        trump = int(view.trump)
        me = view.seat
        plays: list[tuple[int, int, int]] = []  # (seat, rank-major card, leader)
        for trick in view.tricks:
            plays.extend((seat, TO_RM[card], trick.leader) for seat, card in trick.plays(4))
        plays.extend((seat, TO_RM[card], view.leader) for seat, card in view.trick)
        rest = RM_FULL
        checks: list[tuple[int, int, float]] = []
        for index, (seat, card, leader) in enumerate(plays):
            factor = eps_partner if seat ^ me == 2 else eps
            if seat != me and factor < 1.0:
                before = tuple(c for _, c, _ in plays[index - index % 4 : index])
                mask = telltale(seat, leader, before, card, trump, rest)
                later = 0
                for other, played, _ in plays[index + 1 :]:
                    if other == seat:
                        later |= 1 << played
                if not later & mask:  # else no deal explains it: the same for every deal
                    checks.append((seat, mask, factor))
            rest ^= 1 << card
        self._checks = checks

    def __bool__(self) -> bool:
        return bool(self._checks)

    def weight(self, hands: list[int]) -> float:
        w = 1.0
        for seat, mask, factor in self._checks:
            if hands[seat] & mask:
                w *= factor
        return w
