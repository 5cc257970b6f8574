"""Live hand edits that may wait their turn (issue 13, items 2 and 3).

A player's live surface changes on every card of the table (``hand_dms``). The edit that makes
it their turn goes at once; the others (another player's card, a finished trick) queue here,
``LIMIT`` running at once, oldest first, each with the newest state when it starts. Under light
load the queue is empty and they go at once too; when the bot is busy a seat waiting in the
queue merges several changes into one edit, so the CPU goes to clicks and turn marks instead
of delaying every turn alike.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from engine import PLAY

from ..service.table import Table

LIMIT = 2
"""Deferred edits running at once."""

Key = tuple[str, int]
"""A seat: (table id, seat number)."""


def urgent(table: Table, seat: int) -> bool:
    """A live edit that must not wait: the player's turn (to play, or to choose trump, bid,
    discard or draw), a new hand's cards, anything outside trick play."""
    match = table.match
    return match is None or match.phase != PLAY or match.to_act == seat


class DeferredEdits:
    """Seats whose live edit may wait, and the few tasks that work through them."""

    def __init__(
        self,
        edit: Callable[[Table, Key], Awaitable[None]],
        spawn: Callable[[Coroutine[Any, Any, None]], None],
        limit: int = LIMIT,
    ) -> None:
        self._edit = edit
        self._spawn = spawn
        self._limit = limit
        self._waiting: dict[Key, Table] = {}
        """Oldest first; a seat waits once, whatever changed since it was queued."""
        self._running = 0

    def __contains__(self, key: object) -> bool:
        return key in self._waiting

    def add(self, table: Table, key: Key) -> None:
        self._waiting[key] = table  # a seat already waiting keeps its place
        while self._running < self._limit and self._waiting:
            self._running += 1
            self._spawn(self._work())

    def discard(self, key: Key) -> None:
        """The seat's edit goes now (its turn came), or its table ended."""
        self._waiting.pop(key, None)

    async def _work(self) -> None:
        try:
            while self._waiting:
                key = next(iter(self._waiting))
                await self._edit(self._waiting.pop(key), key)
        finally:
            self._running -= 1
