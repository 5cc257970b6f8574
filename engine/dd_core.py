"""The double-dummy search: one race at a time, alpha-beta with a null window.

A race is "team 0 takes ``need0`` tricks before team 1 takes ``need1``" (``engine.dd_value``):
true or false, so every search is a null-window one, an OR over a team-0 seat's cards and an
AND over a team-1 seat's. It equals "team 0 takes at least ``need0`` of the next
``m = need0 + need1 - 1`` tricks", which is what the transposition table stores: at the start
of a trick, for the cards left and the seat to lead, bounds on the tricks team 0 can take of
the next ``m``, for each horizon ``m`` asked, tightened by every search through it. The
horizons bound each other (team 0's best of the next ``m`` tricks grows with ``m``, by at most
one a trick), so the ladder's races of one position (``engine.dd``) share the table.

Cards are held as four 15-bit lanes a seat, one per suit, rank 0 the 2 up to 12 the ace; in
the joker six the jokers are ranks 13 (black) and 14 (red) of the trump's lane, the red worth
-1 (below the 2) when played while the black is still out (``engine.joker``). A search
returns an int: bit 0 the answer, the bits above it the cards the answer rests on (per lane,
the lowest rank that mattered; every card above it in its lane matters too).

The speed-ups, each of which the exactness checks turn off in turn (``flags``):

- ``table``: the transposition table;
- ``relative``: its key is the cards left by relative rank, each suit's cards in order with
  who holds each (cards played are squeezed out); off, the key is the exact cards;
- ``winners`` (partition search, with ``relative``): an entry names only the cards that won
  a trick by rank below it (and every card above them in their lane), so it answers for every
  position that differs in smaller cards alone, given the same number of cards of each suit
  in each hand. A trick won by the only card of its suit in it (a ruff, a lead nobody
  followed) names nothing: any card there wins. A node where every move failed names, in
  each lane, the rest of a run of the mover's equivalent cards that its names cut in two
  (``run_below``): the run was tried as one card, which it is not where its unnamed cards are
  smaller ones;
- ``equivalent``: cards of one hand next in rank among the cards still out (and the card
  winning the trick so far) are one move, tried once;
- ``quick``: at a trick's start, the tricks the side on lead can cash at once (top trumps,
  then side-suit winners no opponent can ruff), and the trumps each side is sure to make by the
  hand's end, decide the race when they are enough;
- ``ordering``: likely best cards first (the table's best lead, winners, cheap wins, low
  discards) instead of the natural order.

Written for CPython and for mypyc alike: a class with typed attributes, lists of small ints,
no closures. ``bench/dd_build.py`` compiles a copy with mypyc (optional); ``engine.dd_search``
uses the compiled copy only when it was built from this very code (``digest``).
"""

from __future__ import annotations

from typing import Final

PLAIN: Final = 0x1FFF
LANE: Final = 0x7FFF
MARK: Final = 1 << 60
"""In a lane's relative form: both jokers are left (the red burnt if led before the black)."""
TABLE: Final = 1
RELATIVE: Final = 2
WINNERS: Final = 4
EQUIVALENT: Final = 8
QUICK: Final = 16
ORDERING: Final = 32
SMALL: Final = 64
ALL_FLAGS: Final = 127
KILLER_MASK: Final = (1 << 20) - 1


def compress(code: int, width: int) -> int:
    """A lane's owner code (3 bits a rank, the owner + 1, 0 when gone) in relative form: the
    owners of the cards left, highest first (the top ``r`` cards are the low ``width * r``
    bits), gaps squeezed out; ``width`` 2 (four seats or fewer, no jokers) keeps the owner,
    3 the owner + 1. Both jokers left are marked (``MARK``) so that they never look like an
    ace and a king (one joker alone is the top trump, as an ace would be). How many cards a
    lane holds is the table key's business (every hand's length in every suit)."""
    out = 0
    shift = 0
    rank = 14
    narrow = width == 2
    while rank >= 0:
        digit = code >> 3 * rank & 7
        if digit:
            out |= (digit - 1 if narrow else digit) << shift
            shift += width
        rank -= 1
    if (code >> 39) & 7 and (code >> 42) & 7:
        out |= MARK
    return out


def run_heads(h: int, others: int) -> list[int]:
    """The ranks of lane ``h`` worth trying, highest first: the lowest card of each run of
    ``h`` with no card of ``others`` between (equivalent cards); a joker is its own run."""
    return all_ranks(heads(h, others))


def heads(h: int, others: int) -> int:
    """``run_heads`` as a rank mask (no list to build: the search's inner loop)."""
    out = h & 0x6000
    x = h & PLAIN
    while x:
        low = x.bit_length() - 1
        x ^= 1 << low
        while x:
            nxt = x.bit_length() - 1
            if others & ((1 << low) - (2 << nxt)):
                break
            low = nxt
            x ^= 1 << nxt
        out |= 1 << low
    return out


def run_below(h: int, others: int, named: int) -> int:
    """The card to name besides ``named`` (a lane's names, bits by rank; the lowest one and
    every card above it named) so that no run of ``h`` (``heads``' runs: plain cards with no
    card of ``others`` between) is named in part: the lowest card of the run that holds a named
    card and one below, as a bit; 0 when there is none.

    A node whose every move failed tried one card of a run for all of them. Named in part,
    the run's unnamed cards stand for any smaller cards in the positions its table entry
    answers for, and there the named cards are moves of their own that were never tried (a
    king played instead of a queen that, as a nine, would duck under a partner's jack). A run
    wholly below the names is no such risk: each of its cards is one of the smaller cards."""
    if not named:
        return 0
    bound = named & -named
    x = h & PLAIN
    below = x & (bound - 1)
    if not below or not x & ~(bound - 1):
        return 0
    above = x ^ below
    top = below.bit_length() - 1  # the highest card of h under the names
    nxt = above & -above  # the lowest one named
    if others & (nxt - (2 << top)):
        return 0  # another seat's card parts them: no run crosses the bound
    low = 1 << top
    rest = below ^ low
    while rest:
        under = 1 << (rest.bit_length() - 1)
        if others & (low - (under << 1)):
            break
        low = under
        rest ^= under
    return low


def raise_floor(floor: int, r: int, lane: int, rank: int) -> int:
    """``small``: the rank below which the plain cards of ``lane`` need not be tried once
    ``rank`` was, its answer ``r`` (bit 0, then the names) resting on no card as low as it:
    another card under every named one of the lane is as small, and changes nothing."""
    named = r >> (1 + 15 * lane) & PLAIN
    if not named:
        return 13
    low = (named & -named).bit_length() - 1
    if rank < low and low > floor:
        return low
    return floor


def rel_low(rel: int, lane: int) -> int:
    """``rel`` with only the lowest of its names in ``lane`` (the ones above are implied)."""
    seg = rel >> (15 * lane) & LANE
    if not seg:
        return rel
    return rel & ~(LANE << (15 * lane)) | (seg & -seg) << (15 * lane)


def all_ranks(h: int) -> list[int]:
    out: list[int] = []
    while h:
        top = h.bit_length() - 1
        out.append(top)
        h ^= 1 << top
    return out


def same_run(h: int, a: int, r1: int, r2: int) -> bool:
    """Whether ranks ``r1`` and ``r2`` of hand lane ``h`` are one run among the cards ``a``
    left: every card of ``a`` between them is ``h``'s (jokers are runs of their own)."""
    if r1 == r2:
        return True
    if r1 >= 13 or r2 >= 13:
        return False
    lo = r1 if r1 < r2 else r2
    hi = r2 if r1 < r2 else r1
    between = a & ((1 << hi) - (1 << (lo + 1)))
    return not between & ~h


class Core:
    """Races on the cards of one format and trump. The table outlives a position: entries
    hold every card they rest on, so positions of one hand (or any deal of that trump) share."""

    def __init__(self, seats: int, team_of: list[int], trump: int, jokers: bool, flags: int):
        self.seats = seats
        self.team_of = team_of
        self.trump = trump
        self.jokers = jokers
        self.use_table = bool(flags & TABLE)
        self.relative = self.use_table and bool(flags & RELATIVE)
        self.winners = self.relative and bool(flags & WINNERS)
        self.equivalent = bool(flags & EQUIVALENT)
        self.use_quick = bool(flags & QUICK)
        self.ordering = bool(flags & ORDERING)
        self.small = bool(flags & SMALL)
        self.hs: list[list[int]] = [[0, 0, 0, 0] for _ in range(seats)]
        self.nxt: list[int] = [(s + 1) % seats for s in range(seats)]
        self.opponents: list[list[int]] = [
            [t for t in range(seats) if team_of[t] != team_of[s]] for s in range(seats)
        ]
        self.partners: list[list[int]] = [
            [t for t in range(seats) if t != s and team_of[t] == team_of[s]] for s in range(seats)
        ]
        self.team_seats: list[list[int]] = [
            [s for s in range(seats) if team_of[s] == t] for t in (0, 1)
        ]
        self.joker_mark = MARK if jokers else 0
        self.width = 2 if seats <= 4 and not jokers else 3
        self.span = 32 if self.width == 2 else 64
        self.allc: list[int] = [0, 0, 0, 0]
        self.code: list[int] = [0, 0, 0, 0]
        self.table: dict[int, list[tuple[int, dict[int, list[int]]]]] = {}
        self.best: dict[int, int] = {}
        self.killers: dict[int, int] = {}
        self.comp: dict[int, int] = {}
        self.lbits: list[int] = [
            self.length_bit(s, lane) for s in range(seats) for lane in range(4)
        ]
        self.black_gone = False
        self.len_a = 0
        self.len_b = 0
        self.nodes = 0

    # ------------------------------------------------------------------ set-up

    def load(self, hands: list[list[int]]) -> None:
        """Every seat's four lanes (15-bit rank masks)."""
        for seat in range(self.seats):
            lanes = hands[seat]
            for lane in range(4):
                self.hs[seat][lane] = lanes[lane]

    def length_bit(self, seat: int, lane: int) -> int:
        """A card of ``seat`` in ``lane`` in the length counts (``len_a`` seats 0-2, ``len_b``
        3-5): 4 bits a lane, lanes 0-2 only, since at a trick's start every hand holds ``n``
        cards and the key holds ``n``: the last lane's length follows, and the key of a four-
        seat table fits a machine word."""
        if lane == 3:
            return 0
        return 1 << (12 * (seat % 3) + 4 * lane)

    def race(self, leader: int, lanes: list[int], ranks: list[int], need0: int, need1: int) -> int:
        """Whether team 0 takes ``need0`` more tricks before team 1 takes ``need1`` more,
        from the loaded hands and the trick of ``(lanes[k], ranks[k])`` led by ``leader``: bit
        0 the answer, the bits above the cards it rests on (see the module's docstring)."""
        if need0 <= 0:
            return 1
        if need1 <= 0:
            return 0
        seats = self.seats
        trump = self.trump
        self.len_a = 0
        self.len_b = 0
        for lane in range(4):
            a = 0
            c = 0
            for seat in range(seats):
                x = self.hs[seat][lane]
                a |= x
                if seat < 3:
                    self.len_a += x.bit_count() * self.length_bit(seat, lane)
                else:
                    self.len_b += x.bit_count() * self.length_bit(seat, lane)
                while x:
                    top = x.bit_length() - 1
                    c |= (seat + 1) << 3 * top
                    x ^= 1 << top
            self.allc[lane] = a
            self.code[lane] = c
        in_trick = False
        for k in range(len(lanes)):
            if lanes[k] == trump and ranks[k] == 13:
                in_trick = True
        self.black_gone = self.jokers and not (self.allc[trump] >> 13 & 1) and not in_trick
        n = 0
        for lane in range(4):
            n += self.hs[leader][lane].bit_count()
        if not lanes:
            return self.lead(leader, need0, need1, n)
        n += 1
        if len(lanes) >= seats:
            raise ValueError("a complete trick is not a position")
        ws = leader
        wl = -1
        we = -1
        wc = False
        seat = leader
        for k in range(len(lanes)):
            lane = lanes[k]
            eff = ranks[k]
            if lane == trump and eff >= 13:
                if eff == 13:
                    self.black_gone = True
                elif not self.black_gone:
                    eff = -1
            if k == 0:
                ws = seat
                wl = lane
                we = eff
            elif lane == wl:
                wc = True
                if eff > we:
                    ws = seat
                    we = eff
            elif lane == trump:
                ws = seat
                wl = lane
                we = eff
                wc = False
            seat = self.nxt[seat]
        return self.follow(seat, len(lanes), lanes[0], ws, wl, we, wc, need0, need1, n)

    # ------------------------------------------------------------------ the table

    def reps(self, h: int, others: int) -> list[int]:
        if not self.equivalent:
            return all_ranks(h)
        return run_heads(h, others)

    def heads(self, h: int, others: int) -> int:
        """The ranks of ``h`` worth trying, as a mask (``reps``)."""
        if not self.equivalent:
            return h
        return heads(h, others)

    def rel_code(self, lane: int) -> int:
        c = self.code[lane]
        found = self.comp.get(c)
        if found is None:
            found = compress(c, self.width)
            self.comp[c] = found
        return found

    def named(self, e: list[int]) -> int:
        """The cards a table entry names (its top ``e[lane]`` of each lane), as the lowest
        named rank's bit per lane, in this position's ranks."""
        rel = 0
        for lane in range(4):
            r = e[lane]
            if r:
                x = self.allc[lane]
                for _ in range(r - 1):
                    x ^= 1 << (x.bit_length() - 1)
                rel |= 1 << (15 * lane + x.bit_length() - 1)
        return rel

    def everything(self) -> int:
        """Every card left named: the lowest card of each lane."""
        rel = 0
        for lane in range(4):
            a = self.allc[lane]
            if a:
                rel |= (a & -a) << (15 * lane)
        return rel

    def probe(self, key: int, cc: int, need0: int, m: int) -> int:
        """-1 when the table does not decide ``need0`` of the next ``m`` tricks; else the
        answer and its names. A key's entries are grouped by their pattern's mask, then found
        by the named cards' holders; an entry holds bounds for each horizon it was asked at,
        and one horizon's bounds bound another's: team 0's best of the next ``m`` tricks
        grows with ``m``, by at most one a trick."""
        bucket = self.table.get(key)
        if bucket is None:
            return -1
        for mask, entries in bucket:
            e = entries.get(cc & mask)
            if e is not None:
                for i in range(4, len(e), 3):
                    mm = e[i]
                    if e[i + 1] - (mm - m if mm > m else 0) >= need0:
                        return 1 | (self.named(e) if self.winners else self.everything()) << 1
                    if e[i + 2] + (m - mm if m > mm else 0) < need0:
                        return (self.named(e) if self.winners else self.everything()) << 1
        return -1

    def store(self, key: int, cc: int, rel: int, m: int, lo: int, hi: int) -> None:
        """Record that team 0 takes from ``lo`` to ``hi`` of the key's next ``m`` tricks, for the
        cards ``rel`` names: every card from its lowest named one up, in each lane."""
        rs = [0, 0, 0, 0]
        mask = 0
        if self.relative:
            trump = self.trump
            width = self.width
            span = self.span
            for lane in range(4):
                a = self.allc[lane]
                if a:
                    r = 0
                    if self.winners:
                        seg = rel >> (15 * lane) & LANE
                        if self.jokers and lane == trump:
                            seg |= a & 0x6000
                        if seg:
                            r = (a >> ((seg & -seg).bit_length() - 1)).bit_count()
                    else:
                        r = a.bit_count()
                    rs[lane] = r
                    mask |= ((1 << width * r) - 1) << (span * lane)
            mask |= self.joker_mark << (span * trump)
        bucket = self.table.get(key)
        if bucket is None:
            bucket = []
            self.table[key] = bucket
        entries: dict[int, list[int]] | None = None
        for known, found in bucket:
            if known == mask:
                entries = found
                break
        if entries is None:
            entries = {}
            bucket.append((mask, entries))
        val = cc & mask
        old = entries.get(val)
        if old is None:
            entries[val] = [rs[0], rs[1], rs[2], rs[3], m, lo, hi]
            return
        for i in range(4, len(old), 3):
            if old[i] == m:
                if lo > old[i + 1]:
                    old[i + 1] = lo
                if hi < old[i + 2]:
                    old[i + 2] = hi
                return
        old.append(m)
        old.append(lo)
        old.append(hi)

    # ------------------------------------------------------------------ bounds

    def quick(self, seat: int, need: int) -> int:
        """-1, or the names when the side of ``seat``, on lead, surely takes ``need`` tricks
        in a row from now: ``seat``'s top trumps, then its side-suit winners no opponent with
        a trump left can ruff (a partner that would have to ruff one ends the run there, the
        side's trick still). Only the cards the ``need`` tricks use are named."""
        hs = self.hs
        trump = self.trump
        hand = hs[seat]
        mine = hand[trump]
        at = self.allc[trump]
        k = 0
        rel = 0
        plain = at & PLAIN
        stop = False
        if self.jokers and at >> 13:
            j13 = at >> 13 & 1
            j14 = at >> 14 & 1
            if j13 and j14:
                if mine >> 13 & 1 and mine >> 14 & 1:
                    k = 2  # the black, then the red (the black gone: the top)
                else:
                    stop = True  # a joker led alone, or another's red after the black
            elif mine >> (13 if j13 else 14) & 1:
                k = 1
            else:
                stop = True
            rel = 1 << (15 * trump + 13)
        if not stop:
            while plain and k < need:
                top = plain.bit_length() - 1
                if not mine >> top & 1:
                    break
                k += 1
                rel |= 1 << (15 * trump + top)
                plain ^= 1 << top
            if k >= need:
                return rel_low(rel, trump)
        ruffers: list[int] = []
        for o in self.opponents[seat]:
            if hs[o][trump].bit_count() > k:
                ruffers.append(o)
        side = 0
        counts = [0, 0, 0, 0]
        for lane in range(4):
            if lane == trump:
                continue
            h = hand[lane]
            if not h:
                continue
            a = self.allc[lane]
            c = 0
            while a:
                top = a.bit_length() - 1
                if not h >> top & 1:
                    break
                c += 1
                a ^= 1 << top
            if c:
                for o in ruffers:
                    length = hs[o][lane].bit_count()
                    if length < c:
                        c = length
                counts[lane] = c
                side += c
        if side:
            for p in self.partners[seat]:
                ph = hs[p]
                if ph[trump].bit_count() > k:
                    free = 0
                    for lane in range(4):
                        if lane != trump:
                            free += ph[lane].bit_count()
                    if side > free + 1:
                        side = free + 1  # forced to ruff then: that trick is still the side's
        if k + side < need:
            return -1
        rel = rel_low(rel, trump)
        left = need - k
        for lane in range(4):
            c = counts[lane]
            if c and left:
                if c > left:
                    c = left
                left -= c
                x = self.allc[lane]
                for _ in range(c - 1):
                    x ^= 1 << (x.bit_length() - 1)
                rel |= 1 << (15 * lane + x.bit_length() - 1)
        return rel

    def sure(self, side: int, need: int) -> int:
        """-1, or the names when ``side`` surely takes ``need`` trump tricks by the end of the
        hand whatever anyone does. A trump loses its trick only to a higher trump of the other
        side in it, and one such trump beats one; a hand's cards fall in different tricks. So
        one hand takes at least its trumps less the other side's (no card named), or its
        trumps above all of theirs (named from their highest up), or its trumps less the most
        of them the other side's can beat one each (named from the hand's lowest trump up).
        Jokers: the other side's beat anything; one's own count high only with the black gone
        or in the same hand (played first), else as burnt, below everything."""
        trump = self.trump
        theirs = 0
        for s in self.team_seats[1 - side]:
            theirs |= self.hs[s][trump]
        count = theirs.bit_count()
        high = (theirs >> 13 & 1) + (theirs >> 14 & 1)
        plain_theirs = theirs & PLAIN
        black = self.allc[trump] >> 13 & 1
        for s in self.team_seats[side]:
            t = self.hs[s][trump]
            total = t.bit_count()
            if total - count >= need:
                return 0
            if total < need:
                continue
            own_high = t >> 13 & 1
            burnt = 0
            if t >> 14 & 1:
                if own_high or not black:
                    own_high += 1
                else:
                    burnt = 1
            if not high:
                top = plain_theirs.bit_length() - 1
                above = (t & PLAIN) >> (top + 1)
                if above.bit_count() + own_high >= need:
                    return 1 << (15 * trump + top) if top >= 0 else 0
            beaten = own_high if own_high < high else high
            left = high - beaten  # the other side's jokers still to spend
            o = plain_theirs
            x = t & PLAIN
            while x:
                c = x.bit_length() - 1
                x ^= 1 << c
                if left:
                    left -= 1
                    beaten += 1
                elif o >> (c + 1):
                    o ^= 1 << (o.bit_length() - 1)
                    beaten += 1
            if burnt and (left or o):
                beaten += 1
            if total - beaten >= need:
                low = t & PLAIN
                return (low & -low) << (15 * trump) if low and not burnt else self.lowest(trump)
        return -1

    def lowest(self, lane: int) -> int:
        a = self.allc[lane]
        return (a & -a) << (15 * lane)

    # ------------------------------------------------------------------ moves

    def lead_moves(self, seat: int, hint: int) -> list[int]:
        """The leads worth trying (``lane << 4 | rank``), likely best first with ``ordering``."""
        hs = self.hs
        trump = self.trump
        hand = hs[seat]
        out: list[int] = []
        if not self.ordering:
            for lane in range(4):
                h = hand[lane]
                if h:
                    reps = self.reps(h, self.allc[lane] ^ h)
                    for i in range(len(reps) - 1, -1, -1):
                        out.append(lane << 4 | reps[i])
            return out
        good: list[int] = []
        low: list[int] = []
        rest: list[int] = []
        for lane in range(4):
            h = hand[lane]
            if not h:
                continue
            a = self.allc[lane]
            reps = self.reps(h, a ^ h)
            top = 13 if a >> 13 & 1 else a.bit_length() - 1
            count = len(reps)
            if lane == trump:
                if h >> top & 1:
                    good.append(lane << 4 | reps[0])
                    for i in range(1, count):
                        rest.append(lane << 4 | reps[i])
                else:
                    for i in range(count - 1, -1, -1):
                        rest.append(lane << 4 | reps[i])
                continue
            ruffable = False
            for o in self.opponents[seat]:
                if not hs[o][lane] and hs[o][trump]:
                    ruffable = True
                    break
            if h >> top & 1:
                if ruffable:
                    good.append(lane << 4 | reps[0])
                else:
                    out.append(lane << 4 | reps[0])
                for i in range(count - 1, 0, -1):
                    rest.append(lane << 4 | reps[i])
                continue
            helped = False
            for p in self.partners[seat]:
                ph = hs[p]
                if ph[lane] >> top & 1 or (not ph[lane] and ph[trump]):
                    helped = True
            if helped and not ruffable:
                out.append(lane << 4 | reps[count - 1])
            else:
                low.append(lane << 4 | reps[count - 1])
            for i in range(count - 2, -1, -1):
                rest.append(lane << 4 | reps[i])
        out.extend(good)
        out.extend(low)
        out.extend(rest)
        if hint >= 0:
            lane = hint >> 4
            h = hand[lane]
            if h:
                for _ in range(hint & 15):
                    if h & (h - 1):
                        h ^= 1 << (h.bit_length() - 1)
                want = h.bit_length() - 1
                for i in range(len(out)):
                    mv = out[i]
                    if mv >> 4 == lane and same_run(hand[lane], self.allc[lane], want, mv & 15):
                        if i:
                            del out[i]
                            out.insert(0, mv)
                        break
        return out

    def follow_moves(self, seat: int, pos: int, led: int, ws: int, wl: int, we: int) -> list[int]:
        """The cards worth trying after a lead (R8), likely best first with ``ordering``."""
        hand = self.hs[seat]
        trump = self.trump
        h = hand[led]
        out: list[int] = []
        if not self.ordering:
            for lane in range(4):
                x = hand[lane]
                if x and (lane == led or not h):
                    others = self.allc[lane] ^ x
                    if lane == wl and we >= 0:
                        others |= 1 << we
                    m = self.heads(x, others)
                    while m:
                        low = m & -m
                        m ^= low
                        out.append(lane << 4 | (low.bit_length() - 1))
            return out
        ours = self.team_of[ws] == self.team_of[seat]
        if h:
            others = self.allc[led] ^ h
            if wl == led and we >= 0:
                others |= 1 << we
            reps = self.heads(h, others)
            m = reps
            if ours or wl != led:
                while m:
                    low = m & -m
                    m ^= low
                    out.append(led << 4 | (low.bit_length() - 1))
                return out
            # the cheapest card sure to win the trick, then low cards, then chancy winners
            unsure: list[int] = []
            while m:
                low = m & -m
                m ^= low
                r = low.bit_length() - 1
                if r > we:
                    if self.threat(seat, pos, led, led, r):
                        unsure.append(led << 4 | r)
                    else:
                        out.append(led << 4 | r)
            m = reps
            while m:
                low = m & -m
                m ^= low
                r = low.bit_length() - 1
                if r <= we:
                    out.append(led << 4 | r)
            out.extend(unsure)
            return out
        # void: the side suits' cards lowest rank first (lanes in order among equals), then
        # the trumps lowest first
        discards: list[int] = []
        ruffs: list[int] = []
        packed = 0  # the side suits' cards worth trying, 15 bits a lane
        ranks = 0
        for lane in range(4):
            x = hand[lane]
            if not x:
                continue
            others = self.allc[lane] ^ x
            if lane == wl and we >= 0:
                others |= 1 << we
            m = self.heads(x, others)
            if lane == trump:
                while m:
                    low = m & -m
                    m ^= low
                    ruffs.append(lane << 4 | (low.bit_length() - 1))
            else:
                packed |= m << (15 * lane)
                ranks |= m
        while ranks:
            low = ranks & -ranks
            ranks ^= low
            r = low.bit_length() - 1
            for lane in range(4):
                if packed >> (15 * lane + r) & 1:
                    discards.append(lane << 4 | r)
        if ours:
            out.extend(discards)
            out.extend(ruffs)
            return out
        # winning ruffs, cheapest first, then low discards, then trumps that lose
        under: list[int] = []
        for mv in ruffs:
            r = mv & 15
            if wl != trump or (r > we and not (r == 14 and not self.black_gone)):
                out.append(mv)
            else:
                under.append(mv)
        out.extend(discards)
        out.extend(under)
        return out

    def threat(self, seat: int, pos: int, led: int, lane: int, eff: int) -> bool:
        """Whether an opponent still to play in this trick can beat ``(lane, eff)``."""
        trump = self.trump
        side = self.team_of[seat]
        s = self.nxt[seat]
        for _ in range(pos + 1, self.seats):
            if self.team_of[s] != side:
                h = self.hs[s]
                if h[led]:
                    if lane == led and h[led] >> (eff + 1):
                        return True
                elif h[trump] and (lane != trump or h[trump] >> (eff + 1)):
                    return True
            s = self.nxt[s]
        return False

    def whole_runs(self, rel: int, hand: list[int], led: int, wl: int, we: int) -> int:
        """``rel`` (a node's answer and names, every move of ``hand`` having failed) with no
        run of its legal cards named in part (``run_below``). ``led``: the trick's suit, -1 at
        a lead; ``wl``, ``we``: the card winning the trick so far, which parts runs as in
        ``follow_moves``."""
        allc = self.allc
        for lane in range(4):
            x = hand[lane]
            if x and (led < 0 or lane == led or not hand[led]):
                others = allc[lane] ^ x
                if lane == wl and we >= 0:
                    others |= 1 << we
                named = rel >> (15 * lane + 1) & PLAIN
                rel |= run_below(x, others, named) << (15 * lane + 1)
        return rel

    # ------------------------------------------------------------------ the search

    def last_trick(self, seat: int) -> int:
        """The last trick, one card a seat: no choice left."""
        self.nodes += 1
        trump = self.trump
        gone = self.black_gone
        ws = seat
        wl = -1
        we = -1
        wc = False
        for k in range(self.seats):
            hand = self.hs[seat]
            lane = 0
            while not hand[lane]:
                lane += 1
            rank = hand[lane].bit_length() - 1
            eff = rank
            if lane == trump and rank >= 13:
                if rank == 13:
                    gone = True
                elif not gone:
                    eff = -1
            if k == 0:
                ws = seat
                wl = lane
                we = eff
            elif lane == wl:
                wc = True
                if eff > we:
                    ws = seat
                    we = eff
            elif lane == trump:
                ws = seat
                wl = lane
                we = eff
                wc = False
            seat = self.nxt[seat]
        rel = 1 << (15 * wl + we) if wc and we >= 0 else 0
        return (1 if self.team_of[ws] == 0 else 0) | rel << 1

    def lead(self, seat: int, need0: int, need1: int, n: int) -> int:
        """``seat`` leads with ``n`` tricks left: bit 0 whether team 0 wins the race, the
        bits above the names the answer rests on."""
        if n == 1:
            return self.last_trick(seat)
        self.nodes += 1
        m = need0 + need1 - 1
        side0 = self.team_of[seat] == 0
        key = seat | n << 3 | self.len_a << 7 | self.len_b << 43
        cc = 0
        if self.use_table:
            if self.relative:
                comp = self.comp
                cc = 0
                for lane in range(4):
                    c = self.code[lane]
                    v = comp.get(c, -1)
                    if v < 0:
                        v = compress(c, self.width)
                        comp[c] = v
                    cc |= v << (self.span * lane)
            else:
                code = self.code
                key = seat | (code[0] | code[1] << 45 | code[2] << 90 | code[3] << 135) << 3
            found = self.probe(key, cc, need0, m)
            if found >= 0:
                return found
        if self.use_quick:
            qrel = self.quick(seat, need0 if side0 else need1)
            if qrel >= 0:
                if self.use_table:
                    if side0:
                        self.store(key, cc, qrel, m, need0, m)
                    else:
                        self.store(key, cc, qrel, m, 0, need0 - 1)
                return (1 if side0 else 0) | qrel << 1
            late = n - m  # tricks after the horizon: sure tricks may all fall there
            erel = self.sure(0, need0 + late)
            if erel >= 0:
                if self.use_table:
                    self.store(key, cc, erel, m, need0, m)
                return 1 | erel << 1
            erel = self.sure(1, need1 + late)
            if erel >= 0:
                if self.use_table:
                    self.store(key, cc, erel, m, 0, need0 - 1)
                return erel << 1
        hint = -1
        if self.use_table and self.ordering:
            hint = self.best.get(key, -1)
        trump = self.trump
        hand = self.hs[seat]
        allc = self.allc
        code = self.code
        rel = 0
        done = False
        nxt = self.nxt[seat]
        floors = 0  # per lane, 4 bits: the rank below which its cards need not be tried
        for mv in self.lead_moves(seat, hint):
            lane = mv >> 4
            rank = mv & 15
            if rank < (floors >> 4 * lane & 15):
                continue
            bit = 1 << rank
            lb = self.lbits[seat << 2 | lane]
            h0 = hand[lane]
            a0 = allc[lane]
            c0 = code[lane]
            hand[lane] = h0 ^ bit
            allc[lane] = a0 ^ bit
            code[lane] = c0 - ((seat + 1) << 3 * rank)
            if seat < 3:
                self.len_a -= lb
            else:
                self.len_b -= lb
            saved = self.black_gone
            eff = rank
            if lane == trump and rank >= 13:
                if rank == 13:
                    self.black_gone = True
                elif not saved:
                    eff = -1
            r = self.follow(nxt, 1, lane, seat, lane, eff, False, need0, need1, n)
            self.black_gone = saved
            if seat < 3:
                self.len_a += lb
            else:
                self.len_b += lb
            code[lane] = c0
            allc[lane] = a0
            hand[lane] = h0
            if (r & 1 == 1) == side0:
                rel = r
                done = True
                if self.use_table and self.ordering:
                    above = (hand[lane] >> (rank + 1)).bit_count()
                    self.best[key] = lane << 4 | above
                break
            rel |= r
            if self.small and rank < 13:
                f = raise_floor(floors >> 4 * lane & 15, r, lane, rank)
                floors = floors & ~(15 << 4 * lane) | f << 4 * lane
        result = side0 if done else not side0
        if not done and self.equivalent:
            rel = self.whole_runs(rel, hand, -1, -1, -1)
        if self.use_table:
            if result:
                self.store(key, cc, rel >> 1, m, need0, m)
            else:
                self.store(key, cc, rel >> 1, m, 0, need0 - 1)
        return (1 if result else 0) | (rel >> 1) << 1

    def follow(
        self,
        seat: int,
        pos: int,
        led: int,
        ws: int,
        wl: int,
        we: int,
        wc: bool,
        need0: int,
        need1: int,
        n: int,
    ) -> int:
        """``seat`` plays the ``pos``-th card of a trick led in ``led``; ``ws``, ``wl``, ``we``
        the winner so far (seat, lane, rank worth), ``wc`` whether it beat a card of its lane."""
        self.nodes += 1
        trump = self.trump
        team_of = self.team_of
        hand = self.hs[seat]
        allc = self.allc
        code = self.code
        side0 = team_of[seat] == 0
        last = pos == self.seats - 1
        nxt = self.nxt[seat]
        rel = 0
        floors = 0  # per lane, 4 bits: the rank below which its cards need not be tried
        moves = self.follow_moves(seat, pos, led, ws, wl, we)
        kkey = 0
        if self.ordering and len(moves) > 1:
            # the card that last refuted or proved this trick's play (a hint, never trusted:
            # it is tried first only if it is among the moves): the led suit's cards and the
            # trick's winner when following, the hand itself and the need when void
            info = (wl << 5 | (we + 1)) << 7 | seat << 3 | pos
            if hand[led]:
                kkey = code[led] << 14 | info
            else:
                hp = hand[0] | hand[1] << 15 | hand[2] << 30 | hand[3] << 45
                kkey = (hp ^ (info << 5 | (need0 if side0 else need1)) << 40) | 1 << 60
            kill = self.killers.get(kkey, -1)
            if kill >= 0 and moves[0] != kill:
                for i in range(1, len(moves)):
                    if moves[i] == kill:
                        del moves[i]
                        moves.insert(0, kill)
                        break
        for mv in moves:
            lane = mv >> 4
            rank = mv & 15
            if rank < (floors >> 4 * lane & 15):
                continue
            bit = 1 << rank
            lb = self.lbits[seat << 2 | lane]
            h0 = hand[lane]
            a0 = allc[lane]
            c0 = code[lane]
            hand[lane] = h0 ^ bit
            allc[lane] = a0 ^ bit
            code[lane] = c0 - ((seat + 1) << 3 * rank)
            if seat < 3:
                self.len_a -= lb
            else:
                self.len_b -= lb
            saved = self.black_gone
            eff = rank
            if lane == trump and rank >= 13:
                if rank == 13:
                    self.black_gone = True
                elif not saved:
                    eff = -1
            nws = ws
            nwl = wl
            nwe = we
            nwc = wc
            if lane == wl:
                if eff > we:
                    nws = seat
                    nwe = eff
                nwc = True
            elif lane == trump:
                nws = seat
                nwl = lane
                nwe = eff
                nwc = False
            if not last:
                r = self.follow(nxt, pos + 1, led, nws, nwl, nwe, nwc, need0, need1, n)
            else:
                if team_of[nws] == 0:
                    r = 1 if need0 == 1 else self.lead(nws, need0 - 1, need1, n - 1)
                else:
                    r = 0 if need1 == 1 else self.lead(nws, need0, need1 - 1, n - 1)
                if nwc and nwe >= 0:
                    r |= 2 << (15 * nwl + nwe)
            self.black_gone = saved
            if seat < 3:
                self.len_a += lb
            else:
                self.len_b += lb
            code[lane] = c0
            allc[lane] = a0
            hand[lane] = h0
            if (r & 1 == 1) == side0:
                if self.ordering and len(moves) > 1:
                    self.killers[kkey] = mv
                return r
            rel |= r
            if self.small and rank < 13:
                f = raise_floor(floors >> 4 * lane & 15, r, lane, rank)
                floors = floors & ~(15 << 4 * lane) | f << 4 * lane
        if self.equivalent:
            rel = self.whole_runs(rel, hand, led, wl, we)
        return rel


def digest() -> str:
    """A fingerprint of this module's code (byte code, constants and names of every function
    and method, not where the file lies), so that a compiled copy is used only when it was
    built from exactly this code (``engine.dd_search``)."""
    import hashlib

    h = hashlib.sha256()

    def feed(code: object) -> None:
        h.update(getattr(code, "co_code", b""))
        h.update(repr(getattr(code, "co_names", ())).encode())
        h.update(repr(getattr(code, "co_varnames", ())).encode())
        for const in getattr(code, "co_consts", ()):
            if hasattr(const, "co_code"):
                feed(const)
            else:
                h.update(repr(const).encode())

    space = globals()
    for name in sorted(space):
        value = space[name]
        if getattr(value, "__module__", None) != __name__:
            continue
        h.update(name.encode())
        if isinstance(value, type):
            for attr in sorted(vars(value)):
                feed(getattr(vars(value)[attr], "__code__", None))
        else:
            feed(getattr(value, "__code__", None))
    return h.hexdigest()
