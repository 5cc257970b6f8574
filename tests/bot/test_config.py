"""Configuration: file + environment, one clear line and exit 2 on anything wrong."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bot.config import ConfigError, Settings, load_settings


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
        ('event_loop = "trio"', "event_loop"),
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


def test_no_token_is_refused_before_any_database_is_created(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    result = run_bot(env={"HOKM_DATABASE_URL": f"sqlite+aiosqlite:///{db}"})
    assert result.returncode == 2 and "HOKM_DISCORD_TOKEN" in result.stderr
    assert not db.exists()  # nothing is created for a bot that cannot log in


@pytest.mark.parametrize(
    ("value", "expected"),
    [("123,456", [123, 456]), ("123, 456", [123, 456]), ("[123, 456]", [123, 456]), ("7", [7])],
)
def test_dev_guild_ids_from_the_environment_as_operators_write_them(
    monkeypatch: pytest.MonkeyPatch, value: str, expected: list[int]
) -> None:
    monkeypatch.setenv("HOKM_DEV_GUILD_IDS", value)
    assert load_settings().dev_guild_ids == expected


def one_line_exit_2(result: subprocess.CompletedProcess[str], *needles: str) -> None:
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode == 2, result.stderr
    assert len(lines) == 1 and lines[0].startswith("error:"), result.stderr
    assert "Traceback" not in result.stderr
    for needle in needles:
        assert needle in lines[0], (needle, lines)


@pytest.mark.parametrize(
    ("env", "needles"),
    [
        ({"HOKM_DEV_GUILD_IDS": "abc"}, ["HOKM_DEV_GUILD_IDS", "123,456"]),
        ({"HOKM_DEV_GUILD_IDS": ""}, ["HOKM_DEV_GUILD_IDS", "empty"]),
        ({"HOKM_DISCORD_API_BASE": "ws://127.0.0.1:1/api/v10"}, ["HOKM_DISCORD_API_BASE", "http"]),
        ({"HOKM_DISCORD_GATEWAY_URL": "http://127.0.0.1:1/"}, ["HOKM_DISCORD_GATEWAY_URL", "ws"]),
        ({"HOKM_DISCORD_TOKEN": ""}, ["HOKM_DISCORD_TOKEN", "empty"]),
        ({"HOKM_DISCORD_TOKEN": "  "}, ["HOKM_DISCORD_TOKEN", "empty"]),
    ],
)
def test_bad_environment_is_one_line_before_the_database(
    tmp_path: Path, env: dict[str, str], needles: list[str]
) -> None:
    db = tmp_path / "h.sqlite3"
    base = {"HOKM_DISCORD_TOKEN": "t", "HOKM_DATABASE_URL": f"sqlite+aiosqlite:///{db}"}
    one_line_exit_2(run_bot(env=base | env), *needles)
    assert not db.exists()


def test_unknown_hokm_variables_get_one_warning_naming_them(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    env = {"HOKM_TOKEN": "x", "HOKM_DATABSE_URL": "y", "HOKM_DATABASE_URL": f"sqlite:///{db}"}
    result = run_bot("--migrate-only", env=env)
    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if "WARNING" in line]
    assert len(warnings) == 1, result.stderr
    assert "HOKM_DATABSE_URL" in warnings[0] and "HOKM_TOKEN" in warnings[0]
    assert "HOKM_DATABASE_URL," not in warnings[0]  # a real key is not named


def test_config_example_documents_every_key_and_loads() -> None:
    text = (Path(__file__).resolve().parents[2] / "config.example.toml").read_text()
    keys = {m.group(1) for m in re.finditer(r"^#? ?([a-z_]+) =", text, re.MULTILINE)}
    assert set(Settings.model_fields) <= keys, set(Settings.model_fields) - keys
    assert Settings(**tomllib.loads(text)).gateway_timeout_seconds == 60.0


def test_event_loop_setting_picks_the_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """``auto`` runs uvloop (a dependency here); ``asyncio`` never does; ``uvloop`` without
    the package stops with one line and exit 2 instead of quietly running another loop."""
    import uvloop

    from bot.__main__ import loop_factory

    assert loop_factory("auto") is uvloop.new_event_loop
    assert loop_factory("uvloop") is uvloop.new_event_loop
    assert loop_factory("asyncio") is None
    monkeypatch.setitem(sys.modules, "uvloop", None)  # as if it were not installed
    assert loop_factory("auto") is None
    with pytest.raises(SystemExit) as stopped:
        loop_factory("uvloop")
    assert stopped.value.code == 2


PG = "postgresql+asyncpg://hokm@127.0.0.1/hokm"


def test_shards_come_from_the_command_line_over_the_environment_over_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text(f'database_url = "{PG}"\nshard_count = 8\nshard_ids = [7]\n')
    assert (load_settings(cfg).shard_ids, load_settings(cfg).shard_count) == ([7], 8)
    monkeypatch.setenv("HOKM_SHARD_COUNT", "4")
    monkeypatch.setenv("HOKM_SHARD_IDS", "2, 3")
    s = load_settings(cfg)
    assert (s.shard_ids, s.shard_count, s.shard_slice()) == ([2, 3], 4, "shards 2,3 of 4")
    s = load_settings(cfg, {"shard_ids": "0,1", "shard_count": "2"})
    assert (s.shard_ids, s.shard_count, s.sharded) == ([0, 1], 2, True)
    s = load_settings(cfg, {"shard_ids": None, "shard_count": None})  # options not given
    assert (s.shard_ids, s.shard_count) == ([2, 3], 4)


def test_without_shard_settings_the_bot_is_one_connection() -> None:
    s = Settings()
    assert (s.shard_ids, s.shard_count, s.sharded, s.shard_slice()) == (
        None,
        None,
        False,
        "one connection",
    )


@pytest.mark.parametrize(
    ("ids", "count", "url"),
    [
        (None, 4, "sqlite+aiosqlite:///x.sqlite3"),  # one process, every shard: SQLite is fine
        ("0,1,2,3", 4, "sqlite:///x.sqlite3"),
        ("1", 2, PG),
        ("3,0", 4, PG),
    ],
)
def test_shard_slices_that_can_run(
    monkeypatch: pytest.MonkeyPatch, ids: str | None, count: int, url: str
) -> None:
    monkeypatch.setenv("HOKM_DATABASE_URL", url)
    s = load_settings(None, {"shard_ids": ids, "shard_count": str(count)})
    assert s.shard_count == count and s.sharded


@pytest.mark.parametrize(
    ("ids", "count", "url", "needles"),
    [
        ("0,1", "4", None, ["shards 0,1 of 4", "SQLite serves one process", "PostgreSQL"]),
        ("1", "2", "sqlite:///x.sqlite3", ["shards 1 of 2", "SQLite"]),
        ("0,4", "4", PG, ["shard 4 does not exist", "0 to 3"]),
        ("-1", "2", PG, ["shard -1 does not exist"]),
        ("1,1", "2", PG, ["shard 1 is listed more than once"]),
        (None, "0", PG, ["--shard-count", "greater than or equal to 1"]),
        ("0", None, PG, ["need a shard count", "--shard-count"]),
        ("[]", "2", PG, ["list no shard"]),
        ("a,b", "2", PG, ["--shards", "numbers"]),
        ("0", "two", PG, ["--shard-count", "integer"]),
    ],
)
def test_shard_slices_that_cannot_run_are_one_clear_error(
    monkeypatch: pytest.MonkeyPatch,
    ids: str | None,
    count: str | None,
    url: str | None,
    needles: list[str],
) -> None:
    if url is not None:
        monkeypatch.setenv("HOKM_DATABASE_URL", url)
    with pytest.raises(ConfigError) as refused:
        load_settings(None, {"shard_ids": ids, "shard_count": count})
    for needle in needles:
        assert needle in str(refused.value), (needle, str(refused.value))


def test_bad_shard_settings_in_the_file_or_environment_name_the_key(tmp_path: Path) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text("shard_count = 0\n")
    with pytest.raises(ConfigError, match=r"config key 'shard_count' \(or HOKM_SHARD_COUNT\)"):
        load_settings(cfg)
    result = run_bot(
        env={"HOKM_DISCORD_TOKEN": "t", "HOKM_SHARD_IDS": "x", "HOKM_SHARD_COUNT": "2"}
    )
    one_line_exit_2(result, "HOKM_SHARD_IDS", "0,1")


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["--shards", "0,1", "--shard-count", "4"], ["shards 0,1 of 4", "SQLite"]),
        (["--shards", "0,4", "--shard-count", "4"], ["shard 4 does not exist"]),
        (["--shards", "1,1", "--shard-count", "2"], ["shard 1 is listed more than once"]),
        (["--shard-count", "0"], ["--shard-count"]),
    ],
)
def test_a_shard_slice_that_cannot_run_stops_the_bot_in_one_line_before_the_database(
    tmp_path: Path, args: list[str], needles: list[str]
) -> None:
    db = tmp_path / "h.sqlite3"
    env = {"HOKM_DISCORD_TOKEN": "t", "HOKM_DATABASE_URL": f"sqlite+aiosqlite:///{db}"}
    one_line_exit_2(run_bot(*args, env=env), *needles)
    assert not db.exists()


def test_unknown_hokm_variables_are_named_but_the_test_suite_s_own_are_not() -> None:
    """A ``HOKM_*`` variable that sets nothing is most likely a typo (start-up warns with its
    name); ``HOKM_TEST_*`` are the test suite's (``.ci/run`` exports one around every bot it
    starts), and other programs' variables are none of the bot's business."""
    from bot.config import unknown_env_vars

    env = {
        "HOKM_LOG_LEVEL": "INFO",
        "HOKM_LOG_LEVE": "INFO",
        "HOKM_CONFIG": "x.toml",
        "HOKM_TEST_REQUIRE_BROWSER": "1",
        "HOKM_TEST_DATABASE_URL": "postgresql://…",
        "PATH": "/usr/bin",
    }
    assert unknown_env_vars(env) == ["HOKM_LOG_LEVE"]
