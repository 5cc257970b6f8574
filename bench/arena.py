"""Full matches between two kinds of computer player, with duplicate deals, on one core.

``--variant`` names the table's format (``engine.rules.FORMATS``, default ``standard``). Each
deal is played once per side, so every side gets the same cards in turn and the luck of the
deal cancels out: in a team format player A plays all the seats of one team and B the others,
the deal played once for each team (the standard table: A on seats 0 and 2, then on 1 and 3);
in a format where everyone plays alone A takes one seat against B on all the others, the deal
played once from each seat. A's fair share of wins is 1 / (number of sides). A's decision
times (``time.perf_counter`` around every ``choose_trump``/``choose_card`` call; V1's, V2's
and the joker six's bids are rule-based and left out) are collected
on the core the match runs on; the line before the last also gives their CPU time
(``time.process_time``), which on a shared machine leaves out the time spent waiting for a
core. The last line is machine-readable::

    a=<A> b=<B> matches=<N> a_match_win_rate=<x> ci95=<lo>-<hi>
    a_ms_per_decision_p50=<p50> a_ms_per_decision_p95=<p95> variant=<name>
    [fair_share=<1/sides>]

(on one line; ``fair_share`` only for formats of more than two sides; ``bam=1`` with ``--bam``,
the V1 house rule; ``kinds_told=1`` with ``--tell-kinds``, an experiment: searching players
told which seats are greedy, as the bot's never are; ``revealed=<who>`` with ``--reveal``,
a measure, not a player: A's searching seats are shown the true hands of their ``partner``,
their ``opponents`` or ``all`` the others, which says what not knowing them costs).
Players: ``random``, ``greedy``, ``easy``, ``normal``, ``hard``, and ``clairvoyant``
(sees every hand and plays a card the exact double-dummy solver says keeps its side's best
outcome, ``Clairvoyant``; a measure of the ceiling, never a player the bot runs, in the formats
of two sides); a searching level takes
overrides for tuning, e.g. ``hard:card_budget=20000,trump_deals=0``; with ``signals=1`` a
searching seat plays the partners' signal (``engine.signals``, an experiment) and reads it from
its partners of the same spec.
``--workers N`` runs matches in N processes; report timings from ``--workers 1`` runs only.
``--dd-share`` judges A's card decisions by the same solver: ``a_solver_best_share`` (with
``judged``, the decisions that mattered) is the share whose card kept the best outcome.

``--variant shelem`` (V6, ``engine.shelem``) plays Shelem matches to the seed's 1165 the same
way (A on one team, then the same deal with A on the other); ``greedy``/``easy`` is
``GreedyShelemPlayer``, ``normal``/``hard`` ``ShelemSearchPlayer`` (overrides as above, e.g.
``hard:card_budget=6000,bid_deals=60``). A's bids are timed with its cards; ``hands`` counts
the hands A's side came out of ahead (its score moved more than the other's).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import statistics
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from hashlib import blake2b

from engine import (
    BAM,
    BID,
    DISCARD,
    DRAW,
    PLAY,
    TRUMP,
    Card,
    GreedyPlayer,
    HandResult,
    Match,
    PassedOut,
    RandomPlayer,
    Rules,
    SeatView,
    Suit,
    seat_view,
)
from engine.dd import Solver
from engine.dd_position import COVERED, Position
from engine.dd_value import Outcome as HandOutcome
from engine.fastsim import to_rm_any
from engine.players import VariantPlayer
from engine.rules import FORMATS, STANDARD, GameFormat, hokm_formats
from engine.sampling import Knowledge, knowledge
from engine.search import LEVELS, SearchPlayer
from engine.shelem import BID as SHELEM_BID
from engine.shelem import FORMAT_NAME as SHELEM
from engine.shelem import PLAY as SHELEM_PLAY
from engine.shelem import ShelemHandResult, ShelemMatch
from engine.shelem import seat_view as shelem_view
from engine.shelem.players import GreedyShelemPlayer, RandomShelemPlayer, ShelemPlayer
from engine.shelem.search import LEVELS as SHELEM_LEVELS
from engine.shelem.search import ShelemSearchPlayer

NAMES = ("random", "greedy", "easy", "normal", "hard", "clairvoyant")


def make(
    spec: str,
    seed: int,
    greedy_seats: frozenset[int] = frozenset(),
    partners: frozenset[int] = frozenset(),
) -> VariantPlayer:
    """A player from ``name`` or ``name:key=value,...`` (overrides of a search level); a
    searching one is told ``greedy_seats``, the seats it knows to be greedy players."""
    name, _, opts = spec.partition(":")
    if name == "random":
        return RandomPlayer(seed)
    if name in ("greedy", "easy"):
        return GreedyPlayer()
    if name == "clairvoyant":  # sees every hand: given the match in play_match
        return Clairvoyant()
    if name in LEVELS:
        settings = LEVELS[name]
        for item in filter(None, opts.split(",")):
            key, _, value = item.partition("=")
            kind = type(getattr(settings, key))
            parsed = bool(int(value)) if kind is bool else kind(value)
            settings = dataclasses.replace(settings, **{key: parsed})
        signal_seats = partners if settings.signals else frozenset()
        return SearchPlayer(seed, settings, greedy_seats=greedy_seats, signal_seats=signal_seats)
    raise SystemExit(f"unknown player {spec!r}: one of {', '.join(NAMES)}")


#: ``--reveal``: whose true hands A's searching seats are shown.
REVEAL = ("partner", "opponents", "all")


class Seeing(SearchPlayer):
    """A searching player shown some other seats' true hands (``--reveal``): a measure of
    what a seat's ignorance of them costs, never a player the bot runs."""

    def __init__(self, seed: int, player: SearchPlayer, match: Match, who: str) -> None:
        """``player``'s settings and greedy seats, and ``seed``, the one it was made with, so
        that the seat draws what it would have drawn had it not been shown anything."""
        super().__init__(
            seed,
            player.settings,
            greedy_seats=player.greedy_seats,
            signal_seats=player.signal_seats,
        )
        self._match = match
        self._who = who

    def shown(self, view: SeatView) -> list[int]:
        """The seats whose hands this seat is shown."""
        partner = [s for s in range(view.seats) if view.is_partner(s)]
        if self._who == "partner":
            return partner
        others = [s for s in range(view.seats) if s != view.seat]
        return others if self._who == "all" else [s for s in others if s not in partner]

    def _knowledge(self, view: SeatView) -> Knowledge:
        know = knowledge(view)
        known, counts, unseen = list(know.known), list(know.counts), know.unseen
        for seat in self.shown(view):
            hand = to_rm_any(self._match.hand_of(seat), -1 if view.trump is None else view.trump)
            known[seat] |= hand
            unseen &= ~hand
            counts[seat] -= hand.bit_count()
        return dataclasses.replace(know, known=tuple(known), unseen=unseen, counts=tuple(counts))


class Solving:
    """One solver per hand of a match (its table serves every later position of the hand)."""

    def __init__(self) -> None:
        self._solver: Solver | None = None
        self._hand: tuple[int, int] = (-1, -1)

    def values(self, match: Match) -> dict[int, HandOutcome] | None:
        """Every legal card's outcome for the seat to play, or ``None`` where the solver does
        not go (a format of more than two sides, a bam being played)."""
        if match.fmt.name not in COVERED or match.trump is None:
            return None
        if match.rules.bam and match._bam_team >= 0:
            return None
        hand = (match.hand_number, match.deal_number)
        if self._solver is None or self._hand != hand:
            self._solver = Solver(match.fmt, int(match.trump))
            self._hand = hand
        return self._solver.card_values(Position.from_match(match))

    @staticmethod
    def best(values: dict[int, HandOutcome], side: int) -> list[int]:
        """The cards keeping ``side``'s best outcome, lowest rank first."""
        top = max(out.score_for(side) for out in values.values())
        return sorted(
            (c for c, out in values.items() if out.score_for(side) == top),
            key=lambda c: (c % 13 if c < 52 else 13 + c - 52, c),
        )


class Clairvoyant:
    """Sees every hand (``match``, set once the match exists) and plays a solver-best card."""

    def __init__(self) -> None:
        self.match: Match | None = None
        self._greedy = GreedyPlayer()
        self._solving = Solving()

    def choose_card(self, view: SeatView) -> Card:
        assert self.match is not None, "the arena gives the clairvoyant its match"
        values = self._solving.values(self.match)
        if values is None:
            return self._greedy.choose_card(view)
        card = self._solving.best(values, view.team)[0]
        return next(c for c in view.legal if int(c) == card)

    def choose_trump(self, view: SeatView) -> Suit:
        return self._greedy.choose_trump(view)

    def choose_discard(self, view: SeatView) -> Card:
        return self._greedy.choose_discard(view)

    def choose_draw(self, view: SeatView) -> bool:
        return self._greedy.choose_draw(view)

    def choose_bam(self, view: SeatView) -> bool:
        return self._greedy.choose_bam(view)

    def choose_bid(self, view: SeatView) -> int:
        return self._greedy.choose_bid(view)


class BestShare:
    """How often a player's cards kept the solver's best outcome (decisions with a choice)."""

    def __init__(self) -> None:
        self.best = 0
        self.total = 0
        self._solving = Solving()

    def judge(self, match: Match, seat: int, card: int) -> None:
        """Before ``card`` is played by ``seat``: count it, if the choice mattered (the legal
        cards do not all lead to one outcome)."""
        if len(match.legal_cards(seat)) < 2:
            return
        values = self._solving.values(match)
        if values is None or len(set(values.values())) < 2:
            return
        self.total += 1
        self.best += card in self._solving.best(values, match.fmt.team_of[seat])


def same_kind(fmt: GameFormat, specs: list[str], seat: int) -> frozenset[int]:
    """``seat``'s partners that play as it does: computers of one level, as at the bot's
    tables, whose signals (``engine.signals``) it can read."""
    team = fmt.team_of[seat]
    return frozenset(
        s
        for s in range(fmt.seats)
        if s != seat and fmt.team_of[s] == team and specs[s] == specs[seat]
    )


def is_greedy(spec: str) -> bool:
    """A ``GreedyPlayer`` spec: a table shows such seats as its ``easy`` computers."""
    return spec.partition(":")[0] in ("greedy", "easy")


def make_shelem(spec: str, seed: int) -> ShelemPlayer:
    """A Shelem player from ``name`` or ``name:key=value,...`` (V6)."""
    name, _, opts = spec.partition(":")
    if name == "random":
        return RandomShelemPlayer(seed)
    if name in ("greedy", "easy"):
        return GreedyShelemPlayer()
    if name in SHELEM_LEVELS:
        settings = SHELEM_LEVELS[name]
        for item in filter(None, opts.split(",")):
            key, _, value = item.partition("=")
            kind = type(getattr(settings, key))
            parsed = bool(int(value)) if kind is bool else kind(value)
            settings = dataclasses.replace(settings, **{key: parsed})
        return ShelemSearchPlayer(seed, settings)
    raise SystemExit(f"unknown player {spec!r}: one of {', '.join(NAMES)}")


def derive(*parts: object) -> int:
    """A 63-bit seed from a path of values, stable across runs and processes."""
    digest = blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def first_hands(
    fmt: GameFormat,
    seed: int,
    matches: int,
    hands: int,
    decide: Callable[[Match, SeatView, int], Card],
) -> None:
    """Plays the first ``hands`` hands of ``matches`` matches on the arena's deals of ``seed``:
    team 0's cards by ``decide`` (the match, the seat's view, a seed for that moment), every
    other choice, trump included, by the greedy rule. The ground of the measures that put team
    0's decisions to two players or models at once (``partner_sight``, ``partner_posterior``)."""
    greedy = GreedyPlayer()
    for index in range(matches):
        match = Match(derive(seed, "deal", index), Rules(), fmt)
        while not match.is_over and match.hand_number <= hands:
            seat = match.to_act
            view = seat_view(match, seat)
            if view.phase == TRUMP:
                match.choose_trump(seat, greedy.choose_trump(view))
            elif view.phase != PLAY or fmt.team_of[seat] != 0:
                match.play(seat, greedy.choose_card(view))
            else:
                match.play(seat, decide(match, view, derive(seed, "p", index, len(match.actions))))


def first_hands_parser(doc: str, matches: int, a_help: str) -> argparse.ArgumentParser:
    """The options of ``first_hands`` for a measure's command line: ``--variant`` (a team
    format without bidding), ``--a`` (what team 0 plays), ``--matches``, ``--seed``, ``--hands``."""
    team_formats = [n for n, f in hokm_formats().items() if not f.solo and not f.jokers]
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--variant", default="six_pairs", choices=team_formats)
    parser.add_argument("--a", default="hard", help=f"{a_help} (default hard)")
    parser.add_argument("--matches", type=int, default=matches)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--hands", type=int, default=3, help="hands played of each match")
    return parser


@dataclass
class Outcome:
    """What one match tells about player A."""

    a_won: bool
    hands: int = 0
    a_hands: int = 0
    a_points: int = 0
    b_points: int = 0
    solver_best: int = 0
    """``--dd-share``: A's card decisions that kept the double-dummy best outcome, of ``judged``."""
    judged: int = 0
    times_ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)


def a_seats(fmt: GameFormat, index: int) -> tuple[int, tuple[int, ...]]:
    """A's team and seats in match ``index``: the deal's copies rotate A over the sides."""
    team = index % len(fmt.teams)
    return team, fmt.seats_of(team)


def play_shelem_match(a: str, b: str, seed: int, index: int) -> Outcome:
    """V6 Shelem: match ``index``, deal seed ``index // 2``, A on team ``index % 2``."""
    deal_seed = derive(seed, "deal", index // 2)
    a_team = index % 2
    players = [
        make_shelem(a if s % 2 == a_team else b, derive(seed, "player", index, s)) for s in range(4)
    ]
    match = ShelemMatch(deal_seed)
    out = Outcome(False)
    clock, cpu_clock = time.perf_counter, time.process_time
    while not match.is_over:
        seat = match.to_act
        view = shelem_view(match, seat)
        player = players[seat]
        phase = match.phase
        start, cpu_start = clock(), cpu_clock()
        if phase == SHELEM_BID:
            value = player.choose_bid(view)
            lap = clock() - start, cpu_clock() - cpu_start
            events = match.bid(seat, value)
        elif phase == SHELEM_PLAY:
            card = player.choose_card(view)
            lap = clock() - start, cpu_clock() - cpu_start
            events = match.play(seat, card)
        elif phase == "discard":
            lap = (0.0, 0.0)
            events = match.discard(seat, player.choose_discard(view))
        else:
            lap = (0.0, 0.0)
            events = match.choose_mode(seat, player.choose_mode(view))
        if seat % 2 == a_team and phase in (SHELEM_BID, SHELEM_PLAY):
            out.times_ms.append(lap[0] * 1000)
            out.cpu_ms.append(lap[1] * 1000)
        for event in events:
            if isinstance(event, ShelemHandResult):
                out.hands += 1
                ours, theirs = event.changes[a_team], event.changes[1 - a_team]
                out.a_hands += ours > theirs
                out.a_points += ours
                out.b_points += theirs
    out.a_won = match.winner_team == a_team
    return out


def play_match(
    a: str,
    b: str,
    seed: int,
    index: int,
    variant: str = STANDARD.name,
    bam: bool = False,
    tell_kinds: bool = False,
    reveal: str = "",
    dd_share: bool = False,
) -> Outcome:
    """Match ``index`` of the run: deal seed ``index // sides``, A's side rotating; ``bam``
    turns on the V1 house rule. With ``tell_kinds`` the searching players are told which
    seats are greedy (``SearchPlayer``'s ``greedy_seats``); the bot's never are, since its
    computers at a table all play at one level, so the lines that measure the bot leave it off.
    ``reveal`` (``REVEAL``): A's searching seats are shown those hands (``Seeing``).
    ``dd_share``: A's cards are judged by the double-dummy solver (``BestShare``)."""
    if variant == SHELEM:
        return play_shelem_match(a, b, seed, index)
    fmt = FORMATS[variant]
    deal_seed = derive(seed, "deal", index // len(fmt.teams))
    a_team, seats = a_seats(fmt, index)
    specs = [a if s in seats else b for s in range(fmt.seats)]
    greedy = frozenset(s for s in range(fmt.seats) if tell_kinds and is_greedy(specs[s]))
    seeds = [derive(seed, "player", index, s) for s in range(fmt.seats)]
    players = [
        make(specs[s], seeds[s], greedy - {s}, same_kind(fmt, specs, s)) for s in range(fmt.seats)
    ]
    match = Match(deal_seed, Rules(bam=bam), fmt)
    for player in players:
        if isinstance(player, Clairvoyant):
            player.match = match
    share = BestShare() if dd_share else None
    if reveal:
        for s in seats:
            player = players[s]
            if isinstance(player, SearchPlayer):
                players[s] = Seeing(seeds[s], player, match, reveal)
    out = Outcome(False)
    clock, cpu_clock = time.perf_counter, time.process_time
    times, cpu_times = out.times_ms, out.cpu_ms
    while not match.is_over:
        seat = match.to_act
        view = seat_view(match, seat)
        player = players[seat]
        mine = seat in seats
        start, cpu_start = clock(), cpu_clock()
        phase = match.phase
        if phase == TRUMP:
            suit = player.choose_trump(view)
            lap = clock() - start, cpu_clock() - cpu_start
            events = match.choose_trump(seat, suit)
        elif phase == DISCARD:
            card = player.choose_discard(view)
            lap = clock() - start, cpu_clock() - cpu_start
            events = match.discard(seat, card)
        elif phase == DRAW:
            keep = player.choose_draw(view)
            lap = clock() - start, cpu_clock() - cpu_start
            events = match.draw(seat, keep)
        elif phase == BAM:
            bam = player.choose_bam(view)
            lap = clock() - start, cpu_clock() - cpu_start
            events = match.declare_bam(seat, bam)
        elif phase == BID:  # V5 joker six
            tricks = player.choose_bid(view)
            lap = clock() - start, cpu_clock() - cpu_start
            events = match.bid(seat, tricks)
        else:
            card = player.choose_card(view)
            lap = clock() - start, cpu_clock() - cpu_start
            if share is not None and mine:
                share.judge(match, seat, int(card))
            events = match.play(seat, card)
        if mine and phase in (TRUMP, PLAY):  # V1/V2's quick rule-based decisions aside
            times.append(lap[0] * 1000)
            cpu_times.append(lap[1] * 1000)
        for event in events:
            if isinstance(event, HandResult):
                out.hands += 1
                if event.winner_team == a_team:
                    out.a_hands += 1
                    out.a_points += event.points
                else:
                    out.b_points += event.points
            elif isinstance(event, PassedOut):  # V5 joker six: the dealer's team scores 1
                if fmt.team_of[event.dealer] == a_team:
                    out.a_points += 1
                else:
                    out.b_points += 1
    out.a_won = match.winner_team == a_team
    if share is not None:
        out.solver_best, out.judged = share.best, share.total
    return out


def _run(job: tuple[str, str, int, int, str, bool, bool, str, bool]) -> Outcome:
    return play_match(*job)


def outcomes(args: argparse.Namespace) -> Iterator[Outcome]:
    jobs = [
        (
            args.a,
            args.b,
            args.seed,
            i,
            args.variant,
            args.bam,
            args.tell_kinds,
            args.reveal,
            args.dd_share,
        )
        for i in range(args.matches)
    ]
    if args.workers <= 1:
        yield from map(_run, jobs)
        return
    with ProcessPoolExecutor(args.workers) as pool:
        yield from pool.map(_run, jobs, chunksize=1)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score 95% interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[round(q) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", default="hard", help="player A (default hard)")
    parser.add_argument("--b", default="greedy", help="player B (default greedy)")
    parser.add_argument("--matches", type=int, default=200, help="matches (pairs of deals x2)")
    parser.add_argument("--seed", type=int, default=1, help="seed of deals and players")
    parser.add_argument("--workers", type=int, default=1, help="processes (timings: use 1)")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    parser.add_argument(
        "--variant",
        default=STANDARD.name,
        choices=sorted(FORMATS),
        help="the table's format",
    )
    parser.add_argument("--bam", action="store_true", help="the V1 house rule on")
    parser.add_argument(
        "--tell-kinds",
        action="store_true",
        help="tell searching players which seats are greedy (an experiment: the bot does not)",
    )
    parser.add_argument(
        "--reveal",
        choices=REVEAL,
        default="",
        help="show A's searching seats these true hands (a measure: what ignorance costs)",
    )
    parser.add_argument(
        "--dd-share",
        action="store_true",
        help="judge A's cards by the double-dummy solver: the share that kept its best outcome",
    )
    args = parser.parse_args()
    if args.dd_share and args.variant not in COVERED:
        raise SystemExit(f"--dd-share needs a format of two sides: {', '.join(COVERED)}")
    if args.reveal and args.variant == SHELEM:
        raise SystemExit("--reveal measures the Hokm formats' searching player, not Shelem's")
    shelem = FORMATS[args.variant].family == "shelem"
    fmt = STANDARD if shelem else FORMATS[args.variant]
    for spec in (args.a, args.b):
        (make_shelem if shelem else make)(spec, 0)  # fail early on a bad name

    wins = hands = a_hands = a_points = b_points = solver_best = judged = 0
    times: list[float] = []
    cpu_times: list[float] = []
    started = time.perf_counter()
    for n, out in enumerate(outcomes(args), 1):
        wins += out.a_won
        hands += out.hands
        a_hands += out.a_hands
        a_points += out.a_points
        b_points += out.b_points
        solver_best += out.solver_best
        judged += out.judged
        times.extend(out.times_ms)
        cpu_times.extend(out.cpu_ms)
        if not args.quiet and (n % 20 == 0 or n == args.matches):
            print(
                f"{n} matches: A won {wins} ({wins / n:.3f}), hands {a_hands}/{hands} "
                f"({a_hands / max(1, hands):.3f}), points {a_points}-{b_points}, "
                f"{time.perf_counter() - started:.0f} s",
                flush=True,
            )
    n = args.matches
    lo, hi = wilson(wins, n)
    if times:
        print(
            f"A decisions: {len(times)}, mean {statistics.fmean(times):.1f} ms, "
            f"p99 {percentile(times, 99):.1f} ms, max {max(times):.1f} ms; "
            f"CPU time p50 {percentile(cpu_times, 50):.1f} ms, "
            f"p95 {percentile(cpu_times, 95):.1f} ms (waiting for a busy core excluded)"
        )
    sides = len(fmt.teams)
    fair = f" fair_share={1 / sides:.3f}" if sides > 2 else ""
    print(
        f"a={args.a} b={args.b} matches={n} a_match_win_rate={wins / max(1, n):.3f} "
        f"ci95={lo:.3f}-{hi:.3f} a_ms_per_decision_p50={percentile(times, 50):.1f} "
        f"a_ms_per_decision_p95={percentile(times, 95):.1f} "
        f"variant={SHELEM if shelem else fmt.name}{fair}"
        + (" bam=1" if args.bam else "")
        + (" kinds_told=1" if args.tell_kinds else "")
        + (f" revealed={args.reveal}" if args.reveal else "")
        + (
            f" a_solver_best_share={solver_best / max(1, judged):.3f} judged={judged}"
            if args.dd_share
            else ""
        )
    )


if __name__ == "__main__":
    main()
