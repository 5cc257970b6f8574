"""pytest plugin: a Redis for the tests, on any machine (docs/testing.md, "Redis").

Where it comes from, in this order:

1. ``HOKM_TEST_REDIS_URL`` (e.g. ``redis://cache.local:6379/0``); when it is set and does not
   answer, every test that needs Redis fails saying so.
2. The machine's own Redis at 127.0.0.1:6379, as CI has.
3. A throwaway server from the ``fakeredis[lua]`` package of the ``test`` extra: Redis emulated
   in Python, its Lua scripts run by lupa, served over TCP on a free port of 127.0.0.1 by a
   child process of its own, stopped at the end of the run.

If none can be had, the tests that need Redis fail with a message naming all three; they are
never skipped. The server is looked for only when such a test runs. Tests share the server:
each keeps to keys of its own (``redis_prefix``), which the limiter lets expire.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

import pytest

__all__ = ["RedisServer", "find_redis", "redis_server"]

ENV = "HOKM_TEST_REDIS_URL"
MACHINE_URL = "redis://127.0.0.1:6379/0"
START_TIMEOUT = 20.0

SERVE = """
import os, sys, threading
from fakeredis import TcpFakeServer
server = TcpFakeServer(("127.0.0.1", 0), server_type="redis")
# Gone with the test run, even one that was killed: its stdin closes then.
threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
print(server.server_address[1], flush=True)
server.serve_forever()
"""


@dataclass
class RedisServer:
    url: str
    origin: str
    stop: Callable[[], None] = field(default=lambda: None, repr=False)


def ping(url: str) -> str | None:
    """None when a Redis answers PING at ``url``, else why not (a blocking client, so it
    works from a plain fixture)."""
    try:
        import redis
    except ImportError as exc:
        return f"the redis client is not installed ({exc})"
    client: Any = redis.Redis.from_url(url, socket_timeout=3, socket_connect_timeout=3)
    try:
        client.ping()
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    finally:
        client.close()
    return None


def _port_open(host: str, port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=1.0):
        return True
    return False


def _start_fakeredis() -> RedisServer:
    """A fakeredis TCP server in a child process (its own GIL: the tests' event loop and the
    server do not take turns); its port is the first line it prints."""
    metadata.version("lupa")  # PackageNotFoundError: the [lua] part is missing
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVE],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )

    def stop() -> None:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    if not line.isdigit():
        stop()
        error = proc.stderr.read() if proc.stderr else ""
        raise RuntimeError(f"fakeredis did not start: {error.strip().splitlines()[-1:]}")
    url = f"redis://127.0.0.1:{line}/0"
    why = ping(url)
    if why is not None:
        stop()
        raise RuntimeError(f"fakeredis started but does not answer: {why}")
    where = f"a throwaway fakeredis {metadata.version('fakeredis')} server at 127.0.0.1:{line}"
    return RedisServer(url, where, stop)


def find_redis() -> RedisServer:
    """The Redis for this run (the order in the module docstring), or pytest.fail."""
    tried: list[str] = []
    configured = os.environ.get(ENV)
    if configured:
        why = ping(configured)
        if why is not None:
            pytest.fail(f"{ENV} is set but no Redis answers there: {why}", pytrace=False)
        return RedisServer(configured, f"{ENV}")
    tried.append(f"{ENV} is not set")
    if _port_open("127.0.0.1", 6379):
        why = ping(MACHINE_URL)
        if why is None:
            return RedisServer(MACHINE_URL, "the machine's Redis at 127.0.0.1:6379")
        tried.append(f"127.0.0.1:6379 is open but refused PING: {why}")
    else:
        tried.append("nothing listens on 127.0.0.1:6379")
    try:
        return _start_fakeredis()
    except (ImportError, metadata.PackageNotFoundError) as exc:
        tried.append(f"fakeredis[lua] is not installed ({exc})")
    except Exception as exc:
        tried.append(f"fakeredis could not start a server: {type(exc).__name__}: {exc}")
    pytest.fail(
        "no Redis for the tests that need one: "
        + "; ".join(tried)
        + ". Install the test extra (pip install -e '.[test]', which brings fakeredis[lua]), "
        f"start a Redis at 127.0.0.1:6379, or set {ENV}.",
        pytrace=False,
    )


_used: list[str] = []


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say which Redis the run used, if any test needed one."""
    for origin in _used:
        terminalreporter.write_line(f"Redis for the tests: {origin}")


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    server = find_redis()
    _used.append(server.origin)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def redis_prefix() -> str:
    """Keys of this test's own on the shared server (a limiter namespace)."""
    return f"test-{secrets.token_hex(6)}"
