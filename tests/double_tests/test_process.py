"""The bot-process helper: start with the double's environment, wait, SIGTERM, SIGKILL."""

from __future__ import annotations

import signal
import sys

import pytest

from tests.double import DiscordDouble
from tests.double.fixtures import BotProcessFactory

TINY_BOT = [sys.executable, "-m", "tests.double_tests.tiny_bot"]


async def test_bot_process_answers_and_stops_on_sigterm(
    discord_double: DiscordDouble, bot_process: BotProcessFactory
) -> None:
    proc = await bot_process(TINY_BOT, ready="commands")

    record = await discord_double.slash(discord_double.members[0], discord_double.channel, "ping")
    assert record.message.content == f"pong from pid {proc.pid}"

    assert await proc.terminate(signal.SIGTERM) == 0
    assert "tiny bot stopped" in proc.output()


async def test_bot_process_killed_and_restarted(
    discord_double: DiscordDouble, bot_process: BotProcessFactory
) -> None:
    first = await bot_process(TINY_BOT, ready="commands")
    assert await first.kill() == -signal.SIGKILL

    second = await bot_process(TINY_BOT, ready="identify")
    record = await discord_double.slash(discord_double.members[1], discord_double.channel, "ping")

    assert record.message.content == f"pong from pid {second.pid}"
    assert discord_double.gateway.stats.identifies == 2


async def test_bot_process_that_dies_early_reports_its_output(
    discord_double: DiscordDouble, bot_process: BotProcessFactory
) -> None:
    script = "print('cannot start: no config'); raise SystemExit(3)"

    with pytest.raises(AssertionError, match=r"(?s)exited with 3.*cannot start: no config"):
        await bot_process([sys.executable, "-c", script], ready="identify", timeout=10)
