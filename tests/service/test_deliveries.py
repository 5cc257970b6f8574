"""Where a table is shown on Discord (its message, each seat's hand DM, closed DMs) is the
Discord side's bookkeeping, kept apart from the game table: learning it takes no lock,
rewrites no table and bumps no version, and a restart finds it again."""

from __future__ import annotations

from bot.service.delivery import Delivery, SeatDm
from bot.service.events import DmClosed

from .conftest import MakeService
from .fakes import FakeClock, FakePublisher, FakeStore
from .helpers import four_people, greedy_suit, match_of, user_at


async def test_learning_where_a_table_is_shown_leaves_the_table_and_its_version_alone(
    make_service: MakeService, store: FakeStore, publisher: FakePublisher
) -> None:
    service = make_service()
    table = await four_people(service)
    before, version, writes = table.to_dict(), table.version, store.writes
    lock = service.registry.lock(table.table_id)
    async with lock:  # held by a change: what is learned meanwhile does not wait for it
        await service.message_posted(table.table_id, 555)
        await service.dm_posted(table.table_id, 1, 77, 88, 1)
        await service.dm_closed(table.table_id, 2)
    assert table.to_dict() == before and table.version == version
    assert store.writes == writes and store.state(table.table_id) == before
    shown = service.delivery(table.table_id).now
    assert shown == Delivery(555, {1: SeatDm(77, 88, 1), 2: SeatDm(closed=True)})
    assert publisher.of(DmClosed) == [DmClosed(2)]
    # a move right after is no stale write: nothing else was saved meanwhile
    hakem = match_of(table).hakem
    await service.choose_trump(table.table_id, user_at(table, hakem), 1, greedy_suit(table))
    assert table.version == version + 1


async def test_a_restart_finds_where_its_tables_are_shown(
    make_service: MakeService, clock: FakeClock
) -> None:
    first = make_service()
    table = await four_people(first)
    await first.message_posted(table.table_id, 555)
    await first.dm_posted(table.table_id, 0, 77, 88, 1)
    await first.dm_closed(table.table_id, 3)
    await first.close()
    second = make_service()
    await second.restore()
    assert second.delivery(table.table_id).now == first.delivery(table.table_id).now
    assert second.delivery(table.table_id).now.closed_seats() == {3}


async def test_an_ended_table_forgets_where_it_was_shown_but_its_last_jobs_do_not(
    make_service: MakeService,
) -> None:
    service = make_service()
    table = await four_people(service)
    await service.message_posted(table.table_id, 555)
    held = service.delivery(table.table_id)  # as the outbox job of its last edit holds it
    await service.cancel(table.table_id, table.host_id, is_admin=True)
    assert held.now.message_id == 555
    assert service.delivery(table.table_id).now == Delivery()  # nothing kept for it here
