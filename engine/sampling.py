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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import comb, factorial

from .cards import Card
from .fastsim import RM_SUIT, STANDARD_TEAMS, TO_RM, greedy_card, seating, to_rm, to_rm_any
from .signals import losing_follows, signal_card, winning_card
from .view import SeatView

_Splits = tuple[int, list[int], list[tuple[int, ...]]]
"""Completions from here on; for each split of the next suit, cumulative weight and split."""


@dataclass(frozen=True, slots=True)
class Knowledge:
    """The hidden-card facts of one seat, as rank-major masks (see ``fastsim``); one entry per
    seat of the table's format in each tuple."""

    seat: int
    known: tuple[int, ...]
    """Cards known to be in each seat's hand (only the seat's own, as things stand)."""
    unseen: int
    """Cards the seat has not seen: held by the others, not yet dealt (R4), or laid face
    down by another seat (V2; the seat's own discards it has seen)."""
    counts: tuple[int, ...]
    """How many of the unseen cards each seat will hold."""
    voids: tuple[int, ...]
    """Per seat, a 4-bit mask of the suits it cannot hold (it failed to follow them)."""
    undealt: int = 0
    """How many unseen cards nobody will hold (a format whose deck is not all dealt)."""


def suit_in_play(card: Card, trump: int) -> int:
    """A card's suit as R8 and R9 see it: a joker is a trump (V5 joker six, docs/rules.md)."""
    return trump if card.is_joker else card // 13


def knowledge(view: SeatView) -> Knowledge:
    """Everything ``view`` reveals about where the unseen cards are.

    V5 joker six: the jokers are placed among the trumps (``fastsim.joker_bit``), so a seat
    that did not follow a trump lead is void in them too (R8 as docs/rules.md reads it: a
    seat holding a joker and no other trump must play it). The trump must be named.
    """
    me = view.seat
    n = view.seats
    fmt = view.fmt
    table = seating(fmt)
    trump = -1 if view.trump is None else int(view.trump)
    if table.jokers and trump < 0:
        raise ValueError("the jokers' place among the cards needs the trump (V5 joker six)")
    played: list[int] = []
    voids = [0] * n
    plays = [t.plays(n) for t in view.tricks]
    if view.trick:
        plays.append(view.trick)
    for trick in plays:
        led = suit_in_play(trick[0][1], trump)
        for seat, card in trick:
            played.append(card)
            if suit_in_play(card, trump) != led:
                voids[seat] |= 1 << led
    if table.jokers:
        own = to_rm_any(view.hand, trump)
        deck = table.deck_with(trump) & ~to_rm_any(played, trump)
    else:
        own = to_rm(view.hand)
        deck = table.deck & ~to_rm(played)
    unseen = deck & ~own & ~to_rm(view.discards)  # V2
    if view.can_choose_trump:  # R4: only the hakem's first cards are dealt; the rest follow
        counts = [fmt.hand_size] * n
        counts[me] = fmt.hand_size - len(view.hand)
    else:
        counts = list(view.cards_left)
        counts[me] = 0
    known = [0] * n
    known[me] = own
    voids[me] = 0
    undealt = unseen.bit_count() - sum(counts)
    return Knowledge(me, tuple(known), unseen, tuple(counts), tuple(voids), undealt)


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

    With more than three receiving seats (the five- and six-player formats) the rooms left
    take too many values for that pass; the count then goes seat by seat instead, memoised
    by the constrained cards left (``_SeatCounts``): the same deals, the same probabilities.
    Unseen cards nobody will hold (``Knowledge.undealt``) go to one more, void-free "seat".
    """

    __slots__ = (
        "_bias",
        "_by_seat",
        "_constrained",
        "_free",
        "_hands",
        "_known",
        "_memo",
        "_seats",
        "_start",
    )

    def __init__(
        self, know: Knowledge, bias: Bias | None = None, exclude: Sequence[int] = ()
    ) -> None:
        """:raises ValueError: no deal agrees with ``know`` and ``exclude`` (per seat, the
        cards it cannot hold beyond its voids: ``PlayModel.exclusions``)."""
        counts = list(know.counts)
        voids = list(know.voids)
        known = list(know.known)
        self._hands = len(counts)
        if know.undealt:  # the cards nobody holds: a bin that may hold any suit
            counts.append(know.undealt)
            voids.append(0)
            known.append(0)
        seats = [s for s in range(len(counts)) if counts[s] > 0]
        if know.unseen.bit_count() != sum(counts) or know.undealt < 0:
            raise ValueError("the unseen cards do not fill the hands")
        self._seats = seats
        self._known = known
        self._start = tuple(counts[s] for s in seats)
        if bias is not None and (bias.seat not in seats or bias.seat >= self._hands):
            bias = None
        self._bias = bias
        constrained: list[tuple[list[int], tuple[int, ...]]] = []
        free: list[int] = []
        for suit in range(4):
            cards = [1 << c for c in _bits(know.unseen & RM_SUIT[suit])]
            if not cards:
                continue
            allowed = tuple(i for i, s in enumerate(seats) if not voids[s] >> suit & 1)
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
        self._by_seat: _SeatCounts | None = None
        classes: list[tuple[list[int], frozenset[int]]] | None = None
        if any(exclude):
            classes = _card_classes(know.unseen, seats, voids, exclude, bias)
        elif len(seats) > 3 and constrained:
            classes = [(cards, frozenset(holders)) for cards, holders in constrained]
            if free:
                classes.append((free, frozenset(range(len(seats)))))
        if classes is not None:
            self._by_seat = _SeatCounts(self._start, classes, _biased(classes, seats, bias))
            if self._by_seat.total() == 0:
                raise ValueError("no deal agrees with what the seat has seen")
        elif self._ways(0, self._start)[0] == 0:
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
        if self._by_seat is not None:
            for i, mask in enumerate(self._by_seat.draw(rng)):
                hands[seats[i]] |= mask
        else:
            for index, (cards, _) in enumerate(self._constrained):
                total, cums, splits = self._ways(index, room)
                take = splits[bisect_right(cums, rng.randrange(total))]
                for i, mask in enumerate(_deal(cards, take, rnd)):
                    hands[seats[i]] |= mask
                room = tuple(r - k for r, k in zip(room, take, strict=True))
            for i, mask in enumerate(_deal(self._free, room, rnd)):
                hands[seats[i]] |= mask
        if len(hands) > self._hands:
            del hands[self._hands :]  # the undealt cards
        return hands


def _card_classes(
    unseen: int,
    seats: list[int],
    voids: list[int],
    exclude: Sequence[int],
    bias: Bias | None,
) -> list[tuple[list[int], frozenset[int]]]:
    """The unseen cards grouped by the receiving seats (indexes into ``seats``) that may hold
    them: not void in the card's suit, and the card not in the seat's ``exclude`` mask. The
    ``Bias`` suit's cards form classes of their own, so its prior can count them."""
    groups: dict[tuple[frozenset[int], bool], list[int]] = {}
    for card in _bits(unseen):
        suit = card & 3  # rank-major: bit rank * 4 + suit
        allowed = frozenset(
            i
            for i, seat in enumerate(seats)
            if not voids[seat] >> suit & 1
            and not (seat < len(exclude) and exclude[seat] >> card & 1)
        )
        if not allowed:
            raise ValueError("no deal agrees with what the seat has seen")
        key = (allowed, bias is not None and suit == bias.suit)
        groups.setdefault(key, []).append(1 << card)
    return [(cards, allowed) for (allowed, _), cards in groups.items()]


def _biased(
    classes: list[tuple[list[int], frozenset[int]]], seats: list[int], bias: Bias | None
) -> tuple[int, frozenset[int], tuple[int, ...]] | None:
    """``_SeatCounts``' bias: the biased seat's index, the classes of the bias suit it may
    hold, and the prior; ``None`` when it can hold none."""
    if bias is None:
        return None
    at = seats.index(bias.seat)
    suited = frozenset(
        c
        for c, (cards, holders) in enumerate(classes)
        if (cards[0].bit_length() - 1) & 3 == bias.suit and at in holders
    )
    return (at, suited, bias.weights) if suited else None


class _SeatCounts:
    """The completions of a deal counted seat by seat, for tables of many seats.

    The unseen cards fall into classes: the cards of one constrained suit (those some seat is
    void in, or the ``Bias`` suit), and the free cards. Seats are taken one at a time; each
    takes some cards of each class it may hold, in as many ways as a product of binomials
    (which cards of each class), times the ``Bias`` prior for the biased seat's count of its
    suit. Once a seat is dealt, classes that the seats still to come may all hold alike merge
    into one, since their cards have become interchangeable. So the memoised state, a count
    per class, stays small: the seats void in something go first (the biased seat before
    them), and after them most classes have merged. The weights are those of
    ``Sampler._ways``, so the deals are drawn with the same probabilities.
    """

    __slots__ = (
        "_biased",
        "_classes",
        "_groups",
        "_memo",
        "_merge",
        "_next",
        "_order",
        "_pools",
        "_prior",
        "_rooms",
        "_takes",
    )

    def __init__(
        self,
        rooms: tuple[int, ...],
        classes: list[tuple[list[int], frozenset[int]]],
        bias: tuple[int, frozenset[int], tuple[int, ...]] | None,
    ) -> None:
        """``classes``: each class's cards (single bits) and the seats (indexes into
        ``rooms``) that may hold them; ``bias``: (seat, the classes of its suit, prior) or
        ``None``: the prior weighs the seat's count of those classes' cards together."""
        bins = len(rooms)
        self._rooms = rooms
        self._classes = classes
        excluded = [sum(1 for _, allowed in classes if i not in allowed) for i in range(bins)]
        order = sorted(range(bins), key=lambda i: (-excluded[i], i))
        if bias is not None:
            order.remove(bias[0])
            order.insert(0, bias[0])
        self._order = order
        self._prior = bias[2] if bias is not None else ()
        # per level: the groups of classes (merged), which of them the level's seat may take
        # from, and where each group goes at the next level (-1: nowhere, must be empty)
        self._groups: list[list[tuple[int, ...]]] = []
        self._takes: list[list[int]] = []
        self._next: list[list[int]] = []
        keys_by_level: list[list[tuple[frozenset[int], int]]] = []
        for level in range(bins + 1):
            left = frozenset(order[level:])
            keys: list[tuple[frozenset[int], int]] = []
            members: list[list[int]] = []
            for c, (_, allowed) in enumerate(classes):
                key = (
                    allowed & left,
                    c if level == 0 and bias is not None and c in bias[1] else -1,
                )
                if key in keys:
                    members[keys.index(key)].append(c)
                else:
                    keys.append(key)
                    members.append([c])
            keys_by_level.append(keys)
            self._groups.append([tuple(m) for m in members])
        self._biased: tuple[int, ...] = ()  # the level-0 groups of the biased classes
        if bias is not None:
            self._biased = tuple(
                g for g, m in enumerate(self._groups[0]) if any(c in bias[1] for c in m)
            )
        for level in range(bins):
            seat = order[level]
            keys = keys_by_level[level]
            self._takes.append([g for g, (key, _) in enumerate(keys) if seat in key])
            later = keys_by_level[level + 1]
            self._next.append(
                [
                    next((h for h, (k2, _) in enumerate(later) if k2 == key - {seat}), -1)
                    for key, _ in keys
                ]
            )
        # for ``draw``: each level-0 group's cards, and per level the groups of the next
        # level as the groups they gather
        self._pools = [[bit for c in group for bit in classes[c][0]] for group in self._groups[0]]
        self._merge = [
            [
                tuple(g for g, target in enumerate(self._next[level]) if target == h)
                for h in range(len(self._groups[level + 1]))
            ]
            for level in range(bins)
        ]
        self._memo: dict[tuple[int, tuple[int, ...]], _Splits] = {}

    def _start(self) -> tuple[int, ...]:
        return tuple(sum(len(self._classes[c][0]) for c in group) for group in self._groups[0])

    def total(self) -> int:
        return self._ways(0, self._start())[0]

    def _ways(self, level: int, rem: tuple[int, ...]) -> _Splits:
        key = (level, rem)
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        if level == len(self._order):
            out: _Splits = (int(not any(rem)), [], [])
            self._memo[key] = out
            return out
        room = self._rooms[self._order[level]]
        takes_from = self._takes[level]
        targets = self._next[level]
        width = len(self._groups[level + 1])
        prior = self._prior if level == 0 else ()
        total = 0
        cums: list[int] = []
        takes: list[tuple[int, ...]] = []
        for split in _vectors(room, tuple([min(rem[g], room) for g in takes_from])):
            take = [0] * len(rem)
            for g, k in zip(takes_from, split, strict=True):
                take[g] = k
            state = [0] * width
            for g, target in enumerate(targets):
                k = rem[g] - take[g]
                if k:
                    if target < 0:
                        break
                    state[target] += k
            else:
                rest = self._ways(level + 1, tuple(state))[0]
                if not rest:
                    continue
                ways = rest
                for g, k in enumerate(take):
                    if k:
                        ways *= comb(rem[g], k)
                if prior:
                    ways *= prior[sum(take[g] for g in self._biased)]
                total += ways
                cums.append(total)
                takes.append(tuple(take))
        out = (total, cums, takes)
        self._memo[key] = out
        return out

    def draw(self, rng: random.Random) -> list[int]:
        """One deal of the classes' cards: each seat's share, as a rank-major mask.

        Each pool is in random order, so its first k cards are a uniform choice of k; pools
        that merge are shuffled together again. The states visited are all in the memo:
        ``total`` counted them.
        """
        rnd = rng.random
        randrange = rng.randrange
        memo = self._memo
        hands = [0] * len(self._rooms)
        pools = [sorted(pool, key=lambda _: rnd()) for pool in self._pools]
        for level, seat in enumerate(self._order):
            _, cums, takes = memo[level, tuple(map(len, pools))]
            take = takes[bisect_right(cums, randrange(cums[-1]))] if len(takes) > 1 else takes[0]
            mask = 0
            for g in self._takes[level]:
                k = take[g]
                if k:
                    pool = pools[g]
                    mask |= sum(pool[:k])  # distinct single bits: the sum is their union
                    pools[g] = pool[k:]
            hands[seat] = mask
            merged: list[list[int]] = []
            for sources in self._merge[level]:
                if len(sources) == 1:
                    merged.append(pools[sources[0]])
                    continue
                pool = []
                for g in sources:
                    pool += pools[g]
                merged.append(sorted(pool, key=lambda _: rnd()))
            pools = merged
        return hands


@lru_cache(maxsize=4096)
def _vectors(room: int, caps: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every vector ``k`` with ``k[j] <= caps[j]`` and ``sum(k) == room``."""
    if not caps:
        return ((),) if room == 0 else ()
    out: list[tuple[int, ...]] = []
    rest = sum(caps[1:])
    for k in range(max(0, room - rest), min(room, caps[0]) + 1):
        out.extend((k, *tail) for tail in _vectors(room - k, caps[1:]))
    return tuple(out)


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
    seat: int,
    leader: int,
    before: tuple[int, ...],
    card: int,
    trump: int,
    rest: int,
    team_of: tuple[int, ...] = STANDARD_TEAMS,
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
        if greedy_card(base | low, seat, leader, before, trump, rest, team_of) != card:
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

    ``greedy_seats`` are seats the host knows to be greedy computer players (the bot's
    ``easy`` level, whose rules are public): their telltales are facts, kept as
    ``exclusions`` for the sampler to respect, so every deal drawn explains their play. A seat
    whose play no deal explains was not greedy after all, and is weighed like the others. Not
    at two (V2): there ``telltale`` counts the laid-down cards as live where the greedy seat
    knows only its own are not, so its telltales are not facts.

    ``signal_seats`` are partners known to play the signal (``engine.signals``, an experiment):
    their losing follows are read by it instead, a deal it contradicts weighed by
    ``eps_signal``.
    """

    __slots__ = ("_checks", "_eps_signal", "_signals", "_trump", "exclusions")

    def __init__(
        self,
        view: SeatView,
        eps: float,
        eps_partner: float,
        greedy_seats: frozenset[int] = frozenset(),
        signal_seats: frozenset[int] = frozenset(),
        eps_signal: float = 0.05,
    ) -> None:
        assert view.trump is not None
        trump = int(view.trump)
        me = view.seat
        n = view.seats
        table = seating(view.fmt)
        team_of = table.team_of
        plays: list[tuple[int, int, int]] = []  # (seat, rank-major card, leader)
        for trick in view.tricks:
            plays.extend((seat, TO_RM[card], trick.leader) for seat, card in trick.plays(n))
        plays.extend((seat, TO_RM[card], view.leader) for seat, card in view.trick)
        rest = table.deck
        checks: list[tuple[int, int, float]] = []
        telltales: list[tuple[int, int, float]] = []  # of the greedy seats
        contradicted: set[int] = set()
        signals: list[tuple[int, int, int, int, int, int]] = []
        if view.fmt.discards:  # V2: a greedy seat's masters leave out only its own discards
            greedy_seats = frozenset()
        for index, (seat, card, leader) in enumerate(plays):
            factor = eps_partner if team_of[seat] == team_of[me] else eps
            strict = seat in greedy_seats
            read = seat in signal_seats
            if seat == me or not (read or factor < 1.0 or strict):
                rest ^= 1 << card
                continue
            before = tuple(c for _, c, _ in plays[index - index % n : index])
            later = 0  # what the seat played after this card
            for other, played, _ in plays[index + 1 :]:
                if other == seat:
                    later |= 1 << played
            if read and before:
                led = before[0] & 3
                win = winning_card(leader, before, trump, n)
                if losing_follows(1 << card, led, win, trump):  # its choice was the signal's
                    signals.append((seat, card, led, win, rest, later | 1 << card))
                    rest ^= 1 << card
                    continue
            if factor < 1.0 or strict:
                mask = telltale(seat, leader, before, card, trump, rest, team_of)
                if later & mask:  # no deal explains it: the same for every deal
                    contradicted.add(seat)
                elif strict:
                    telltales.append((seat, mask, factor))
                elif factor < 1.0:
                    checks.append((seat, mask, factor))
            rest ^= 1 << card
        exclusions = [0] * n
        for seat, mask, factor in telltales:
            if seat not in contradicted:
                exclusions[seat] |= mask
            elif factor < 1.0:  # not the greedy player it was said to be: soft, as others
                checks.append((seat, mask, factor))
        self._checks = checks
        self._signals = signals
        self._eps_signal = eps_signal
        self._trump = trump
        self.exclusions: tuple[int, ...] = tuple(exclusions)
        """Per seat, the cards a seat of ``greedy_seats`` cannot hold: were it holding one, it
        would have played otherwise. Hard facts, for ``Sampler``'s ``exclude``."""

    def __bool__(self) -> bool:
        return bool(self._checks or self._signals)

    def weight(self, hands: list[int]) -> float:
        w = 1.0
        for seat, mask, factor in self._checks:
            if hands[seat] & mask:
                w *= factor
        trump = self._trump
        for seat, card, led, win, rest, since in self._signals:
            expected = signal_card(hands[seat] | since, led, win, trump, rest)
            if expected >= 0 and expected != card:
                w *= self._eps_signal
        return w
