"""Random full hands and matches through the engine's public API, on one core.

Plays with uniformly random legal moves, exactly as the bot drives the engine (``choose_trump``,
``legal_cards``, ``play``), and prints hands and matches per second. The last line is
machine-readable: ``random_hands_per_second=<N> random_matches_per_second=<M>``.
``--variant NAME`` plays another format of ``engine.rules.FORMATS`` (V2–V5), or ``shelem`` (V6,
``engine.shelem``: random bids, half of them passes, random discards and modes, random legal
cards), with the same last line; the default is the standard game, whose output is unchanged.

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
from collections.abc import Callable
from math import floor

from engine import PLAY, STANDARD, SUITS, TRUMP, GameFormat, Match
from engine.match import BID, DISCARD, DRAW
from engine.rules import FORMATS
from engine.shelem import BID as SHELEM_BID
from engine.shelem import DISCARD as SHELEM_DISCARD
from engine.shelem import FORMAT_NAME as SHELEM
from engine.shelem import MODE as SHELEM_MODE
from engine.shelem import ShelemMatch


def play_random_match(seed: int, rng: random.Random, fmt: GameFormat = STANDARD) -> int:
    """One match with random legal moves; returns the number of hands it took."""
    match = Match(seed, None, fmt)
    rand = rng.random  # floor() rather than int(): int(x) costs more than a whole R8 check
    legal_cards, play = match.legal_cards, match.play  # bound once, as a tight caller would
    hands = 0
    while not match.is_over:
        if match.phase is not TRUMP:  # V5 joker six: bidding first
            bid(match, rand)
            continue
        match.choose_trump(match.hakem, SUITS[floor(rand() * 4)])
        if match.phase is DISCARD:  # V2: random discards, then random draws
            build_hands(match, rand)
        while match.phase is PLAY:
            seat = match.turn
            legal = legal_cards(seat)
            play(seat, legal[floor(rand() * len(legal))])
        hands += 1
    return hands


def play_random_shelem_match(seed: int, rng: random.Random) -> int:
    """V6 Shelem: one match with random legal decisions; returns the number of hands played
    (all-pass redeals not counted). Random play sinks both scores, so the match ends when one
    side is ahead by the target (V6.14)."""
    match = ShelemMatch(seed)
    rand = rng.random
    legal_cards, play = match.legal_cards, match.play
    while not match.is_over:
        phase = match.phase
        seat = match.to_act
        if phase is SHELEM_BID:
            bids = match.legal_bids(seat)
            passes = rand() < 0.5 and not match.must_open  # V6.4.1: the dealer opens
            match.bid(seat, 0 if passes else bids[floor(rand() * len(bids))])
        elif phase is SHELEM_DISCARD:
            hand = match.hand_of(seat)
            match.discard(seat, rng.sample(hand, match.kitty_size))
        elif phase is SHELEM_MODE:
            modes = match.options.modes
            match.choose_mode(seat, modes[floor(rand() * len(modes))])
        else:
            legal = legal_cards(seat)
            play(seat, legal[floor(rand() * len(legal))])
    return len(match.hand_results)


def bid(match: Match, rand: Callable[[], float]) -> None:
    """V5 joker six: each seat passes or bids one of the higher bids, at random."""
    while match.phase is BID:
        higher = [b for b in match.fmt.bids if b > max(getattr(match, "bids", (0,)))]
        choice = floor(rand() * (len(higher) + 1))
        match.bid(match.to_act, higher[choice - 1] if choice else 0)


def build_hands(match: Match, rand: Callable[[], float]) -> None:
    """V2: each seat discards random cards, then keeps the top card or the next at random."""
    while match.phase is DISCARD:
        seat = match.to_act
        hand = match.hand_of(seat)
        match.discard(seat, hand[floor(rand() * len(hand))])
    while match.phase is DRAW:
        match.draw(match.to_act, rand() < 0.5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="how long to play")
    parser.add_argument("--seed", type=int, default=1, help="seed of the move choices")
    parser.add_argument(
        "--variant",
        choices=sorted(FORMATS),
        default=STANDARD.name,
        help="the game format",
    )
    args = parser.parse_args()
    shelem = FORMATS[args.variant].family == "shelem"
    fmt = STANDARD if shelem else FORMATS[args.variant]

    rng = random.Random(args.seed)
    hands = matches = 0
    start = time.perf_counter()
    deadline = start + args.seconds
    while time.perf_counter() < deadline:
        for _ in range(20):
            if shelem:
                hands += play_random_shelem_match(rng.getrandbits(63), rng)
            else:
                hands += play_random_match(rng.getrandbits(63), rng, fmt)
            matches += 1
    elapsed = time.perf_counter() - start
    variant = f" of {SHELEM}" if shelem else "" if fmt is STANDARD else f" of {fmt.name}"
    print(f"played {matches} matches{variant}, {hands} hands in {elapsed:.2f} s")
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
