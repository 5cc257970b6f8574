"""A live hand edit that may wait (another player's card) queues
behind at most ``LIMIT`` others, oldest first, once per seat; the edit that makes it a
player's turn never waits (``urgent``)."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, cast

from bot.discord.deferred_edits import DeferredEdits, Key, urgent
from bot.discord.hand_dms import HandDms
from bot.service.delivery import Shown
from bot.service.table import Table
from engine import PLAY, TRUMP

from .test_hand_story import play_until, playing_table


class Recorder:
    """Edits that block until released, so the test sees what runs at once."""

    def __init__(self) -> None:
        self.started: list[Key] = []
        self.running = 0
        self.most_at_once = 0
        self.release = asyncio.Event()
        self.tasks: list[asyncio.Task[None]] = []

    async def edit(self, table: Table, key: Key) -> None:
        self.started.append(key)
        self.running += 1
        self.most_at_once = max(self.most_at_once, self.running)
        await self.release.wait()
        self.running -= 1

    def spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        self.tasks.append(asyncio.create_task(coro))


async def test_deferred_edits_run_oldest_first_a_few_at_a_time_once_per_seat() -> None:
    rec = Recorder()
    queue = DeferredEdits(rec.edit, rec.spawn, limit=2)
    table = playing_table()
    keys = [(table.table_id, seat) for seat in range(4)] + [("other", 0), ("other", 1)]
    for key in keys:
        queue.add(table, key)
    queue.add(table, keys[3])  # queued already: it keeps its place and is edited once
    queue.discard(keys[4])  # its turn came (edited at once elsewhere), or its table ended
    await asyncio.sleep(0)
    assert rec.started == keys[:2] and rec.most_at_once == 2
    assert keys[2] in queue and keys[0] not in queue  # taken off the queue when it starts
    rec.release.set()
    await asyncio.gather(*rec.tasks)
    assert rec.started == [keys[0], keys[1], keys[2], keys[3], keys[5]]
    assert rec.most_at_once == 2 and rec.running == 0
    queue.add(table, keys[0])  # the workers ended with the queue; a new one starts
    await asyncio.gather(*rec.tasks)
    assert rec.started[-1] == keys[0]


def test_only_a_seats_own_turn_or_a_phase_outside_trick_play_is_urgent() -> None:
    table = playing_table()
    match = table.match
    assert match is not None and match.phase == TRUMP
    assert all(urgent(table, seat) for seat in range(4))  # the hakem chooses; new cards
    play_until(table, lambda m: m.phase == PLAY and len(m.trick) == 1)
    assert [urgent(table, seat) for seat in range(4)] == [seat == match.to_act for seat in range(4)]
    assert sum(urgent(table, seat) for seat in range(4)) == 1


def test_a_tricks_end_is_urgent_for_every_seat() -> None:
    """The others' surfaces wait for their turn or the trick's end, never past it:
    with no card on the table, every seat's edit goes at once (who took the trick, the tricks,
    the score), and with the next card only the next player's does."""
    table = playing_table()
    match = table.match
    assert match is not None
    play_until(table, lambda m: m.phase == PLAY and len(m.tricks) == 1 and not m.trick)
    assert all(urgent(table, seat) for seat in range(4))
    play_until(table, lambda m: len(m.trick) == 1)
    assert [urgent(table, seat) for seat in range(4)] == [seat == match.to_act for seat in range(4)]


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def test_courtesy_edits_go_no_faster_than_the_budget_the_newest_state_once_per_seat() -> None:
    """Edits nobody waits for (another player's card in the middle of a trick) go
    at ``rate`` a second at most, after a ``burst``; a seat waits once, whatever changed
    meanwhile; at rate 0 none goes (the seat waits for its turn or the trick's end)."""
    clock = Clock()
    edited: list[Key] = []
    tasks: list[asyncio.Task[None]] = []

    async def edit(table: Table, key: Key) -> None:
        edited.append(key)

    queue = DeferredEdits(
        edit, lambda c: tasks.append(asyncio.create_task(c)), rate=2.0, burst=2.0, clock=clock
    )
    table = playing_table()
    keys = [(f"t{i}", seat) for i in range(3) for seat in range(2)]
    for key in keys:
        queue.add(table, key)
    queue.add(table, keys[0])  # a second change while waiting: still one edit
    for _ in range(10):
        await asyncio.sleep(0)
    assert edited == keys[:2]  # the burst, then nothing until the budget refills
    clock.now = 1.0  # two more a second
    await asyncio.sleep(0.6)  # the workers' own wait for a token (real time)
    assert edited == keys[:4]
    queue.discard(keys[4])  # its turn came: edited at once elsewhere, not here
    clock.now = 5.0
    await asyncio.sleep(0.6)
    await asyncio.gather(*tasks)
    assert edited == [*keys[:4], keys[5]] and len(queue) == 0
    queue.rate = 0
    queue.add(table, keys[0])
    await asyncio.gather(*tasks)
    assert edited == [*keys[:4], keys[5]] and keys[0] in queue


class BlockingInteraction:
    """A DM click whose token edits can be held in flight."""

    guild_id = None
    channel_id = 77
    message = None

    def __init__(self, interaction_id: int, gate: asyncio.Event) -> None:
        self.id = interaction_id
        self.gate = gate
        self.edits: list[dict[str, Any]] = []

    async def edit_original_response(self, **kwargs: Any) -> None:
        self.edits.append(kwargs)
        await self.gate.wait()


class QuietFeedback:
    def __init__(self) -> None:
        self.shown: dict[str, Shown] = {}

    def delivery(self, table_id: str) -> Shown:
        return self.shown.setdefault(table_id, Shown())

    async def dm_posted(self, *args: object) -> None:
        return None


class NoOutbox:
    def submit(self, *args: object, **kwargs: object) -> None:
        return None

    def wait_estimate(self, priority: int, cost: int = 1) -> float:
        return 0.0


async def test_a_click_during_an_edit_in_flight_does_not_lose_the_turn_mark_after_it() -> None:
    """Item 3: a player clicks (a new token) while an edit of their hand is in flight, and the
    next card makes it their turn: that change is shown through the new token once the edit in
    flight ends. It used to be dropped, because the loop stopped when its token was replaced:
    the player waited for a turn mark that never came (a flaky 15 s time-out in the format
    e2e tests under load). HandDms is handed snapshots, as the publisher hands them: the edit
    after the one in flight renders the newest, not the one the loop began with."""
    hands = HandDms(cast(Any, object()), cast(Any, NoOutbox()), cast(Any, QuietFeedback()))
    table = playing_table()
    match = table.match
    assert match is not None
    play_until(table, lambda m: m.phase == PLAY and m.to_act == 2)
    held = asyncio.Event()
    first = BlockingInteraction(1, held)
    hands.clicked(committed(hands, table), 0, cast(Any, first))
    play_one(table)  # seat 2 plays: another player's card, a change that may wait
    hands.refresh(committed(hands, table), None)
    for _ in range(5):
        await asyncio.sleep(0)
    assert len(first.edits) == 1  # in flight, held
    second = BlockingInteraction(2, asyncio.Event())
    second.gate.set()
    hands.clicked(committed(hands, table), 0, cast(Any, second))  # its token replaces the first
    play_one(table)  # seat 3 plays: now it is seat 0's turn
    assert match.to_act == 0
    hands.refresh(committed(hands, table), None)
    held.set()
    await asyncio.gather(*hands._token_tasks)
    assert len(second.edits) == 1, "the turn mark went nowhere"
    view = second.edits[0]["view"]
    assert any(not item.disabled for item in view.children)  # cards to play: their turn


def committed(hands: HandDms, table: Table) -> Table:
    """The table's change stored (its next version) and published: the snapshot the
    publisher notes and hands on."""
    table.version += 1
    return hands.snapshots.note(table.snapshot())


def play_one(table: Table) -> None:
    match = table.match
    assert match is not None
    done = len(match.actions)
    play_until(table, lambda m: len(m.actions) > done)
