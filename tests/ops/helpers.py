"""Run ``python -m bot`` as an operator does, and read its output the way they would."""

from __future__ import annotations

import asyncio
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

from tests.double.process import REPO_ROOT, BotProcess
from tests.double.server import DiscordDouble

LOG_RECORD = re.compile(r"^\d{4}-\d\d-\d\d [\d:,]+ (DEBUG|INFO|WARNING|ERROR|CRITICAL) ")
INFO_RECORD = re.compile(r"^\d{4}-\d\d-\d\d [\d:,]+ INFO ")


def clean_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The test runner's environment without any HOKM_* variable, plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith("HOKM_")}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO_ROOT), env.get("PYTHONPATH")) if p)
    return env | (extra or {})


def run_bot(
    *args: str, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -m bot ARGS`` to completion, stdout and stderr apart."""
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        capture_output=True,
        text=True,
        env=clean_env(env),
        cwd=cwd or REPO_ROOT,
        timeout=120,
    )


def bot_env(double: DiscordDouble, tmp: Path, **settings: str) -> dict[str, str]:
    """Settings for a bot process against ``double`` with its files under ``tmp``."""
    assert double.guild is not None
    env = {
        "HOKM_DATABASE_URL": f"sqlite+aiosqlite:///{tmp / 'hokm.sqlite3'}",
        "HOKM_COMMAND_SYNC_FILE": str(tmp / "command-sync.sha256"),
        "HOKM_DEV_GUILD_IDS": f"[{double.guild.id}]",
        "HOKM_GUILD_READY_TIMEOUT": "0.05",
    }
    env.update({f"HOKM_{k.upper()}": v for k, v in settings.items()})
    return env


def not_info(output: str) -> list[str]:
    """Non-empty output lines other than routine INFO log records."""
    return [line for line in output.splitlines() if line.strip() and not INFO_RECORD.match(line)]


def assert_one_error_line(output: str, code: int, *needles: str) -> str:
    """Exit 2, no traceback, and exactly one ``error:`` line (the last) holding ``needles``."""
    assert code == 2, (code, output)
    assert "Traceback" not in output, output
    errors = [line for line in output.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, output
    assert output.strip().splitlines()[-1] == errors[0], output
    for needle in needles:
        assert needle in errors[0], (needle, output)
    return errors[0]


def free_port() -> int:
    """A port nothing listens on (right now)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def wait_for_output(proc: BotProcess, text: str, timeout: float = 30.0) -> str:
    """Poll the process's output until it holds ``text``; fail if it exits or time runs out."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while text not in (output := proc.output(tail=10**9)):
        assert proc.returncode is None, f"exited with {proc.returncode}:\n{output}"
        assert loop.time() < deadline, f"no {text!r} within {timeout:g} s:\n{output}"
        await asyncio.sleep(0.05)
    return output
