"""Fair sharing at the service and the worker queue, without Discord.

- a member sits at one live table at a time, and two opens at once cannot both win;
- a server has at most ``max_open_tables`` live tables, also under simultaneous opens;
- computer decisions are served round robin, at most one waiting per table, never computed
  once their deadline passed, and a decision that overruns its budget is played greedily.
"""

# Waiting helpers take a timeout so a failure can say what it waited for.
# ruff: noqa: ASYNC109, RUF100

from __future__ import annotations

import asyncio
import math
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Future

import pytest

from bot.service.errors import ActionError
from bot.service.service import TableService
from bot.service.thinking import Thinker, think
from bot.store import Store
from bot.store.guild_settings import GuildSettings
from engine import Card, GreedyPlayer, SeatView, Suit, make_player, seat_view
from engine.players import forced_card

from ..engine.test_search import random_position

GUILD, OTHER_GUILD = 10, 20
SETTINGS = GuildSettings()


@pytest.fixture
async def service(store: Store) -> AsyncIterator[TableService]:
    svc = TableService(store, computer_delay=0.01)
    try:
        yield svc
    finally:
        await svc.close()


async def until(predicate: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        assert loop.time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.005)


async def open_(
    service: TableService,
    host: int,
    channel: int,
    guild: int = GUILD,
    settings: GuildSettings = SETTINGS,
) -> str:
    update = await service.open_table(
        guild_id=guild, channel_id=channel, host_id=host, host_name=f"m{host}", settings=settings
    )
    return update.table.table_id


# --------------------------------------------------------------------------- one table each


async def test_a_second_table_is_refused_naming_the_first(service: TableService) -> None:
    first = await open_(service, host=1, channel=100)
    with pytest.raises(ActionError) as same:
        await open_(service, host=1, channel=101)
    assert same.value.code == "error.seated_elsewhere"
    assert same.value.params == {"channel": "<#100>"}
    with pytest.raises(ActionError) as other:
        await open_(service, host=1, channel=200, guild=OTHER_GUILD)
    assert other.value.code == "error.seated_elsewhere_other"
    assert other.value.params == {"channel": "<#100>"}
    assert service.table_in_channel(101) is None and service.table_in_channel(200) is None
    # joining another table is refused the same way, and changes nothing there
    theirs = await open_(service, host=2, channel=102)
    with pytest.raises(ActionError) as joined:
        await service.join(theirs, 1, "m1")
    assert joined.value.code == "error.seated_elsewhere"
    assert service.get(theirs).seat_of(1) is None
    # once they leave, they may sit elsewhere
    await service.leave(first, 1)
    await service.join(theirs, 1, "m1")
    assert service.get(theirs).seat_of(1) == 1


async def test_two_opens_at_once_by_one_member_cannot_both_win(service: TableService) -> None:
    results = await asyncio.gather(
        *(open_(service, host=1, channel=100 + i) for i in range(5)), return_exceptions=True
    )
    opened = [r for r in results if isinstance(r, str)]
    refused = [r for r in results if isinstance(r, ActionError)]
    assert len(opened) == 1 and len(refused) == 4, results
    assert {r.code for r in refused} == {"error.seated_elsewhere"}
    assert len(service.tables) == 1
    assert len(await service.store.load_live_tables()) == 1


async def test_an_open_and_a_join_at_once_cannot_both_win(service: TableService) -> None:
    theirs = await open_(service, host=2, channel=102)
    results = await asyncio.gather(
        open_(service, host=1, channel=100), service.join(theirs, 1, "m1"), return_exceptions=True
    )
    seated = [t for t in service.tables.values() if t.seat_of(1) is not None]
    assert len(seated) == 1, results
    assert sum(isinstance(r, ActionError) for r in results) == 1


# --------------------------------------------------------------------------- tables per server


async def test_a_server_has_at_most_its_limit_of_open_tables(service: TableService) -> None:
    limited = SETTINGS.with_changes(max_open_tables=3)
    results = await asyncio.gather(
        *(open_(service, host=i, channel=100 + i, settings=limited) for i in range(6)),
        return_exceptions=True,
    )
    refused = [r for r in results if isinstance(r, ActionError)]
    assert sum(isinstance(r, str) for r in results) == 3
    assert {r.code for r in refused} == {"error.server_tables_full"}
    assert refused[0].params == {"limit": 3}
    # another server is not affected, and an ended table frees a place
    await open_(service, host=50, channel=300, guild=OTHER_GUILD, settings=limited)
    some = next(t for t in service.tables.values() if t.guild_id == GUILD)
    await service.cancel(some.table_id, some.host_id, is_admin=False)
    await open_(service, host=51, channel=301, settings=limited)


def test_the_limit_is_a_validated_setting() -> None:
    assert GuildSettings().max_open_tables == 25
    assert GuildSettings().with_changes(max_open_tables=100).max_open_tables == 100
    for bad in (0, 101):
        with pytest.raises(ValueError, match="max_open_tables"):
            GuildSettings().with_changes(max_open_tables=bad)


# --------------------------------------------------------------------------- the host's seats


async def test_only_the_host_or_a_manager_adds_computers(service: TableService) -> None:
    table_id = await open_(service, host=1, channel=100)
    await service.join(table_id, 2, "m2")
    for _ in range(2):
        with pytest.raises(ActionError) as refused:
            await service.add_computer(table_id, 2)
        assert refused.value.code == "error.not_host_or_admin"
    table = service.get(table_id)
    assert table.status == "lobby" and len(table.free_seats()) == 2
    await service.add_computer(table_id, 3, is_admin=True)
    await service.add_computer(table_id, 1)
    assert table.status == "playing"


# --------------------------------------------------------------------------- the worker queue


class FakeRunner:
    """Stands in for the worker processes: records what was started, the test finishes it."""

    def __init__(self) -> None:
        self.started: list[tuple[str, Future[Card | Suit]]] = []

    def __call__(
        self, difficulty: str, seed: int, view: SeatView, deadline: float
    ) -> Future[Card | Suit]:
        future: Future[Card | Suit] = Future()
        self.started.append((difficulty, future))
        return future

    async def finish_next(self, index: int) -> None:
        self.started[index][1].set_result(Suit.SPADES)
        await asyncio.sleep(0)  # the done callback runs on the loop
        await asyncio.sleep(0)


def a_view() -> SeatView:
    m = random_position(1, 3)
    return seat_view(m, m.turn)


async def test_decisions_are_served_round_robin_across_tables() -> None:
    """Ten busy tables ask again the moment they are answered; a table that asks once waits
    behind at most one decision of each other table (first come first served would put it
    behind every decision asked before it)."""
    runner = FakeRunner()
    thinker = Thinker(workers=1, runner=runner)
    view = a_view()
    served: list[str] = []
    answers: dict[str, asyncio.Future[Card | Suit | None]] = {}

    def ask(table: str) -> None:
        answers[table] = thinker.decide(table, table, 0, view, math.inf)

    busy = [f"attacker{i}" for i in range(10)]
    for table in busy:
        ask(table)
    asked_at = -1
    for step in range(40):
        if step == 5:
            ask("victim")
            asked_at = step  # started[step] is in flight: one of the decisions it waits for
        served.append(runner.started[step][0])
        if served[-1] == "victim":
            break
        await runner.finish_next(step)
        ask(served[-1])  # always hungry: it asks again at once
    assert served[-1] == "victim"
    await runner.finish_next(len(served) - 1)
    assert answers["victim"].result() == Suit.SPADES
    waited_behind = served[asked_at:-1]
    assert len(set(waited_behind)) == len(waited_behind), waited_behind
    assert len(waited_behind) <= len(busy)


async def test_a_table_has_one_request_waiting_the_newest() -> None:
    runner = FakeRunner()
    thinker = Thinker(workers=1, runner=runner)
    view = a_view()
    first = thinker.decide("busy", "normal", 0, view, math.inf)  # started at once
    old = thinker.decide("t", "normal", 1, view, math.inf)
    new = thinker.decide("t", "hard", 2, view, math.inf)
    assert old.done() and old.result() is None  # superseded: play greedy for that one
    assert thinker.waiting == 1
    await runner.finish_next(0)
    assert first.result() == Suit.SPADES
    assert [d for d, _ in runner.started] == ["normal", "hard"]
    await runner.finish_next(1)
    assert new.result() == Suit.SPADES


async def test_a_request_past_its_deadline_is_not_computed() -> None:
    now = [0.0]
    runner = FakeRunner()
    thinker = Thinker(workers=1, runner=runner, clock=lambda: now[0])
    view = a_view()
    thinker.decide("busy", "hard", 0, view, 10.0)
    late = thinker.decide("late", "hard", 0, view, 1.0)
    withdrawn = thinker.decide("gone", "hard", 0, view, 10.0)
    withdrawn.cancel()
    now[0] = 2.0  # the first decision took two seconds
    await runner.finish_next(0)
    assert late.done() and late.result() is None
    assert len(runner.started) == 1 and thinker.expired == 1


def test_the_worker_stops_at_its_deadline() -> None:
    """In the worker a past deadline gives the greedy card; no deadline, the full search."""
    for seed in range(40):
        m = random_position(seed, 10 + seed % 20)
        view = seat_view(m, m.turn)
        if forced_card(view) is None:
            break
    assert think("hard", 7, view, deadline=0.0) == GreedyPlayer().choose_card(view)
    assert think("normal", 7, view) == make_player("normal", 7).choose_card(view)


# --------------------------------------------------------------------------- the service side


async def start_with_computers(service: TableService, difficulty: str) -> str:
    settings = SETTINGS.with_changes(computer_difficulty=difficulty)
    table_id = await open_(service, host=1, channel=100, settings=settings)
    await service.start(table_id, 1)
    table = service.get(table_id)
    match = table.match
    assert match is not None
    if not table.seat(match.to_act).computer_plays:  # the host is hakem: name trump, lead
        await service.choose_trump(table_id, 1, match.hand_number, Suit.HEARTS)
        card = GreedyPlayer().choose_card(seat_view(match, match.to_act))
        await service.play_card(table_id, 1, match.hand_number, card)
    return table_id


async def test_thinking_starts_when_the_computers_turn_begins(store: Store) -> None:
    asked = asyncio.Event()

    async def thinker(
        table: str, difficulty: str, seed: int, view: SeatView, deadline: float
    ) -> Card | Suit | None:
        asked.set()
        return None

    service = TableService(store, computer_delay=60.0, thinker=thinker)
    try:
        await start_with_computers(service, "hard")
        # the pause is a minute long: thinking that waited for it would not have begun
        await asyncio.wait_for(asked.wait(), timeout=10)
    finally:
        await service.close()


async def test_a_decision_past_its_budget_is_played_greedily(store: Store) -> None:
    release = asyncio.Event()
    asked: list[tuple[str, float]] = []

    async def stuck(
        table: str, difficulty: str, seed: int, view: SeatView, deadline: float
    ) -> Card | Suit | None:
        asked.append((table, deadline))
        await release.wait()  # a worker that never gets to this table
        return None

    service = TableService(store, computer_delay=0.01, thinker=stuck, think_grace=0.01)
    try:
        table_id = await start_with_computers(service, "hard")
        table = service.get(table_id)
        match = table.match
        assert match is not None
        seat = match.to_act
        assert table.seat(seat).computer_plays
        view = seat_view(match, seat)
        if match.phase == "trump":  # a computer is hakem
            suit = Suit(GreedyPlayer().choose_trump(view))
            await until(lambda: match.phase != "trump", "the computer's greedy trump")
            assert match.trump == suit
        else:
            before = len(match.actions)
            card = GreedyPlayer().choose_card(view)
            await until(lambda: len(match.actions) > before, "the computer's greedy move")
            assert match.actions[before] == card
        assert asked and asked[0][0] == table_id
    finally:
        release.set()
        await service.close()
