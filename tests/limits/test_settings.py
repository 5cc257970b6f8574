"""``redis_url`` (HOKM_REDIS_URL): validated like every key, one line naming it, exit 2 before
any database; its password is never shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ConfigError, load_settings
from bot.limits.redis_backend import safe_redis_url
from tests.bot.test_config import run_bot


@pytest.mark.parametrize(
    "url",
    [
        "redis://localhost:6379/0",
        "redis://localhost",
        "rediss://user:s3cret@cache.example:6380/2",
        "redis://:s3cret@10.0.0.5:6379",
        "unix:///run/redis/redis.sock",
    ],
)
def test_good_urls_are_taken(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOKM_REDIS_URL", url)
    settings = load_settings()
    assert settings.redis_url is not None and settings.redis_url.get_secret_value() == url
    assert "s3cret" not in repr(settings)


def test_an_empty_value_means_none(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOKM_REDIS_URL", "")
    assert load_settings().redis_url is None


@pytest.mark.parametrize(
    "url",
    [
        "localhost:6379",
        "http://:s3cret@cache:6379/0",
        "redis://",
        "redis://:s3cret@cache:port/0",
        "redis://cache:6379/zero",
        "unix://",
    ],
)
def test_a_malformed_url_is_one_line_naming_the_key(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOKM_REDIS_URL", url)
    with pytest.raises(ConfigError) as caught:
        load_settings()
    message = str(caught.value)
    assert "redis_url" in message and "redis://" in message and "\n" not in message
    assert "s3cret" not in message


def test_python_m_bot_refuses_it_with_exit_2_before_any_database(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    env = {
        "HOKM_DISCORD_TOKEN": "t",
        "HOKM_DATABASE_URL": f"sqlite+aiosqlite:///{db}",
        "HOKM_REDIS_URL": "redis://:s3cret@cache:notaport/0",
    }
    result = run_bot(env=env)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode == 2 and len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ") and "HOKM_REDIS_URL" in lines[0]
    assert "s3cret" not in result.stderr and "Traceback" not in result.stderr
    assert not db.exists()


def test_log_lines_show_the_url_without_its_password() -> None:
    assert safe_redis_url("redis://u:s3cret@h:6379/1") == "redis://u:***@h:6379/1"
    assert safe_redis_url("redis://h:6379/1") == "redis://h:6379/1"
