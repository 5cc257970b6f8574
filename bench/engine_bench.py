"""Random full hands and matches through the engine's public API, on one core.

Plays with uniformly random legal moves, exactly as the bot drives the engine (``choose_trump``,
``legal_cards``, ``play``), and prints hands and matches per second. The last line is
machine-readable: ``random_hands_per_second=<N> random_matches_per_second=<M>``.

How CPython was built matters as much as the engine: on the project machine the same run is
about 1.3 times faster (median of alternating runs) on Debian's ``/usr/bin/python3``
(libpython linked into the executable, built with PGO and LTO) than on the pyenv
``--enable-shared`` build the venv uses, though callgrind counts only 6% fewer instructions.
The engine needs only the standard library, so any interpreter can run it from a checkout:
``PYTHONPATH=. /usr/bin/python3 bench/engine_bench.py --seconds 5``.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from math import floor

from engine import PLAY, SUITS, Match


def play_random_match(seed: int, rng: random.Random) -> int:
    """One match with random legal moves; returns the number of hands it took."""
    match = Match(seed)
    rand = rng.random  # floor() rather than int(): int(x) costs more than a whole R8 check
    legal_cards, play = match.legal_cards, match.play  # bound once, as a tight caller would
    hands = 0
    while not match.is_over:
        match.choose_trump(match.hakem, SUITS[floor(rand() * 4)])
        while match.phase is PLAY:
            seat = match.turn
            legal = legal_cards(seat)
            play(seat, legal[floor(rand() * len(legal))])
        hands += 1
    return hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="how long to play")
    parser.add_argument("--seed", type=int, default=1, help="seed of the move choices")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    hands = matches = 0
    start = time.perf_counter()
    deadline = start + args.seconds
    while time.perf_counter() < deadline:
        for _ in range(20):
            hands += play_random_match(rng.getrandbits(63), rng)
            matches += 1
    elapsed = time.perf_counter() - start
    print(f"played {matches} matches, {hands} hands in {elapsed:.2f} s")
    # the interpreter's build matters as much as the engine: say which one ran
    print(
        f"interpreter: {platform.python_implementation()} {platform.python_version()} ({sys.executable})"
    )
    print(
        f"random_hands_per_second={hands / elapsed:.0f} "
        f"random_matches_per_second={matches / elapsed:.0f}"
    )


if __name__ == "__main__":
    main()
