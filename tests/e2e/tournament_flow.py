"""Tournaments through the double: a manager opens one, members press **Join** on
its message, the host starts it, and each table is joined from its own message and played
from the players' DMs. The double's bot has no thread permissions, so the tables take turns
in the tournament's channel (the fallback); ``tests/e2e/test_tournament_threads.py`` grants
them and plays tables in threads."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from bot.discord.client import HokmBot
from bot.service.table import Table
from bot.service.tournament_state import TournamentState
from tests.double.models import Channel, StoredMessage, User
from tests.double.server import DiscordDouble
from tests.reliability import leaks as hidden

from . import players
from .helpers import message_id, table_message

NAMES = ("ehsan", "farah", "golnar", "hamid", "iraj", "jaleh")


def members(double: DiscordDouble, count: int) -> list[User]:
    """``count`` members of the server (the double's four, and more)."""
    assert double.guild is not None
    while len(double.members) < count:
        double.members.append(double.add_member(double.guild, NAMES[len(double.members) - 4]))
    return double.members[:count]


def channel_of(double: DiscordDouble) -> Channel:
    assert double.channel is not None
    return double.channel


async def new_tournament(
    double: DiscordDouble, bot: HokmBot, options: dict[str, Any]
) -> TournamentState:
    """``/tournament new`` by the server's manager; the tournament and its message."""
    chosen = {
        "name": "Spring cup",
        "format": "standard",
        "system": "swiss",
        "partners": "individual",
        "closes_in": 30,
        "target_score": 1,
        "turn_seconds": 60,
    } | options
    record = await double.slash(double.manager, channel_of(double), "tournament new", chosen)
    assert record.ephemeral, record.response_name
    state = await bot.tournaments.in_channel(channel_of(double).id)
    await tournament_message(double, state)
    return state


async def tournament_message(double: DiscordDouble, state: TournamentState) -> StoredMessage:
    prefix = f"hokm:tj:{state.tournament_id}"
    return await double.wait_for_message(
        channel_of(double),
        lambda m: any((b.custom_id or "") == prefix for b in m.buttons()),
        timeout=10,
    )


async def press(double: DiscordDouble, user: User, message: StoredMessage, action: str) -> str:
    """``user`` presses **Join** (``tj``) or **Withdraw** (``tl``); the private answer."""
    button = next(b for b in message.buttons() if (b.custom_id or "").startswith(f"hokm:{action}:"))
    record = await double.click(user, message, custom_id=button.custom_id)
    assert record.ephemeral, record.response_name
    assert record.message is not None
    return record.message.text


async def next_table(
    double: DiscordDouble, bot: HokmBot, seen: set[str], timeout: float = 15.0
) -> Table:
    """The tournament table that opens next in the channel, its message posted."""
    channel = channel_of(double)
    found: list[Table] = []

    def opened() -> bool:
        table = bot.service.table_in_channel(channel.id)
        if table is None or table.table_id in seen or message_id(bot, table) is None:
            return False
        found[:] = [table]
        return True

    await double.wait_until(opened, timeout=timeout, what="the next tournament table")
    seen.add(found[0].table_id)
    return found[0]


async def join_table(double: DiscordDouble, table: Table, absent: tuple[int, ...] = ()) -> None:
    """Every player of the table but ``absent`` presses **Join** on its message."""
    message = table_message(double, table)
    users = {u.id: u for u in double.members}
    for seat in sorted(table.reserved):
        member = table.reserved[seat].user_id
        if member is None or member in absent:
            continue
        label = "پیوستن" if table.settings.language == "fa" else "Join"
        record = await double.click(users[member], message, label=label)
        assert record.response_type == 7, record.response_name


async def play_table(double: DiscordDouble, bot: HokmBot, table: Table, seed: int) -> None:
    await join_table(double, table)
    assert table.status == "playing"
    users = {u.id: u for u in double.members}
    await players.play_out(double, bot, table, users, random.Random(seed))


async def until_status(bot: HokmBot, tid: str, status: str, timeout: float = 15.0) -> None:
    """Wait until the stored tournament has ``status`` (it moves on in the background)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while (state := await bot.tournaments.load(tid)).status != status:
        assert loop.time() < deadline, f"tournament {tid} is {state.status}, not {status}"
        await asyncio.sleep(0.05)


def no_hidden_cards(double: DiscordDouble, watcher: hidden.HandWatcher) -> list[hidden.Leak]:
    """``leaks`` for several matches played one after another in one channel: the channel's
    report message keeps an earlier match's public lines (the cards turned up to find its
    first hakem, its tricks) under the next match's, which the checker, judging every line
    against the match being played, would take for that match's hidden cards. Such a line is
    set aside when it is exactly an earlier match's public line; anything else still counts."""
    found = []
    for leak in hidden.leaks(double, watcher):
        at, text = hidden._versions(double.message(leak.message_id))[leak.version]
        earlier = [s for s in watcher.snapshots if s.at <= at]
        bad = [
            line
            for line in text.splitlines()
            if hidden._cards_in(line) and not _an_earlier_matchs(line, earlier)
        ]
        hidden_now = set(leak.cards)
        if any(set(hidden._cards_in(line)) & hidden_now for line in bad):
            found.append(leak)
    return found


def _an_earlier_matchs(line: str, snapshots: list[hidden.Snapshot]) -> bool:
    first = hidden.FIRST_ACE_LINE.search(line)
    if first:
        cards = tuple(hidden._cards_in(first.group(1)))
        return any(s.first_ace == cards for s in snapshots)
    trick = hidden.TRICK_LINE.search(line)
    if trick:
        number = hidden._digits(trick.group(1))
        cards = tuple(hidden._cards_in(trick.group(2)))
        return any((n, c) == (number, cards) for s in snapshots for _, n, c in s.tricks)
    return False
