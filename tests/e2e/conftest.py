"""Fixtures that run the real bot in-process against the local Discord double.

Every test that starts the bot runs twice: on a SQLite file (the default store) and on
PostgreSQL (``tests/postgres.py``: the run's database, emptied for the test and migrated by
the bot's own start-up).
"""

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


@pytest.fixture(params=["sqlite", "postgresql"])
def bot_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The bot's database for this test: a new SQLite file, or the run's PostgreSQL database
    with a clean schema. A restart in the test (a second ``make_bot``) finds the same one."""
    if request.param == "postgresql":
        return str(request.getfixturevalue("pg_url"))
    return f"sqlite+aiosqlite:///{tmp_path / 'hokm.sqlite3'}"


@pytest.fixture
async def make_bot(
    discord_double: DiscordDouble, run_client: ClientRunner, tmp_path: Path, bot_db_url: str
) -> AsyncIterator[BotFactory]:
    """``bot = await make_bot(**settings)``: the Hokm bot, logged in to the double, ready,
    on ``bot_db_url`` (``db=path`` picks a SQLite file of the test's own instead)."""
    stores: list[Store] = []

    async def start(db: Path | None = None, **overrides: Any) -> HokmBot:
        assert discord_double.guild is not None
        values: dict[str, Any] = {
            "discord_token": discord_double.token,
            "database_url": bot_db_url if db is None else f"sqlite+aiosqlite:///{db}",
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
