"""``python -m bot --config config.toml``: run the Hokm bot."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from .config import ConfigError, Settings, load_settings

log = logging.getLogger("bot")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Run the Hokm Discord bot. Every config key can also be set as an "
        "environment variable HOKM_<KEY>; the token comes from HOKM_DISCORD_TOKEN.",
    )
    parser.add_argument("--config", help="TOML config file (default: $HOKM_CONFIG, else none)")
    parser.add_argument(
        "--migrate-only", action="store_true", help="apply database migrations and exit"
    )
    return parser.parse_args(argv)


async def run(settings: Settings, *, migrate_only: bool = False) -> int:
    from .discord_endpoints import use_discord_endpoints
    from .store import Store, StoreError

    try:
        store = await Store.open(settings.database_url)
    except StoreError as exc:
        print(f"error: database: {exc}", file=sys.stderr)
        return 2
    if migrate_only:
        await store.close()
        print("database is up to date")
        return 0
    if settings.discord_token is None:
        await store.close()
        print("error: set HOKM_DISCORD_TOKEN (config key discord_token)", file=sys.stderr)
        return 2
    use_discord_endpoints(settings.discord_api_base, settings.discord_gateway_url)
    from .client import HokmBot

    bot = HokmBot(settings, store)
    try:
        async with bot:
            await bot.start(settings.discord_token.get_secret_value())
    finally:
        await store.close()
    return 0


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    try:
        settings = load_settings(args.config)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    logging.getLogger("discord").setLevel(
        max(logging.INFO, logging.getLevelName(settings.log_level))
    )
    # alembic announces its plugins at INFO on import: seven lines before any error
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)
    try:
        code = asyncio.run(run(settings, migrate_only=args.migrate_only))
    except KeyboardInterrupt:
        code = 0
    raise SystemExit(code)


if __name__ == "__main__":
    main()
