"""The service's timers on the fake clock: the lobby's expiry, R14's turn and trump limits
(a late member gets the greedy move; two misses in a row and the computer plays for them until
they click), and a computer's move after its pause, thought out by the thinker or greedy."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.service.events import (
    Back,
    CardPlayed,
    Expired,
    Replaced,
    TimedOut,
    TimedOutTrump,
    TrumpNamed,
)
from bot.service.service import TableService
from bot.service.table import LogLine
from engine import Card, GreedyPlayer, SeatView, Suit, seat_view

from .conftest import MakeService
from .fakes import FakeClock, FakePublisher, FakeStore
from .helpers import (
    click_greedy,
    four_people,
    greedy_card,
    greedy_suit,
    match_of,
    open_lobby,
    seed_where,
    timers,
    until_turn_of,
    user_at,
    with_computers,
)

# --------------------------------------------------------------------------- the lobby


async def test_an_unfilled_lobby_expires_when_its_time_is_up(
    service: TableService, clock: FakeClock, store: FakeStore, publisher: FakePublisher
) -> None:
    table = await open_lobby(service)
    publisher.clear()
    await clock.advance(15 * 60 - 1)
    assert table.is_live and not publisher.published
    await clock.advance(1)
    assert table.status == "cancelled"
    assert publisher.of(Expired) == [Expired()]
    assert store.rows[table.table_id].status == "cancelled"
    assert service.table_in_channel(table.channel_id) is None
    assert LogLine.of("report.expired") in table.log
    assert not clock.pending


# --------------------------------------------------------------------------- R14, people


async def test_r14_trump_timeout_names_the_hakems_greedy_suit(
    service: TableService, clock: FakeClock, store: FakeStore, publisher: FakePublisher
) -> None:
    table = await four_people(service)
    match = match_of(table)
    hakem = match.hakem
    suit = greedy_suit(table)
    publisher.clear()
    await clock.advance(29.5)  # trump_seconds is 30
    assert match.trump is None and not publisher.published
    await clock.advance(0.5)
    assert publisher.of(TimedOutTrump) == [TimedOutTrump(hakem, suit)]
    assert match.trump == suit
    assert table.seat(hakem).missed_turns == 1 and not table.seat(hakem).autoplay
    assert store.state(table.table_id)["match"] == match.to_dict()  # saved before shown
    assert timers(clock) == [clock.now + 20]  # the hakem's lead: turn_seconds


async def test_r14_a_late_player_gets_the_greedy_card(
    service: TableService, clock: FakeClock, publisher: FakePublisher
) -> None:
    table = await four_people(service)
    match = match_of(table)
    hakem = match.hakem
    await service.choose_trump(table.table_id, user_at(table, hakem), 1, Suit.HEARTS)
    card = greedy_card(table)
    publisher.clear()
    await clock.advance(19.9)
    assert not publisher.published
    await clock.advance(0.1)
    assert publisher.of(TimedOut) == [TimedOut(hakem, card)]
    assert publisher.of(CardPlayed) == [CardPlayed(hakem, card, 1)]
    assert match.to_act == (hakem + 1) % 4
    assert table.seat(hakem).missed_turns == 1 and not table.seat(hakem).autoplay
    assert not publisher.of(Replaced)


async def test_r14_two_misses_in_a_row_hand_the_seat_to_the_computer(
    service: TableService, clock: FakeClock, publisher: FakePublisher
) -> None:
    table = await four_people(service)
    match = match_of(table)
    hakem = match.hakem
    await clock.advance(30)  # the trump: one miss
    card = greedy_card(table)
    await clock.advance(20)  # the lead: two in a row
    assert publisher.of(TimedOut) == [TimedOut(hakem, card)]
    assert publisher.of(Replaced) == [Replaced(hakem)]
    assert table.seat(hakem).autoplay
    # from now on the computer plays that seat after its short pause, not after 20 s
    await until_turn_of(service, clock, table, hakem)
    assert table.computer_due == clock.now + service.computer_delay and table.deadline is None
    card = greedy_card(table)
    before = len(publisher.of(TimedOut))
    await clock.advance(service.computer_delay)
    assert publisher.published[-1].events[0] == CardPlayed(hakem, card, 1)
    assert len(publisher.of(TimedOut)) == before  # a computer move, not a time-out


async def test_r14_a_click_between_misses_starts_the_count_again(
    service: TableService, clock: FakeClock, publisher: FakePublisher
) -> None:
    table = await four_people(service)
    hakem = match_of(table).hakem
    await clock.advance(30)  # trump timed out: one miss
    assert table.seat(hakem).missed_turns == 1
    await click_greedy(service, table)  # R7: the hakem leads, and clicks this time
    assert table.seat(hakem).missed_turns == 0
    await until_turn_of(service, clock, table, hakem)
    await clock.advance(20)  # a miss again, but not two in a row
    assert table.seat(hakem).missed_turns == 1
    assert not publisher.of(Replaced) and not table.seat(hakem).autoplay


async def test_a_click_takes_the_seat_back_from_the_computer(
    service: TableService, clock: FakeClock, publisher: FakePublisher
) -> None:
    table = await four_people(service)
    match = match_of(table)
    hakem = match.hakem
    await clock.advance(50)  # trump and lead timed out: the computer plays for the hakem
    assert table.seat(hakem).autoplay
    await until_turn_of(service, clock, table, hakem)
    card = greedy_card(table)
    publisher.clear()
    update = await service.play_card(table.table_id, user_at(table, hakem), 1, card)
    assert update.events[:2] == [Back(hakem), CardPlayed(hakem, card, 1)]
    assert update.refusal is None and update.actor_seat == hakem
    seat = table.seat(hakem)
    assert not seat.autoplay and seat.missed_turns == 0


async def test_an_out_of_turn_click_still_takes_the_seat_back(
    service: TableService, clock: FakeClock, store: FakeStore
) -> None:
    table = await four_people(service)
    match = match_of(table)
    hakem = match.hakem
    await clock.advance(50)
    assert table.seat(hakem).autoplay and match.to_act != hakem
    mine = seat_view(match, hakem).hand[0]
    update = await service.play_card(table.table_id, user_at(table, hakem), 1, mine)
    assert update.events == [Back(hakem)]
    # the computer led for them in this trick, so the refusal says so
    assert any(seat == hakem for seat, _ in match.current_trick())
    assert update.refusal is not None and update.refusal.code == "error.already_played"
    assert not table.seat(hakem).autoplay
    assert store.state(table.table_id)["seats"][hakem]["autoplay"] is False  # and it is saved


# --------------------------------------------------------------------------- computers


class FakeThinker:
    """Stands in for the worker processes: records each request and answers with ``answer``
    (``None`` is "play greedy"), after ``delay`` seconds of the fake clock."""

    def __init__(
        self,
        clock: FakeClock,
        answer: Callable[[SeatView], Card | Suit] | None = None,
        delay: float = 0.0,
    ) -> None:
        self.clock = clock
        self.answer = answer
        self.delay = delay
        self.calls: list[tuple[str, str, int, SeatView, float]] = []
        self.cancelled = 0

    async def __call__(
        self, table_id: str, difficulty: str, seed: int, view: SeatView, deadline: float
    ) -> Card | Suit | None:
        self.calls.append((table_id, difficulty, seed, view, deadline))
        try:
            if self.delay:
                await self.clock.sleep(self.delay)
        except BaseException:
            self.cancelled += 1
            raise
        return self.answer(view) if self.answer is not None else None


def other_suit(view: SeatView) -> Suit:
    """A trump the greedy player would not name, so the test sees whose choice was made."""
    return next(s for s in Suit if s != GreedyPlayer().choose_trump(view))


def other_card(view: SeatView) -> Card:
    """A legal card other than the greedy one (when there is another)."""
    card = GreedyPlayer().choose_card(view)
    return next((c for c in view.legal if c != card), card)


def not_greedy(view: SeatView) -> Card | Suit:
    return other_suit(view) if view.phase == "trump" else other_card(view)


async def test_a_computer_moves_after_its_pause_with_the_thinkers_choice(
    make_service: MakeService, clock: FakeClock, publisher: FakePublisher
) -> None:
    """R15's computer seats move ``computer_delay`` after their turn begins (no R14 deadline),
    and play what the thinker chose, not the greedy move."""
    thinker = FakeThinker(clock, answer=not_greedy)
    service = make_service(thinker=thinker, seed_source=lambda: seed_where(1))
    started = clock.monotonic()
    table = await with_computers(service)
    match = match_of(table)
    assert match.hakem == 1 and table.deadline is None
    await clock.settle()
    # thinking starts with the turn; its budget is the pause (plus the grace, 0 here)
    (call,) = thinker.calls
    assert call[:3] == (table.table_id, "normal", table.match_seed)
    assert call[4] == started + service.computer_delay
    suit = other_suit(call[3])
    publisher.clear()
    await clock.advance(0.9)
    assert match.trump is None and not publisher.published
    await clock.advance(0.1)
    assert publisher.of(TrumpNamed) == [TrumpNamed(1, suit, 1)]
    assert match.trump == suit
    lead = other_card(thinker.calls[-1][3])
    await clock.advance(1.0)
    assert publisher.of(CardPlayed) == [CardPlayed(1, lead, 1)]


@pytest.mark.parametrize("how", ["slower than its deadline", "answers None"])
async def test_a_computer_plays_greedy_when_the_thinker_has_nothing_in_time(
    make_service: MakeService, clock: FakeClock, publisher: FakePublisher, how: str
) -> None:
    if how == "answers None":
        thinker = FakeThinker(clock, answer=None)
    else:
        thinker = FakeThinker(clock, answer=not_greedy, delay=60.0)
    service = make_service(thinker=thinker, seed_source=lambda: seed_where(1))
    table = await with_computers(service)
    match = match_of(table)
    suit = greedy_suit(table)
    await clock.advance(service.computer_delay)
    assert publisher.of(TrumpNamed) == [TrumpNamed(1, suit, 1)]
    assert match.trump == suit
    if how != "answers None":
        assert thinker.cancelled == 1  # the late decision is dropped, not left running
        # its sleep is gone too; what is left is the next seat's pause and its (slow) thinking
        assert timers(clock) == [clock.now + service.computer_delay, clock.now + 60.0]


async def test_an_easy_computer_decides_with_the_player_factory(
    make_service: MakeService, clock: FakeClock, publisher: FakePublisher
) -> None:
    made: list[tuple[str, int]] = []

    class Contrary:
        def choose_trump(self, view: SeatView) -> Suit:
            return other_suit(view)

        def choose_card(self, view: SeatView) -> Card:
            return other_card(view)

    def factory(difficulty: str, seed: int) -> Contrary:
        made.append((difficulty, seed))
        return Contrary()

    service = make_service(player_factory=factory, seed_source=lambda: seed_where(2))
    table = await with_computers(service, difficulty="easy")
    match = match_of(table)
    await clock.settle()
    assert made == [("easy", table.match_seed)]  # seed ^ 0 actions
    suit = other_suit(seat_view(match, 2))
    await clock.advance(service.computer_delay)
    assert match.trump == suit
    assert made[-1] == ("easy", (table.match_seed or 0) ^ 1)
    assert publisher.of(TrumpNamed) == [TrumpNamed(2, suit, 1)]
