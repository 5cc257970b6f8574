"""Configuration: file + environment, one clear line and exit 2 on anything wrong."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import ConfigError, load_settings


def run_bot(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("HOKM_")}
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        capture_output=True,
        text=True,
        env=base | (env or {}),
        timeout=60,
    )


def test_file_values_and_environment_override(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text('log_level = "debug"\ndev_guild_ids = [1, 2]\ncomputer_delay_seconds = 0.5\n')
    monkeypatch.setenv("HOKM_COMPUTER_DELAY_SECONDS", "2")
    monkeypatch.setenv("HOKM_DISCORD_TOKEN", "secret-token")
    s = load_settings(cfg)
    assert s.log_level == "DEBUG" and s.dev_guild_ids == [1, 2]
    assert s.computer_delay_seconds == 2.0
    assert "secret-token" not in repr(s) and "secret-token" not in str(s.model_dump())


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("computer_delay_seconds = 99", "computer_delay_seconds"),
        ("no_such_key = 1", "no_such_key"),
        ("dev_guild_ids = 'x'", "dev_guild_ids"),
        ("this is not toml", "not valid TOML"),
        ('log_level = "LOUD"', "log_level"),
    ],
)
def test_bad_config_is_one_clear_error(tmp_path: Path, text: str, needle: str) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text(text)
    with pytest.raises(ConfigError, match=needle):
        load_settings(cfg)


def test_bad_config_exits_2_with_one_line(tmp_path: Path) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text("outbox_rate = 500\n")
    result = run_bot("--config", str(cfg))
    assert result.returncode == 2
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "outbox_rate" in lines[0]
    assert "Traceback" not in result.stderr


def test_missing_config_file_and_help_without_token(tmp_path: Path) -> None:
    result = run_bot("--config", str(tmp_path / "nope.toml"))
    assert result.returncode == 2 and "does not exist" in result.stderr
    help_run = run_bot("--help")
    assert help_run.returncode == 0 and "HOKM_DISCORD_TOKEN" in help_run.stdout


def test_no_token_is_refused_after_the_store_opens(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    result = run_bot(env={"HOKM_DATABASE_URL": f"sqlite+aiosqlite:///{db}"})
    assert result.returncode == 2 and "HOKM_DISCORD_TOKEN" in result.stderr
    assert db.exists()  # migrated before it noticed; nothing half-started
