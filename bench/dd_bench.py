"""How fast the double-dummy solver is, on one core.

    python bench/dd_bench.py [--deals 50] [--hands 10] [--seed 1] [--plain]

Two measures, each on seeded random deals of the standard table:

- a whole deal: the exact value (``Solver.value``) of a random 13-card deal after trump, from
  the first lead, with a fresh solver (an empty table) each time;
- a hand's analysis: one hand played by greedy players through the engine (``Match``), then
  every one of its decisions graded as the bot grades it (``engine.dd_analysis.analyse_hand``:
  the best outcome, the cards that keep it, the outcome after the card played, every other
  legal card shown to do worse), one solver for the hand.

Times are wall-clock (``time.perf_counter``) around the solver's calls only, and the line before
the last gives their CPU time too (``time.process_time``), which leaves out the waits for a
busy core; ``nodes_per_s`` is the positions searched over the wall-clock seconds spent in the
whole-deal solves. The search runs
compiled when ``bench/dd_build.py`` has built it (``native=1``), else as plain Python;
``--plain`` forces the plain module. The last line is machine-readable::

    dd_deal_ms_p50=<ms> dd_deal_ms_p95=<ms> dd_hand_analysis_ms_p95=<ms> nodes_per_s=<n>
    deals=<n> hands=<n> native=<0|1>

(one line). Targets: ``dd_deal_ms_p95`` at most 2,000, a hand's analysis at most 5,000.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine import PLAY, GreedyPlayer, HandResult, Match, seat_view
from engine.dd import Solver
from engine.dd_analysis import analyse_hand
from engine.dd_position import Position
from engine.dd_samples import random_deal
from engine.dd_search import NATIVE
from engine.rules import STANDARD


def percentile(values: list[float], q: int) -> float:
    """The ``q``-th percentile (inclusive method, as ``bench/arena.py``)."""
    if len(values) <= 1:
        return values[0] if values else 0.0
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def played_hand(seed: int) -> tuple[Position, list[int]]:
    """The first hand of a match of greedy players: its first lead and every card played."""
    match = Match(seed)
    greedy = GreedyPlayer()
    match.choose_trump(match.hakem, greedy.choose_trump(seat_view(match, match.hakem)))
    assert match.phase == PLAY and match.trump is not None
    start = Position.deal(STANDARD, int(match.trump), tuple(match.hands), match.hakem)
    cards: list[int] = []
    while True:
        seat = match.turn
        card = greedy.choose_card(seat_view(match, seat))
        cards.append(int(card))
        if any(isinstance(e, HandResult) for e in match.play(seat, card)):
            return start, cards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=50, help="whole deals to solve")
    parser.add_argument("--hands", type=int, default=10, help="played hands to analyse")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plain", action="store_true", help="the plain Python search only")
    parser.add_argument("--quiet", action="store_true", help="no line per deal")
    args = parser.parse_args()
    native = None if not args.plain else False
    clock, cpu_clock = time.perf_counter, time.process_time

    rng = random.Random(args.seed)
    deal_ms: list[float] = []
    deal_cpu: list[float] = []
    nodes = 0
    seconds = 0.0
    for i in range(args.deals):
        p = random_deal(rng, STANDARD)
        solver = Solver(STANDARD, p.trump, native=native)
        start, cpu_start = clock(), cpu_clock()
        value = solver.value(p)
        lap = clock() - start
        deal_ms.append(lap * 1000)
        deal_cpu.append((cpu_clock() - cpu_start) * 1000)
        nodes += solver.nodes
        seconds += lap
        if not args.quiet:
            print(f"deal {i}: {value.describe()}, {solver.nodes} nodes, {lap * 1000:.0f} ms")

    hand_ms: list[float] = []
    hand_cpu: list[float] = []
    for i in range(args.hands):
        start_position, cards = played_hand(args.seed * 1000 + i)
        solver = Solver(STANDARD, start_position.trump, native=native)
        start, cpu_start = clock(), cpu_clock()
        decisions = analyse_hand(start_position, cards, solver)
        lap = clock() - start
        hand_ms.append(lap * 1000)
        hand_cpu.append((cpu_clock() - cpu_start) * 1000)
        if not args.quiet:
            lost = sum(1 for d in decisions if d.cost != (0, 0))
            print(
                f"hand {i}: {len(decisions)} cards, {lost} below the best, "
                f"{solver.nodes} nodes, {lap * 1000:.0f} ms"
            )

    used = NATIVE is not None and not args.plain
    print(
        f"CPU time (a busy machine's waits left out): deal p50 {percentile(deal_cpu, 50):.0f} ms, "
        f"p95 {percentile(deal_cpu, 95):.0f} ms, max {max(deal_cpu, default=0):.0f} ms; "
        f"hand analysis p50 {percentile(hand_cpu, 50):.0f} ms, "
        f"p95 {percentile(hand_cpu, 95):.0f} ms, max {max(hand_cpu, default=0):.0f} ms"
    )
    print(
        f"dd_deal_ms_p50={percentile(deal_ms, 50):.0f} "
        f"dd_deal_ms_p95={percentile(deal_ms, 95):.0f} "
        f"dd_hand_analysis_ms_p95={percentile(hand_ms, 95):.0f} "
        f"nodes_per_s={nodes / max(seconds, 1e-9):.0f} "
        f"deals={args.deals} hands={args.hands} native={int(used)}"
    )


if __name__ == "__main__":
    main()
