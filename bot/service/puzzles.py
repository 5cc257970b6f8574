"""Double-dummy puzzles for members: harvested from a finished match's analysis, offered one at
a time, answered by a card.

``harvest`` is what the analysis calls once a match's hands are analysed: the decisions where
one card alone kept the best outcome (``engine.dd_puzzles``) are stored, only for a match the
store has as finished (a live table is never in ``matches``, so its hidden cards never become a
puzzle). ``PuzzleBook.offer`` gives a member the newest puzzle of their server from a match
they did not play, that they have not answered; its position is solved again first, and a
puzzle the solver no longer confirms (or that no longer reads back) is dropped, never shown.
``answer`` takes the member's card: whether it was the one card, what it leads to, the line
after the right card; the first answer counts in the member's solved/tried.

The solver runs in a thread: a puzzle has at most ``MAX_CARDS`` cards a seat, which it solves
in milliseconds.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from engine.dd import Solver
from engine.dd_analysis import Decision
from engine.dd_position import InvalidPosition
from engine.dd_puzzles import Puzzle, candidates, check, from_dict, is_candidate

from ..store import Store
from ..store.puzzle_ops import NewPuzzle, PuzzleCounts, StoredPuzzle
from .errors import ActionError

log = logging.getLogger(__name__)

TRIES: Final = 5
"""Stored puzzles looked at for one offer before saying there is none (each one refused is
dropped, so the next offer does not meet it again)."""


KEPT_DAYS: Final = 256
"""Puzzles of the day kept checked (a server's a day)."""


@dataclass(frozen=True, slots=True)
class PuzzleOffer:
    """A puzzle to show: its id (the buttons carry it) and the checked engine puzzle."""

    puzzle_id: int
    game_format: str
    puzzle: Puzzle


@dataclass(frozen=True, slots=True)
class PuzzleAnswer:
    """A member's card for a puzzle and what it means."""

    offer: PuzzleOffer
    card: int
    solved: bool
    first: bool
    """The member's first answer to it (the one their count keeps)."""
    counts: PuzzleCounts


def find_puzzles(hand_analyses: Sequence[Sequence[Decision]]) -> list[NewPuzzle]:
    """The puzzles of a match's analysed hands (in the order given, decisions in play order),
    each with its line; pure engine work, for a thread or a worker process."""
    out: list[NewPuzzle] = []
    for hand_no, decisions in enumerate(hand_analyses):
        solver = None
        for move, decision in enumerate(decisions):
            if not is_candidate(decision):
                continue
            p = decision.position
            solver = solver or Solver(p.fmt, p.trump)
            (puzzle,) = candidates([decision], solver)
            out.append(NewPuzzle(hand_no, move, puzzle.to_dict()))
    return out


async def harvest(store: Store, match_id: str, hand_analyses: Sequence[Sequence[Decision]]) -> int:
    """Store the puzzles of a finished match's analysed hands; how many were new (0 for a
    match the store does not have as finished: never a live table's)."""
    found = await asyncio.to_thread(find_puzzles, hand_analyses)
    if not found:
        return 0
    added = await store.add_puzzles(match_id, found)
    log.info("match %s: %d puzzles found, %d new", match_id, len(found), added)
    return added


class PuzzleBook:
    """The puzzles of one store, for the Discord edge and the web page (no Discord types)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._days: OrderedDict[tuple[int, int], PuzzleOffer] = OrderedDict()

    async def harvest(self, match_id: str, hand_analyses: Sequence[Sequence[Decision]]) -> int:
        return await harvest(self.store, match_id, hand_analyses)

    async def offer(self, guild_id: int, user_id: int) -> PuzzleOffer:
        """A checked puzzle for the member; ``error.puzzle_none`` when there is none."""
        for _ in range(TRIES):
            stored = await self.store.next_puzzle(guild_id, user_id)
            if stored is None:
                break
            offer = await self._checked(stored)
            if offer is not None:
                return offer
        raise ActionError("error.puzzle_none")

    async def of_the_day(self, guild_id: int, day: int) -> PuzzleOffer | None:
        """The server's puzzle of day ``day`` (days since 1970-01-01, UTC), checked; None
        when the server has none. Kept once checked: the web page asks on every view."""
        key = (guild_id, day)
        kept = self._days.get(key)
        if kept is not None:
            return kept
        for _ in range(TRIES):
            stored = await self.store.puzzle_of_the_day(guild_id, day)
            if stored is None:
                return None
            offer = await self._checked(stored)
            if offer is not None:
                self._days[key] = offer
                if len(self._days) > KEPT_DAYS:
                    self._days.popitem(last=False)
                return offer
        return None

    async def answer(
        self, guild_id: int, user_id: int, puzzle_id: int, card: int, now: datetime
    ) -> PuzzleAnswer:
        """The member's card for puzzle ``puzzle_id``. A puzzle of another server, of a match
        the member played, or a card that is not one of its legal cards is refused
        (``error.bad_button``: only a forged or stale button gets there)."""
        stored = await self.store.puzzle(guild_id, puzzle_id)
        if stored is None:
            raise ActionError("error.puzzle_gone")
        if await self.store.played_in(user_id, stored.match_id):
            raise ActionError("error.bad_button")
        try:
            puzzle = from_dict(stored.data)
        except InvalidPosition:
            raise ActionError("error.puzzle_gone") from None
        if card not in puzzle.values:
            raise ActionError("error.bad_button")
        solved = puzzle.is_answer(card)
        first = await self.store.record_attempt(guild_id, user_id, puzzle_id, card, solved, now)
        counts = await self.store.puzzle_counts(guild_id, user_id)
        offer = PuzzleOffer(puzzle_id, stored.game_format, puzzle)
        return PuzzleAnswer(offer, card, solved, first, counts)

    async def counts(self, guild_id: int, user_id: int) -> PuzzleCounts:
        return await self.store.puzzle_counts(guild_id, user_id)

    async def _checked(self, stored: StoredPuzzle) -> PuzzleOffer | None:
        """The stored puzzle read back and solved again, or None (and dropped) if either
        fails: a puzzle is never shown on the strength of stored data alone."""
        try:
            puzzle = from_dict(stored.data)
            confirmed = await asyncio.to_thread(check, puzzle)
        except InvalidPosition as exc:
            log.warning("puzzle %d does not read back (%s)", stored.puzzle_id, exc.problem)
            confirmed = False
        if not confirmed:
            log.warning("puzzle %d is not confirmed by the solver: dropped", stored.puzzle_id)
            await self.store.discard_puzzle(stored.puzzle_id)
            return None
        return PuzzleOffer(stored.puzzle_id, stored.game_format, puzzle)
