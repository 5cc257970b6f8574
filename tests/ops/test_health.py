"""The Docker HEALTHCHECK command follows the gateway connection, not just the process."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

from bot.health import STALE_AFTER, check
from tests.double.fixtures import BotProcessFactory
from tests.double.server import DiscordDouble

from .helpers import bot_env, run_bot, wait_for_output


async def healthcheck(health_file: Path) -> tuple[int, str]:
    result = await asyncio.to_thread(
        run_bot, "--healthcheck", env={"HOKM_HEALTH_FILE": str(health_file)}
    )
    return result.returncode, result.stdout


async def test_healthy_while_connected_unhealthy_once_the_gateway_is_gone(
    discord_double: DiscordDouble, bot_process: BotProcessFactory, tmp_path: Path
) -> None:
    health = tmp_path / "health"
    health.write_text("left over by an earlier run")
    env = bot_env(discord_double, tmp_path, health_file=str(health))
    proc = await bot_process(env=env, ready="identify")
    await wait_for_output(proc, "ready to serve")

    code, out = await healthcheck(health)
    assert (code, out.split(":")[0]) == (0, "healthy"), out

    await discord_double.stop()  # Discord gone: the bot keeps trying, but is not connected
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 30
    while health.exists():
        assert loop.time() < deadline, proc.output()
        await asyncio.sleep(0.05)
    code, out = await healthcheck(health)
    assert (code, out.split(":")[0]) == (1, "unhealthy"), out
    assert await proc.terminate(signal.SIGTERM, timeout=15) == 0


def test_a_stale_or_missing_file_or_no_setting_is_unhealthy(tmp_path: Path) -> None:
    health = tmp_path / "health"
    assert check(str(health))[0] is False
    assert check(None) == (False, "health_file is not set (HOKM_HEALTH_FILE)")
    health.touch()
    assert check(str(health))[0] is True
    old = time.time() - STALE_AFTER - 5
    os.utime(health, (old, old))
    ok, reason = check(str(health))
    assert not ok and "old" in reason
    result = run_bot("--healthcheck", env={"HOKM_HEALTH_FILE": str(health)})
    assert result.returncode == 1 and result.stdout.startswith("unhealthy:")
