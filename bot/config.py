"""Bot configuration: a TOML file, overridden key by key by ``HOKM_…`` environment variables.

Validated with pydantic at start-up; a bad file or value becomes one clear line naming the key
(``ConfigError``), and ``python -m bot`` exits with status 2. The token is a ``SecretStr`` so it
never shows up in a repr or a log line.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

ENV_PREFIX = "HOKM_"
DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///data/hokm.sqlite3"


class ConfigError(Exception):
    """One line an operator can act on."""


class Settings(BaseSettings):
    """Every key of ``config.example.toml``; the file documents each one."""

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, extra="forbid", frozen=True)

    discord_token: SecretStr | None = None
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None
    database_url: str = DEFAULT_DATABASE_URL
    dev_guild_ids: list[int] = Field(default_factory=list)
    command_sync_file: str = "data/command-sync.sha256"
    log_level: str = "INFO"
    computer_delay_seconds: float = Field(1.0, ge=0.0, le=10.0)
    outbox_rate: float = Field(40.0, gt=0.0, le=50.0)
    guild_ready_timeout: float = Field(2.0, ge=0.0, le=60.0)
    loop_lag_report_seconds: float = Field(60.0, ge=0.0, le=3600.0)
    match_seed_base: int | None = Field(None, ge=0, lt=2**63)
    ended_table_retention_days: float = Field(7.0, ge=0.0, le=3650.0)

    @field_validator("log_level")
    @classmethod
    def _level(cls, value: str) -> str:
        upper = value.upper()
        if upper not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise ValueError("must be DEBUG, INFO, WARNING, ERROR or CRITICAL")
        return upper

    @field_validator("discord_api_base", "discord_gateway_url")
    @classmethod
    def _url(cls, value: str | None) -> str | None:
        if value and not value.startswith(("http://", "https://", "ws://", "wss://")):
            raise ValueError("must be an http(s):// or ws(s):// URL")
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
        # The file's values arrive as init kwargs; the environment overrides them.
        return (env_settings, init_settings)


def load_settings(path: str | os.PathLike[str] | None = None) -> Settings:
    """Read ``path`` (or ``$HOKM_CONFIG``; none is fine), apply the environment, validate."""
    file_values: dict[str, Any] = {}
    source = path or os.environ.get(f"{ENV_PREFIX}CONFIG")
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
    try:
        return Settings(**file_values)
    except ValidationError as exc:
        err = exc.errors()[0]
        key = ".".join(str(p) for p in err["loc"]) or "?"
        if err["type"] == "extra_forbidden":
            raise ConfigError(f"unknown config key {key!r}") from None
        raise ConfigError(
            f"config key {key!r} (or {ENV_PREFIX}{key.upper()}): {err['msg']}"
        ) from None
