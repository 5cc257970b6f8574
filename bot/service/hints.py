"""Hints for learners (issue 13 item 8): the hard computer player's move for a member's seat,
thought on that seat's ``SeatView`` only, off the event loop and bounded in time.

A hint changes nothing at the table: it reads the member's view under the table's settled
lock, then thinks with no lock held, in the same worker that runs computer players
(``thinking.Thinker``), under a key of its own so it never displaces a computer's decision.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
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

from .errors import ActionError
from .moves import player_seat
from .ports import Pace
from .table import Table
from .thinking import think
from .turns import TurnTimers
from .variants import ShelemDecision

log = logging.getLogger(__name__)

HINT_SECONDS: Final = 1.0
"""Search time of one hint: the member waits (a deferred answer, well inside Discord's 15
minutes) and other tables do not; past it the best card found so far is given."""
HINT_GRACE: Final = 1.0
"""Waiting for a worker (busy with computer players) past ``HINT_SECONDS``; then the greedy
card is explained instead."""


class Hints:
    """Who may get a hint, and the hint itself."""

    def __init__(self, turns: TurnTimers, pace: Pace) -> None:
        self.turns = turns
        """Whose ``thinker`` (the worker, set by the bot) hints share with computer players."""
        self.pace = pace

    @staticmethod
    def view(table: Table, user_id: int, hand: int) -> SeatView:
        """The member's own view, for a hint on their turn of this hand (hold ``settled``).

        :raises ActionError: ``error.hints_off``, ``error.stale`` (an earlier hand, a finished
            table), ``error.not_a_player``, ``error.hint_not_your_turn``.
        """
        if not table.settings.hints or table.is_shelem:  # no hints at Shelem (V6) tables
            raise ActionError("error.hints_off")
        seat = player_seat(table, user_id, hand)
        assert isinstance(table.match, Match)
        view = seat_view(table.match, seat)
        if not view.my_turn or view.phase not in (TRUMP, PLAY):  # a bam or a draw: no hint
            raise ActionError("error.hint_not_your_turn")
        return view

    async def think(self, table_id: str, view: SeatView) -> Hint:
        """The hard player's move for ``view``, explained; the greedy card when the worker
        could not answer in time."""
        if view.phase == TRUMP or len(view.legal) == 1:
            return hint(view)  # R5 names the longest suit; a forced card needs no search
        deadline = self.pace.monotonic() + HINT_SECONDS
        seed = view_seed(view)
        thinker = self.turns.thinker
        work: Awaitable[Card | Suit | ShelemDecision | None]
        try:
            if thinker is None:
                work = asyncio.to_thread(think, "hard", seed, view, deadline)
            else:
                work = thinker(f"{table_id}:hint:{view.seat}", "hard", seed, view, deadline)
            async with asyncio.timeout(HINT_SECONDS + HINT_GRACE):  # not wait_for (3.11)
                choice = await work
        except TimeoutError:
            choice = None
        except Exception:
            log.exception("table %s: hint search failed; explaining the greedy card", table_id)
            choice = None
        if not isinstance(choice, Card) or choice not in view.legal:
            choice = GreedyPlayer().choose_card(view)
        return explain(view, choice)
