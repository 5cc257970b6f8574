"""Deterministic, exactly uniform shuffles from a match seed.

Every deal is drawn from ``(seed, stream)`` alone, so a match can be rebuilt from its seed and
its actions (``replay``) and a stored match needs no RNG state. Each position gets a random
32-bit key from SHAKE-256 and the positions are sorted by key; a draw with two equal keys is
thrown away and drawn again, so every order of the deck is exactly equally likely (R4): given
distinct i.i.d. keys, all orderings are symmetric.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from hashlib import shake_256
from struct import Struct

_KEY_BYTES = 4


def permutation(seed: int, stream: str, n: int = 52) -> list[int]:
    """A uniformly random order of ``range(n)`` determined by ``seed`` and ``stream``."""
    unpack = _unpacker(n)
    counter = 0
    while True:
        keys = unpack(shake_256(f"{seed}:{stream}:{counter}".encode()).digest(n * _KEY_BYTES))
        if len(set(keys)) == n:
            return sorted(range(n), key=keys.__getitem__)
        counter += 1


@lru_cache(maxsize=8)
def _unpacker(n: int) -> Callable[[bytes], tuple[int, ...]]:
    return Struct(f"<{n}I").unpack
