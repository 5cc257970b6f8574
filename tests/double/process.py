"""Run the bot as a separate process against a double (``python -m bot`` by default).

The process gets ``HOKM_DISCORD_API_BASE``, ``HOKM_DISCORD_GATEWAY_URL`` and
``HOKM_DISCORD_TOKEN`` in its environment; its output goes to a log file (a pipe could fill up
and block it) that error messages quote, so a failed start explains itself.
"""

# Waiting helpers take a timeout so a failure can say what it waited for.
# ruff: noqa: ASYNC109, RUF100

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import IO, Literal

from .server import DiscordDouble

REPO_ROOT = Path(__file__).resolve().parents[2]

Readiness = Literal["identify", "commands"] | Callable[[DiscordDouble], bool] | None


class BotProcess:
    """A started bot process; ``terminate``/``kill`` it, read its ``output()``."""

    def __init__(
        self, proc: asyncio.subprocess.Process, log: IO[bytes], argv: Sequence[str]
    ) -> None:
        self.proc = proc
        self._log = log
        self.argv = list(argv)

    @classmethod
    async def start(
        cls,
        double: DiscordDouble,
        argv: Sequence[str] | None = None,
        *,
        env: Mapping[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
        ready: Readiness = "identify",
        timeout: float = 60.0,  # a start on a busy machine (parallel tests)
    ) -> BotProcess:
        """Start ``argv`` with the double's environment and wait until it is ``ready``.

        ``ready`` is "identify" (the double saw a new IDENTIFY and sent READY), "commands" (it
        also registered commands), a predicate over the double, or None (do not wait).
        """
        command = list(argv) if argv is not None else [sys.executable, "-m", "bot"]
        full_env = dict(os.environ)
        full_env.update(double.env())
        full_env["PYTHONUNBUFFERED"] = "1"
        full_env["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(REPO_ROOT), full_env.get("PYTHONPATH", "")) if p
        )
        full_env.update(env or {})
        log = tempfile.TemporaryFile()  # noqa: SIM115 - closed in _close_log
        identifies = double.gateway.stats.identifies
        puts = double.world.command_puts
        proc = await asyncio.create_subprocess_exec(
            *command,
            cwd=str(cwd or REPO_ROOT),
            env=full_env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=log,
            stderr=asyncio.subprocess.STDOUT,
        )
        bot = cls(proc, log, command)
        if ready is None:
            return bot
        predicate = ready

        def check() -> bool:
            identified = double.gateway.stats.identifies > identifies
            if predicate == "identify":
                return identified
            if predicate == "commands":
                return identified and double.world.command_puts > puts
            return predicate(double)

        try:
            await bot._wait_ready(double, check, timeout)
        except BaseException:
            await bot.kill()
            bot.close_log()
            raise
        return bot

    async def _wait_ready(
        self, double: DiscordDouble, check: Callable[[], bool], timeout: float
    ) -> None:
        waiter = asyncio.create_task(
            double.wait_until(check, timeout=timeout, what="the bot process")
        )
        exited = asyncio.create_task(self.proc.wait())
        try:
            done, _ = await asyncio.wait({waiter, exited}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (waiter, exited):
                if not task.done():
                    task.cancel()
        if waiter in done and waiter.exception() is None:
            return
        if exited in done and not (waiter in done and waiter.exception() is None):
            code = self.proc.returncode
            raise AssertionError(
                f"{self.argv} exited with {code} before it was ready:\n{self.output()}"
            )
        raise AssertionError(
            f"{self.argv} was not ready within {timeout:g} s; its output:\n{self.output()}"
        )

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def returncode(self) -> int | None:
        return self.proc.returncode

    def output(self, tail: int = 8000) -> str:
        """What the process printed so far (stdout and stderr), the last ``tail`` characters."""
        if self._log.closed:
            return ""
        self._log.seek(0)
        text = self._log.read().decode(errors="replace")
        return text[-tail:]

    async def wait(self, timeout: float = 10.0) -> int:
        return await asyncio.wait_for(self.proc.wait(), timeout=timeout)

    async def terminate(self, sig: int = signal.SIGTERM, *, timeout: float = 10.0) -> int:
        """Send ``sig`` and wait for the exit; SIGKILL and fail if it does not exit in time."""
        if self.proc.returncode is None:
            self.proc.send_signal(sig)
        try:
            return await self.wait(timeout)
        except TimeoutError:
            await self.kill()
            raise AssertionError(
                f"{self.argv} ignored signal {sig} for {timeout:g} s and was killed; "
                f"its output:\n{self.output()}"
            ) from None

    async def kill(self) -> int:
        """SIGKILL: no chance to clean up, as when a host dies."""
        if self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()
        return await self.proc.wait()

    def close_log(self) -> None:
        self._log.close()
