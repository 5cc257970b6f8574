"""A credential anywhere in a URL never reaches a log or a printed line.

Operators put passwords in the query as often as in the userinfo (libpq's ``?password=``,
``?sslpassword=``, ``?passfile=``; redis-py's ``?password=``, the only place on a ``unix://``
socket). Each URL the bot prints goes through ``redact_url``: the store's ``safe_url`` (start-up
line, ``--migrate-only``, ``--recompute-ratings``, ``error: database: …``) and the limiter's
``safe_redis_url``.
"""

from __future__ import annotations

import pytest

from bot.limits.redis_backend import RedisBackend, safe_redis_url
from bot.store.database import safe_url
from bot.url_redaction import redact_url

from .helpers import run_bot

SECRET = "hunter2"


@pytest.mark.parametrize(
    "url",
    [
        f"redis://cache.example?password={SECRET}",
        f"redis://cache.example:6379/0?db=1&password={SECRET}",
        f"unix:///run/redis.sock?password={SECRET}&db=2",
        f"rediss://:{SECRET}@cache.example:6380",
        f"redis://alice:{SECRET}@cache.example/0",
        f"postgresql+asyncpg://db.example/hokm?password={SECRET}",
        f"postgresql://bob@db.example/hokm?sslpassword={SECRET}",
        f"postgresql://db.example/hokm?passfile=/home/{SECRET}/.pgpass",
        f"postgresql://db.example/hokm?PGPASSWORD={SECRET}",
        f"https://proxy.example/api?access_token={SECRET}",
        f"https://proxy.example/api?Client%5FSecret={SECRET}",
        f"wss://gateway.example/?v=10&TOKEN={SECRET}",
        f"redis://u:p%40{SECRET}@cache.example",
    ],
)
def test_every_credential_of_a_url_is_masked(url: str) -> None:
    assert SECRET not in redact_url(url)


def test_what_is_no_credential_stays_as_written() -> None:
    url = "postgresql+asyncpg://bob@db.example:5433/hokm?ssl=require&application_name=hokm"
    assert redact_url(url) == url
    assert redact_url("redis://alice:x@h:1/0?db=1&password=y") == (
        "redis://alice:***@h:1/0?db=1&password=***"
    )


def test_a_url_that_does_not_parse_is_not_shown() -> None:
    assert SECRET not in redact_url(f"redis://[::1:{SECRET}@h")
    assert SECRET not in safe_url(f"not a url {SECRET}")


@pytest.mark.parametrize(
    "url",
    [
        f"postgresql+asyncpg://db.example/hokm?password={SECRET}",
        f"postgresql://db.example/hokm?sslpassword={SECRET}&passfile=/x/{SECRET}",
        f"postgresql+asyncpg://bob:{SECRET}@db.example/hokm",
    ],
)
def test_the_store_shows_its_url_without_a_credential(url: str) -> None:
    shown = safe_url(url)
    assert SECRET not in shown and "db.example" in shown


@pytest.mark.parametrize(
    "url",
    [
        f"redis://cache.example?password={SECRET}",
        f"unix:///run/redis.sock?password={SECRET}",
    ],
)
def test_the_limiter_logs_its_redis_url_without_a_credential(url: str) -> None:
    assert SECRET not in safe_redis_url(url)
    assert SECRET not in RedisBackend(url, "ns").where


def _with_password(url: str) -> str:
    return url + ("&" if "?" in url else "?") + f"password={SECRET}"


def test_migrate_only_and_recompute_ratings_print_no_password(pg_url: str) -> None:
    """The server trusts 127.0.0.1, so the query's password is sent and ignored: both commands
    succeed and print the URL they used."""
    env = {"HOKM_DATABASE_URL": _with_password(pg_url)}
    for command in ("--migrate-only", "--recompute-ratings"):
        done = run_bot(command, env=env)
        assert done.returncode == 0, done.stderr
        assert "password=***" in done.stdout, done.stdout
        assert SECRET not in done.stdout + done.stderr


def test_a_database_error_line_holds_no_password() -> None:
    """Nothing listens on port 9: the one error line names the place, not the password."""
    env = {
        "HOKM_DATABASE_URL": f"postgresql+asyncpg://127.0.0.1:9/hokm?password={SECRET}",
        "HOKM_DISCORD_TOKEN": "x",
    }
    done = run_bot("--migrate-only", env=env)
    assert done.returncode != 0
    assert "database" in done.stderr and "127.0.0.1" in done.stderr, done.stderr
    assert SECRET not in done.stdout + done.stderr
