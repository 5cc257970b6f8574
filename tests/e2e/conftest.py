"""Fixtures that run the real bot in-process against the local Discord double."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.config import Settings
from bot.discord.client import HokmBot
from bot.store import Store
from tests.double.client import ClientRunner
from tests.double.server import DiscordDouble

BotFactory = Callable[..., Awaitable[HokmBot]]


@pytest.fixture
async def make_bot(
    discord_double: DiscordDouble, run_client: ClientRunner, tmp_path: Path
) -> AsyncIterator[BotFactory]:
    """``bot = await make_bot(**settings)``: the Hokm bot, logged in to the double, ready."""
    stores: list[Store] = []

    async def start(db: Path | None = None, **overrides: Any) -> HokmBot:
        assert discord_double.guild is not None
        values: dict[str, Any] = {
            "discord_token": discord_double.token,
            "database_url": f"sqlite+aiosqlite:///{db or tmp_path / 'hokm.sqlite3'}",
            "dev_guild_ids": [discord_double.guild.id],
            "command_sync_file": str(tmp_path / f"sync-{len(stores)}.sha256"),
            "computer_delay_seconds": 0.02,
            "guild_ready_timeout": 0.05,
        }
        values.update(overrides)
        settings = Settings(**values)
        store = await Store.open(settings.database_url)
        stores.append(store)
        bot = HokmBot(settings, store)
        await run_client(bot)
        return bot

    try:
        yield start
    finally:
        await run_client.close_all()
        for store in stores:
            await store.close()


@pytest.fixture
async def hokm_bot(make_bot: BotFactory) -> HokmBot:
    return await make_bot()
