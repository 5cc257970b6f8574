"""The Hokm bot's sharded client in-process against the double (docs/scaling.md):
which client a setting picks, which guilds a slice holds, and health per shard."""

# Waiting helpers take a timeout so a failure can say what it waited for.
# ruff: noqa: ASYNC109, RUF100

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.config import Settings
from bot.discord.client import HokmBot, ShardedHokmBot, make_bot
from bot.store import Store
from tests.double.client import ClientRunner
from tests.double.server import DiscordDouble
from tests.double_tests.bots import identify_at_once

SHARDS = 2
Start = Callable[..., Awaitable[HokmBot]]


@pytest.fixture
async def start_bot(
    discord_double: DiscordDouble, run_client: ClientRunner, tmp_path: Path
) -> AsyncIterator[Start]:
    """``bot = await start_bot(database_url, **settings)`` through ``make_bot``, as
    ``python -m bot`` builds it; closed (then its store) at the end."""
    started: list[tuple[HokmBot, Store]] = []

    async def start(database_url: str, **overrides: Any) -> HokmBot:
        settings = Settings(
            discord_token=discord_double.token,
            database_url=database_url,
            command_sync_file=str(tmp_path / f"sync-{len(started)}.sha256"),
            guild_ready_timeout=0.05,
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


async def wait_for(what: str, check: Callable[[], bool], timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        assert loop.time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.01)


async def test_without_shard_settings_the_bot_is_the_plain_client(
    discord_double: DiscordDouble, start_bot: Start, bot_db_url: str
) -> None:
    """No behaviour change and no extra cost: one connection, no ``GET /gateway/bot``."""
    bot = await start_bot(bot_db_url)
    assert type(bot) is HokmBot and not isinstance(bot, discord.AutoShardedClient)
    assert not any(r.path.endswith("/gateway/bot") for r in discord_double.requests)
    assert discord_double.gateway.stats.identifies == 1
    assert list(discord_double.gateway.live) == [(0, 1)]
    assert bot._gateway_open() and bot.holds_guild(123 << 22)


@pytest.mark.discord_double(shard_count=SHARDS)
async def test_a_slice_holds_its_shards_guilds_and_is_healthy_while_each_is_connected(
    discord_double: DiscordDouble, start_bot: Start, pg_url: str
) -> None:
    mine = discord_double.create_guild("Mine", shard=(1, SHARDS))
    other = discord_double.create_guild("Other", shard=(0, SHARDS))
    bot = await start_bot(
        pg_url, shard_count=SHARDS, shard_ids=[1], dev_guild_ids=[mine.id, other.id]
    )

    assert isinstance(bot, ShardedHokmBot) and set(bot.shards) == {1}
    assert list(discord_double.gateway.live) == [(1, SHARDS)]
    assert bot.holds_guild(mine.id) and not bot.holds_guild(other.id)
    owned = {g for g in discord_double.world.guilds if (g >> 22) % SHARDS == 1}
    assert {g.id for g in bot.guilds} == owned and mine.id in owned
    # Commands reach every dev guild by REST, whichever shard holds it.
    assert discord_double.commands(mine) and discord_double.commands(other)

    assert bot._gateway_open()
    shard = bot.get_shard(1)
    assert shard is not None
    await shard.disconnect()
    assert not bot._gateway_open()  # health follows every shard, not a single `bot.ws`
    await shard.reconnect()
    await wait_for("shard 1 back", bot._gateway_open)


@pytest.mark.discord_double(shard_count=SHARDS)
async def test_one_process_may_hold_every_shard_on_either_database(
    discord_double: DiscordDouble, start_bot: Start, bot_db_url: str
) -> None:
    """A shard count alone: every shard in this one process, so SQLite is still fine."""
    discord_double.create_guild("One", shard=(1, SHARDS))
    bot = await start_bot(bot_db_url, shard_count=SHARDS)
    assert isinstance(bot, ShardedHokmBot) and set(bot.shards) == {0, 1}
    assert {g.id for g in bot.guilds} == set(discord_double.world.guilds)
    assert set(discord_double.gateway.live) == {(0, SHARDS), (1, SHARDS)}
    assert bot._gateway_open()
