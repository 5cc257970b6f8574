"""V1's bam (the side at seven tricks to none decides, R14's
default is to stop) and V2's two-player hands built by discards and draws, for members,
computers and members whose time ran out."""

from __future__ import annotations

import pytest

from bot.service.errors import ActionError
from bot.service.events import BamOffer, Decided, HandEnded, TimedOutDecision
from bot.service.service import TableService
from bot.service.table import LogLine, Seat, Table, TableSettings
from bot.service.variants import Decision
from bot.store.guild_settings import hosted_formats
from engine import BAM, BID, DISCARD, DRAW, PLAY, Suit

from .conftest import MakeService
from .fakes import FakeClock, FakePublisher, FakeStore
from .helpers import GUILD, HUMANS, click_greedy, four_people, match_of, open_lobby, user_at

BAM_SEED = 84
"""Greedy play gives seat 1's side (the defenders) the first seven tricks of hand 1."""


async def bam_table(service: TableService) -> Table:
    table = await four_people(service, host_name="host", bam=True)
    while match_of(table).phase != BAM:
        await click_greedy(service, table)
    return table


async def test_v1_the_side_at_seven_to_none_declares_bam_and_plays_on(
    make_service: MakeService, publisher: FakePublisher
) -> None:
    service = make_service(seed_source=lambda: BAM_SEED)
    table = await bam_table(service)
    match = match_of(table)
    assert match.rules.bam and match.to_act == 1
    assert publisher.of(BamOffer) == [BamOffer(1, 1)]
    assert table.log[-1] == LogLine.of("report.bam_offered", name=f"m{HUMANS[1]}")
    with pytest.raises(ActionError, match="not_your_turn"):  # only the seat asked
        await service.decide(table.table_id, HUMANS[0], 1, Decision("bam", True))
    await service.decide(table.table_id, HUMANS[1], 1, Decision("bam", True))
    assert publisher.of(Decided) == [Decided(1, "bam", 1)] and match.phase == PLAY
    while match.hand_number == 1:
        await click_greedy(service, table)
    (ended,) = publisher.of(HandEnded)
    assert ended.result.bam and ended.result.kind in ("hakem_bam", "hakem_kot")


async def test_v1_a_member_who_lets_the_time_run_out_stops_r14(
    make_service: MakeService, clock: FakeClock, publisher: FakePublisher
) -> None:
    service = make_service(seed_source=lambda: BAM_SEED)
    table = await bam_table(service)
    assert table.deadline is not None
    await clock.advance(table.settings.turn_seconds + 1)
    assert publisher.of(TimedOutDecision) == [TimedOutDecision(1, "stop")]
    (ended,) = publisher.of(HandEnded)
    assert ended.result.kind == "hakem_kot" and not ended.result.bam
    assert match_of(table).hand_number == 2


async def test_v2_two_players_build_their_hands_and_play_to_the_end(
    make_service: MakeService, clock: FakeClock, store: FakeStore, publisher: FakePublisher
) -> None:
    """The host discards and draws by clicking, then lets the time run out (R14: the
    engine's defaults), and the computer plays the other seat; the match ends and is kept."""
    service = make_service()
    table = await open_lobby(service, host_name="host", game_format="two", target_score=1)
    assert len(table.seats) == 2
    await service.start(table.table_id, HUMANS[0])
    match = match_of(table)
    for _ in range(200):
        if match.phase in (DISCARD, DRAW) and match.to_act == 0:
            break
        if table.seat(match.to_act).computer_plays:
            await clock.advance(service.computer_delay)
        else:
            await click_greedy(service, table)
    user = user_at(table, 0)
    if match.phase == DISCARD:
        card = max(match.hand_of(0))
        await service.play_card(table.table_id, user, match.hand_number, card)
        assert card in match.discards_of(0) and card not in match.hand_of(0)
    while match.phase != DRAW or match.to_act != 0:
        if table.seat(match.to_act).computer_plays:
            await clock.advance(service.computer_delay)
        else:
            await service.play_card(table.table_id, user, match.hand_number, min(match.hand_of(0)))
    held = len(match.hand_of(0))
    await service.decide(table.table_id, user, match.hand_number, Decision("draw", True))
    assert len(match.hand_of(0)) == held + 1
    assert ("draw", 0, 1) in [tuple(a) for a in match.actions if isinstance(a, tuple)]
    for _ in range(20_000):
        if store.matches:
            break
        await clock.advance(1.0)
    recorded = store.matches[table.table_id]
    assert recorded.game_format == "two" and len(recorded.scores) == 2
    assert {e.what for e in publisher.of(Decided)} >= {"discard", "draw"}
    assert publisher.of(TimedOutDecision)  # the host's later turns went by (R14)


async def test_v5_joker_six_the_hakem_is_bid_for_and_the_hand_scores_the_bid(
    make_service: MakeService, publisher: FakePublisher
) -> None:
    """Six members (the format is offered on Discord: ``hosted_formats``): the first bidder
    passes, the next bids 5, the rest pass; the bidder is hakem, names trump on nine cards and
    the hand scores the bid.
    """
    service = make_service()
    table = Table(
        table_id=Table.new_id(),
        guild_id=GUILD,
        channel_id=100,
        host_id=HUMANS[0],
        settings=TableSettings(game_format="joker_six"),
        created_at=0.0,
    )
    table.seats[0] = Seat(name="host", user_id=HUMANS[0])
    await service._open(table, 25)
    for i in range(1, 6):
        await service.join(table.table_id, 200 + i, f"p{i}")
    assert table.status == "playing"
    match = match_of(table)
    assert match.phase == BID and match.hakem == -1 and len(match.hand_of(0)) == 9
    first = match.to_act
    await service.decide(table.table_id, user_at(table, first), 1, Decision("bid", tricks=0))
    bidder = match.to_act
    with pytest.raises(ActionError, match="bid_not_allowed"):
        await service.decide(table.table_id, user_at(table, bidder), 1, Decision("bid", tricks=4))
    await service.decide(table.table_id, user_at(table, bidder), 1, Decision("bid", tricks=5))
    assert Decided(bidder, "bid5", 1) in publisher.of(Decided)
    assert LogLine.of("report.bids", name=table.seat(bidder).name, n=5) in table.log
    while match.phase == BID:
        seat = match.to_act
        await service.decide(table.table_id, user_at(table, seat), 1, Decision("bid", tricks=0))
    assert match.hakem == bidder and match.phase == "trump"
    await service.choose_trump(table.table_id, user_at(table, bidder), 1, Suit.HEARTS)
    while not publisher.of(HandEnded):
        seat = match.to_act
        card = match.legal_cards(seat)[0]
        await service.play_card(table.table_id, user_at(table, seat), 1, card)
    (ended,) = publisher.of(HandEnded)
    assert ended.result.kind in ("made", "set") and match.target_score == 124
    assert "joker_six" in hosted_formats()


async def test_v5_joker_six_computers_bid_and_play_and_a_late_member_passes_r14(
    make_service: MakeService, clock: FakeClock, publisher: FakePublisher
) -> None:
    """The host alone with five computers (R15) at a joker six table, letting every turn run
    out (R14): the server passes the host's bid (``auto_bid``) and plays their cards, jokers
    included (``GreedyPlayer``); the computers bid by their hand estimate and play; hands are
    scored by the bid. (The seed's 124 is a dozen hands: the test stops after two.)"""
    service = make_service()
    table = await open_lobby(service, host_name="host", game_format="joker_six")
    assert len(table.seats) == 6
    await service.start(table.table_id, HUMANS[0])
    match = match_of(table)
    assert match.phase == BID and [s.computer_plays for s in table.seats[1:]] == [True] * 5
    for _ in range(2000):
        if len(publisher.of(HandEnded)) >= 2:
            break
        if table.seat(match.to_act).computer_plays:
            await clock.advance(service.computer_delay)
        else:
            assert table.deadline is not None
            await clock.advance(table.deadline - clock.now + 0.01)
    assert len(publisher.of(HandEnded)) >= 2
    assert TimedOutDecision(0, "pass") in publisher.of(TimedOutDecision)
    bids = [a for a in match.actions if isinstance(a, tuple) and a[0] == "bid"]
    assert all(tricks == 0 for _, seat, tricks in bids if seat == 0)
    assert any(tricks for _, seat, tricks in bids if seat != 0)  # a computer bid
    assert all(e.result.kind in ("made", "set") for e in publisher.of(HandEnded))
