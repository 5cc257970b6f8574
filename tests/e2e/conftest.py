"""Fixtures that run the real bot in-process against the local Discord double.

Every test that starts the bot runs twice: on a SQLite file (the default store) and on
PostgreSQL (``tests/postgres.py``: the run's database, emptied for the test and migrated by
the bot's own start-up).
"""

from __future__ import annotations

import asyncio
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


async def _no_drain(within: float = 0.0) -> None:
    return None


async def stop_outbox_for_teardown(bot: HokmBot) -> None:
    """The test is over: let the bot close without sending what its outbox still holds.

    ``HokmBot.close`` drains the outbox for up to 3 s, and at the end of a test the outbox is
    often waiting on a channel's rate limit (discord.py sleeps until the bucket resets, up to
    5 s), so the drain ran out. Then, on Python 3.11, cancelling the outbox worker in the same
    loop turn as its ``_wakeup`` is set (by the cancelled in-flight job) is swallowed by
    ``asyncio.wait_for``, and the close waited for the worker's next idle wake-up until
    ``ClientRunner.close_all`` gave up after 5 s, before discord.py's own close had run. No
    test checks what is sent after its last line (graceful shutdown is tests/ops's
    subject, on a real process): here the worker is stopped first (cancelled until it has
    ended) and the drain skipped, so the close that follows is quick and complete.
    """
    bot.outbox.drain = _no_drain  # type: ignore[method-assign]
    for task in bot._background:
        if task.get_name() == "hokm-outbox":
            while not task.done():
                task.cancel()
                await asyncio.wait({task}, timeout=0.05)


def each_language_once(argname: str = "lang") -> pytest.MarkDecorator:
    """Parametrize a test over both languages (``argname``) and both databases in two runs
    instead of four: English on SQLite, Persian on PostgreSQL (its text stored and read back
    there). For tests whose language only changes the text they render, so the other two
    pairs would repeat the same store calls with the same words."""
    return pytest.mark.parametrize(
        ("bot_db_url", argname), [("sqlite", "en"), ("postgresql", "fa")], indirect=["bot_db_url"]
    )


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
    bots: list[HokmBot] = []

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
        bots.append(bot)
        await run_client(bot)
        return bot

    try:
        yield start
    finally:
        for bot in bots:
            await stop_outbox_for_teardown(bot)
        await run_client.close_all()
        for store in stores:
            await store.close()


@pytest.fixture
async def hokm_bot(make_bot: BotFactory) -> HokmBot:
    return await make_bot()
