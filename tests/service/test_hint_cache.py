"""A hint is searched once per seat and position. A second press for the same view
answers from the cache, a press while it is being searched waits for that search, a new
position is searched again, and what is kept goes with the table."""

from __future__ import annotations

import asyncio

from bot.service.service import TableService
from bot.service.table import Table
from bot.store.guild_settings import GuildSettings
from engine import PLAY, Card, Hint, SeatView, Suit, explain

from .conftest import MakeService
from .helpers import click_greedy, match_of, open_lobby, user_at


class CountingThinker:
    """The worker, counted: each call is one search; ``gate`` holds them until it is set."""

    def __init__(self, answer_none: bool = False) -> None:
        self.keys: list[str] = []
        self.gate = asyncio.Event()
        self.gate.set()
        self.answer_none = answer_none

    async def __call__(
        self, key: str, difficulty: str, seed: int, view: SeatView, deadline: float
    ) -> Card | Suit | None:
        self.keys.append(key)
        await self.gate.wait()
        return None if self.answer_none else max(view.legal)


async def hinted_table(service: TableService, channel: int = 100, first_user: int = 101) -> Table:
    """Four members (ids from ``first_user``) at a table with hints on, in the play phase."""
    members = range(first_user, first_user + 4)
    table = await open_lobby(service, channel, settings=GuildSettings(hints=True), host=first_user)
    for user in members[1:]:
        await service.join(table.table_id, user, f"m{user}")
    await click_greedy(service, table)  # the hakem names trump
    assert match_of(table).phase == PLAY
    return table


def view_of(service: TableService, table: Table) -> SeatView:
    match = match_of(table)
    return service.hints.view(table, user_at(table, match.to_act), match.hand_number)


async def press(service: TableService, table_id: str) -> Hint:
    """A member presses Hint on their turn (as ``bot/discord/actions.hint`` does)."""
    return await service.hints.think(table_id, view_of(service, service.get(table_id)))


async def test_a_second_press_for_the_same_position_is_not_searched_again(
    make_service: MakeService,
) -> None:
    thinker = CountingThinker()
    service = make_service(thinker=thinker)
    table = await hinted_table(service)
    first = await press(service, table.table_id)
    for _ in range(4):
        assert await press(service, table.table_id) == first
    assert len(thinker.keys) == 1
    view = view_of(service, table)
    assert first == explain(view, max(view.legal))


async def test_presses_while_it_is_searched_wait_for_that_search(
    make_service: MakeService,
) -> None:
    thinker = CountingThinker()
    thinker.gate.clear()
    service = make_service(thinker=thinker)
    table = await hinted_table(service)
    presses = [asyncio.create_task(press(service, table.table_id)) for _ in range(5)]
    for _ in range(5):
        await asyncio.sleep(0)
    assert len(thinker.keys) == 1 and not any(p.done() for p in presses)
    thinker.gate.set()
    answers = await asyncio.gather(*presses)
    assert len(thinker.keys) == 1 and all(a == answers[0] for a in answers)


async def test_a_press_that_gives_up_leaves_the_search_to_the_others(
    make_service: MakeService,
) -> None:
    """The first member's interaction is cancelled: the search it started goes on for the next
    press, and is not started again."""
    thinker = CountingThinker()
    thinker.gate.clear()
    service = make_service(thinker=thinker)
    table = await hinted_table(service)
    first = asyncio.create_task(press(service, table.table_id))
    await asyncio.sleep(0)
    first.cancel()
    second = asyncio.create_task(press(service, table.table_id))
    await asyncio.sleep(0)
    thinker.gate.set()
    assert await second == explain(view_of(service, table), max(view_of(service, table).legal))
    assert len(thinker.keys) == 1


async def test_a_new_position_is_searched_again_and_the_old_one_is_dropped(
    make_service: MakeService,
) -> None:
    thinker = CountingThinker()
    service = make_service(thinker=thinker)
    table = await hinted_table(service)
    await press(service, table.table_id)
    await click_greedy(service, table)  # the next member's turn: a new view
    while len(view_of(service, table).legal) < 2:  # a forced card is not searched
        await click_greedy(service, table)
    await press(service, table.table_id)
    await press(service, table.table_id)
    assert len(thinker.keys) == 2
    assert thinker.keys[1] == f"{table.table_id}:hint:{match_of(table).to_act}"
    assert service.hints.kept == 1  # one position per table: the newest


async def test_the_greedy_card_of_a_worker_that_did_not_answer_is_not_kept(
    make_service: MakeService,
) -> None:
    thinker = CountingThinker(answer_none=True)  # None: the deadline passed while it waited
    service = make_service(thinker=thinker)
    table = await hinted_table(service)
    await press(service, table.table_id)
    await press(service, table.table_id)
    assert len(thinker.keys) == 2


async def test_what_is_kept_goes_with_the_table(make_service: MakeService) -> None:
    service = make_service(thinker=CountingThinker())
    table = await hinted_table(service)
    other = await hinted_table(service, channel=101, first_user=201)
    await press(service, table.table_id)
    await press(service, other.table_id)
    assert service.hints.kept == 2
    await service.cancel(table.table_id, table.host_id, is_admin=False)
    assert service.hints.kept == 1
