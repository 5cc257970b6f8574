"""SIGTERM stops the real ``python -m bot`` like Ctrl-C: live tables kept, one log line, exit 0.

In a container the bot is PID 1, where the kernel gives SIGTERM no default action: only the
bot's own handler stops it there, and the handler is what these tests exercise.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import psutil
import pytest

from tests.double.fixtures import BotProcessFactory
from tests.double.process import BotProcess
from tests.double.server import DiscordDouble
from tests.reliability.harness import RESUMED, BotRun, read_tables, wait_stored

from .helpers import LOG_RECORD, bot_env, wait_for_output


async def open_playing_table(double: DiscordDouble, run: BotRun) -> str:
    """arash opens a table and fills it with computers: a match in play, waiting on them."""
    assert double.channel is not None and double.manager is not None
    await double.slash(double.manager, double.channel, "hokm new", {})
    [stored] = read_tables(run.db)
    lobby = await double.wait_for_message(
        double.channel,
        lambda m: any(b.label == "Add computer" for b in m.buttons()),
        timeout=20,
    )
    for _ in range(3):
        await double.click(double.manager, double.message(lobby.id), label="Add computer")
    await wait_stored(run.db, stored.table_id, lambda s: s.status == "playing", what="the start")
    return stored.table_id


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
async def test_a_stop_signal_keeps_the_tables_logs_one_line_and_exits_0(
    discord_double: DiscordDouble, tmp_path: Path, sig: signal.Signals
) -> None:
    run = BotRun(discord_double, tmp_path)
    try:
        await run.start(computer_delay=8.0)  # the computers' first move is still pending
        assert run.proc is not None
        # "ready to serve" comes once discord.py stops waiting for guilds, which may be after
        # the table below is already in play: wait for it, or it is counted as a line logged
        # after the signal (a flake on a loaded machine)
        await wait_for_output(run.proc, "ready to serve")
        table_id = await open_playing_table(discord_double, run)
        [before] = read_tables(run.db)
        assert run.proc is not None
        logged = len(run.proc.output(tail=10**9))

        assert await run.proc.terminate(sig, timeout=15) == 0
        after_signal = run.proc.output(tail=10**9)[logged:]
        run.proc.close_log()
        run.proc = None

        lines = [line for line in after_signal.splitlines() if line.strip()]
        assert len(lines) == 1, after_signal
        assert LOG_RECORD.match(lines[0]) and f"stopped on {sig.name}" in lines[0], lines
        assert "1 live tables saved" in lines[0]
        [after] = read_tables(run.db)
        assert (after.table_id, after.status) == (table_id, "playing")
        assert after.version >= before.version and after.actions >= before.actions

        await run.start(computer_delay=0.05)
        assert discord_double.channel is not None
        await discord_double.wait_for_message(
            discord_double.channel, lambda m: RESUMED in m.text, timeout=20
        )
        assert run.proc is not None
        await wait_for_output(run.proc, "ready to serve")
        assert "1 live tables resumed" in run.proc.output(tail=10**9)
    finally:
        await run.close()


async def test_sigterm_before_the_gateway_answers_still_exits_0(
    discord_double: DiscordDouble, tmp_path: Path
) -> None:
    """A stop during start-up (here: while waiting for an unreachable Discord) is clean too."""
    run = BotRun(discord_double, tmp_path)
    await discord_double.stop()  # nothing answers: the bot is retrying when the signal comes
    env = run.env(0.05) | {"HOKM_STARTUP_RETRY_SECONDS": "300"}
    proc = await BotProcess.start(discord_double, env=env, ready=None)
    try:
        await wait_for_output(proc, "retrying in")
        assert await proc.terminate(signal.SIGTERM, timeout=15) == 0
        output = proc.output()
        assert "Traceback" not in output, output
        assert (
            output.strip()
            .splitlines()[-1]
            .endswith("stopped on SIGTERM: 0 live tables saved; they resume at the next start")
        ), output
    finally:
        await proc.kill()
        proc.close_log()


def innermost_pid(pid: int) -> int:
    """The process's PID in its own (innermost) PID namespace."""
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line for line in status.splitlines() if line.startswith("NSpid:")).split()[-1])


async def test_as_pid_1_in_its_own_namespace_sigterm_still_stops_it(
    discord_double: DiscordDouble, bot_process: BotProcessFactory, tmp_path: Path
) -> None:
    """As in a container: the bot is PID 1 of a new PID namespace, and the signal comes from
    outside (as ``docker stop`` sends it). The kernel drops it unless the bot has a handler."""
    namespace = ["unshare", "--user", "--map-root-user", "--pid", "--fork", "--kill-child"]
    env = bot_env(discord_double, tmp_path)
    proc = await bot_process([*namespace, sys.executable, "-m", "bot"], env=env)
    await wait_for_output(proc, "ready to serve")
    [bot] = psutil.Process(proc.pid).children()
    assert innermost_pid(bot.pid) == 1  # PID 1 inside its namespace, as in a container

    os.kill(bot.pid, signal.SIGTERM)
    assert await proc.wait(timeout=15) == 0, proc.output()
    assert "stopped on SIGTERM" in proc.output()
