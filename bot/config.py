"""Bot configuration: a TOML file, overridden key by key by ``HOKM_…`` environment variables.

Validated with pydantic at start-up; a bad file or value becomes one clear line naming the key
(``ConfigError``), and ``python -m bot`` exits with status 2. The token is a ``SecretStr`` so it
never shows up in a repr or a log line.
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import (
    BaseSettings,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    SettingsError,
)

ENV_PREFIX = "HOKM_"
CONFIG_ENV = f"{ENV_PREFIX}CONFIG"
DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///data/hokm.sqlite3"
DEFAULT_DATA_DIR = "data"
CLI_FLAGS = {"shard_ids": "--shards", "shard_count": "--shard-count"}
"""Keys a command-line option sets (it wins over the file and the environment)."""
_command_line: ContextVar[Mapping[str, Any] | None] = ContextVar("hokm_command_line", default=None)


class CommandLineSource(PydanticBaseSettingsSource):
    """The values ``python -m bot`` was given as options: the first source, so they win."""

    def get_field_value(self, field: Any, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False  # __call__ answers for every field at once

    def __call__(self) -> dict[str, Any]:
        return dict(_command_line.get() or {})


@contextmanager
def _given_on_command_line(values: Mapping[str, Any]) -> Iterator[None]:
    token = _command_line.set(values)
    try:
        yield
    finally:
        _command_line.reset(token)


class ConfigError(Exception):
    """One line an operator can act on."""


class Settings(BaseSettings):
    """Every key of ``config.example.toml``; the file documents each one."""

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, extra="forbid", frozen=True)

    discord_token: SecretStr | None = None
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None
    database_url: str = DEFAULT_DATABASE_URL
    # NoDecode: the environment gives "123,456" as operators write it, not JSON.
    dev_guild_ids: Annotated[list[int], NoDecode] = Field(default_factory=list)
    command_sync_file: str = "data/command-sync.sha256"
    log_level: str = "INFO"
    computer_delay_seconds: float = Field(1.0, ge=0.0, le=10.0)
    outbox_rate: float = Field(40.0, gt=0.0, le=50.0)
    guild_ready_timeout: float = Field(2.0, ge=0.0, le=60.0)
    loop_lag_report_seconds: float = Field(60.0, ge=0.0, le=3600.0)
    match_seed_base: int | None = Field(None, ge=0, lt=2**63)
    startup_retry_seconds: float = Field(120.0, ge=0.0, le=3600.0)
    gateway_timeout_seconds: float = Field(60.0, gt=0.0, le=600.0)
    health_file: str | None = None
    ended_table_retention_days: float = Field(7.0, ge=0.0, le=3650.0)
    # The SQLite writer's page cache (bot/store/write_cache.py), in MiB.
    store_cache_mib: int = Field(64, ge=2, le=65536)
    event_loop: Literal["auto", "uvloop", "asyncio"] = "auto"
    # Finished matches graded with every hand known, in worker processes at the lowest CPU
    # priority (bot/service/analysis.py); 0 turns the analysis off.
    analysis_workers: int = Field(1, ge=0, le=16)
    # Sharding (docs/scaling.md): this process holds ``shard_ids`` of ``shard_count``.
    shard_count: int | None = Field(None, ge=1)
    shard_ids: Annotated[list[int] | None, NoDecode] = None
    # One budget for the token (docs/scaling.md): kept in Redis when set.
    redis_url: SecretStr | None = None
    # The servers' read-only web pages: served only when web_port is set (0: any
    # free port, for tests); each server's page is off until its admins turn it on.
    web_port: int | None = Field(None, ge=0, le=65535)
    web_host: str = "127.0.0.1"
    web_base_url: str | None = None

    @field_validator("log_level")
    @classmethod
    def _level(cls, value: str) -> str:
        upper = value.upper()
        if upper not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise ValueError("must be DEBUG, INFO, WARNING, ERROR or CRITICAL")
        return upper

    @field_validator("discord_token")
    @classmethod
    def _token(cls, value: SecretStr | None) -> SecretStr | None:
        # An empty HOKM_DISCORD_TOKEN= is a mistake, not "no token": say so before any work.
        if value is not None and not value.get_secret_value().strip():
            raise ValueError("is empty; set it to the bot token from the developer portal")
        return value

    @field_validator("discord_api_base")
    @classmethod
    def _api_base(cls, value: str | None) -> str | None:
        return _url(value, ("http", "https"), "an http(s):// URL, e.g. https://host/api/v10")

    @field_validator("discord_gateway_url")
    @classmethod
    def _gateway_url(cls, value: str | None) -> str | None:
        return _url(value, ("ws", "wss"), "a ws(s):// URL, e.g. wss://host/")

    @field_validator("web_base_url")
    @classmethod
    def _web_base_url(cls, value: str | None) -> str | None:
        return _url(value, ("http", "https"), "an http(s):// URL, e.g. https://hokm.example.org")

    @field_validator("web_host")
    @classmethod
    def _web_host(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("is empty; 127.0.0.1 serves this machine only, 0.0.0.0 every address")
        return value.strip()

    @field_validator("redis_url")
    @classmethod
    def _redis_url(cls, value: SecretStr | None) -> SecretStr | None:
        # A SecretStr: the URL may hold a password. The message never repeats the value.
        if value is None or not value.get_secret_value().strip():
            return None
        problem = redis_url_problem(value.get_secret_value())
        if problem is not None:
            raise ValueError(problem)
        return value

    @field_validator("dev_guild_ids", mode="before")
    @classmethod
    def _guild_ids(cls, value: Any) -> Any:
        if not isinstance(value, str):
            return value  # a TOML list; pydantic checks its items
        return parse_id_list(value)

    @field_validator("dev_guild_ids")
    @classmethod
    def _positive_ids(cls, value: list[int]) -> list[int]:
        if any(v <= 0 for v in value):
            raise ValueError("server ids are positive numbers")
        return value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _shard_list(cls, value: Any) -> Any:
        if not isinstance(value, str):
            return value  # a TOML list; pydantic checks its items
        return parse_id_list(value, "shard ids", "0,1")

    @model_validator(mode="after")
    def _sharding(self) -> Settings:
        problem = sharding_problem(self.shard_ids, self.shard_count, self.database_url)
        if problem is not None:
            raise ValueError(problem)
        return self

    @property
    def sharded(self) -> bool:
        """Run as discord.py's ``AutoShardedBot`` (a shard count is given)."""
        return self.shard_count is not None

    def shard_slice(self) -> str:
        """``shards 0,1 of 4`` (or ``all 4 shards``), for log lines."""
        if self.shard_count is None:
            return "one connection"
        if self.shard_ids is None:
            return f"all {self.shard_count} shards"
        return f"shards {','.join(map(str, self.shard_ids))} of {self.shard_count}"

    @field_validator("health_file")
    @classmethod
    def _health_file(cls, value: str | None) -> str | None:
        return value or None

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # The file's values arrive as init kwargs; the environment overrides them, and the
        # command line overrides both.
        return (CommandLineSource(settings_cls), env_settings, init_settings)


def _url(value: str | None, schemes: tuple[str, ...], wanted: str) -> str | None:
    """Reject a URL discord.py would only trip over later (after the database is opened)."""
    if not value:
        return None
    parts = urlsplit(value)
    if parts.scheme.lower() not in schemes or not parts.hostname:
        raise ValueError(f"must be {wanted}")
    return value


def redis_url_problem(url: str) -> str | None:
    """Why redis-py could not use ``url``, in a few words; ``None`` when it can."""
    wanted = "must be a redis://, rediss:// or unix:// URL, e.g. redis://localhost:6379/0"
    try:
        parts = urlsplit(url.strip())
        _ = parts.port  # a port that is not a number, or out of range, raises here
    except ValueError:
        return wanted
    scheme = parts.scheme.lower()
    if scheme == "unix":
        return None if parts.path else f"{wanted} (unix:// needs the socket's path)"
    if scheme not in ("redis", "rediss") or not parts.hostname:
        return wanted
    db = parts.path.strip("/")
    if db and not db.isdigit():
        return f"{wanted} (the path is a database number)"
    return None


def parse_id_list(text: str, what: str = "server ids", example: str = "123,456") -> list[int]:
    """``123,456``, ``123 456`` or ``[123, 456]`` as written in an environment variable."""
    text = text.strip()
    listed = f"[{example.replace(',', ', ')}]"
    if not text:
        raise ValueError(f"is empty; unset it for none, or list {what} like {example}")
    if text.startswith("["):
        try:
            items = json.loads(text)
        except json.JSONDecodeError:
            raise ValueError(f"must be {what} like {example} or {listed}") from None
        if not isinstance(items, list):
            raise ValueError(f"must be {what} like {example} or {listed}")
    else:
        items = [item for item in text.replace(",", " ").split() if item]
    try:
        return [int(item) for item in items]
    except (TypeError, ValueError):
        raise ValueError(f"must be {what} (numbers) like {example}") from None


def is_sqlite(database_url: str) -> bool:
    return database_url.split(":", 1)[0].split("+", 1)[0].lower() == "sqlite"


def sharding_problem(
    shard_ids: list[int] | None, shard_count: int | None, database_url: str
) -> str | None:
    """Why this shard slice cannot run, in one sentence; ``None`` when it can.

    Several processes need one database they all reach: SQLite is one process's file, so a
    slice of the shards (the others served elsewhere) must run on PostgreSQL. One process
    holding every shard may stay on SQLite.
    """
    if shard_ids is None:
        return None
    if shard_count is None:
        return "shard ids (--shards, shard_ids) need a shard count (--shard-count, shard_count)"
    if not shard_ids:
        return "shard ids (--shards, shard_ids) list no shard; name at least one, e.g. 0"
    outside = sorted({i for i in shard_ids if not 0 <= i < shard_count})
    if outside:
        return (
            f"shard {', '.join(map(str, outside))} does not exist with a shard count of "
            f"{shard_count} (shard ids run from 0 to {shard_count - 1})"
        )
    twice = sorted({i for i in shard_ids if shard_ids.count(i) > 1})
    if twice:
        return f"shard {', '.join(map(str, twice))} is listed more than once"
    if set(shard_ids) != set(range(shard_count)) and is_sqlite(database_url):
        held = ",".join(map(str, shard_ids))
        return (
            f"shards {held} of {shard_count} leave the others to another process, and SQLite "
            "serves one process only: set database_url to PostgreSQL "
            "(postgresql+asyncpg://…; docs/scaling.md)"
        )
    return None


TEST_ENV_PREFIX = "HOKM_TEST_"


def unknown_env_vars(environ: Mapping[str, str] | None = None) -> list[str]:
    """``HOKM_*`` variables that set nothing: most likely a typo of a key that stays default.
    ``HOKM_TEST_*`` belong to the test suite (docs/testing.md), which may export them around
    the bots it starts."""
    env = os.environ if environ is None else environ
    known = {f"{ENV_PREFIX}{name}".upper() for name in Settings.model_fields} | {CONFIG_ENV}
    return sorted(
        name
        for name in env
        if name.upper().startswith(ENV_PREFIX)
        and not name.upper().startswith(TEST_ENV_PREFIX)
        and name.upper() not in known
    )


def default_data_dir(settings: Settings) -> Path | None:
    """The ``data/`` folder of the default database URL, which the bot creates itself."""
    if settings.database_url == DEFAULT_DATABASE_URL:
        return Path(DEFAULT_DATA_DIR)
    return None


def load_settings(
    path: str | os.PathLike[str] | None = None, overrides: Mapping[str, Any] | None = None
) -> Settings:
    """Read ``path`` (or ``$HOKM_CONFIG``; none is fine), apply the environment, then the
    command line's ``overrides`` (keys of ``CLI_FLAGS``), validate."""
    file_values: dict[str, Any] = {}
    source = path or os.environ.get(CONFIG_ENV)
    if source:
        file = Path(source)
        try:
            file_values = tomllib.loads(file.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ConfigError(f"config file {file} does not exist") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"config file {file} cannot be read: {exc}") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"config file {file} is not valid TOML: {exc}") from None
    given = {k: v for k, v in (overrides or {}).items() if v is not None}
    assert set(given) <= set(CLI_FLAGS), set(given) - set(CLI_FLAGS)
    try:
        with _given_on_command_line(given):
            return Settings(**file_values)
    except SettingsError as exc:  # an environment value the source could not even parse
        raise ConfigError(str(exc).splitlines()[0]) from None
    except ValidationError as exc:
        err = exc.errors()[0]
        msg = str(err["msg"]).removeprefix("Value error, ")
        if not err["loc"]:  # a rule across keys: the message names them
            raise ConfigError(msg) from None
        key = str(err["loc"][0])
        if err["type"] == "extra_forbidden":
            raise ConfigError(f"unknown config key {key!r}") from None
        if key in given:
            raise ConfigError(f"{CLI_FLAGS[key]}: {msg}") from None
        raise ConfigError(f"config key {key!r} (or {ENV_PREFIX}{key.upper()}): {msg}") from None
