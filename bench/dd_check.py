"""The double-dummy solver's long exactness runs.

    python bench/dd_check.py [--ends 10000] [--deals 500] [--first-deal 0] [--seed 1] [--workers 1]

Two checks, on seeded random positions of every format the solver covers (``standard``,
``two``, ``six_teams``, ``joker_six``, in turn):

- **end positions** (``--ends``): 1 to 4 cards a seat, the counts of tricks consistent, part of
  a trick possibly played: the solver's value against ``engine.dd_reference.minimax``, a plain
  minimax without pruning, table, ordering or equivalent cards (seconds for some positions of
  4 cards at six seats); with a compiled search (``bench/dd_build.py``) both the compiled and
  the plain one are checked;
- **whole deals** (``--deals``): a random deal from its first lead, solved with every
  speed-up, then again with each speed-up turned off in turn (``dd_search.NAMES``), and with
  the plain module when a compiled one is in use.

Each difference is printed with its seed and position. Work is printed as it finishes, out of
order, so a long run stopped part way still says what it checked: each whole deal's line names
it, with its CPU time (a deal solved without the table can take half an hour).
``--first-deal`` starts the whole deals at that index (a run continued: ``--ends 0 --deals 300
--first-deal 200`` checks deals 200 to 499 of the seed). The last two lines::

    dd_check_end_positions=<n> differences=<d> formats=<names>
    dd_check_whole_deals=<n> solves=<n> differences=<d> formats=<names>
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import TypeVar

from engine.dd import Solver
from engine.dd_position import COVERED, Position
from engine.dd_reference import minimax
from engine.dd_samples import random_deal, random_end
from engine.dd_search import ALL, NAMES, NATIVE, Speedups
from engine.dd_value import Outcome
from engine.rules import FORMATS

T = TypeVar("T")


def _solve(p: Position, speedups: Speedups, native: bool | None) -> Outcome:
    return Solver(p.fmt, p.trump, speedups, native).value(p)


def check_end(job: tuple[int, int]) -> list[str]:
    """End position ``index`` of the run of ``seed``: the differences found, as lines."""
    seed, index = job
    fmt = FORMATS[COVERED[index % len(COVERED)]]
    rng = random.Random(f"end-{seed}-{index}")
    p = random_end(rng, fmt, 4)
    want = minimax(p)
    found = []
    for native in (None, False) if NATIVE is not None else (None,):
        got = _solve(p, ALL, native)
        if got != want:
            found.append(f"end {index} native={native}: {got} != minimax {want}; {p}")
    return found


def check_deal(job: tuple[int, int]) -> tuple[int, list[str], str]:
    """Whole deal ``index`` of the run of ``seed``: solves made, differences found, and a line
    that names the deal checked and its CPU time."""
    seed, index = job
    started = time.process_time()
    fmt = FORMATS[COVERED[index % len(COVERED)]]
    p = random_deal(random.Random(f"deal-{seed}-{index}"), fmt)
    want = _solve(p, ALL, None)
    runs: list[tuple[str, Speedups, bool | None]] = [
        (f"without {name}", ALL.without(name), None) for name in NAMES
    ]
    if NATIVE is not None:
        runs.append(("plain", ALL, False))
    found = []
    for label, speedups, native in runs:
        got = _solve(p, speedups, native)
        if got != want:
            found.append(f"deal {index} {label}: {got} != {want}; {p}")
    took = time.process_time() - started
    done = f"deal {index} ({p.fmt.name}) checked, {len(runs) + 1} solves, {took:.0f} s of CPU"
    return len(runs) + 1, found, done


def run(
    jobs: list[tuple[int, int]], workers: int, fn: Callable[[tuple[int, int]], T]
) -> Iterator[T]:
    """``fn`` over ``jobs`` in ``workers`` processes, each result as it is ready."""
    if workers <= 1:
        yield from map(fn, jobs)
        return
    with ProcessPoolExecutor(workers) as pool:
        for done in as_completed([pool.submit(fn, job) for job in jobs]):
            yield done.result()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ends", type=int, default=10_000, help="random end positions")
    parser.add_argument("--deals", type=int, default=500, help="random whole deals")
    parser.add_argument("--first-deal", type=int, default=0, help="index of the first deal")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="processes")
    args = parser.parse_args()
    formats = ",".join(COVERED)
    started = time.perf_counter()

    differences = 0
    for n, found in enumerate(
        run([(args.seed, i) for i in range(args.ends)], args.workers, check_end), 1
    ):
        for line in found:
            print(line, flush=True)
        differences += len(found)
        if n % 1000 == 0:
            print(
                f"{n} end positions, {differences} differences, "
                f"{time.perf_counter() - started:.0f} s",
                flush=True,
            )
    end_line = f"dd_check_end_positions={args.ends} differences={differences} formats={formats}"

    differences = solves = 0
    for n, (made, found, done) in enumerate(
        run(
            [(args.seed, args.first_deal + i) for i in range(args.deals)],
            args.workers,
            check_deal,
        ),
        1,
    ):
        solves += made
        print(done, flush=True)
        for line in found:
            print(line, flush=True)
        differences += len(found)
        if n % 20 == 0:
            print(
                f"{n} whole deals, {differences} differences, "
                f"{time.perf_counter() - started:.0f} s",
                flush=True,
            )
    print(end_line)
    first = f" first_deal={args.first_deal}" if args.first_deal else ""
    print(
        f"dd_check_whole_deals={args.deals} solves={solves} differences={differences} "
        f"formats={formats}{first}"
    )


if __name__ == "__main__":
    main()
