"""After a restart the service takes its live tables back from the store: each resumes with
its timers armed from the deadlines it was saved with, and a state that cannot be read closes
its table instead of stopping the start-up."""

from __future__ import annotations

from bot.service.events import Expired, Resumed, TimedOutTrump, TrumpNamed
from bot.store import TableRecord

from .conftest import MakeService
from .fakes import FakeClock, FakePublisher, FakeStore
from .helpers import GUILD, four_people, greedy_suit, match_of, open_lobby, seed_where, timers


async def test_restored_tables_keep_their_stored_deadlines(
    make_service: MakeService, clock: FakeClock, store: FakeStore, publisher: FakePublisher
) -> None:
    first = make_service()
    lobby = await open_lobby(first, channel=100, host=900)  # expires in 15 min
    await clock.advance(60)
    game = await four_people(first, channel=200)  # R14: trump due 30 s from now
    trump_due = game.deadline
    await first.close()  # the bot stops; the store keeps what was saved
    await clock.advance(10)

    second = make_service()
    publisher.clear()
    restored = await second.restore()
    assert [t.table_id for t in restored] == [lobby.table_id, game.table_id]  # oldest first
    assert publisher.of(Resumed) == [Resumed(), Resumed()]
    for table in restored:
        assert table.to_dict() == store.state(table.table_id)
    assert timers(clock) == [trump_due, lobby.deadline]
    game2 = second.get(game.table_id)
    suit = greedy_suit(game2)
    await clock.advance(19.5)
    assert match_of(game2).trump is None
    await clock.advance(0.5)
    assert publisher.of(TimedOutTrump) == [TimedOutTrump(match_of(game2).hakem, suit)]
    await second.cancel(game.table_id, 0, is_admin=True)  # the lobby's turn now
    lobby2 = second.get(lobby.table_id)
    assert lobby.deadline is not None
    await clock.advance(lobby.deadline - clock.now - 0.5)
    assert lobby2.is_live
    await clock.advance(0.5)
    assert lobby2.status == "cancelled" and publisher.of(Expired) == [Expired()]


async def test_a_deadline_passed_while_down_fires_at_once(
    make_service: MakeService, clock: FakeClock, publisher: FakePublisher
) -> None:
    first = make_service()
    game = await four_people(first)
    await first.close()
    await clock.advance(300)  # down for five minutes: the trump's 30 s ran out long ago

    second = make_service()
    (table,) = await second.restore()
    assert timers(clock) == [clock.now]
    suit = greedy_suit(table)
    publisher.clear()
    await clock.advance(0)  # no time passes
    assert publisher.of(TimedOutTrump) == [TimedOutTrump(match_of(table).hakem, suit)]
    assert table.deadline == clock.now + table.settings.turn_seconds
    assert table.table_id == game.table_id


async def test_a_computers_turn_resumes_after_a_restart(
    make_service: MakeService, clock: FakeClock, publisher: FakePublisher
) -> None:
    """A computer due to name trump when the bot stopped does so after restore, on time."""
    first = make_service(seed_source=lambda: seed_where(1))
    table = await open_lobby(first)
    await first.start(table.table_id, table.host_id)
    due = table.computer_due
    await first.close()

    second = make_service()
    (restored,) = await second.restore()
    assert timers(clock) == [due]
    suit = greedy_suit(restored)
    await clock.advance(first.computer_delay)
    assert publisher.of(TrumpNamed) == [TrumpNamed(1, suit, 1)]


async def test_an_unreadable_stored_state_closes_its_table(
    make_service: MakeService, store: FakeStore, publisher: FakePublisher
) -> None:
    broken = TableRecord("badbadbadbad", GUILD, 300, "playing", 4, {"v": 999, "garbage": True})
    await store.save_table(TableRecord("badbadbadbad", GUILD, 300, "lobby", 1, {}))
    for version in range(2, 5):
        await store.save_table(
            TableRecord("badbadbadbad", GUILD, 300, broken.status, version, broken.state)
        )
    first = make_service()
    good = await open_lobby(first, channel=100)
    await first.close()

    second = make_service()
    publisher.clear()
    restored = await second.restore()
    assert [t.table_id for t in restored] == [good.table_id]
    row = store.rows["badbadbadbad"]
    assert row.status == "cancelled" and row.version == 5
    assert row.state == broken.state  # kept as it was, for a look later
    assert [p.table["table_id"] for p in publisher.published] == [good.table_id]
    # the channel it held is free again
    await open_lobby(second, channel=300, host=999)
