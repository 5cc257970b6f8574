"""Computer players think in a worker process.

A searching player is pure Python and busy for tens of milliseconds a move; run in a thread it
would still hold the interpreter lock and stall every other table's clicks. In a process it
cannot. The worker gets the seat's view only (never the match), so it cannot cheat either.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from concurrent.futures import ProcessPoolExecutor

from engine import TRUMP, Card, SeatView, Suit

log = logging.getLogger(__name__)


def think(difficulty: str, seed: int, view: SeatView) -> Card | Suit:
    """Runs in the worker: one decision for the seat whose view this is."""
    from engine import make_player

    player = make_player(difficulty, seed)  # type: ignore[arg-type]
    if view.phase == TRUMP:
        return Suit(player.choose_trump(view))
    return player.choose_card(view)


class Thinker:
    """A small pool of worker processes, started on first use."""

    def __init__(self, workers: int = 1) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    async def decide(self, difficulty: str, seed: int, view: SeatView) -> Card | Suit:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn")
            )
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, think, difficulty, seed, view)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
