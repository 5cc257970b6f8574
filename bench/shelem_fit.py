"""Fit ``engine.shelem.players.hand_estimate`` (V6.15): deals played out by greedy players.

For each deal one seat is made hakem (the seat that would bid first), takes the kitty, lays
down with ``greedy_discard`` and names its best suit; the hand is played out by the greedy
policy for all four seats (``fastsim.play_out``). The points its side took are regressed
(least squares, pure Python) on ``hand_features`` of its twelve cards before the kitty. Prints
the weights, the residual spread, and how often a side made each bid at the estimate::

    python bench/shelem_fit.py --deals 20000 [--joker]
"""

from __future__ import annotations

import argparse
import math
import random

from engine.shelem import ShelemMatch, ShelemOptions
from engine.shelem.fastsim import best_suit, play_out
from engine.shelem.options import TRICK_POINTS, mask_points
from engine.shelem.players import greedy_discard, hand_estimate, hand_features

NAMES = ("base", "ace", "ten", "five", "trump_len", "trump_top", "king", "void", "joker")


def sample(seed: int, options: ShelemOptions) -> tuple[tuple[float, ...], int, int]:
    """One deal: the hakem's features, his side's points, and the greedy estimate."""
    m = ShelemMatch(seed, options)
    hakem = m.to_act
    hands = m.hands
    kitty = _kitty(m)
    features = hand_features(hands[hakem])
    estimate = hand_estimate(hands[hakem], options)
    full = hands[hakem] | kitty
    laid = greedy_discard(full, options.kitty_size)
    hands[hakem] = full & ~laid
    plan = best_suit(hands[hakem])
    p0, p1, _, _ = play_out(hands, hakem, [], "hokm", -1, [0, 0], [0, 0], plan, hakem)
    points = (p0, p1)[hakem % 2] + TRICK_POINTS + mask_points(laid)
    return features, points, round(estimate)


def _kitty(m: ShelemMatch) -> int:
    from engine import Card

    return sum(1 << Card.parse(c) for c in m.to_dict()["kitty"])


def solve(rows: list[list[float]], ys: list[float]) -> list[float]:
    """Least squares by the normal equations and Gaussian elimination (a small ridge)."""
    n = len(rows[0])
    a = [
        [sum(r[i] * r[j] for r in rows) + (1e-6 if i == j else 0) for j in range(n)]
        for i in range(n)
    ]
    b = [sum(r[i] * y for r, y in zip(rows, ys, strict=True)) for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        b[col], b[pivot] = b[pivot], b[col]
        for r in range(n):
            if r != col and a[col][col]:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
                b[r] -= f * b[col]
    return [b[i] / a[i][i] if a[i][i] else 0.0 for i in range(n)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--joker", action="store_true")
    args = parser.parse_args()
    options = ShelemOptions(joker=args.joker)
    rng = random.Random(args.seed)
    rows: list[list[float]] = []
    ys: list[float] = []
    ests: list[int] = []
    for _ in range(args.deals):
        features, points, estimate = sample(rng.getrandbits(62), options)
        rows.append([1.0, *features])
        ys.append(points)
        ests.append(estimate)
    weights = solve(rows, ys)
    fitted = [sum(w * x for w, x in zip(weights, r, strict=True)) for r in rows]
    spread = math.sqrt(sum((y - f) ** 2 for y, f in zip(ys, fitted, strict=True)) / len(ys))
    print(" ".join(f"{n}={w:.2f}" for n, w in zip(NAMES, weights, strict=False)))
    print(f"deals={len(ys)} mean_points={sum(ys) / len(ys):.1f} residual_sd={spread:.1f}")
    for level in range(100, options.hand_total + 1, 10):
        near = [y for y, e in zip(ys, ests, strict=True) if abs(e - level) <= 5]
        if near:
            made = sum(1 for y in near if y >= level) / len(near)
            print(f"estimate~{level}: n={len(near)} made {level}: {made:.2f}")


if __name__ == "__main__":
    main()
