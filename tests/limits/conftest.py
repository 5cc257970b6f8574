"""Backends for the limiter tests: the local one, and the shared ones on a real PostgreSQL
(``tests/postgres.py``) and a real Redis (``tests/redis_server.py``), never skipped."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator, Callable

import pytest

from bot.limits import Backend, LocalBackend
from bot.limits.postgres_backend import PostgresBackend
from bot.limits.redis_backend import RedisBackend

BackendFactory = Callable[[], Backend]
"""A new client of one budget (another process, for the shared backends)."""

KINDS = ["local", "postgresql", "redis"]


@pytest.fixture(params=KINDS)
async def budget(request: pytest.FixtureRequest) -> AsyncIterator[BackendFactory]:
    """A factory of clients of one fresh budget, on each backend in turn. The local backend is
    shared in-process (one object); the others are separate connections to one server."""
    kind = request.param
    namespace = f"test-{secrets.token_hex(6)}"
    made: list[Backend] = []
    if kind == "local":
        local = LocalBackend()

        def make() -> Backend:
            return local
    elif kind == "postgresql":
        url = request.getfixturevalue("pg_url")

        def make() -> Backend:
            made.append(PostgresBackend(url, namespace))
            return made[-1]
    else:
        url = request.getfixturevalue("redis_server").url

        def make() -> Backend:
            made.append(RedisBackend(url, namespace))
            return made[-1]

    yield make
    for backend in made:
        await backend.close()
