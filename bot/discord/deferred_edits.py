"""Live hand edits that may wait their turn.

A player's live surface changes on every card of the table (``hand_dms``). What a player must
see at once goes at once (``urgent``): their own turn, a new hand, anything outside trick play,
and a trick's end (every surface then shows who took it, the tricks and the score). The other
changes (another player's card in the middle of a trick) are a courtesy: they queue here, once
per seat, oldest first, and go only as the courtesy budget allows (``RATE`` edits a second for
the whole process, ``LIMIT`` at once), each with the newest state when it starts; a seat whose
urgent edit goes first leaves the queue. A quiet bot shows every card on every surface; a busy
one shows each surface its trick's end and its owner's turn, and spends its CPU on clicks and
turn marks instead of on edits nobody waits for (they were two of the four requests a
card made at a table of four members).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from engine import PLAY

from ..service.table import Table

LIMIT = 2
"""Deferred edits running at once."""
RATE = 4.0
"""Deferred (courtesy) edits a second, for the whole process: a card at a table of four members
owes one to each of the two members neither playing nor next, which were two of the card's
four requests. Four a second show every card on every surface of a table or two; a
bot busy with many tables shows each surface its trick's end and its owner's turn."""
BURST = 4.0
"""Courtesy edits that may go at once after a quiet spell (one card at one table needs two)."""

Key = tuple[str, int]
"""A seat: (table id, seat number)."""


def urgent(table: Table, seat: int) -> bool:
    """A live edit that must not wait: the player's turn (to play, or to choose trump, bid,
    discard or draw), a new hand's cards, anything outside trick play, and a trick's end (no
    card on the table yet: who took the last trick, the tricks and the score)."""
    match = table.match
    return match is None or match.phase != PLAY or match.to_act == seat or not match.trick


class DeferredEdits:
    """Seats whose live edit may wait, and the few tasks that work through them as the
    courtesy budget (``rate`` a second, ``burst`` at once after a quiet spell) allows."""

    def __init__(
        self,
        edit: Callable[[Table, Key], Awaitable[None]],
        spawn: Callable[[Coroutine[Any, Any, None]], None],
        limit: int = LIMIT,
        *,
        rate: float = RATE,
        burst: float = BURST,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._edit = edit
        self._spawn = spawn
        self._limit = limit
        self.rate = rate
        """Courtesy edits a second; 0: none (a seat waits for its turn or the trick's end)."""
        self._burst = burst
        self._clock = clock
        self._tokens = burst
        self._filled = clock()
        self._waiting: dict[Key, Table] = {}
        """Oldest first; a seat waits once, whatever changed since it was queued."""
        self._running = 0
        self.sent = 0
        """Courtesy edits made (a test's count)."""

    def __contains__(self, key: object) -> bool:
        return key in self._waiting

    def __len__(self) -> int:
        return len(self._waiting)

    def add(self, table: Table, key: Key) -> None:
        self._waiting[key] = table  # a seat already waiting keeps its place
        while self.rate > 0 and self._running < self._limit and self._waiting:
            self._running += 1
            self._spawn(self._work())

    def discard(self, key: Key) -> None:
        """The seat's edit goes now (its turn came, or the trick ended), or its table ended."""
        self._waiting.pop(key, None)

    def _take(self) -> float:
        """0 when a courtesy edit may go now (its token taken), else seconds until one may."""
        now = self._clock()
        self._tokens = min(self._burst, self._tokens + (now - self._filled) * self.rate)
        self._filled = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return 0.0
        return (1.0 - self._tokens) / self.rate

    async def _work(self) -> None:
        try:
            while self._waiting and self.rate > 0:
                wait = self._take()
                if wait > 0:
                    await asyncio.sleep(wait)
                    continue
                key = next(iter(self._waiting))
                self.sent += 1
                await self._edit(self._waiting.pop(key), key)
        finally:
            self._running -= 1
