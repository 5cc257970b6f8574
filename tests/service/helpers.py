"""Building tables through the service and moving them on, for the service unit tests."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from bot.service.ports import Update
from bot.service.service import TableService
from bot.service.table import Table
from bot.store.guild_settings import GuildSettings
from engine import Card, GreedyPlayer, Match, Rules, Suit, seat_view

from .fakes import FakeClock

GUILD = 10
HUMANS = (101, 102, 103, 104)
"""Member ids of seats 0-3 at a table of four people (seat 0 is the host)."""


@cache
def seed_where(hakem: int) -> int:
    """The first match seed whose first hakem (R3, first ace) sits in ``hakem``."""
    for seed in range(1000):
        if Match(seed, Rules()).hakem == hakem:
            return seed
    raise AssertionError(f"no seed gives hakem {hakem}")


HAKEM_0_SEED = seed_where(0)


async def open_lobby(
    service: TableService,
    channel: int = 100,
    settings: GuildSettings | None = None,
    host: int = HUMANS[0],
    target_score: int | None = None,
    host_name: str | None = None,
    **options: Any,
) -> Table:
    """A lobby hosted by ``host``; ``options`` are ``open_table``'s (format, house rules)."""
    update = await service.open_table(
        guild_id=GUILD,
        channel_id=channel,
        host_id=host,
        host_name=host_name or f"m{host}",
        settings=settings or GuildSettings(),
        target_score=target_score,
        **options,
    )
    return update.table


async def four_people(service: TableService, channel: int = 100, **options: Any) -> Table:
    """A match of four members (no computer anywhere): only R14 deadlines drive it."""
    table = await open_lobby(service, channel, **options)
    for user in HUMANS[1:]:
        await service.join(table.table_id, user, f"m{user}")
    assert table.status == "playing"
    return table


async def with_computers(service: TableService, difficulty: str = "normal") -> Table:
    """The host in seat 0 and computers in seats 1-3."""
    settings = GuildSettings().with_changes(computer_difficulty=difficulty)
    table = await open_lobby(service, settings=settings)
    await service.start(table.table_id, HUMANS[0])
    assert table.status == "playing"
    return table


def match_of(table: Table) -> Match:
    assert table.match is not None
    return table.match


def user_at(table: Table, seat: int) -> int:
    user = table.seat(seat).user_id
    assert user is not None
    return user


def greedy(table: Table, seat: int | None = None) -> Card | Suit:
    """What the server plays for a seat (R14): the greedy move from that seat's view."""
    match = match_of(table)
    view = seat_view(match, match.to_act if seat is None else seat)
    if view.phase == "trump":
        return Suit(GreedyPlayer().choose_trump(view))
    return GreedyPlayer().choose_card(view)


def greedy_card(table: Table) -> Card:
    card = greedy(table)
    assert isinstance(card, Card), "the trump is not named yet"
    return card


def greedy_suit(table: Table) -> Suit:
    suit = greedy(table)
    assert isinstance(suit, Suit), "the trump is named already"
    return suit


async def click_greedy(service: TableService, table: Table) -> None:
    """The member whose turn it is clicks the greedy move."""
    match = match_of(table)
    user = user_at(table, match.to_act)
    move = greedy(table)
    if isinstance(move, Suit):
        await service.choose_trump(table.table_id, user, match.hand_number, move)
    else:
        await service.play_card(table.table_id, user, match.hand_number, move)


async def until_turn_of(
    service: TableService, clock: FakeClock, table: Table, seat: int, limit: int = 60
) -> None:
    """Move the table on (members click at once, computers after their pause) until ``seat``
    is to act."""
    for _ in range(limit):
        match = match_of(table)
        if match.to_act == seat:
            return
        if table.seat(match.to_act).computer_plays:
            await clock.advance(service.computer_delay)
        else:
            await click_greedy(service, table)
    raise AssertionError(f"seat {seat} never came to act")


def timers(clock: FakeClock) -> list[float]:
    """When the armed timers fire."""
    return [h.when for h in clock.pending]


class Recorder:
    """A publisher that keeps what it was handed (no Discord here)."""

    def __init__(self) -> None:
        self.updates: list[Update] = []

    def publish(self, update: Update) -> None:
        self.updates.append(update)


Make = Callable[..., TableService]
