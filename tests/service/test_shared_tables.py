"""Two bot processes on one PostgreSQL: each is a ``TableService`` on its own
``Store`` of the same database, as two processes are. A click may reach either (a DM click
goes to whichever process holds shard 0); a table is loaded where it is clicked, a write that
finds a newer version stored reloads and runs the click again on that, so every move is
applied exactly once or refused, and none is lost.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from typing import Any

from bot.service.errors import ActionError
from bot.service.events import CaughtUp
from bot.service.ports import Update
from bot.service.service import TableService
from bot.service.table import Table
from bot.service.turns import ADOPTED_LAG, VISITOR_GRACE
from engine import Card, Match, Suit, seat_view

from .fakes import FakeClock
from .helpers import (
    GUILD,
    HUMANS,
    Make,
    Recorder,
    four_people,
    greedy,
    match_of,
    timers,
    user_at,
    with_computers,
)


def published(service: TableService) -> list[Update]:
    recorder = service.publisher
    assert isinstance(recorder, Recorder)
    return recorder.updates


async def stored_match(service: TableService, table_id: str) -> Match:
    record = await service.store.load_table(table_id)
    assert record is not None
    table = Table.from_dict(dict(record.state))
    return match_of(table)


async def move(service: TableService, table: Table, user: int, choice: Any) -> Update:
    match = match_of(table)
    if isinstance(choice, Card):
        return await service.play_card(table.table_id, user, match.hand_number, choice)
    return await service.choose_trump(table.table_id, user, match.hand_number, choice)


async def test_a_click_on_another_process_loads_the_table_and_the_first_catches_up(
    processes: Make,
) -> None:
    home = await processes()
    other = await processes(owns=lambda guild_id: guild_id != GUILD)
    table = await four_people(home)
    hakem = match_of(table).hakem
    trump = greedy(table)

    # The hakem's trump click (a DM click) reaches the other process, which holds no table.
    assert table.table_id not in other.tables
    update = await move(other, table, user_at(table, hakem), trump)
    there = other.tables[table.table_id]
    assert update.table is there
    assert match_of(there).trump == trump
    assert (await stored_match(home, table.table_id)).trump == trump

    # The first process still holds the state before it: its next click finds a newer
    # version stored, reloads, and plays on it.
    assert match_of(table).trump is None
    to_act = match_of(there).to_act
    card = greedy(there)
    await move(home, table, user_at(there, to_act), card)
    assert match_of(table).trump == trump  # caught up
    stored = await stored_match(home, table.table_id)
    assert stored.actions == match_of(table).actions
    assert stored.actions[-1] == card
    assert len(stored.actions) == len(match_of(there).actions) + 1
    record = await home.store.load_table(table.table_id)
    assert record is not None and record.version == table.version


async def test_the_same_click_on_two_processes_at_once_is_applied_once(processes: Make) -> None:
    """Two processes racing one click (a member double-clicking while the DM click and the
    "My hand" click reach different processes): exactly one applies it."""
    one = await processes()
    two = await processes()
    table = await four_people(one)
    await move(one, table, user_at(table, match_of(table).hakem), greedy(table))
    await two.held(table.table_id)
    seat = match_of(table).to_act
    card = greedy(table)
    user = user_at(table, seat)
    results = await asyncio.gather(
        move(one, table, user, card),
        move(two, two.tables[table.table_id], user, card),
        return_exceptions=True,
    )
    applied = [r for r in results if isinstance(r, Update)]
    refused = [r for r in results if isinstance(r, ActionError)]
    assert len(applied) == 1 and len(refused) == 1, results
    stored = await stored_match(one, table.table_id)
    assert stored.actions.count(card) == 1


async def test_racing_processes_lose_no_move_and_double_none(processes: Make) -> None:
    """Every member clicks their greedy card on a random one of two processes, several
    clicks at once, for a whole hand and more: the stored match is exactly the moves that were
    acknowledged, in order, and each acknowledged once."""
    one = await processes()
    two = await processes()
    table = await four_people(one)
    await two.held(table.table_id)
    rng = random.Random(7)
    start = len(match_of(table).actions)
    acknowledged: list[str] = []

    async def click(service: TableService) -> None:
        mine = service.tables[table.table_id]
        match = match_of(mine)
        seat = match.to_act
        choice = greedy(mine, seat)
        try:
            update = await move(service, mine, user_at(mine, seat), choice)
        except ActionError:
            return  # a refusal (it was not their turn any more on the fresh state)
        assert update.actor_seat == seat
        acknowledged.append(str(choice))

    for _ in range(30):
        await asyncio.gather(*(click(rng.choice((one, two))) for _ in range(3)))

    stored = await stored_match(one, table.table_id)  # rebuilt by replaying its actions
    moves = [name(a) for a in stored.actions[start:]]
    assert len(acknowledged) > 20
    assert Counter(moves) == Counter(acknowledged)


def name(action: object) -> str:
    """A stored action as ``str`` of the choice behind it: a card, or the trump's suit."""
    if isinstance(action, tuple):
        assert action[0] == "trump"
        return str(Suit(action[2]))
    return str(action)


async def test_a_process_times_the_table_it_does_not_serve_only_after_a_grace(
    processes: Make, clock: FakeClock
) -> None:
    """The process serving a table plays for a late member at the deadline (R14); another
    process that loaded the table waits ``VISITOR_GRACE`` more, and plays only if the first
    did not (it died)."""
    home = await processes()
    other = await processes(owns=lambda guild_id: guild_id != GUILD)
    table = await four_people(home)
    await other.held(table.table_id)
    assert table.deadline is not None
    start = len(match_of(table).actions)

    await clock.advance(table.deadline - clock() + 0.1)  # the home plays the time-out
    assert len(match_of(table).actions) == start + 1
    await clock.advance(VISITOR_GRACE)  # the other finds it done: nothing more
    assert len((await stored_match(home, table.table_id)).actions) == start + 1

    await home.close()  # the home "dies": its timers stop
    deadline = table.deadline
    assert deadline is not None
    await clock.advance(deadline - clock() + 0.1)
    assert len((await stored_match(other, table.table_id)).actions) == start + 1
    await clock.advance(VISITOR_GRACE)
    assert len((await stored_match(other, table.table_id)).actions) == start + 2
    view = seat_view(match_of(other.tables[table.table_id]), 0)
    assert view.phase is not None


async def test_a_process_catches_up_on_a_save_elsewhere_without_a_click(
    processes: Make, clock: FakeClock
) -> None:
    """PostgreSQL tells every process of every table save (LISTEN/NOTIFY): the process
    serving the table loads the newer version at once, re-arms its timer for the new turn and
    refreshes the surfaces it keeps live (a ``CaughtUp`` update, no report of its own)."""
    home = await processes(listen=True)
    other = await processes(owns=lambda guild_id: guild_id != GUILD, listen=True)
    table = await four_people(home)
    reports = len(published(home))
    hakem = match_of(table).hakem
    trump = greedy(table)
    first_deadline = table.deadline

    await move(other, table, user_at(table, hakem), trump)
    there = other.tables[table.table_id]
    for _ in range(200):  # the notification arrives when the other's write commits
        if table.version == there.version:
            break
        await asyncio.sleep(0.02)
    assert table.version == there.version
    assert match_of(table).trump == trump
    caught = published(home)[reports:]
    assert [type(e) for u in caught for e in u.events] == [CaughtUp]
    assert table.deadline is not None and table.deadline == there.deadline
    assert table.deadline != first_deadline
    # the home's timer for the new turn, and the other's, a grace later
    assert sorted(timers(clock)) == [table.deadline, table.deadline + VISITOR_GRACE]

    # Its own save comes back to it too: nothing to do, nothing published.
    before = len(published(home))
    await move(home, table, user_at(table, match_of(table).to_act), greedy(table))
    await asyncio.sleep(0.3)
    assert len(published(home)) == before + 1


async def test_a_dead_process_s_table_nobody_loaded_plays_on_from_another(
    processes: Make, clock: FakeClock
) -> None:
    """Every save keeps the table's nearest deadline in the store (``due_at``); a process
    that finds a live table overdue by more than ``VISITOR_GRACE`` loads it and plays it at
    once, though no click ever brought it there (timers as rows)."""
    home = await processes()
    other = await processes(owns=lambda guild_id: guild_id != GUILD)
    table = await four_people(home)
    start = len(match_of(table).actions)
    assert await other.sweep() == 0  # nothing overdue
    await home.close()  # the home "dies" with the hakem's trump due
    assert table.deadline is not None
    await clock.advance(table.deadline - clock() + VISITOR_GRACE / 2)
    assert await other.sweep() == 0  # due, but within the grace the home would have had
    assert table.table_id not in other.tables
    await clock.advance(VISITOR_GRACE)
    assert await other.sweep() == 1
    await clock.advance(0)
    there = other.tables[table.table_id]
    assert len(match_of(there).actions) == start + 1  # the server's trump (R14), played there
    assert len((await stored_match(other, table.table_id)).actions) == start + 1
    assert await other.sweep() == 0  # held there now: its own timer times it


async def caught_up(service: TableService, table_id: str, version: int) -> Table:
    """The service's copy of the table once it holds ``version`` (by notification)."""
    for _ in range(300):
        there = service.tables[table_id]
        if there.version >= version:
            return there
        await asyncio.sleep(0.01)
    raise AssertionError(f"no catch-up to version {version}")


async def test_a_process_that_had_to_play_a_dead_process_s_table_times_it_until_it_is_back(
    processes: Make, clock: FakeClock
) -> None:
    """After the serving process died, the other plays the first due computer move
    ``VISITOR_GRACE`` late (it must not race a live server), then times the table
    ``ADOPTED_LAG`` late: a dead process's table does not wait 3 s for every computer move.
    When the serving process is back it acts first, and the other leaves the table to it.
    (The notifications of saves are handed over by the test: a listener never settles the
    fake clock.)"""
    home = await processes()
    other = await processes(owns=lambda guild_id: guild_id != GUILD)
    table = await with_computers(home, difficulty="easy")
    tid = table.table_id
    there = await other.held(tid)
    await move(other, there, HUMANS[0], greedy(there))  # the host's trump, then first card
    await move(other, there, HUMANS[0], greedy(there))
    await home.close()  # the home "dies" with seat 1's computer move due
    due = there.computer_due
    assert due is not None and match_of(there).to_act == 1
    start = len(match_of(there).actions)

    await clock.advance(due - clock() + VISITOR_GRACE - 0.1)
    assert len(match_of(there).actions) == start  # within the grace: a live home's move
    await clock.advance(0.2)
    assert len((await stored_match(other, tid)).actions) == start + 1
    assert other.turns.adopted(tid)
    due = there.computer_due
    assert due is not None and timers(clock) == [due + ADOPTED_LAG]
    await clock.advance(due - clock() + ADOPTED_LAG)
    assert len((await stored_match(other, tid)).actions) == start + 2  # seat 2, not 3 s late

    back = await processes()  # the home is back: it resumes and times the table
    (resumed,) = await back.restore()
    due = resumed.computer_due
    assert due is not None and sorted(timers(clock)) == [due, due + ADOPTED_LAG]
    await clock.advance(due - clock())  # seat 3, played by the home at its time
    assert len((await stored_match(back, tid)).actions) == start + 3
    other.saved_elsewhere(tid, resumed.version)  # what its listener is told
    await caught_up(other, tid, resumed.version)
    assert not other.turns.adopted(tid)  # it saw the home time the table: left to it
    nearest = min(t for t in (resumed.deadline, resumed.computer_due) if t is not None)
    assert sorted(timers(clock)) == [nearest, nearest + VISITOR_GRACE]
