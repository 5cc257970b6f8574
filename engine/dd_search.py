"""Which double-dummy search runs, and its switches.

The search itself is ``engine.dd_core``. ``bench/dd_build.py`` may compile a copy of it with
mypyc into ``engine/dd_core_native*.so`` (an optional speed-up, not in the repository); it is
used only when its ``DIGEST`` is the plain module's ``digest()``, so a copy built from older
code is ignored rather than trusted. ``Search(..., native=False)`` always runs the plain
Python, which the tests check whether or not a compiled copy exists.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Final

from . import dd_core


@dataclass(frozen=True, slots=True)
class Speedups:
    """Which speed-ups a search uses (all by default; the checks turn each off in turn).
    ``dd_core``'s docstring says what each does."""

    table: bool = True
    relative: bool = True
    winners: bool = True
    equivalent: bool = True
    quick: bool = True
    ordering: bool = True
    small: bool = True

    @property
    def flags(self) -> int:
        return (
            (dd_core.TABLE if self.table else 0)
            | (dd_core.RELATIVE if self.relative else 0)
            | (dd_core.WINNERS if self.winners else 0)
            | (dd_core.EQUIVALENT if self.equivalent else 0)
            | (dd_core.QUICK if self.quick else 0)
            | (dd_core.ORDERING if self.ordering else 0)
            | (dd_core.SMALL if self.small else 0)
        )

    def without(self, name: str) -> Speedups:
        """These speed-ups but ``name`` (one of ``NAMES``)."""
        if name not in NAMES:
            raise ValueError(f"no speed-up {name!r}: one of {', '.join(NAMES)}")
        return Speedups(**{n: getattr(self, n) and n != name for n in NAMES})


ALL: Final = Speedups()
NAMES: Final = ("table", "relative", "winners", "equivalent", "quick", "ordering", "small")


def _compiled() -> ModuleType | None:
    try:
        module = importlib.import_module(f"{__package__}.dd_core_native")
    except ImportError:
        return None
    return module if getattr(module, "DIGEST", None) == dd_core.digest() else None


NATIVE: Final = _compiled()
"""The compiled copy of ``dd_core`` when one was built from this code, else ``None``."""


class Search:
    """Races on the cards of one format and trump (``dd_core.Core``); its table outlives a
    position, so the positions of one hand share it."""

    def __init__(
        self,
        seats: int,
        team_of: Sequence[int],
        trump: int,
        speedups: Speedups = ALL,
        jokers: bool = False,
        native: bool | None = None,
    ) -> None:
        """``native``: ``None`` the compiled copy when there is one, ``False`` plain Python,
        ``True`` the compiled copy or ``RuntimeError``."""
        if native and NATIVE is None:
            raise RuntimeError("no compiled dd_core: run bench/dd_build.py")
        module: Any = NATIVE if NATIVE is not None and native is not False else dd_core
        self.native = module is not dd_core
        self.speedups = speedups
        self.core: dd_core.Core = module.Core(seats, list(team_of), trump, jokers, speedups.flags)

    @property
    def nodes(self) -> int:
        return self.core.nodes

    @property
    def table_size(self) -> int:
        return len(self.core.table)

    def load(self, hands: Sequence[Sequence[int]]) -> None:
        """Every seat's four lanes (15-bit rank masks)."""
        self.core.load([list(lanes) for lanes in hands])

    def race(self, leader: int, trick: Sequence[tuple[int, int]], need0: int, need1: int) -> bool:
        """Whether team 0 takes ``need0`` more tricks before team 1 takes ``need1`` more, from
        the loaded hands and ``trick`` (its ``(lane, rank)`` cards from ``leader`` on)."""
        return bool(self.race_names(leader, trick, need0, need1) & 1)

    def race_names(
        self, leader: int, trick: Sequence[tuple[int, int]], need0: int, need1: int
    ) -> int:
        """``race``, with the cards the answer rests on: bit 0 the answer, then per lane the
        lowest rank that mattered (``dd_core``), every card above it in its lane too."""
        lanes = [lane for lane, _ in trick]
        ranks = [rank for _, rank in trick]
        return self.core.race(leader, lanes, ranks, need0, need1)
