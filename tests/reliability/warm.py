"""Warm bot processes for the crash tests: each restart is a new process without a new
interpreter's start-up (docs/testing.md, Duration).

A crash test restarts the bot a dozen times, and most of each ``python -m bot``'s start is
importing discord.py, SQLAlchemy and pydantic (about 1.5 s of CPU). ``python -m
tests.reliability.warm`` (the *zygote*) imports the bot's modules once, then forks a child for
each start it is asked for. The child is a process of its own, with its own pid, output file,
environment, arguments and working folder, and it runs ``python -m MODULE`` exactly as the
interpreter would (``runpy``, as ``-m`` does); it has opened no database, socket or thread
before. It is killed with SIGKILL like any process, and its exit status is the one waitpid
gives. What is not the same as a cold start (an interpreter starting, ``bot`` importing) is
tested by tests/ops on real ``python -m bot`` processes.

Protocol, one JSON object a line: the test writes ``{"argv": [...], "env": {...}, "cwd": ...,
"log": path}`` (``argv`` starts with ``-m MODULE``); the zygote answers ``{"pid": N}``, and
``{"exit": N, "code": C}`` when that child has ended (C negative for a signal, as in
``asyncio``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import select
import signal
import sys
import tempfile
import traceback
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tests.double.process import REPO_ROOT, BotProcess
from tests.double.server import DiscordDouble

# What a bot process imports; nothing of the test-only wrappers (clock_ahead,
# dies_writing_result): they change the bot when they are run, so only their child runs them.
WARM_MODULES = ("bot.__main__", "bot.discord.client", "bot.store", "bot.store.migrate")


# --------------------------------------------------------------------------- the zygote


def _child(request: dict[str, Any]) -> None:
    """In the forked child: become ``python -m MODULE ARGS`` and never return."""
    code = 1
    try:
        log = os.open(request["log"], os.O_WRONLY | os.O_APPEND)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(log)
        os.close(devnull)
        for sig in (signal.SIGCHLD, signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, signal.SIG_DFL)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        flag, module, *args = request["argv"]
        assert flag == "-m", request["argv"]
        sys.argv = [module, *args]
        import runpy

        runpy.run_module(module, run_name="__main__", alter_sys=True)
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if exc.code is not None and not isinstance(exc.code, int):
            print(exc.code, file=sys.stderr)
    except BaseException:
        traceback.print_exc()
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


def _report(message: dict[str, Any]) -> None:
    os.write(1, (json.dumps(message) + "\n").encode())


def _reap() -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        _report({"exit": pid, "code": os.waitstatus_to_exitcode(status)})


def main() -> None:
    for name in WARM_MODULES:
        __import__(name)
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.set_wakeup_fd(wake_w)
    _report({"warm": True})
    pending = b""
    while True:
        ready, _, _ = select.select([0, wake_r], [], [])
        if wake_r in ready:
            os.read(wake_r, 4096)
            _reap()
        if 0 not in ready:
            continue
        chunk = os.read(0, 65536)
        if not chunk:  # the test closed our stdin: its children are gone or killed
            break
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            request = json.loads(line)
            pid = os.fork()
            if pid == 0:
                signal.set_wakeup_fd(-1)
                os.close(wake_r)
                os.close(wake_w)
                _child(request)
            _report({"pid": pid})
    _reap()


# --------------------------------------------------------------------------- the test side


class WarmProcess:
    """A forked child, with the parts of ``asyncio.subprocess.Process`` that ``BotProcess``
    uses: ``pid``, ``returncode``, ``wait``, ``send_signal``, ``kill``."""

    def __init__(self, pid: int, ended: asyncio.Future[int]) -> None:
        self.pid = pid
        self._ended = ended

    @property
    def returncode(self) -> int | None:
        return self._ended.result() if self._ended.done() else None

    async def wait(self) -> int:
        return await asyncio.shield(self._ended)

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            os.kill(self.pid, sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class Zygote:
    """The zygote process of one test; ``await spawn(...)`` starts a child."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self._pids: asyncio.Queue[int] = asyncio.Queue()
        self._ended: dict[int, asyncio.Future[int]] = {}
        self._warm = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def start(cls, double: DiscordDouble) -> Zygote:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.reliability.warm",
            cwd=str(REPO_ROOT),
            env=child_env(double, {}),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        zygote = cls(proc)
        await asyncio.wait_for(zygote._warm.wait(), timeout=120)
        return zygote

    def _future(self, pid: int) -> asyncio.Future[int]:
        if pid not in self._ended:
            self._ended[pid] = asyncio.get_running_loop().create_future()
        return self._ended[pid]

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        async for line in self.proc.stdout:
            message = json.loads(line)
            if "warm" in message:
                self._warm.set()
            elif "pid" in message:
                self._pids.put_nowait(message["pid"])
            elif "exit" in message:
                future = self._future(message["exit"])
                if not future.done():
                    future.set_result(message["code"])

    async def spawn(
        self, argv: Sequence[str], env: Mapping[str, str], cwd: Path, log: str
    ) -> WarmProcess:
        assert self.proc.stdin is not None
        request = {"argv": list(argv), "env": dict(env), "cwd": str(cwd), "log": log}
        self.proc.stdin.write((json.dumps(request) + "\n").encode())
        await self.proc.stdin.drain()
        pid = await asyncio.wait_for(self._pids.get(), timeout=30)
        return WarmProcess(pid, self._future(pid))

    async def close(self) -> None:
        """Kill what is left of the children, then the zygote."""
        for pid, ended in self._ended.items():
            if not ended.done():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            await asyncio.wait_for(self.proc.wait(), timeout=10)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()
        self._reader.cancel()


def log_file() -> Any:
    """A named temporary file for a child's output (the child opens it by name)."""
    return tempfile.NamedTemporaryFile(prefix="hokm-bot-", suffix=".log")


if __name__ == "__main__":
    main()


def child_env(double: DiscordDouble, extra: Mapping[str, str]) -> dict[str, str]:
    """The environment ``BotProcess.start`` gives a bot process."""
    env = dict(os.environ)
    env.update(double.env())
    env["PYTHONUNBUFFERED"] = "1"
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO_ROOT), env.get("PYTHONPATH", "")) if p)
    env.update(extra)
    return env


async def start_bot(
    zygote: Zygote,
    double: DiscordDouble,
    argv: Sequence[str] | None,
    env: Mapping[str, str],
    *,
    timeout: float,
) -> BotProcess:
    """Like ``BotProcess.start(double, argv, env=env, ready="identify")``, forked from the
    zygote: ``argv`` is ``[sys.executable, "-m", MODULE, ...]`` (default ``-m bot``)."""
    module_argv = list(argv[1:]) if argv is not None else ["-m", "bot"]
    log = log_file()
    identifies = double.gateway.stats.identifies
    proc = await zygote.spawn(module_argv, child_env(double, env), REPO_ROOT, log.name)
    bot = BotProcess(proc, log, [sys.executable, *module_argv])  # type: ignore[arg-type]
    try:
        await bot._wait_ready(double, lambda: double.gateway.stats.identifies > identifies, timeout)
    except BaseException:
        await bot.kill()
        bot.close_log()
        raise
    return bot
