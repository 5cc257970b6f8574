"""Who may have a hint, and that the hint is thought in the
worker under a key of its own, on the member's view only, bounded in time."""

from __future__ import annotations

import asyncio
from concurrent.futures import Future

import pytest

from bot.service import hints as hints_module
from bot.service.errors import ActionError
from bot.service.service import TableService
from bot.service.table import Table
from bot.service.thinking import Thinker
from bot.store.guild_settings import GuildSettings
from engine import PLAY, Card, GreedyPlayer, Match, SeatView, Suit, explain, seat_view

from .conftest import MakeService
from .helpers import HUMANS, click_greedy, match_of, open_lobby, user_at


async def hinted_table(service: TableService, hints: bool = True, channel: int = 100) -> Table:
    """Four members at a table with hints on (or off), trump named, the first card to lead."""
    table = await open_lobby(service, channel, settings=GuildSettings(hints=hints))
    for user in HUMANS[1:]:
        await service.join(table.table_id, user, f"m{user}")
    await click_greedy(service, table)  # the hakem names trump
    assert match_of(table).phase == PLAY
    return table


async def test_who_may_have_a_hint(make_service: MakeService) -> None:
    service = make_service()
    table = await hinted_table(service)
    match = match_of(table)
    hand = match.hand_number
    me = user_at(table, match.to_act)
    other = user_at(table, (match.to_act + 1) % 4)
    view = service.hints.view(table, me, hand)
    assert view == seat_view(match, match.to_act)  # the member's own view, nothing more
    for user, number, code in (
        (other, hand, "error.hint_not_your_turn"),
        (999, hand, "error.not_a_player"),
        (me, hand + 1, "error.stale"),
    ):
        with pytest.raises(ActionError) as info:
            service.hints.view(table, user, number)
        assert info.value.code == code
    off = await hinted_table(make_service(), hints=False, channel=101)
    with pytest.raises(ActionError) as info:
        service.hints.view(off, user_at(off, match_of(off).to_act), 1)
    assert info.value.code == "error.hints_off"


async def test_the_hint_is_thought_in_the_worker_under_its_own_key(
    make_service: MakeService,
) -> None:
    calls: list[tuple[str, str, SeatView]] = []

    async def thinker(
        key: str, difficulty: str, seed: int, view: SeatView, deadline: float
    ) -> Card | Suit | None:
        calls.append((key, difficulty, view))
        return max(view.legal)

    service = make_service(thinker=thinker)
    table = await hinted_table(service)
    match = match_of(table)
    seat = match.to_act
    view = service.hints.view(table, user_at(table, seat), match.hand_number)
    before = match.to_dict()
    hint = await service.hints.think(table.table_id, view)
    assert calls == [(f"{table.table_id}:hint:{seat}", "hard", view)]  # never the table's key
    assert hint == explain(view, max(view.legal))
    assert match.to_dict() == before


async def test_a_worker_that_does_not_answer_in_time_gets_the_greedy_card(
    make_service: MakeService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hints_module, "HINT_SECONDS", 0.01)
    monkeypatch.setattr(hints_module, "HINT_GRACE", 0.01)

    async def never(
        key: str, difficulty: str, seed: int, view: SeatView, deadline: float
    ) -> Card | Suit | None:
        await asyncio.Event().wait()
        return None

    async def wrong(
        key: str, difficulty: str, seed: int, view: SeatView, deadline: float
    ) -> Card | Suit | None:
        return Suit.SPADES  # not a card: ignored

    for channel, thinker in enumerate((never, wrong), start=200):
        service = make_service(thinker=thinker)
        table = await hinted_table(service, channel=channel)
        match = match_of(table)
        view = service.hints.view(table, user_at(table, match.to_act), match.hand_number)
        hint = await service.hints.think(table.table_id, view)
        assert hint == explain(view, GreedyPlayer().choose_card(view))


async def test_a_hint_request_never_displaces_a_computers_decision() -> None:
    """The worker keeps one waiting request per key: a hint's key is its own, so a computer's
    request of the same table is still answered."""
    started: list[str] = []

    def runner(difficulty: str, seed: int, view: SeatView, deadline: float) -> Future[Card | Suit]:
        started.append(difficulty)
        return Future()

    thinker = Thinker(workers=0, runner=runner, clock=lambda: 0.0)  # nothing starts: all wait
    table_id = "abcdef012345"
    view = seat_view(Match(1), 0)
    computer = thinker.decide(table_id, "normal", 1, view, 10.0)
    hint = thinker.decide(f"{table_id}:hint:0", "hard", 1, view, 10.0)
    assert not computer.done() and not hint.done() and thinker.waiting == 2
    again = thinker.decide(table_id, "normal", 2, view, 10.0)  # the same key does replace
    assert computer.result() is None and not again.done()
    thinker.close()


async def test_the_hint_without_a_worker_runs_in_a_thread_and_is_the_hard_players(
    make_service: MakeService,
) -> None:
    service = make_service()
    table = await hinted_table(service)
    match = match_of(table)
    view = service.hints.view(table, user_at(table, match.to_act), match.hand_number)
    hint = await service.hints.think(table.table_id, view)
    assert hint.choice in view.legal
