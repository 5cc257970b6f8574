"""pytest plugin: the ``discord_double`` fixture and helpers to run bots against it.

Load it with ``pytest_plugins = ["tests.double.fixtures"]`` in tests/conftest.py. Options for one
test go in a marker: ``@pytest.mark.discord_double(ratelimits=False, shard_count=2)`` (any
keyword of ``DiscordDouble``).
"""

# Waiting helpers take a timeout so a failure can say what it waited for.
# ruff: noqa: ASYNC109, RUF100

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from typing import Any

import pytest

from .client import ClientRunner
from .process import BotProcess, Readiness
from .server import DiscordDouble


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "discord_double(**options): keyword arguments for the DiscordDouble of this test",
    )


@pytest.fixture
async def discord_double(request: pytest.FixtureRequest) -> AsyncIterator[DiscordDouble]:
    """A started double with guild "Hokm Club", channel #hokm and members arash (Manage
    Server), bahar, cyrus, darya. At teardown it fails the test if the bot called any route the
    double does not know (a test that calls one on purpose clears ``counters.unknown_routes``).
    """
    marker = request.node.get_closest_marker("discord_double")
    options: dict[str, Any] = dict(marker.kwargs) if marker else {}
    double = DiscordDouble(**options)
    double.seed_default_world()
    await double.start()
    try:
        yield double
    finally:
        await double.stop()
    assert not double.internal_errors, f"the Discord double itself failed: {double.internal_errors}"
    unknown = double.counters.unknown_routes
    assert not unknown, (
        f"the bot called {len(unknown)} route(s) the Discord double does not implement: "
        f"{sorted(set(unknown))}; add them to tests/double/rest.py or stop calling them"
    )


@pytest.fixture
async def run_client(discord_double: DiscordDouble) -> AsyncIterator[ClientRunner]:
    """``client = await run_client(bot)`` starts a discord.py client against the double and
    returns once it is ready; every client is closed at teardown."""
    runner = ClientRunner(discord_double)
    try:
        yield runner
    finally:
        await runner.close_all()


BotProcessFactory = Callable[..., Awaitable[BotProcess]]


@pytest.fixture
async def bot_process(discord_double: DiscordDouble) -> AsyncIterator[BotProcessFactory]:
    """``proc = await bot_process(argv=None, env=None, ready="identify")`` runs the bot (by
    default ``python -m bot``) in its own process pointed at the double; leftovers are killed."""
    started: list[BotProcess] = []

    async def start(
        argv: Sequence[str] | None = None,
        *,
        env: Mapping[str, str] | None = None,
        ready: Readiness = "identify",
        timeout: float = 60.0,  # a start on a busy machine (parallel tests)
    ) -> BotProcess:
        proc = await BotProcess.start(discord_double, argv, env=env, ready=ready, timeout=timeout)
        started.append(proc)
        return proc

    try:
        yield start
    finally:
        for proc in started:
            await proc.kill()
            proc.close_log()
