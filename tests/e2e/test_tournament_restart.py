"""A tournament lives in the database. The bot stops in the middle of a
round (a match half played) and a new one on the same database plays on: nothing is lost and
no table is opened or pinged twice. Two bot processes on one PostgreSQL database (each
holding a shard) both move a tournament on when a round's grace time ends (a member did not
join: the forfeit): each round is advanced once and its next table opened and pinged once.
(Its rounds end by forfeit: a DM's click goes to shard 0's process, which need not be the one
the test reads the table from.)"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.config import Settings
from bot.discord.client import HokmBot, make_bot
from bot.service.table import Table
from bot.service.tournament_state import TournamentState
from bot.store import TABLE_MESSAGE, Store
from tests.double.client import ClientRunner
from tests.double.server import DiscordDouble
from tests.double_tests.bots import identify_at_once

from . import players
from .conftest import BotFactory
from .helpers import skip_time
from .test_tournament import ping_messages
from .tournament_flow import (
    channel_of,
    join_table,
    members,
    new_tournament,
    next_table,
    play_table,
    press,
    tournament_message,
    until_status,
)

SHARDS = 2


async def pinged(double: DiscordDouble, state: TournamentState, count: int) -> None:
    """The channel got ``count`` table pings (they wait behind the tables' own messages),
    and no more once the outbox has nothing left."""
    await double.wait_until(
        lambda: len(ping_messages(double, state)) >= count, timeout=15, what="the pings"
    )
    await asyncio.sleep(0.5)
    assert len(ping_messages(double, state)) == count


async def test_a_restart_in_the_middle_of_a_round_loses_nothing(
    discord_double: DiscordDouble, make_bot: BotFactory, run_client: ClientRunner
) -> None:
    double = discord_double
    bot = await make_bot()
    people = members(double, 4)
    state = await new_tournament(double, bot, {"rounds": 2})
    message = await tournament_message(double, state)
    for user in people:
        await press(double, user, message, "tj")
    await double.slash(double.manager, channel_of(double), "tournament start", {})
    seen: set[str] = set()
    table = await next_table(double, bot, seen)
    await join_table(double, table)
    users = {u.id: u for u in people}
    rng = random.Random(5)
    match = table.match
    assert match is not None
    while len(match.actions) < 9:  # trump named, two tricks played
        await players.play_turn_by_dm(double, bot, table, users, rng)
    saved = match.to_dict()
    await run_client.close_all()  # the bot's process ends; its database stays
    again = await make_bot()
    restored = again.service.table_in_channel(channel_of(double).id)
    assert restored is not None and restored.match is not None
    assert restored.match.to_dict() == saved
    await players.play_out(double, again, restored, users, rng)
    second = await next_table(double, again, seen)
    await play_table(double, again, second, seed=6)
    await until_status(again, state.tournament_id, "finished")
    done = await again.tournaments.load(state.tournament_id)
    assert [len(r.tables) for r in done.core.rounds] == [1, 1]
    await pinged(double, done, 2)  # each table pinged once, restart or not
    assert len(await again.store.tournament_links(state.tournament_id)) == 2


async def posted(bot: HokmBot, table_id: str) -> bool:
    """The table's message id is stored (in its own row, ``table_deliveries``)."""
    rows = await bot.store.load_deliveries([table_id])
    return any(row.seat == TABLE_MESSAGE and row.message_id for row in rows)


async def stored_table(double: DiscordDouble, bot: HokmBot, seen: set[str]) -> Table:
    """The next table live in the channel, whichever process opened it, with its message
    posted; held by ``bot`` (loaded from the store, as a click there would)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 15
    while True:
        record = await bot.store.open_table_in_channel(channel_of(double).id)
        if record and record.table_id not in seen and await posted(bot, record.table_id):
            seen.add(record.table_id)
            return await bot.service.held(record.table_id)
        assert loop.time() < deadline, "no next table"
        await asyncio.sleep(0.05)


@pytest.fixture
async def start_process(
    discord_double: DiscordDouble, run_client: ClientRunner, tmp_path: Path
) -> AsyncIterator[Callable[..., Awaitable[HokmBot]]]:
    """``bot = await start(pg_url, shard_ids=[…])``: one bot process of two shards."""
    started: list[tuple[HokmBot, Store]] = []
    assert discord_double.guild is not None

    async def start(database_url: str, **overrides: Any) -> HokmBot:
        settings = Settings(
            discord_token=discord_double.token,
            database_url=database_url,
            command_sync_file=str(tmp_path / f"sync-{len(started)}.sha256"),
            guild_ready_timeout=0.05,
            computer_delay_seconds=0.02,
            shard_count=SHARDS,
            dev_guild_ids=[discord_double.guild.id],  # type: ignore[union-attr]
            **overrides,
        )
        store = await Store.open(settings.database_url)
        bot = make_bot(settings, store)
        bot.before_identify_hook = identify_at_once  # type: ignore[method-assign]
        started.append((bot, store))
        await run_client(bot)
        return bot

    try:
        yield start
    finally:
        for bot, store in started:
            await asyncio.wait_for(bot.close(), timeout=10)
            await store.close()


@pytest.mark.discord_double(shard_count=SHARDS)
async def test_two_processes_advance_a_round_once(
    discord_double: DiscordDouble, start_process: Callable[..., Awaitable[HokmBot]], pg_url: str
) -> None:
    double = discord_double
    assert double.guild is not None
    home = (double.guild.id >> 22) % SHARDS
    bot = await start_process(pg_url, shard_ids=[home])  # the server's shard: its clicks
    other = await start_process(pg_url, shard_ids=[1 - home])  # another process, same database
    people = members(double, 4)
    state = await new_tournament(double, bot, {"rounds": 2, "grace_seconds": 30})
    message = await tournament_message(double, state)
    for user in people:
        await press(double, user, message, "tj")
    await double.slash(double.manager, channel_of(double), "tournament start", {})
    seen: set[str] = set()
    table = await next_table(double, bot, seen)
    absent = next(iter(table.reserved.values())).user_id
    assert absent is not None
    await join_table(double, table, absent=(absent,))
    skip_time(bot, table, 31)  # the grace time ends for both processes at once
    skip_time(other, table, 31)
    tid = state.tournament_id
    await asyncio.gather(bot.tournaments.sweep_one(tid), other.tournaments.sweep_one(tid))
    second = await stored_table(double, bot, seen)  # round 2 opened, by one of them
    done = await bot.tournaments.load(tid)
    assert done.core.current_round == 2
    first = done.core.rounds[0].tables[0].result
    assert first is not None and not first.played and len(first.forfeits) == 1
    await join_table(double, second, absent=(absent,))  # round 2 ends the same way
    skip_time(bot, second, 62)
    skip_time(other, second, 62)
    await asyncio.gather(bot.tournaments.sweep_one(tid), other.tournaments.sweep_one(tid))
    await until_status(bot, tid, "finished")
    done = await bot.tournaments.load(tid)
    assert len(done.core.rounds) == 2
    assert len(await bot.store.tournament_links(tid)) == 2  # each table opened once
    await pinged(double, done, 2)  # and pinged once
    standings = [
        m for m in double.messages_in(channel_of(double)) if "standings —" in m.text.lower()
    ]
    assert len(standings) == 1, [m.text[:80] for m in standings]  # one message, kept current
