"""V6.4.1 through the service: after three deals of a hand everyone passed, the
dealer may not pass when the first three pass again: his Pass is refused in his words, and his
time-out bids the lowest bid; a match of members passing all they may stays within its bounds
(the saved table, its log lines, the deals, the finished match's record)."""

from __future__ import annotations

import json

import pytest

from bot.service.errors import ActionError
from bot.service.events import TimedOutDecision
from bot.service.history import finished_match
from bot.service.service import TableService
from bot.service.shelem_events import AllPassed, BidMade, BidWon
from bot.service.table import MAX_LOG, LogLine, Seat, Table, TableSettings
from engine.shelem import (
    BID,
    MAX_DEALS,
    MAX_HANDS,
    PASS,
    PASSED_DEALS_MAX,
    GreedyShelemPlayer,
    ShelemMatch,
    ShelemOptions,
    seat_view,
)
from engine.shelem.story import story
from tests.engine.shelem_helpers import worst_case_move

from .conftest import MakeService
from .fakes import FakeClock, FakePublisher, FakeStore
from .helpers import user_at
from .test_shelem import click_greedy, four_at_shelem, shelem_of

#: The saved table (``Table.to_dict`` as JSON) of a whole match of members passing all they
#: may stays under this (docs/rules.md V6.14.1 gives the bound of any match).
TABLE_JSON_BOUND = 600_000
RECORD_JSON_BOUND = 400_000
"""The finished match's Replay record (``FinishedMatch.replay``) and its hands list each."""


async def to_the_dealers_turn(service: TableService, table: Table) -> None:
    """Every member clicks Pass: three deals passed out, then the first three of the fourth."""
    match = shelem_of(table)
    tid = table.table_id
    for _ in range(PASSED_DEALS_MAX * 3 + 3):
        await service.shelem.bid(tid, user_at(table, match.to_act), match.deal_number, PASS)
    assert match.must_open and match.to_act == match.dealer


async def test_v6_4_1_the_dealers_pass_is_refused_and_he_opens(
    make_service: MakeService, publisher: FakePublisher, store: FakeStore
) -> None:
    service = make_service(seed_source=lambda: 7)
    table = await four_at_shelem(service)
    match = shelem_of(table)
    dealer, first_deal = match.dealer, match.deal_number
    await to_the_dealers_turn(service, table)
    assert publisher.of(AllPassed) == [AllPassed(dealer, 1)] * PASSED_DEALS_MAX
    assert match.deal_number == first_deal + PASSED_DEALS_MAX
    tid, user, deal = table.table_id, user_at(table, dealer), match.deal_number
    saved, writes = store.state(tid), store.writes
    with pytest.raises(ActionError, match="dealer_must_open") as refused:
        await service.shelem.bid(tid, user, deal, PASS)
    assert refused.value.params == {"low": 100, "n": PASSED_DEALS_MAX}
    assert store.state(tid) == saved and store.writes == writes and match.must_open
    await service.shelem.bid(tid, user, deal, 100)
    assert publisher.of(BidWon) == [BidWon(dealer, 100, 1)] and match.hakem == dealer


async def test_v6_4_1_v6_15_the_dealers_time_out_opens_at_the_lowest_bid(
    make_service: MakeService, clock: FakeClock, publisher: FakePublisher
) -> None:
    service = make_service(seed_source=lambda: 7)
    table = await four_at_shelem(service, joker=True)
    match = shelem_of(table)
    dealer = match.dealer
    await to_the_dealers_turn(service, table)
    await clock.advance(table.settings.turn_seconds + 1)
    assert publisher.of(TimedOutDecision) == [TimedOutDecision(dealer, "bid120")]
    assert publisher.of(BidMade)[-1] == BidMade(dealer, 120, 1)
    assert publisher.of(BidWon) == [BidWon(dealer, 120, 1)]


async def test_v6_4_1_members_passing_all_they_may_keep_the_table_bounded(
    make_service: MakeService, store: FakeStore
) -> None:
    """Four members pass whenever they may (the dealer opens at the lowest bid when he must)
    and play the greedy player's cards otherwise: every hand is dealt four times, and every
    save of the table, its log and the finished match's record stay within their bounds."""
    service = make_service(seed_source=lambda: 3)
    table = await four_at_shelem(service)
    match = shelem_of(table)
    tid = table.table_id
    started = {1: match.deal_number}
    largest = 0
    for _ in range(20_000):
        if table.status != "playing":
            break
        if match.phase == BID:
            view = seat_view(match, match.to_act)
            value = GreedyShelemPlayer().choose_bid(view) if view.must_open else PASS
            await service.shelem.bid(tid, user_at(table, match.to_act), match.deal_number, value)
        else:
            await click_greedy(service, table)
        started.setdefault(match.hand_number, match.deal_number)
        assert match.deal_number - started[match.hand_number] <= PASSED_DEALS_MAX
        assert len(table.log) <= MAX_LOG
        largest = max(largest, len(json.dumps(store.state(tid))))
    assert table.status == "finished" and match.is_over
    assert match.deal_number == (PASSED_DEALS_MAX + 1) * match.hand_number <= MAX_DEALS
    assert largest < TABLE_JSON_BOUND
    replay = store.matches[tid].replay
    assert replay is not None and replay["v"] == 2
    assert len(json.dumps(replay)) < largest


def test_v6_14_1_the_worst_case_table_and_its_finished_record_stay_under_their_bounds() -> None:
    """The longest match there can be (500 hands, each dealt four times and bid up to
    sar-shelem, with jokers: the most words and cards laid down) at a table of the longest
    names, its log full: the saved table, the Replay record and the hands list stay under
    their bounds, and the saved table loads again."""
    match = ShelemMatch(7, ShelemOptions(joker=True))
    while not match.is_over:
        worst_case_move(match, True)
    assert match.hand_number == MAX_HANDS and match.deal_number == MAX_DEALS
    table = Table(
        table_id="0123456789ab",
        guild_id=1,
        channel_id=2,
        host_id=10,
        settings=TableSettings(game_format="shelem", shelem_joker=True),
        created_at=0.0,
    )
    name = "\u202e" + "ن" * 31  # 32 characters, the longest a display name is
    for i in range(4):
        table.seats[i] = Seat(name=name, user_id=10**18 + i)
    table.match, table.status = match, "finished"
    table.started_at = table.finished_at = 1.0
    for _ in range(MAX_LOG + 5):
        table.add_log(LogLine.of("shelem.bids_sar_shelem", name=name, n=2000))
    saved = json.dumps(table.to_dict())
    assert len(saved) < TABLE_JSON_BOUND
    assert Table.from_dict(json.loads(saved)).match == match
    record = finished_match(table, 2.0)
    assert record.replay is not None and len(json.dumps(record.replay)) < RECORD_JSON_BOUND
    assert len(record.hands) == MAX_HANDS and len(json.dumps(record.hands)) < RECORD_JSON_BOUND
    assert len(story(json.loads(json.dumps(record.replay))).hands) == MAX_HANDS
