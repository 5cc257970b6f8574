"""Start-up against the double: every failure is one ``error:`` line and exit 2, never a
traceback; a start that succeeds is quiet and says "ready" only once the gateway is READY."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.double.fixtures import BotProcessFactory
from tests.double.process import BotProcess
from tests.double.server import DiscordDouble

from .helpers import assert_one_error_line, bot_env, free_port, wait_for_output


async def failed_start(
    bot_process: BotProcessFactory, env: dict[str, str], *, timeout: float = 60.0
) -> tuple[int, str]:
    proc = await bot_process(env=env, ready=None)
    code = await proc.wait(timeout)
    return code, proc.output()


async def test_a_bad_token_is_one_line(
    discord_double: DiscordDouble, bot_process: BotProcessFactory, tmp_path: Path
) -> None:
    env = bot_env(discord_double, tmp_path, discord_token="not-the-token")
    code, output = await failed_start(bot_process, env)
    assert_one_error_line(output, code, "refused the token", "HOKM_DISCORD_TOKEN")
    assert "not-the-token" not in output
    assert discord_double.gateway.stats.connections == 0


async def test_a_dev_guild_the_bot_is_not_in_is_named(
    discord_double: DiscordDouble, bot_process: BotProcessFactory, tmp_path: Path
) -> None:
    assert discord_double.guild is not None
    env = bot_env(
        discord_double, tmp_path, dev_guild_ids=f"{discord_double.guild.id},424242424242424242"
    )
    code, output = await failed_start(bot_process, env)
    assert_one_error_line(output, code, "dev_guild_ids", "424242424242424242")


@pytest.fixture
async def silent_gateway() -> AsyncIterator[str]:
    """A gateway URL whose server accepts connections and never says a word."""
    held: list[asyncio.StreamWriter] = []

    async def hold(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        held.append(writer)

    server = await asyncio.start_server(hold, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        yield f"ws://127.0.0.1:{port}/gateway"
    finally:
        for writer in held:
            writer.close()
        server.close()
        await server.wait_closed()


async def test_a_silent_gateway_is_given_up_on_within_the_setting(
    discord_double: DiscordDouble,
    bot_process: BotProcessFactory,
    tmp_path: Path,
    silent_gateway: str,
) -> None:
    env = bot_env(
        discord_double,
        tmp_path,
        discord_gateway_url=silent_gateway,
        gateway_timeout_seconds="1",
    )
    code, output = await failed_start(bot_process, env)
    assert_one_error_line(
        output, code, silent_gateway, "did not answer within 1 s", "gateway_timeout_seconds"
    )


@pytest.mark.parametrize(
    ("host", "reason"),
    [("127.0.0.1:{port}", "connection refused"), ("discord.invalid", "DNS lookup failed")],
)
async def test_no_network_is_retried_then_one_line(
    discord_double: DiscordDouble,
    bot_process: BotProcessFactory,
    tmp_path: Path,
    host: str,
    reason: str,
) -> None:
    where = host.format(port=free_port())
    env = bot_env(
        discord_double,
        tmp_path,
        discord_api_base=f"http://{where}/api/v10",
        startup_retry_seconds="1.5",
    )
    code, output = await failed_start(bot_process, env)
    line = assert_one_error_line(
        output, code, "cannot reach Discord", reason, "startup_retry_seconds"
    )
    assert where.split(":")[0] in line
    assert "retrying in" in output  # it did retry before giving up
    assert discord_double.requests == []


async def test_discord_coming_up_late_is_waited_for(tmp_path: Path) -> None:
    double = DiscordDouble(port=free_port())
    double.seed_default_world()
    env = bot_env(double, tmp_path, startup_retry_seconds="60")
    proc = await BotProcess.start(double, env=env, ready=None)
    try:
        await wait_for_output(proc, "retrying in")
        async with double:  # Discord is back
            await double.wait_until(
                lambda: double.gateway.stats.identifies == 1, timeout=60, what="an IDENTIFY"
            )
            assert proc.returncode is None
    finally:
        await proc.kill()
        proc.close_log()


async def test_a_clean_start_is_quiet_and_ready_only_after_the_gateway(
    discord_double: DiscordDouble, bot_process: BotProcessFactory, tmp_path: Path
) -> None:
    proc = await bot_process(env=bot_env(discord_double, tmp_path), ready="identify")
    output = await wait_for_output(proc, "ready to serve")
    assert "alembic" not in output.lower(), output
    assert "PyNaCl" not in output and "davey" not in output, output
    lines = output.splitlines()
    connected = next(i for i, line in enumerate(lines) if "connected to Gateway" in line)
    ready = next(i for i, line in enumerate(lines) if "ready to serve" in line)
    assert connected < ready, output
    assert "WARNING" not in output and "Traceback" not in output, output


async def test_a_second_process_on_one_sqlite_file_is_refused_in_one_line(
    discord_double: DiscordDouble, bot_process: BotProcessFactory, tmp_path: Path
) -> None:
    """A SQLite file has one bot process (several need PostgreSQL); a second one
    started on it would play every table twice, so it stops before touching the database.
    The lock goes with the process, even a killed one: the file can be served again."""
    env = bot_env(discord_double, tmp_path)
    first = await bot_process(env=env, ready=None)
    await wait_for_output(first, "ready to serve", timeout=60)
    code, output = await failed_start(bot_process, env)
    line = assert_one_error_line(output, code, "in use by another bot process", "PostgreSQL")
    assert f"(pid {first.pid})" in line and str(tmp_path / "hokm.sqlite3") in line
    await first.kill()
    again = await bot_process(env=env, ready=None)
    await wait_for_output(again, "ready to serve", timeout=60)
    assert await again.terminate(timeout=15) == 0
