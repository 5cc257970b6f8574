"""Hints for learners: the hard computer player's move for a member's seat,
thought on that seat's ``SeatView`` only, off the event loop and bounded in time.

A hint changes nothing at the table: it reads the member's view of the table as last
committed (``TableService.shown``), then thinks with no lock held, in the same worker that runs computer players
(``thinking.Thinker``), under a key of its own so it never displaces a computer's decision, but
in its table's turn of the round robin, so hints are counted in the table's fair share.

A hint depends on the member's view alone, so it is searched once per position (a
member pressing Hint five times a second once took most of the worker): each table keeps the
view it last searched and that search; a press with the same view is answered by it, finished
or still running, and a new view (the table has moved on) replaces it. A table has one seat to
act at a time, so what a table keeps is one view and one hint, dropped when the table ends
(``forget``); at most ``KEPT_TABLES`` tables keep one. The greedy card given when the worker did
not answer in time is not kept: the next press asks the worker again, in the table's turn.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Final

from engine import (
    PLAY,
    TRUMP,
    Card,
    GreedyPlayer,
    Hint,
    Match,
    SeatView,
    Suit,
    explain,
    hint,
    seat_view,
    view_seed,
)

from .commits import Changed
from .errors import ActionError
from .games import family_of
from .moves import player_seat
from .ports import Pace
from .table import Table
from .thinking import request_key, think
from .turns import TurnTimers
from .variants import ShelemDecision

log = logging.getLogger(__name__)

HINT_SECONDS: Final = 1.0
"""Search time of one hint: the member waits (a deferred answer, well inside Discord's 15
minutes) and other tables do not; past it the best card found so far is given."""
HINT_GRACE: Final = 1.0
"""Waiting for a worker (busy with computer players) past ``HINT_SECONDS``; then the greedy
card is explained instead."""
KEPT_TABLES: Final = 1024
"""Tables whose last hint is kept at most (the least recently asked go first); a table keeps
one, and an ended table's goes with it, so this binds only tables left idle mid-hint."""


@dataclass
class _Kept:
    """A table's last hinted position: the seat's view and its search (maybe still running)."""

    view: SeatView
    task: asyncio.Task[tuple[Hint, bool]]
    """The hint, and whether the worker answered it (the greedy fallback is not kept)."""


class Hints:
    """Who may get a hint, and the hint itself."""

    def __init__(self, turns: TurnTimers, pace: Pace) -> None:
        self.turns = turns
        """Whose ``thinker`` (the worker, set by the bot) hints share with computer players."""
        self.pace = pace
        self._kept: OrderedDict[str, _Kept] = OrderedDict()
        self._searches: set[asyncio.Task[tuple[Hint, bool]]] = set()
        """Every search still running, kept or not (a task nobody holds may be collected)."""

    @property
    def kept(self) -> int:
        """Tables whose last hinted position is kept."""
        return len(self._kept)

    def changed(self, change: Changed) -> None:
        """Watching ``Commits``: a table gone takes its kept hint with it."""
        if change.table.table_id not in self.turns.registry.tables:
            self.forget(change.table.table_id)

    def forget(self, table_id: str) -> None:
        """The table ended: its kept hint goes (a search still running finishes unseen)."""
        self._kept.pop(table_id, None)

    @staticmethod
    def view(table: Table, user_id: int, hand: int) -> SeatView:
        """The member's own view, for a hint on their turn of this hand (of a committed
        snapshot, ``TableService.shown``).

        :raises ActionError: ``error.hints_off``, ``error.stale`` (an earlier hand, a finished
            table), ``error.not_a_player``, ``error.hint_not_your_turn``.
        """
        if not table.settings.hints or not family_of(table).hints:  # none at Shelem (V6)
            raise ActionError("error.hints_off")
        seat = player_seat(table, user_id, hand)
        assert isinstance(table.match, Match)
        view = seat_view(table.match, seat)
        if not view.my_turn or view.phase not in (TRUMP, PLAY):  # a bam or a draw: no hint
            raise ActionError("error.hint_not_your_turn")
        return view

    async def think(self, table_id: str, view: SeatView) -> Hint:
        """The hard player's move for ``view``, explained; the greedy card when the worker
        could not answer in time. Searched once per position: see the module's docstring."""
        if view.phase == TRUMP or len(view.legal) == 1:
            return hint(view)  # R5 names the longest suit; a forced card needs no search
        kept = self._kept.get(table_id)
        if kept is None or kept.view != view:
            task = asyncio.get_running_loop().create_task(self._search(table_id, view))
            kept = self._kept[table_id] = _Kept(view, task)
            self._searches.add(task)
            task.add_done_callback(self._searches.discard)
            task.add_done_callback(lambda done: self._keep_or_drop(table_id, kept))
            while len(self._kept) > KEPT_TABLES:
                self._kept.popitem(last=False)
        self._kept.move_to_end(table_id)
        answer, _ = await asyncio.shield(kept.task)  # a press given up leaves it to the others
        return answer

    def _keep_or_drop(self, table_id: str, kept: _Kept) -> None:
        """A search that ended without the worker's answer is not kept."""
        task = kept.task
        searched = not task.cancelled() and task.exception() is None and task.result()[1]
        if not searched and self._kept.get(table_id) is kept:
            del self._kept[table_id]

    async def _search(self, table_id: str, view: SeatView) -> tuple[Hint, bool]:
        """The hint for ``view`` from the worker, in the table's turn; whether it answered."""
        deadline = self.pace.monotonic() + HINT_SECONDS
        seed = view_seed(view)
        thinker = self.turns.thinker
        work: Awaitable[Card | Suit | ShelemDecision | None]
        try:
            if thinker is None:
                work = asyncio.to_thread(think, "hard", seed, view, deadline)
            else:
                key = request_key(table_id, f"hint:{view.seat}")
                work = thinker(key, "hard", seed, view, deadline)
            async with asyncio.timeout(HINT_SECONDS + HINT_GRACE):  # not wait_for (3.11)
                choice = await work
        except TimeoutError:
            choice = None
        except Exception:
            log.exception("table %s: hint search failed; explaining the greedy card", table_id)
            choice = None
        if not isinstance(choice, Card) or choice not in view.legal:
            return explain(view, GreedyPlayer().choose_card(view)), False
        return explain(view, choice), True
