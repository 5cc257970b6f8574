"""V6 Shelem through the service: the auction, the kitty, the mode and the play
for members, computers and members whose time ran out; refusals in the member's words; the
finished match recorded for its own standings; a restart in the middle of a hand."""

from __future__ import annotations

import pytest

from bot.service.errors import ActionError
from bot.service.events import (
    HandDealt,
    MatchOver,
    Replaced,
    Started,
    TimedOutDecision,
    TrumpNamed,
)
from bot.service.games import SHELEM_FAMILY, family_of
from bot.service.service import TableService
from bot.service.shelem_events import (
    AllPassed,
    BidMade,
    BidWon,
    KittyLaidDown,
    ModeAnnounced,
    ShelemHandEnded,
)
from bot.service.table import LogLine, Table
from bot.store.guild_settings import GuildSettings, hosted_formats
from engine import Card
from engine.shelem import (
    BID,
    DISCARD,
    MODE,
    PLAY,
    SHELEM,
    GreedyShelemPlayer,
    ShelemMatch,
    seat_view,
)
from engine.shelem.story import story as shelem_story

from .conftest import MakeService
from .fakes import FakeClock, FakePublisher, FakeStore
from .helpers import HUMANS, open_lobby, user_at


def shelem_of(table: Table) -> ShelemMatch:
    assert isinstance(table.match, ShelemMatch)
    return table.match


async def four_at_shelem(service: TableService, **options: object) -> Table:
    """Four members at a Shelem table (no computer: only R14 deadlines drive it)."""
    table = await open_lobby(service, game_format="shelem", **options)
    for user in HUMANS[1:]:
        await service.join(table.table_id, user, f"m{user}")
    assert table.status == "playing"
    return table


async def click_greedy(service: TableService, table: Table) -> None:
    """The member to act does what the greedy player would (a bid, cards, a mode, a card)."""
    match = shelem_of(table)
    seat = match.to_act
    user, deal, tid = user_at(table, seat), match.deal_number, table.table_id
    view = seat_view(match, seat)
    player = GreedyShelemPlayer()
    if match.phase == BID:
        await service.shelem.bid(tid, user, deal, player.choose_bid(view))
    elif match.phase == DISCARD:
        await service.shelem.lay_down(tid, user, deal, player.choose_discard(view))
    elif match.phase == MODE:
        await service.shelem.announce(tid, user, deal, player.choose_mode(view))
    else:
        card = player.choose_card(view)
        await service.play_card(tid, user, match.hand_number, card)


async def until_phase(service: TableService, table: Table, phase: str) -> None:
    match = shelem_of(table)
    for _ in range(200):
        if match.phase == phase:
            return
        await click_greedy(service, table)
    raise AssertionError(f"never reached {phase}")


def test_v6_shelem_is_a_format_the_bot_hosts() -> None:
    assert "shelem" in hosted_formats()
    assert GuildSettings().with_changes(game_format="shelem").game_format == "shelem"


async def test_v6_a_match_of_members_and_computers_to_the_end(
    make_service: MakeService, clock: FakeClock, store: FakeStore, publisher: FakePublisher
) -> None:
    """The host bids, lays down and plays by clicking; three easy computers do the rest; the
    match (to 200 points) ends and is recorded under its own format."""
    service = make_service(seed_source=lambda: 11)
    settings = GuildSettings(computer_difficulty="easy")
    table = await open_lobby(service, settings=settings, game_format="shelem", shelem_target=200)
    assert family_of(table) is SHELEM_FAMILY and len(table.seats) == 4
    await service.start(table.table_id, HUMANS[0])
    match = shelem_of(table)
    assert match.target_score == 200 and match.phase == BID
    assert publisher.of(Started) == [Started(-1)] and publisher.of(HandDealt) == [HandDealt(-1, 1)]
    for _ in range(5000):
        if table.status != "playing":
            break
        if table.seat(match.to_act).computer_plays:
            await clock.advance(service.computer_delay)
        else:
            await click_greedy(service, table)
    assert table.status == "finished" and match.is_over
    (over,) = publisher.of(MatchOver)
    assert over.winner_team == match.winner_team
    assert len(publisher.of(ShelemHandEnded)) == len(match.hand_results) >= 1
    assert publisher.of(BidWon) and publisher.of(BidMade)
    recorded = store.matches[table.table_id]
    assert recorded.game_format == "shelem" and recorded.target_score == 200
    assert recorded.scores == tuple(match.scores) and recorded.replay is not None
    told = shelem_story(recorded.replay)  # its Replay's record, as the match went
    assert [h.result for h in told.hands] == match.hand_results
    replay = await service.history.replay(table.guild_id, table.table_id)
    assert replay.story == told
    assert len(recorded.hands) == len(match.hand_results)
    # a hand is won by the hakem's side when it made its bid, else by the defenders
    won = [0, 0]
    for r in match.hand_results:
        won[r.hakem_team if r.made else 1 - r.hakem_team] += 1
    assert [s.hands_won for s in recorded.team_stats] == won
    assert [s.hakem_kots_suffered for s in recorded.team_stats] == [0, 0]


async def test_v6_3_the_auction_refuses_a_bid_not_higher_or_out_of_turn(
    make_service: MakeService, publisher: FakePublisher
) -> None:
    service = make_service(seed_source=lambda: 7)
    table = await four_at_shelem(service)
    match = shelem_of(table)
    tid, deal = table.table_id, match.deal_number
    first = match.to_act
    other = (first + 1) % 4
    with pytest.raises(ActionError, match="not_your_bid"):
        await service.shelem.bid(tid, user_at(table, other), deal, 105)
    with pytest.raises(ActionError, match="shelem_bid_range"):
        await service.shelem.bid(tid, user_at(table, first), deal, 103)
    await service.shelem.bid(tid, user_at(table, first), deal, 110)
    assert publisher.of(BidMade) == [BidMade(first, 110, 1)]
    assert table.log[-1] == LogLine.of("shelem.bids", name=f"m{user_at(table, first)}", n=110)
    with pytest.raises(ActionError, match="shelem_bid_too_low") as refused:
        await service.shelem.bid(tid, user_at(table, other), deal, 105)
    assert refused.value.params == {"bid": 105, "high": 110}
    with pytest.raises(ActionError, match="stale"):  # a button of another deal
        await service.shelem.bid(tid, user_at(table, other), deal + 1, 115)
    with pytest.raises(ActionError, match="not_playing_yet"):  # a card before the play
        card = min(match.hand_of(other))
        await service.play_card(tid, user_at(table, other), 1, card)
    assert match.high == 110 and match.to_act == other  # nothing changed


async def test_v6_4_three_passes_deal_again_and_old_buttons_go_stale(
    make_service: MakeService, publisher: FakePublisher
) -> None:
    service = make_service(seed_source=lambda: 7)
    table = await four_at_shelem(service)
    match = shelem_of(table)
    tid, deal = table.table_id, match.deal_number
    dealer = match.dealer
    for _ in range(3):
        await service.shelem.bid(tid, user_at(table, match.to_act), deal, 0)
    assert publisher.of(AllPassed) == [AllPassed(dealer, 1)]
    assert match.deal_number == deal + 1 and match.hand_number == 1 and match.phase == BID
    with pytest.raises(ActionError, match="stale"):
        await service.shelem.bid(tid, user_at(table, match.to_act), deal, 100)


async def test_v6_6_the_hakem_lays_down_exactly_the_kitty_and_the_cards_stay_his(
    make_service: MakeService, publisher: FakePublisher
) -> None:
    service = make_service(seed_source=lambda: 7)
    table = await four_at_shelem(service, modes="nars+sars")
    match = shelem_of(table)
    tid = table.table_id
    bidder = match.to_act
    await service.shelem.bid(tid, user_at(table, bidder), match.deal_number, 100)
    while match.phase == BID:
        await service.shelem.bid(tid, user_at(table, match.to_act), match.deal_number, 0)
    assert match.phase == DISCARD and match.hakem == bidder
    assert publisher.of(BidWon) == [BidWon(bidder, 100, 1)]
    user, deal = user_at(table, bidder), match.deal_number
    held = match.hand_of(bidder)
    assert len(held) == 16
    with pytest.raises(ActionError, match="discard_count") as refused:
        await service.shelem.lay_down(tid, user, deal, held[:3])
    assert refused.value.params == {"needed": 4, "given": 3}
    with pytest.raises(ActionError, match="hakem_decides"):
        other = (bidder + 1) % 4
        await service.shelem.lay_down(tid, user_at(table, other), deal, held[:4])
    # the choice before confirming: checked, nothing changed
    _, seat, chosen = service.shelem.selection(tid, user, deal, (held[2], held[0]))
    assert seat == bidder and chosen == (held[0], held[2])
    with pytest.raises(ActionError, match="discard_too_many"):
        service.shelem.selection(tid, user, deal, held[:5])
    stranger = next(c for c in map(Card, range(52)) if c not in held)
    with pytest.raises(ActionError, match="card_not_in_hand"):
        service.shelem.selection(tid, user, deal, (stranger,))
    # a click toggles its card in the choice his buttons carried (V6.6.1)
    assert (await service.shelem.choose(tid, user, deal, (held[2],), held[0]))[2] == held[0:3:2]
    assert (await service.shelem.choose(tid, user, deal, held[0:3:2], held[0]))[2] == (held[2],)
    with pytest.raises(ActionError, match="discard_too_many"):
        await service.shelem.choose(tid, user, deal, held[:4], held[4])
    assert match.phase == DISCARD
    await service.shelem.lay_down(tid, user, deal, held[:4])
    assert publisher.of(KittyLaidDown) == [KittyLaidDown(bidder, 4, 1)]
    assert match.discards_of(bidder) == held[:4] and match.phase == MODE
    assert not any("discard" in line.key for line in table.log if isinstance(line, LogLine))
    with pytest.raises(ActionError, match="mode_not_allowed"):
        await service.shelem.announce(tid, user, deal, "ace_nars")
    await service.shelem.announce(tid, user, deal, "hokm")
    assert publisher.of(ModeAnnounced) == [ModeAnnounced(bidder, "hokm", 1)]
    with pytest.raises(ActionError, match="mode_over"):
        await service.shelem.announce(tid, user, deal, "nars")
    first = min(match.legal_cards(bidder))
    await service.play_card(tid, user, 1, first)
    assert publisher.of(TrumpNamed) == [TrumpNamed(bidder, first.suit, 1)]  # V6.8.1


async def test_v6_5_shelem_then_only_sar_shelem_or_pass(make_service: MakeService) -> None:
    service = make_service(seed_source=lambda: 7)
    table = await four_at_shelem(service)
    match = shelem_of(table)
    tid, deal = table.table_id, match.deal_number
    await service.shelem.bid(tid, user_at(table, match.to_act), deal, SHELEM)
    with pytest.raises(ActionError, match="after_shelem"):
        await service.shelem.bid(tid, user_at(table, match.to_act), deal, 165)


async def test_v6_15_time_outs_pass_the_bid_and_lay_down_for_the_member(
    make_service: MakeService, clock: FakeClock, publisher: FakePublisher
) -> None:
    """R14, V6.15: a bid not made in time is a pass; the hakem who lets his time run out has
    the greedy player's cards laid down (after the hakem's own limit, as for trump)."""
    service = make_service(seed_source=lambda: 7)
    table = await four_at_shelem(service)
    match = shelem_of(table)
    first = match.to_act
    await clock.advance(table.settings.turn_seconds + 1)
    assert publisher.of(TimedOutDecision) == [TimedOutDecision(first, "pass")]
    assert publisher.of(BidMade) == [BidMade(first, 0, 1)]
    bidder = match.to_act
    await service.shelem.bid(table.table_id, user_at(table, bidder), match.deal_number, 100)
    while match.phase == BID:
        seat = match.to_act
        await service.shelem.bid(table.table_id, user_at(table, seat), match.deal_number, 0)
    assert match.phase == DISCARD and table.deadline is not None
    assert table.deadline == clock.now + table.settings.trump_seconds
    expected = GreedyShelemPlayer().choose_discard(seat_view(match, bidder))
    await clock.advance(table.settings.trump_seconds + 1)
    assert TimedOutDecision(bidder, "discard") in publisher.of(TimedOutDecision)
    assert match.discards_of(bidder) == tuple(sorted(expected)) and match.phase == PLAY


async def test_v6_a_shelem_table_restores_mid_kitty_after_a_restart(
    make_service: MakeService, clock: FakeClock, store: FakeStore
) -> None:
    first = make_service(seed_source=lambda: 7)
    table = await four_at_shelem(first, joker=True)
    await until_phase(first, table, DISCARD)
    match = shelem_of(table)
    hakem, deadline = match.hakem, table.deadline
    assert match.options.joker and len(match.hand_of(hakem)) == 18
    await first.close()

    second = make_service()
    (restored,) = await second.restore()
    assert restored.to_dict() == store.state(table.table_id)
    again = shelem_of(restored)
    assert again == match and restored.deadline == deadline
    held = again.hand_of(hakem)
    await second.shelem.lay_down(
        restored.table_id, user_at(restored, hakem), again.deal_number, held[-6:]
    )
    assert again.phase == PLAY and store.state(table.table_id)["match"]["phase"] == PLAY


async def test_v6_15_a_member_away_twice_is_played_for_bids_and_kitty_included(
    make_service: MakeService, clock: FakeClock, publisher: FakePublisher
) -> None:
    """R14, V6.15: nobody bids in time: three passes, a redeal by the same dealer (V6.4), and
    the first to speak misses a second time in a row: the computer takes his seat, bidding
    and laying down for him, until he clicks again."""
    service = make_service(seed_source=lambda: 7)
    table = await four_at_shelem(service)
    match = shelem_of(table)
    first = match.to_act
    for _ in range(3):
        await clock.advance(table.settings.turn_seconds + 1)
    assert publisher.of(AllPassed) == [AllPassed(match.dealer, 1)] and match.to_act == first
    await clock.advance(table.settings.turn_seconds + 1)
    assert publisher.of(Replaced) == [Replaced(first)] and table.seat(first).autoplay
    assert publisher.of(TimedOutDecision)[-1] == TimedOutDecision(first, "pass")
    # his next turn is the computer's (a short pause, no deadline); the others still time out
    for _ in range(400):
        if match.phase != BID or match.to_act == first:
            break
        await clock.advance(table.settings.turn_seconds + 1)
    if match.phase == BID:
        assert table.computer_due is not None and table.deadline is None
        before = len(match.auction)
        await clock.advance(service.computer_delay)
        assert len(match.auction) == before + 1 and match.auction[-1][0] == first
    # a click gives the seat back, even one the rules refuse (kept for its answer)
    user = user_at(table, first)
    update = await service.shelem.bid(table.table_id, user, match.deal_number, 2000)
    assert update.refusal is not None and not table.seat(first).autoplay


async def test_v6_15_the_worker_decides_for_a_shelem_seat() -> None:
    """The computer players' worker (``thinking.think``) is given a Shelem seat's view alone and
    answers with a move of Shelem's: a bid it may make, then the cards to lay down."""
    from bot.service.thinking import think
    from bot.service.variants import ShelemDecision

    match = ShelemMatch(5)
    choice = think("normal", 1, seat_view(match, match.to_act))
    assert isinstance(choice, ShelemDecision) and choice.kind == "bid"
    assert choice.value in match.legal_bids(match.to_act)
    match.bid(match.to_act, 100)
    while match.phase == BID:
        match.bid(match.to_act, 0)
    laid = think("hard", 1, seat_view(match, match.hakem))
    assert isinstance(laid, ShelemDecision) and laid.kind == "discard" and len(laid.cards) == 4
