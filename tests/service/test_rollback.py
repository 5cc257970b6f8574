"""A move is saved before it is shown: a failed save takes it back completely, and a refused
move changes nothing at all (not the table, the store, the timers, nor the channel)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from bot.service.errors import ActionError
from bot.service.events import CardPlayed, MatchOver, TimedOutTrump
from bot.service.service import TableService
from bot.service.table import Table
from bot.store import StaleWrite
from engine import Card, Suit, seat_view

from .fakes import FakeClock, FakePublisher, FakeStore, InjectedFailure
from .helpers import (
    HUMANS,
    click_greedy,
    four_people,
    greedy_card,
    greedy_suit,
    match_of,
    open_lobby,
    timers,
    user_at,
)


async def _trump_named(service: TableService, table: Table) -> Card:
    """Trump is named by click; returns the hakem's greedy lead."""
    await click_greedy(service, table)
    return greedy_card(table)


@pytest.mark.parametrize("failure", [InjectedFailure("disk full"), StaleWrite("raced")])
async def test_a_failed_save_during_a_card_play_leaves_the_table_as_it_was(
    service: TableService,
    clock: FakeClock,
    store: FakeStore,
    publisher: FakePublisher,
    failure: Exception,
) -> None:
    table = await four_people(service)
    card = await _trump_named(service, table)
    hakem = match_of(table).hakem
    before, stored, armed = table.to_dict(), store.state(table.table_id), timers(clock)
    publisher.clear()
    store.fail_next(1, failure)
    with pytest.raises(ActionError) as refused:
        await service.play_card(table.table_id, user_at(table, hakem), 1, card)
    assert refused.value.code == "error.internal"
    assert table.to_dict() == before  # the card is back in the hand, the log line gone
    assert store.state(table.table_id) == stored
    assert not publisher.published  # a move not stored is never shown
    assert timers(clock) == armed  # the R14 deadline still stands
    # the next legal move goes through as if nothing had happened
    update = await service.play_card(table.table_id, user_at(table, hakem), 1, card)
    assert update.events[0] == CardPlayed(hakem, card, 1)
    assert table.version == before["version"] + 1
    assert store.rows[table.table_id].version == table.version
    assert [p.events[0] for p in publisher.published] == [CardPlayed(hakem, card, 1)]


async def test_a_failed_save_in_a_timer_action_is_undone_then_retried(
    service: TableService, clock: FakeClock, store: FakeStore, publisher: FakePublisher
) -> None:
    """R14's trump time-out fails to save: the table is reloaded from the store and the timer
    armed again; its deadline being past, the time-out is retried at once, and counted once
    (a half-changed table kept would count the miss twice and log the line twice)."""
    table = await four_people(service)
    hakem = match_of(table).hakem
    version, writes = table.version, store.writes
    suit = greedy_suit(table)
    publisher.clear()
    store.fail_next(1)
    await clock.advance(30)
    assert store.loads == [table.table_id]
    assert store.writes == writes + 2 and table.version == version + 1
    assert publisher.of(TimedOutTrump) == [TimedOutTrump(hakem, suit)]
    assert len(publisher.published) == 1
    assert table.seat(hakem).missed_turns == 1 and not table.seat(hakem).autoplay
    assert [line.key for line in table.log if not isinstance(line, str)].count(
        "report.timeout_trump"
    ) == 1
    assert table.to_dict() == Table.from_dict(store.state(table.table_id)).to_dict()


async def test_a_timer_action_beaten_by_another_save_takes_the_stored_state(
    service: TableService, clock: FakeClock, store: FakeStore, publisher: FakePublisher
) -> None:
    """Someone else saved the table first (the store's version check refuses the time-out):
    the service goes back to exactly what the store holds, and arms its deadline."""
    table = await four_people(service)
    hakem = match_of(table).hakem
    theirs = Table.from_dict(store.state(table.table_id))
    assert theirs.match is not None
    theirs.match.choose_trump(hakem, Suit.CLUBS)
    theirs.deadline = clock.now + 100
    record = store.rows[table.table_id].bump(state=theirs.to_dict() | {"version": 99})
    await store.save_table(record)
    publisher.clear()
    await clock.advance(30)
    assert store.loads == [table.table_id]
    assert not publisher.published
    expected = Table.from_dict(store.state(table.table_id))
    expected.version = record.version
    assert table.to_dict() == expected.to_dict()
    assert match_of(table).trump == Suit.CLUBS and table.seat(hakem).missed_turns == 0
    assert timers(clock) == [theirs.deadline]


async def test_a_failed_save_of_the_last_card_does_not_record_the_match(
    service: TableService, store: FakeStore, publisher: FakePublisher
) -> None:
    """R12: the card that ends the match and the match's record are one write; when it
    fails neither is kept, and the same card then ends the match, recorded once."""
    table = await open_lobby(service, target_score=1)
    for user in HUMANS[1:]:
        await service.join(table.table_id, user, f"m{user}")
    while not _ends_the_match(table):
        await click_greedy(service, table)
    match = match_of(table)
    seat, card = match.to_act, greedy_card(table)
    before = table.to_dict()
    publisher.clear()
    store.fail_next(1)
    with pytest.raises(ActionError):
        await service.play_card(table.table_id, user_at(table, seat), match.hand_number, card)
    assert table.to_dict() == before and not store.matches and not publisher.published
    await service.play_card(table.table_id, user_at(table, seat), match.hand_number, card)
    assert list(store.matches) == [table.table_id]
    assert store.rows[table.table_id].status == "finished"
    assert publisher.of(MatchOver) == [MatchOver(match.winner_team or 0, tuple(match.scores))]


def _ends_the_match(table: Table) -> bool:
    """Whether the greedy move of the seat to act ends the match (tried on a copy)."""
    probe = match_of(Table.from_dict(table.to_dict()))
    if probe.phase != "play":
        return False
    probe.play(probe.to_act, greedy_card(table))
    return probe.winner_team is not None


# --------------------------------------------------------------------------- refusals

Attempt = Callable[[TableService, Table], Awaitable[object]]


def _not_to_act(table: Table) -> int:
    match = match_of(table)
    return next(s for s in range(4) if s != match.to_act)


async def out_of_turn(service: TableService, table: Table) -> object:
    seat = _not_to_act(table)
    card = seat_view(match_of(table), seat).hand[0]
    return await service.play_card(table.table_id, user_at(table, seat), 1, card)


async def stale_hand_number(service: TableService, table: Table) -> object:
    match = match_of(table)
    card = greedy_card(table)
    return await service.play_card(table.table_id, user_at(table, match.to_act), 2, card)


async def not_a_player(service: TableService, table: Table) -> object:
    return await service.play_card(table.table_id, 999, 1, greedy_card(table))


async def card_not_in_hand(service: TableService, table: Table) -> object:
    match = match_of(table)
    theirs = seat_view(match, _not_to_act(table)).hand[0]
    return await service.play_card(table.table_id, user_at(table, match.to_act), 1, theirs)


async def trump_twice(service: TableService, table: Table) -> object:
    """R5: trump is locked for the hand."""
    match = match_of(table)
    return await service.choose_trump(table.table_id, user_at(table, match.hakem), 1, Suit.CLUBS)


async def unknown_table(service: TableService, table: Table) -> object:
    return await service.play_card("feedfacecafe", user_at(table, 0), 1, greedy_card(table))


@pytest.mark.parametrize(
    ("attempt", "code"),
    [
        (out_of_turn, "error.not_your_turn"),
        (stale_hand_number, "error.stale"),
        (not_a_player, "error.not_a_player"),
        (card_not_in_hand, "error.card_not_in_hand"),
        (trump_twice, "error.not_your_turn"),
        (unknown_table, "error.stale"),
    ],
)
async def test_a_refused_move_changes_nothing(
    service: TableService,
    clock: FakeClock,
    store: FakeStore,
    publisher: FakePublisher,
    attempt: Attempt,
    code: str,
) -> None:
    table = await four_people(service)
    await _trump_named(service, table)
    before, writes, armed = table.to_dict(), store.writes, timers(clock)
    publisher.clear()
    with pytest.raises(ActionError) as refused:
        await attempt(service, table)
    assert refused.value.code == code
    assert table.to_dict() == before
    assert store.writes == writes and not publisher.published and timers(clock) == armed
