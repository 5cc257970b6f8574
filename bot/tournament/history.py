"""What the rounds so far say about who met whom: the facts pairing avoids repeating.

Counts are of unordered pairs of entrant numbers: ``opposed`` (at one table on different
sides), ``partnered`` (on one side: individual partners only) and ``byes`` per entrant.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from .state import Round


def pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


@dataclass(slots=True)
class History:
    opposed: Counter[tuple[int, int]] = field(default_factory=Counter)
    partnered: Counter[tuple[int, int]] = field(default_factory=Counter)
    byes: Counter[int] = field(default_factory=Counter)

    def met(self, a: Iterable[int], b: Iterable[int]) -> int:
        """Times the entrants of ``a`` have faced those of ``b``, over every cross pair."""
        bs = tuple(b)
        return sum(self.opposed[pair(x, y)] for x in a for y in bs)

    def partners(self, a: Iterable[int], b: Iterable[int]) -> int:
        bs = tuple(b)
        return sum(self.partnered[pair(x, y)] for x in a for y in bs)


def history(rounds: Iterable[Round]) -> History:
    out = History()
    for r in rounds:
        out.byes.update(r.byes)
        for table in r.tables:
            for i, side in enumerate(table.sides):
                for k, a in enumerate(side):
                    for b in side[k + 1 :]:
                        out.partnered[pair(a, b)] += 1
                for other in table.sides[i + 1 :]:
                    for a in side:
                        for b in other:
                            out.opposed[pair(a, b)] += 1
    return out
