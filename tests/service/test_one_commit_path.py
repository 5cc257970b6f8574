"""One way to change a table (``Commits.change``): a click, a timer's time-out (R14) and a
computer's move are the same change, stored before it is shown, and whoever follows a table
(the turn timers, the publisher) watches the committed changes instead of being called."""

from __future__ import annotations

import pytest

from bot.service.commits import Changed
from bot.service.errors import ActionError
from bot.service.events import CardPlayed, TimedOutTrump, TrumpNamed
from bot.service.moves import apply_trump
from bot.service.service import TableService
from bot.service.table import Table

from .fakes import FakeClock, FakePublisher, FakeStore
from .helpers import four_people, greedy_suit, match_of, timers


async def test_a_change_is_stored_then_told_to_every_watcher(
    service: TableService, clock: FakeClock, store: FakeStore, publisher: FakePublisher
) -> None:
    table = await four_people(service)
    seen: list[Changed] = []
    service.commits.watch(seen.append)
    hakem = match_of(table).hakem
    suit = greedy_suit(table)
    version = table.version
    for attempt in service.commits.change(table.table_id):
        async with attempt as update:
            apply_trump(update.table, update, hakem, suit, service.pace)
    assert table.version == version + 1
    assert Table.from_dict(store.state(table.table_id)).to_dict() == table.to_dict()
    assert [c.update for c in seen] == [update]
    assert list(publisher.published[-1].events) == [TrumpNamed(hakem, suit, 1)]
    assert timers(clock) == [table.deadline]  # the timers armed the next turn from the news


async def test_R14_a_timer_s_time_out_goes_the_same_way_and_is_told(
    service: TableService, clock: FakeClock, publisher: FakePublisher
) -> None:
    table = await four_people(service)
    hakem = match_of(table).hakem
    suit = greedy_suit(table)
    seen: list[Changed] = []
    service.commits.watch(seen.append)
    await clock.advance(30)
    told = [c.update.events for c in seen if c.update is not None]
    assert told == [[TimedOutTrump(hakem, suit), TrumpNamed(hakem, suit, 1)]]
    assert timers(clock) == [table.deadline]


async def test_a_change_that_fails_inside_is_undone_and_told_to_nobody(
    service: TableService, clock: FakeClock, store: FakeStore, publisher: FakePublisher
) -> None:
    table = await four_people(service)
    before, stored, armed = table.to_dict(), store.state(table.table_id), timers(clock)
    seen: list[Changed] = []
    service.commits.watch(seen.append)
    publisher.clear()
    with pytest.raises(ActionError) as failed:
        for attempt in service.commits.change(table.table_id):
            async with attempt as update:
                update.table.deadline = None
                update.add(CardPlayed(0, match_of(table).hands[0][0], 1))
                raise RuntimeError("a bug halfway through")
    assert failed.value.code == "error.internal"
    assert table.to_dict() == before and store.state(table.table_id) == stored
    assert seen == [] and not publisher.published
    assert timers(clock) == armed


async def test_an_action_whose_save_fails_takes_the_stored_state_as_a_timer_does(
    service: TableService, store: FakeStore
) -> None:
    """Both recover the one way: the snapshot, then what the store holds (a failed write
    may have reached it)."""
    table = await four_people(service)
    hakem = match_of(table).hakem
    store.fail_next(1)
    with pytest.raises(ActionError):
        await service.choose_trump(
            table.table_id, table.seat(hakem).user_id or 0, 1, greedy_suit(table)
        )
    assert store.loads == [table.table_id]
    assert table.to_dict() == Table.from_dict(store.state(table.table_id)).to_dict()
