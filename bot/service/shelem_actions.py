"""A Shelem table's own actions (V6): a bid, the cards the hakem lays down, the mode,
and the check behind his choice of cards before he confirms it. A card to play is any table's
``TableService.play_card``.

Each decision carries the *deal* it was made for (``ShelemMatch.deal_number``): a redeal
(V6.4) keeps the hand's number, and a button of the deal before must not act on the new one.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial

from engine import Card

from .moves import reclaim_then
from .ports import Pace, Update
from .shelem_moves import apply_decision, decision_seat, kitty_selection
from .table import Table
from .variants import ShelemDecision

Act = Callable[[str, Callable[[Table, Update], None]], Awaitable[Update]]


class ShelemTables:
    """The Shelem decisions, each run as any action is (``TableService._act``)."""

    def __init__(self, shown: Callable[[str], Table], pace: Pace, act: Act) -> None:
        self._shown = shown
        self.pace = pace
        self._act = act

    async def bid(self, table_id: str, user_id: int, deal: int, value: int) -> Update:
        """V6.3, V6.5: a bid (0 passes, ``SHELEM``, ``SAR_SHELEM``)."""
        return await self._decide(table_id, user_id, deal, ShelemDecision("bid", value))

    async def lay_down(
        self, table_id: str, user_id: int, deal: int, cards: tuple[Card, ...]
    ) -> Update:
        """V6.6.1: the hakem's laid-down cards, all at once."""
        choice = ShelemDecision("discard", cards=cards)
        return await self._decide(table_id, user_id, deal, choice)

    async def announce(self, table_id: str, user_id: int, deal: int, mode: str) -> Update:
        """V6.7: the hakem's mode."""
        return await self._decide(table_id, user_id, deal, ShelemDecision("mode", mode=mode))

    def selection(
        self, table_id: str, user_id: int, deal: int, cards: tuple[Card, ...]
    ) -> tuple[Table, int, tuple[Card, ...]]:
        """The hakem's choice so far of the cards to lay down, checked against the table as
        last committed (``TableService.shown``, returned to render): it changes nothing, and
        is kept only on his own buttons.

        :raises ActionError: ``error.stale``, ``error.not_a_player``, and
            ``kitty_selection``'s.
        """
        table = self._shown(table_id)
        seat = decision_seat(table, user_id, deal)
        return table, seat, kitty_selection(table, seat, cards)

    async def choose(
        self, table_id: str, user_id: int, deal: int, before: tuple[Card, ...], card: Card
    ) -> tuple[Table, int, tuple[Card, ...]]:
        """V6.6.1: a card the hakem clicks to lay down, or to put back: ``before`` (what his
        buttons carried) with ``card`` toggled, checked as ``selection`` checks it. Nothing
        changes: the choice lives on his own buttons until he presses **Lay down**.

        :raises ActionError: as ``selection``.
        """
        chosen = tuple(c for c in before if c != card) if card in before else (*before, card)
        return self.selection(table_id, user_id, deal, chosen)  # no lock: a snapshot

    async def _decide(
        self, table_id: str, user_id: int, deal: int, choice: ShelemDecision
    ) -> Update:
        def act(table: Table, update: Update) -> None:
            seat = update.actor_seat = decision_seat(table, user_id, deal)
            move = partial(apply_decision, table, update, seat, choice, self.pace)
            reclaim_then(table, update, seat, move, self.pace)

        return await self._act(table_id, act)
