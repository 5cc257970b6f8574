"""A small, fast simulator of the play of one hand, for search rollouts (R7–R10).

The search plays thousands of hands per decision, far too many to go through ``Match``. Hands
here are bitmasks in *rank-major* order, bit ``rank * 4 + suit``, so that "the lowest card
whatever its suit" is the lowest set bit and "the cards of one suit above this one" is one
``&``: the rollout policy needs exactly those. ``to_rm``/``from_rm`` convert from and to the
engine's ``Card`` numbers. This module is the only place that restates R8 and R9, and the
greedy policy (inlined for speed in ``rollout`` and ``rollout_n``, and once as ``greedy_card``,
whose follow rule ``_greedy_follow`` also plays the rest of a trick for the lookahead); the
tests cross-check it against ``Match`` on random deals, the policies against
``GreedyPlayer``, and the lookahead against ``rollout_n`` playing the trick out.

V5 joker six: the jokers take the trump's ranks 13 and 14 (``joker_bit``), so the masks above
need no change for them; ``rollout_joker`` adds the one rule no rank order gives, the red
joker burnt while the black is out (cross-checked against ``JokerMatch`` likewise).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from .cards import RANKS_PER_SUIT
from .rules import GameFormat

#: V5 joker six: in a simulation the jokers are two more ranks of the trump suit, 13 (the
#: black joker, above the ace) and 14 (the red), bits ``13 * 4 + trump`` and ``14 * 4 + trump``
#: (``joker_bit``): a joker is a trump (docs/rules.md), so every suit rule holds for them as is.
JOKER_RANKS: Final = 2
#: Bit masks of each suit in rank-major order (every fourth bit), the joker ranks included.
RM_SUIT: Final = tuple(
    sum(1 << (r * 4 + s) for r in range(RANKS_PER_SUIT + JOKER_RANKS)) for s in range(4)
)
RM_FULL: Final = (1 << 52) - 1
RM_BITS: Final = 4 * (RANKS_PER_SUIT + JOKER_RANKS)
"""Bits of a rank-major mask with the joker ranks (60)."""
#: ``ABOVE[c]``: every bit above ``c``; ``& RM_SUIT[s]`` gives the higher cards of suit ``s``.
#: Four more entries, every bit, for the values -4..-1 (negative indexes): a burnt red joker's
#: value in ``rollout_joker``, below the 2 of trump, so any trump is above it.
ABOVE: Final = tuple((1 << RM_BITS) - 1 & ~((2 << c) - 1) for c in range(RM_BITS)) + (
    ((1 << RM_BITS) - 1,) * 4
)
#: Engine card number to rank-major bit index, and back.
TO_RM: Final = tuple((c % RANKS_PER_SUIT) * 4 + c // RANKS_PER_SUIT for c in range(52))
FROM_RM: Final = tuple((i & 3) * RANKS_PER_SUIT + (i >> 2) for i in range(52))

Trace = list[tuple[int, tuple[int, ...], int]]
"""Completed tricks as ``(leader, rank-major cards, winner)``, for tests."""

#: The standard table's teams (R2): partners opposite.
STANDARD_TEAMS: Final = (0, 1, 0, 1)


@dataclass(frozen=True, slots=True)
class Seating:
    """What the simulator needs of a ``GameFormat``: seats, teams, deck (R1, R2)."""

    seats: int
    team_of: tuple[int, ...]
    teams: int
    deck: int
    """The format's cards as a rank-major mask (a variant may leave out some 2s)."""
    standard: bool
    """Four seats, partners opposite, 52 cards: ``rollout``'s fast path applies."""
    jokers: int = 0
    """V5 joker six: the jokers in the deck (not in ``deck``: where they go depends on trump,
    ``deck_with``)."""

    def deck_with(self, trump: int) -> int:
        """The deck's rank-major mask with its jokers in ``trump``'s joker ranks."""
        mask = self.deck
        for k in range(self.jokers):
            mask |= 1 << joker_bit(52 + k, trump)
        return mask


_SEATINGS: dict[GameFormat, Seating] = {}


def seating(fmt: GameFormat) -> Seating:
    """The ``Seating`` of ``fmt`` (cached: a frozen format never changes)."""
    found = _SEATINGS.get(fmt)
    if found is None:
        deck = to_rm(c for c in fmt.deck if c < 52)
        jokers = len(fmt.deck) - deck.bit_count()
        standard = fmt.team_of == STANDARD_TEAMS and deck == RM_FULL and not jokers
        found = Seating(fmt.seats, fmt.team_of, len(fmt.teams), deck, standard, jokers)
        _SEATINGS[fmt] = found
    return found


def to_rm(cards: Iterable[int]) -> int:
    """Rank-major mask of engine cards."""
    mask = 0
    for card in cards:
        mask |= 1 << TO_RM[card]
    return mask


def joker_bit(card: int, trump: int) -> int:
    """V5 joker six: the rank-major bit of joker ``card`` (52 black, 53 red) under ``trump``."""
    return (card - 39) * 4 + trump  # 52 -> rank 13, 53 -> rank 14


def to_rm_any(cards: Iterable[int], trump: int) -> int:
    """``to_rm`` for cards that may be jokers (V5 joker six), placed under ``trump``."""
    mask = 0
    for card in cards:
        mask |= 1 << (TO_RM[card] if card < 52 else joker_bit(card, trump))
    return mask


def card_of(bit: int) -> int:
    """The engine card of a rank-major bit, a joker's too (the inverse of both ``to_rm``s)."""
    return FROM_RM[bit] if bit < 52 else 39 + (bit >> 2)


def from_rm(mask: int) -> list[int]:
    """Engine card numbers of a rank-major mask."""
    out = []
    while mask:
        low = mask & -mask
        out.append(FROM_RM[low.bit_length() - 1])
        mask ^= low
    return out


def legal_mask(hand: int, led: int) -> int:
    """R8: the cards of ``hand`` that may be played when suit ``led`` was led (-1: leading)."""
    if led >= 0:
        follow = hand & RM_SUIT[led]
        if follow:
            return follow
    return hand


def greedy_card(
    hand: int,
    seat: int,
    leader: int,
    cards: Sequence[int],
    trump: int,
    rest: int,
    team_of: tuple[int, ...] = STANDARD_TEAMS,
) -> int:
    """The card ``rollout``'s policy plays for ``seat`` (the same rules, not inlined).

    ``rest`` is every card not yet played, the seat's own included; ``team_of`` the format's
    teams by seat (play goes round the seats in order). The search uses this to ask "would a
    greedy player holding ``hand`` have played what was played?".
    """
    non_trump = hand & ~RM_SUIT[trump]
    if not cards:
        others = rest & ~hand
        best = -1
        for s in range(4):
            if s != trump:
                mine = hand & RM_SUIT[s]
                if mine:
                    top = mine.bit_length() - 1
                    if top >> 2 > best >> 2 and not others & RM_SUIT[s] & ABOVE[top]:
                        best = top
        if best >= 0:
            return best
        x = non_trump or hand
        return (x & -x).bit_length() - 1
    win = cards[0]
    win_seat = s = leader
    n = len(team_of)
    for c in cards[1:]:
        s = (s + 1) % n
        if ((c ^ win) & 3 == 0 and c > win) or ((c & 3) == trump != (win & 3)):
            win, win_seat = c, s
    return _greedy_follow(hand, seat, win, win_seat, cards[0] & 3, trump, team_of)


def _greedy_follow(
    hand: int, seat: int, win: int, win_seat: int, led: int, trump: int, team_of: tuple[int, ...]
) -> int:
    """The card a greedy ``seat`` follows with when ``win`` (``win_seat``'s) is winning a
    trick led in ``led``: the lowest under a winning partner, else the cheapest that beats
    ``win``, else the lowest (outside trump when it can)."""
    follow = hand & RM_SUIT[led]
    non_trump = hand & ~RM_SUIT[trump]
    if win_seat != seat and team_of[win_seat] == team_of[seat]:
        x = follow or non_trump or hand
    elif follow:
        x = (follow & ABOVE[win] if (win & 3) == led else 0) or follow
    else:
        trumps = hand & RM_SUIT[trump]
        x = (trumps & ABOVE[win] if (win & 3) == trump else trumps) or non_trump or hand
    return (x & -x).bit_length() - 1


def trick_winner(leader: int, cards: Iterable[int], trump: int, seats: int = 4) -> int:
    """R9: the seat winning a (partial) trick of rank-major ``cards`` led by ``leader``."""
    seat = win_seat = leader
    win = -1
    for c in cards:
        if win < 0 or ((c ^ win) & 3 == 0 and c > win) or ((c & 3) == trump != (win & 3)):
            win, win_seat = c, seat
        seat = (seat + 1) % seats
    return win_seat


def _masters(rest: int, trump: int) -> int:
    """The highest card still out in each suit but trumps (of ``rest``, a rank-major mask): a
    seat holding one leads it (the greedy lead)."""
    masters = 0
    for s in range(4):
        left = rest & RM_SUIT[s]
        if left and s != trump:
            masters |= 1 << (left.bit_length() - 1)
    return masters


def _trick_so_far(
    cards: Sequence[int], leader: int, trump: int, seats: int
) -> tuple[int, int, int]:
    """The trick in progress as a rollout goes on from it: the led suit, the winning card and
    its seat (R8); -1 for each before the lead."""
    if not cards:
        return -1, -1, -1
    win, win_seat, s = cards[0], leader, leader
    for c in cards[1:]:
        s = (s + 1) % seats
        if ((c ^ win) & 3 == 0 and c > win) or ((c & 3) == trump != (win & 3)):
            win, win_seat = c, s
    return cards[0] & 3, win, win_seat


def _lead(hand: int, masters: int, tmask: int) -> int:
    """The greedy lead of every rollout: the highest non-trump master (lowest suit on a tie),
    else the lowest card, keeping trumps."""
    x = hand & masters
    if x:
        rank = (x.bit_length() - 1) >> 2
        x = (x >> (rank << 2)) & 15
        return (rank << 2) | ((x & -x).bit_length() - 1)
    x = hand & ~tmask or hand
    return (x & -x).bit_length() - 1


def rollout(
    hands: list[int],
    trump: int,
    leader: int,
    cards: list[int],
    tricks: tuple[int, int],
    need: int = 7,
    trace: Trace | None = None,
) -> tuple[int, int]:
    """Play the hand out with a greedy policy for every seat; the final tricks per team.

    The policy is ``GreedyPlayer``'s, restated on masks and inlined, since this loop is where the
    search spends its time: lead the highest non-trump master, else the lowest card keeping
    trumps; when following, throw the cheapest card under a winning partner, else win as
    cheaply as possible, else throw the cheapest. It uses only what the seat could know: its
    hand and which cards are still out. ``hands`` are rank-major masks (not modified),
    ``cards`` the trick in progress led by ``leader``. Stops the moment a team has ``need``
    tricks (R10).
    """
    h0, h1, h2, h3 = hands
    hs = [h0, h1, h2, h3]
    rest = h0 | h1 | h2 | h3
    suits = RM_SUIT
    above = ABOVE
    tmask = suits[trump]
    masters = _masters(rest, trump)
    t0, t1 = tricks
    cards = list(cards)
    n = len(cards)
    seat = (leader + n) & 3
    led, win, win_seat = _trick_so_far(cards, leader, trump, 4)
    lmask = suits[led] if n else -1
    while True:
        hand = hs[seat]
        if n == 0:
            c = _lead(hand, masters, tmask)
            led = c & 3
            lmask = suits[led]
            win = c
            win_seat = seat
        else:
            follow = hand & lmask
            if win_seat ^ seat == 2:
                x = follow or hand & ~tmask or hand
            elif follow:
                x = (follow & above[win] if (win & 3) == led else 0) or follow
            else:
                trumps = hand & tmask
                x = (trumps & above[win] if (win & 3) == trump else trumps) or hand & ~tmask or hand
            c = (x & -x).bit_length() - 1
            if (c & 3) == (win & 3):
                if c > win:
                    win = c
                    win_seat = seat
            elif (c & 3) == trump:
                win = c
                win_seat = seat
        bit = 1 << c
        hs[seat] = hand ^ bit
        rest ^= bit
        if bit & masters:
            masters ^= bit
            left = rest & suits[c & 3]
            if left:
                masters |= 1 << (left.bit_length() - 1)
        cards.append(c)
        n += 1
        if n < 4:
            seat = (seat + 1) & 3
            continue
        if trace is not None:
            trace.append(((seat + 1) & 3, tuple(cards), win_seat))
        if win_seat & 1:
            t1 += 1
            if t1 >= need:
                return t0, t1
        else:
            t0 += 1
            if t0 >= need:
                return t0, t1
        seat = win_seat
        cards = []
        n = 0


def rollout_n(
    hands: list[int],
    trump: int,
    leader: int,
    cards: list[int],
    tricks: Sequence[int],
    need: int,
    table: Seating,
    lead: int = -1,
    trace: Trace | None = None,
    looking: int = -1,
) -> tuple[int, ...]:
    """``rollout`` for any format: ``table.seats`` hands, tricks counted per team of
    ``table.team_of`` (a seat alone is its own team), the same greedy policy ("partner" is
    any other seat of one's team). Stops when a team has ``need`` tricks (R10) or the hands
    are played out; returns the tricks per team and, last, the team that took the hand.

    That is the first team to reach the most tricks (the one at ``need``, or, when a hand
    of V3-V5 runs out with nobody there, the one of those tied on most that got there
    first); ``lead`` is that team for the tricks already in ``tricks`` (-1: none yet).

    ``looking``: a team whose seats, when they follow with seats still to play after them,
    look to the end of the trick (``lookahead_card``) instead of playing greedily. The search
    passes its own team: its greedy opponents are modelled as they play, and its own later
    cards a little less naively, which matters where several seats play after one (five and
    six seats). -1: greedy everywhere, the policy ``GreedyPlayer`` plays.
    """
    n = table.seats
    team_of = table.team_of
    hs = list(hands)
    rest = 0
    for h in hs:
        rest |= h
    suits = RM_SUIT
    above = ABOVE
    tmask = suits[trump]
    masters = _masters(rest, trump)
    counts = list(tricks)
    best = max(counts)
    cards = list(cards)
    played = len(cards)
    seat = (leader + played) % n
    led, win, win_seat = _trick_so_far(cards, leader, trump, n)
    lmask = suits[led] if played else -1
    while True:
        hand = hs[seat]
        if played == 0:
            c = _lead(hand, masters, tmask)
            led = c & 3
            lmask = suits[led]
            win = c
            win_seat = seat
        else:
            follow = hand & lmask
            if team_of[seat] == looking and played < n - 1:
                c = lookahead_card(hs, seat, win, win_seat, led, trump, n - played, team_of)
            else:
                if team_of[win_seat] == team_of[seat]:  # a partner is winning (never oneself)
                    x = follow or hand & ~tmask or hand
                elif follow:
                    x = (follow & above[win] if (win & 3) == led else 0) or follow
                else:
                    trumps = hand & tmask
                    x = (
                        (trumps & above[win] if (win & 3) == trump else trumps)
                        or hand & ~tmask
                        or hand
                    )
                c = (x & -x).bit_length() - 1
            if (c & 3) == (win & 3):
                if c > win:
                    win = c
                    win_seat = seat
            elif (c & 3) == trump:
                win = c
                win_seat = seat
        bit = 1 << c
        hs[seat] = hand ^ bit
        rest ^= bit
        if bit & masters:
            masters ^= bit
            left = rest & suits[c & 3]
            if left:
                masters |= 1 << (left.bit_length() - 1)
        cards.append(c)
        played += 1
        seat += 1
        if seat == n:
            seat = 0
        if played < n:
            continue
        if trace is not None:
            trace.append((seat, tuple(cards), win_seat))
        team = team_of[win_seat]
        taken = counts[team] = counts[team] + 1
        if taken > best:
            best = taken
            lead = team
        if taken >= need or not rest:
            return (*counts, lead)
        seat = win_seat
        cards = []
        played = 0


def lookahead_card(
    hands: Sequence[int],
    seat: int,
    win: int,
    win_seat: int,
    led: int,
    trump: int,
    left: int,
    team_of: tuple[int, ...],
) -> int:
    """The card ``seat`` follows with when it looks to the end of the trick: the cheapest
    legal card (outside trump first, then by rank) after which the trick, played out
    greedily by the ``left - 1`` seats still to play, goes to ``seat``'s team; when none
    does, the cheapest card. A full deal is known in a rollout, so this is exact there.

    ``win``/``win_seat`` are the trick's winning card and seat so far, ``led`` its suit; the
    hands are left as they were.
    """
    hand = hands[seat]
    follow = hand & RM_SUIT[led]
    legal = follow or hand
    tmask = RM_SUIT[trump]
    team = team_of[seat]
    n = len(team_of)
    after = seat + 1 if seat + 1 < n else 0
    for part in (legal & ~tmask, legal & tmask):
        while part:
            bit = part & -part
            part ^= bit
            c = bit.bit_length() - 1
            w, ws = win, win_seat
            if ((c ^ w) & 3 == 0 and c > w) or ((c & 3) == trump != (w & 3)):
                w, ws = c, seat
            if team_of[_trick_goes_to(hands, after, left - 1, w, ws, led, trump, team_of)] == team:
                return c
    x = legal & ~tmask or legal
    return (x & -x).bit_length() - 1


def _trick_goes_to(
    hands: Sequence[int],
    seat: int,
    left: int,
    win: int,
    win_seat: int,
    led: int,
    trump: int,
    team_of: tuple[int, ...],
) -> int:
    """The seat that takes the trick after ``left`` more greedy plays from ``seat`` on
    (``_greedy_follow``; the hands are not changed)."""
    n = len(team_of)
    for _ in range(left):
        c = _greedy_follow(hands[seat], seat, win, win_seat, led, trump, team_of)
        if ((c ^ win) & 3 == 0 and c > win) or ((c & 3) == trump != (win & 3)):
            win, win_seat = c, seat
        seat = seat + 1 if seat + 1 < n else 0
    return win_seat


def _joker_value(c: int, trump: int, black_gone: bool) -> int:
    """What a card counts for in a trick of the joker six: its bit, but a red joker played
    before the black is burnt, ``trump - 4``: in the trump's lane (``& 3``), below its 2."""
    if c == 56 + trump and not black_gone:
        return trump - 4
    return c


def trick_winner_joker(
    leader: int, cards: Iterable[int], trump: int, seats: int, black_gone: bool
) -> int:
    """R9 with the jokers as trumps (V5 joker six): the seat winning a (partial) trick of
    rank-major ``cards`` led by ``leader``; ``black_gone``: the black joker was played in an
    earlier trick (a red joker played before it is burnt)."""
    seat = win_seat = leader
    win = -8
    black = 52 + trump
    for c in cards:
        v = _joker_value(c, trump, black_gone)
        if c == black:
            black_gone = True
        if win == -8 or ((v ^ win) & 3 == 0 and v > win) or ((v & 3) == trump != (win & 3)):
            win, win_seat = v, seat
        seat = (seat + 1) % seats
    return win_seat


def rollout_joker(
    hands: list[int],
    trump: int,
    leader: int,
    cards: list[int],
    tricks: Sequence[int],
    table: Seating,
    black_gone: bool,
    trace: Trace | None = None,
) -> tuple[int, ...]:
    """``rollout_n`` for the joker six (V5): the jokers are the trump's ranks 13 and 14
    (``joker_bit``), so the greedy policy and R8 read them as trumps (played last of the
    trumps, kept when throwing); a red joker played while the black is still out is burnt
    (``_joker_value``). Every trick is played (the hand is scored by the bid). Returns the
    tricks per team and, last, -1 (no team "takes" a joker six hand: its bid decides).

    ``black_gone``: the black joker was played in an earlier trick of the hand.
    """
    n = table.seats
    team_of = table.team_of
    hs = list(hands)
    rest = 0
    for h in hs:
        rest |= h
    suits = RM_SUIT
    above = ABOVE
    tmask = suits[trump]
    black = 52 + trump
    red = 56 + trump
    masters = _masters(rest, trump)
    counts = list(tricks)
    cards = list(cards)
    played = len(cards)
    seat = (leader + played) % n
    win = win_seat = led = lmask = -8
    if played:
        s = leader
        for i, c in enumerate(cards):
            v = red - 60 if c == red and not black_gone else c  # trump - 4: burnt
            if c == black:
                black_gone = True
            if i == 0:
                led = c & 3
                lmask = suits[led]
                win, win_seat = v, s
            elif ((v ^ win) & 3 == 0 and v > win) or ((v & 3) == trump != (win & 3)):
                win, win_seat = v, s
            s = (s + 1) % n
    while True:
        hand = hs[seat]
        if played == 0:
            c = _lead(hand, masters, tmask)
            led = c & 3
            lmask = suits[led]
            win = red - 60 if c == red and not black_gone else c
            win_seat = seat
        else:
            follow = hand & lmask
            # a burnt red joker is no higher trump: never played to beat one
            higher = above[win] if black_gone else above[win] & ~(1 << red)
            if team_of[win_seat] == team_of[seat]:  # a partner is winning (never oneself)
                x = follow or hand & ~tmask or hand
            elif follow:
                x = (follow & higher if (win & 3) == led else 0) or follow
            else:
                trumps = hand & tmask
                x = (trumps & higher if (win & 3) == trump else trumps) or hand & ~tmask or hand
            c = (x & -x).bit_length() - 1
            v = red - 60 if c == red and not black_gone else c
            if (v & 3) == (win & 3):
                if v > win:
                    win = v
                    win_seat = seat
            elif (v & 3) == trump:
                win = v
                win_seat = seat
        if c == black:
            black_gone = True
        bit = 1 << c
        hs[seat] = hand ^ bit
        rest ^= bit
        if bit & masters:
            masters ^= bit
            left = rest & suits[c & 3]
            if left:
                masters |= 1 << (left.bit_length() - 1)
        cards.append(c)
        played += 1
        seat += 1
        if seat == n:
            seat = 0
        if played < n:
            continue
        if trace is not None:
            trace.append((seat, tuple(cards), win_seat))
        team = team_of[win_seat]
        counts[team] += 1
        if not rest:
            return (*counts, -1)
        seat = win_seat
        cards = []
        played = 0
