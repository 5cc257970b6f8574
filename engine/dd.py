"""The exact double-dummy solver of the two-sided formats.

``Solver(fmt, trump).value(position)`` is the hand's outcome under best play by everyone with
every hand known (``engine.dd_value.Outcome``: who takes the hand, its points, the tricks),
found by climbing the ladder of races (``dd_value.ladder``) with null-window searches
(``dd_search``); ``card_values`` gives the outcome after each legal card, and ``grades`` what
marking a card that cost something needs (the cards that keep the value, the outcome after the
card played, the rest only shown to do worse). A solver keeps its transposition table between
questions, so asking about every decision of one hand (``engine.dd_analysis``) reuses the work.

Deterministic: no randomness, no clock; the same position gives the same answer and the same
node count. Positions are checked when built (``Position``), and a solver refuses one of
another format or trump.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from .cards import CARDS, RANKS_PER_SUIT
from .dd_core import raise_floor
from .dd_position import BLACK, COVERED, InvalidPosition, Position, UnsupportedFormat
from .dd_rules import black_gone_before, legal_cards, step, trick_winner
from .dd_search import ALL, Search, Speedups
from .dd_value import Outcome, Rung, ladder
from .rules import GameFormat, hokm_format


def lanes_of(hand: int, trump: int) -> list[int]:
    """A card bitmask as the search's four 15-bit lanes (jokers in the trump's, 13 and 14)."""
    lanes = [(hand >> (suit * RANKS_PER_SUIT)) & ((1 << RANKS_PER_SUIT) - 1) for suit in range(4)]
    for joker in (BLACK, BLACK + 1):
        if hand >> joker & 1:
            lanes[trump] |= 1 << (13 + joker - BLACK)
    return lanes


def lane_card(card: int, trump: int) -> tuple[int, int]:
    """A card as ``(lane, rank)`` of the search."""
    if card >= len(CARDS):
        return trump, 13 + card - BLACK
    return card // RANKS_PER_SUIT, card % RANKS_PER_SUIT


@dataclass(frozen=True, slots=True)
class Grades:
    """A decision as grading needs it (``Solver.grades``): the position's value, the outcome
    of each legal card found exactly (every card that keeps the value, and the ones asked
    for), and the legal cards shown only to do worse than the value."""

    value: Outcome
    exact: dict[int, Outcome]
    worse: frozenset[int]


class Solver:
    """Values positions of one format and trump, sharing one transposition table."""

    def __init__(
        self, fmt: GameFormat, trump: int, speedups: Speedups = ALL, native: bool | None = None
    ) -> None:
        if not isinstance(fmt, GameFormat) or hokm_format(fmt.name) != fmt:
            raise UnsupportedFormat(str(getattr(fmt, "name", fmt)), "not a Hokm format of FORMATS")
        if fmt.name not in COVERED:
            raise UnsupportedFormat(fmt.name, f"{len(fmt.teams)} sides: not one minimax value")
        if not isinstance(trump, int) or isinstance(trump, bool) or not 0 <= trump < 4:
            raise InvalidPosition("trump", f"trump must be a suit 0–3, not {trump!r}")
        self.fmt = fmt
        self.trump = trump
        self.search = Search(fmt.seats, fmt.team_of, trump, speedups, bool(fmt.jokers), native)

    @property
    def nodes(self) -> int:
        """Positions searched so far (every card tried counts one)."""
        return self.search.nodes

    def value(
        self,
        p: Position,
        at_least: Outcome | None = None,
        at_most: Outcome | None = None,
        guess: Outcome | None = None,
    ) -> Outcome:
        """The outcome of ``p`` under best play by every seat, all hands known.

        Each rung of the ladder (``dd_value.ladder``) is a race. With ``guess`` (a value near
        at hand, such as a parent position's), the ladder is climbed from it a rung at a time;
        without, it is closed from both ends, the next race always at the end that has cost
        fewer positions so far. A race far from the value is cheap when the side it asks
        for too much fails at once (team 1 shown to take 2 tricks), dear when that side must
        be shown to get its way: the cheap end is the weaker side's, and closing from there
        runs one dear race where climbing from the other end ran one at each rung (a deal
        of the bench: 494,000 positions against 1,623,000 shortest races first). ``at_least``
        and ``at_most``: outcomes the value is known to lie between (team 0's order,
        ``Outcome.score``). The answer never depends on the guess, only the work does."""
        return self._value(p, at_least, at_most, guess)[0]

    def _value(
        self,
        p: Position,
        at_least: Outcome | None,
        at_most: Outcome | None,
        guess: Outcome | None,
    ) -> tuple[Outcome, int]:
        """``value``, and the cards its races rested on (``dd_core``'s names, bit 0 clear)."""
        trick = self._load(p)
        search = self.search
        rungs = ladder(self.fmt, self.fmt.team_of[p.hakem], p.bid)
        low, high = 0, len(rungs) - 1  # rung ``low`` holds, every rung above ``high`` fails
        if at_least is not None:
            low = _index(rungs, at_least)
        if at_most is not None:
            high = _index(rungs, at_most)
        t0, t1 = p.tricks
        for i, rung in enumerate(rungs):  # the races the tricks taken already decide
            if rung.need0 <= t0:
                low = max(low, i)
            elif rung.need1 <= t1:
                high = min(high, i - 1)
        if low > high:
            raise ValueError("the bounds given exclude the position's value")
        names = 0
        if low == high:
            return rungs[low].outcome, names
        if guess is None:
            # no value near at hand: the ladder closed from both ends, each race at the end
            # that has cost fewer positions so far (``value``'s docstring says why)
            spent = [0, 0]
            while low < high:
                end = 0 if spent[0] <= spent[1] else 1
                rung = rungs[low + 1 if end == 0 else high]
                before = search.nodes
                found = search.race_names(p.leader, trick, rung.need0 - t0, rung.need1 - t1)
                spent[end] += search.nodes - before
                names |= found
                if found & 1:
                    low = low + 1 if end == 0 else high
                else:
                    high = low if end == 0 else high - 1
            return rungs[low].outcome, names & ~1
        # a value near at hand (a parent's): "at least the guess", then a rung at a time
        g = min(max(_index(rungs, guess), low), high)
        up = True
        if g > low:
            rung = rungs[g]
            found = search.race_names(p.leader, trick, rung.need0 - t0, rung.need1 - t1)
            names |= found
            if found & 1:
                low = g
            else:
                high, up = g - 1, False
        while low < high:
            step_to = low + 1 if up else high
            rung = rungs[step_to]
            found = search.race_names(p.leader, trick, rung.need0 - t0, rung.need1 - t1)
            names |= found
            if found & 1:
                low = step_to
            else:
                high = step_to - 1
        return rungs[low].outcome, names & ~1

    def card_values(self, p: Position, value: Outcome | None = None) -> dict[int, Outcome]:
        """The outcome after each legal card of the seat to play, by card number; ``value``:
        ``p``'s own, when known (no card does better for its side, so it bounds them all).

        Equivalent cards (next in rank among the cards left) are solved once, and so, as in
        the search (``small``), are a hand's cards of a suit below every card of that suit
        the answer for one of them rested on: such a card changes nothing the answer used."""
        self._check(p)
        legal = legal_cards(p.hands[p.to_play], p.trick, p.trump)
        return dict(self.grades(p, value, legal).exact)

    def grades(
        self, p: Position, value: Outcome | None = None, exact: Collection[int] = ()
    ) -> Grades:
        """What grading the decision at ``p`` needs: its value, the cards that keep it, and
        the outcome of each legal card in ``exact`` (the card played); every other card is
        only shown to do worse than the value (one race, "does it keep the value?", where its
        outcome would take a climb down the ladder). ``value`` as in ``card_values``; cards
        in ``exact`` that are not legal are left out, for the caller's own check to refuse."""
        self._check(p)
        if value is None:
            value = self.value(p)
        side = self.fmt.team_of[p.to_play]
        rungs = ladder(self.fmt, self.fmt.team_of[p.hakem], p.bid)
        g = _index(rungs, value)
        # "keeps the value" is one race: at the value's rung for team 0 (won: at least the
        # value), at the rung above it for team 1 (lost: at most the value); none when no
        # outcome is worse for the seat's side, as then every card keeps it
        test = g if side == 0 else g + 1
        testable = 0 < test < len(rungs)
        trump = self.trump
        outcomes: dict[int, Outcome | None] = {}  # None: shown to do worse, not valued
        done: dict[tuple[int, int], Outcome | None] = {}
        floor = [0, 0, 0, 0]
        below: list[Outcome | None] = [None, None, None, None]
        legal = legal_cards(p.hands[p.to_play], p.trick, p.trump)
        wanted = {c for c in exact if c in legal}
        # the exact ones first, so that a card sharing a run or a floor with one reuses its
        # outcome; each suit low first (the floor rises from a suit's low cards)
        order = sorted(legal, key=lambda c: (c not in wanted, lane_card(c, trump)))
        for card in order:
            lane, rank = lane_card(card, trump)
            run = _run_of(p, card)
            if run in done:
                outcomes[card] = done[run]
                continue
            if rank < floor[lane]:
                outcomes[card] = done[run] = below[lane]
                continue
            nxt = step(p, card)
            if isinstance(nxt, Outcome):  # the card ended the hand
                outcomes[card] = done[run] = nxt
                continue
            found: Outcome | None
            if card in wanted:
                low, high = (None, value) if side == 0 else (value, None)
                found, names = self._value(nxt, low, high, value)
            elif not testable:
                found, names = value, 0
            else:
                won, names = self._race(nxt, rungs[test])
                found = value if won == (side == 0) else None
            if not nxt.trick:
                names |= _winner_name(p, card) << 1  # the card ended the trick: its winner
            if rank < 13:
                high_floor = raise_floor(floor[lane], names | 1, lane, rank)
                if high_floor > floor[lane]:
                    floor[lane], below[lane] = high_floor, found
            outcomes[card] = done[run] = found
        return Grades(
            value,
            {c: out for c, out in outcomes.items() if out is not None},
            frozenset(c for c, out in outcomes.items() if out is None),
        )

    def _load(self, p: Position) -> list[tuple[int, int]]:
        """Check ``p`` and load its hands into the search; its trick as the search's cards."""
        self._check(p)
        self.search.load([lanes_of(h, self.trump) for h in p.hands])
        return [lane_card(c, self.trump) for c in p.trick]

    def _race(self, p: Position, rung: Rung) -> tuple[bool, int]:
        """Whether team 0 wins ``rung``'s race from ``p`` (the value is at least its outcome),
        and the cards the answer rested on (bit 0 clear)."""
        trick = self._load(p)
        t0, t1 = p.tricks
        found = self.search.race_names(p.leader, trick, rung.need0 - t0, rung.need1 - t1)
        return bool(found & 1), found & ~1

    def _check(self, p: Position) -> None:
        if not isinstance(p, Position):
            raise InvalidPosition("position", f"not a Position: {type(p).__name__}")
        if p.fmt != self.fmt or p.trump != self.trump:
            raise InvalidPosition(
                "solver", f"this solver is for {self.fmt.name} with trump {self.trump}"
            )


def _run_of(p: Position, card: int) -> tuple[int, int]:
    """The card's run in its hand: its suit and the lowest card of the hand's cards next to
    it in rank among the cards left (and the card winning the trick so far), as the search's
    ``equivalent`` reads it; a joker is a run of its own."""
    trump = p.trump
    lane, rank = lane_card(card, trump)
    if rank >= 13:
        return lane, rank
    seat = p.to_play
    own = lanes_of(p.hands[seat], trump)[lane]
    others = 0
    for s, hand in enumerate(p.hands):
        if s != seat:
            others |= lanes_of(hand, trump)[lane]
    if p.trick:
        black_gone = black_gone_before(p.hands, p.trick)
        seats = p.fmt.seats
        win = trick_winner(trump, p.leader, p.trick, seats, black_gone)
        wl, wr = lane_card(p.trick[(win - p.leader) % seats], trump)
        if wl == lane and wr < 13:
            others |= 1 << wr
    both = own | others
    while True:
        below = both & ((1 << rank) - 1)
        if not below or others >> (below.bit_length() - 1) & 1:
            break
        rank = below.bit_length() - 1
    return lane, rank


def _winner_name(p: Position, card: int) -> int:
    """The name the trick ``card`` completes rests on, as the search gives it: the winning
    card's rank when it beat a card of its own suit, else nothing (``dd_core``)."""
    trump = p.trump
    gone = black_gone_before(p.hands, p.trick)
    cards = (*p.trick, card)
    win_lane = win_rank = -1
    compared = False
    for k, c in enumerate(cards):
        lane, rank = lane_card(c, trump)
        if lane == trump and rank >= 13:
            if rank == 13:
                gone = True
            elif not gone:
                rank = -1
        if k == 0:
            win_lane, win_rank = lane, rank
        elif lane == win_lane:
            compared = True
            win_rank = max(win_rank, rank)
        elif lane == trump:
            win_lane, win_rank, compared = lane, rank, False
    if compared and win_rank >= 0:
        return 1 << (15 * win_lane + win_rank)
    return 0


def _index(rungs: tuple[Rung, ...], outcome: Outcome) -> int:
    for i, rung in enumerate(rungs):
        if rung.outcome == outcome:
            return i
    raise ValueError(f"not an outcome of this hand: {outcome}")


def solve(p: Position, speedups: Speedups = ALL, native: bool | None = None) -> Outcome:
    """``Solver(p.fmt, p.trump).value(p)``, with a table of its own."""
    return Solver(p.fmt, p.trump, speedups, native).value(p)
