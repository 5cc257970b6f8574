"""Deterministic, exactly uniform shuffles from a match seed.

Every deal is drawn from ``(seed, stream)`` alone, so a match can be rebuilt from its seed and
its actions (``replay``) and a stored match needs no RNG state. Each position gets a random
22-bit key from SHAKE-128 and the positions are sorted by key; a draw with two equal keys is
thrown away and drawn again, so every order of the deck is exactly equally likely (R4): given
distinct i.i.d. keys, all orderings are symmetric.

The work is done by C code, not by a Python loop per card, because a deal is a large share of
the cost of a hand: each key is packed with its position into one 32-bit word (``key << 8 |
position``, small enough to be a one-digit Python int, which sorts fastest), the words are
sorted as plain ints, and equal neighbouring keys are found with one XOR of the sorted words
laid end to end.
"""

from __future__ import annotations

from functools import lru_cache
from hashlib import shake_128
from struct import Struct

_KEY_BYTES = 3  # per position; 22 bits used, so a word stays below 2**30
_LOW_6_BITS = bytes(b & 0x3F for b in range(256))


def permutation(seed: int, stream: str, n: int = 52) -> bytes:
    """A uniformly random order of ``range(n)`` (``n`` ≤ 256) determined by ``seed`` and
    ``stream``, as ``bytes``: indexing or iterating gives the positions as ints."""
    words, positions = _layout(n)
    counter = 0
    while True:
        digest = shake_128(f"{seed}:{stream}:{counter}".encode()).digest(n * _KEY_BYTES)
        packed = bytearray(4 * n)  # big-endian words: [key bits 16-21, 8-15, 0-7, position]
        packed[0::4] = digest[:n].translate(_LOW_6_BITS)
        packed[1::4] = digest[n : 2 * n]
        packed[2::4] = digest[2 * n :]
        packed[3::4] = positions
        ordered = words.pack(*sorted(words.unpack(packed)))
        # Word i XOR word i+1: its key bytes are zero exactly when the two keys tie, and its
        # position byte never is, so three zero bytes in a row can only be such a tie.
        a = int.from_bytes(ordered[:-4], "big")
        b = int.from_bytes(ordered[4:], "big")
        if b"\0\0\0" not in (a ^ b).to_bytes(4 * n - 4, "big"):
            return ordered[3::4]
        counter += 1


@lru_cache(maxsize=8)
def _layout(n: int) -> tuple[Struct, bytes]:
    return Struct(f">{n}I"), bytes(range(n))
