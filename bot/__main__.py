"""``python -m bot --config config.toml``: run the Hokm bot.

Every start-up failure ends in one ``error: …`` line on stderr and exit status 2, never a
traceback. SIGTERM (``docker stop``) stops the bot exactly like Ctrl-C: timers stopped, the
outbox drained briefly, the store closed, one log line, exit 0 within a few seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING

from .config import ConfigError, Settings, default_data_dir, load_settings, unknown_env_vars
from .startup import (
    OneLineReconnects,
    StartupError,
    gateway_failure,
    login_failure,
    wait_for_network,
)

if TYPE_CHECKING:
    from .discord.client import HokmBot
    from .store import Store

log = logging.getLogger("bot")

EXIT_FAILED = 2
CLOSE_WITHIN = 4.0
"""Seconds ``HokmBot.close`` may take on a stop (it drains the outbox for at most 3 s): the
whole stop stays under the 5 s a supervisor waits, and well under ``docker stop``'s 10 s."""


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Run the Hokm Discord bot. Every config key can also be set as an "
        "environment variable HOKM_<KEY>; the token comes from HOKM_DISCORD_TOKEN.",
    )
    parser.add_argument("--config", help="TOML config file (default: $HOKM_CONFIG, else none)")
    parser.add_argument(
        "--shards",
        metavar="IDS",
        help="the gateway shards this process holds, e.g. 0,1 (with --shard-count; config key "
        "shard_ids); the other shards run in other processes on the same PostgreSQL",
    )
    parser.add_argument(
        "--shard-count",
        metavar="N",
        help="how many shards the bot's guilds are split into, over all processes (config key "
        "shard_count); without --shards this process holds all of them",
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--migrate-only", action="store_true", help="apply database migrations and exit"
    )
    mode.add_argument(
        "--recompute-ratings",
        action="store_true",
        help="rebuild every skill rating from the stored finished matches and exit",
    )
    mode.add_argument(
        "--analyse-missing",
        action="store_true",
        help="grade, with every hand known, each stored finished match that has no analysis "
        "yet, and exit (analysis_workers processes; at least one)",
    )
    mode.add_argument(
        "--healthcheck",
        action="store_true",
        help="exit 0 if a running bot is connected to the gateway (reads health_file), else 1",
    )
    return parser.parse_args(argv)


@dataclass
class _Running:
    """What a stop has to close, whichever start-up step it interrupted."""

    store: Store | None = None
    bot: HokmBot | None = None
    signal_name: str | None = None


async def run(settings: Settings, *, migrate_only: bool = False) -> int:
    """Start, serve until stopped, shut down; the exit status."""
    running = _Running()
    serving = asyncio.create_task(_start_and_serve(settings, migrate_only, running))
    _stop_on_signals(serving, running)
    code = 0
    failure: StartupError | None = None
    try:
        code = await serving
    except StartupError as exc:
        failure = exc
        code = EXIT_FAILED
    except asyncio.CancelledError:
        if running.signal_name is None:
            raise
    finally:
        try:
            await _shut_down(running)
        finally:  # the last line: what shutting down logs (the store's) must come before it
            if failure is not None:
                print(f"error: {failure}", file=sys.stderr)
    if running.signal_name is not None:
        tables = len(running.bot.service.tables) if running.bot is not None else 0
        log.info(
            "stopped on %s: %d live tables saved; they resume at the next start",
            running.signal_name,
            tables,
        )
    return code


def _stop_on_signals(serving: asyncio.Task[int], running: _Running) -> None:
    """SIGTERM and SIGINT cancel the serving task once; later signals are ignored.

    An explicit handler is what makes ``docker stop`` work: as PID 1 in a container, a process
    gets no default action for SIGTERM from the kernel, so without one the bot ignored it and
    was SIGKILLed 10 s later, mid-write.
    """
    loop = asyncio.get_running_loop()

    def stop(sig: signal.Signals) -> None:
        if running.signal_name is None:
            running.signal_name = sig.name
            serving.cancel()

    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop, sig)


async def _start_and_serve(settings: Settings, migrate_only: bool, running: _Running) -> int:
    running.store = await _open_store(settings)
    if migrate_only:
        assert running.store.migration is not None
        print(f"database {running.store.url}: {running.store.migration.describe()}")
        return 0
    assert settings.discord_token is not None  # main() refused to start without one
    from .discord.client import make_bot
    from .discord.endpoints import DISCORD_API_BASE, DISCORD_GATEWAY, use_discord_endpoints

    use_discord_endpoints(settings.discord_api_base, settings.discord_gateway_url)
    await wait_for_network(
        settings.discord_api_base or DISCORD_API_BASE, settings.startup_retry_seconds
    )
    bot = running.bot = make_bot(settings, running.store)
    try:
        await bot.login(settings.discord_token.get_secret_value())
    except Exception as exc:
        raise login_failure(exc) from None
    await _serve(bot, settings, settings.discord_gateway_url or DISCORD_GATEWAY)
    return 0


async def recompute_ratings(settings: Settings) -> int:
    """``--recompute-ratings``: migrate, rebuild every rating from the finished matches in
    one transaction (the live values, exactly), say what was done; the exit status."""
    try:
        store = await _open_store(settings)
    except StartupError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FAILED
    try:
        rated = await store.recompute_ratings()
    finally:
        await store.close()
    print(f"database {store.url}: ratings rebuilt from {rated} rated matches")
    return 0


async def analyse_missing(settings: Settings) -> int:
    """``--analyse-missing``: migrate, then analyse every finished match without an analysis
    in the worker processes the bot would use; say how many; the exit status."""
    from .service.analysis import Analyses

    try:
        store = await _open_store(settings)
    except StartupError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FAILED
    analyses = Analyses(store, max(1, settings.analysis_workers))
    try:
        done = await analyses.analyse_missing()
    finally:
        await analyses.close()
        await store.close()
    print(f"database {store.url}: {done} finished matches analysed")
    return 0


async def _open_store(settings: Settings) -> Store:
    from .store import Store, StoreError

    folder = default_data_dir(settings)
    if folder is not None and not folder.exists():
        try:
            folder.mkdir(mode=0o700)  # it will hold every live hand: owner only
        except OSError as exc:
            raise StartupError(f"cannot create database folder {folder}/: {exc}") from None
        log.info("created database folder %s/", folder)
    _claim_sqlite_file(settings)
    try:
        return await Store.open(settings.database_url, writer_cache_mib=settings.store_cache_mib)
    except StoreError as exc:
        raise StartupError(f"database: {exc}") from None


_CLAIMED: list[IO[str]] = []
"""The lock of this process's SQLite file, held until the process ends."""


def _claim_sqlite_file(settings: Settings) -> None:
    """One bot process per SQLite file: a second one is refused in one line."""
    from sqlalchemy.engine import make_url

    from .store.database import FileInUse, claim_sqlite_file, sqlite_path

    try:
        path = sqlite_path(make_url(settings.database_url))
    except Exception:  # an unparsable URL: Store.open says so
        return
    if path is None or _CLAIMED or not path.parent.is_dir():
        return
    try:
        _CLAIMED.append(claim_sqlite_file(path))
    except FileInUse as exc:
        raise StartupError(f"database: {exc}") from None
    except OSError as exc:
        raise StartupError(f"database: cannot lock {path}: {exc}") from None


async def _serve(bot: HokmBot, settings: Settings, gateway: str) -> None:
    """Connect; give up if the gateway has not said READY within ``gateway_timeout_seconds``
    (discord.py alone would wait minutes, then raise a bare ``TimeoutError``)."""
    connected = asyncio.ensure_future(bot.wait_for("connect"))
    await asyncio.sleep(0)  # the listener is registered before the connection starts
    connection = asyncio.create_task(bot.connect(reconnect=True), name="hokm-gateway")
    try:
        done, _ = await asyncio.wait(
            {connected, connection},
            timeout=settings.gateway_timeout_seconds,
            return_when=asyncio.FIRST_COMPLETED,
        )
        if connection in done:
            raise _gateway_ended(connection, gateway)
        if not done:
            raise StartupError(
                f"the Discord gateway at {gateway} did not answer within "
                f"{settings.gateway_timeout_seconds:g} s (gateway_timeout_seconds)"
            )
        await connection
    except Exception as exc:
        if isinstance(exc, StartupError):
            raise
        raise gateway_failure(exc, gateway) from None
    finally:
        connected.cancel()
        connection.cancel()


def _gateway_ended(connection: asyncio.Task[None], gateway: str) -> StartupError:
    exc = connection.exception()
    if exc is None:
        return StartupError(f"the gateway connection to {gateway} ended before it was ready")
    return gateway_failure(exc, gateway)


async def _shut_down(running: _Running) -> None:
    """Close the client (timers, outbox, gateway) within ``CLOSE_WITHIN`` seconds, then the
    store: every committed table is in it, and a restart resumes it."""
    if running.bot is not None:
        try:
            await asyncio.wait_for(running.bot.close(), timeout=CLOSE_WITHIN)
        except TimeoutError:
            log.warning("the client did not close within %g s; stopping anyway", CLOSE_WITHIN)
        except Exception as exc:
            log.warning("closing the client failed: %s: %s", type(exc).__name__, exc)
    if running.store is not None:
        await running.store.close()


def _configure_logging(level: str) -> None:
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("discord").setLevel(max(logging.INFO, logging.getLevelName(level)))
    for name in ("discord.client", "discord.shard"):  # one connection; shards
        logging.getLogger(name).addFilter(OneLineReconnects())
    # Alembic narrates every start-up at INFO ("Context impl SQLiteImpl." …) and announces
    # its plugins on import; --migrate-only prints what it did in one line instead.
    logging.getLogger("alembic").setLevel(logging.WARNING)


def healthcheck(config: str | None) -> int:
    """Docker's HEALTHCHECK: 0 healthy, 1 unhealthy (a config error is unhealthy too)."""
    from .health import check

    try:
        settings = load_settings(config)
    except ConfigError as exc:
        print(f"unhealthy: {exc}")
        return 1
    ok, reason = check(settings.health_file)
    print(f"{'healthy' if ok else 'unhealthy'}: {reason}")
    return 0 if ok else 1


def loop_factory(choice: str) -> Callable[[], asyncio.AbstractEventLoop] | None:
    """The ``event_loop`` setting's loop: the bot is one event loop, and uvloop's transports
    and scheduling cost less CPU per call than asyncio's (``docs/benchmarks.md``).

    :raises SystemExit: ``uvloop`` asked for and not installed (one line, exit status 2)
    """
    if choice == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:
        if choice == "uvloop":
            print('error: event_loop = "uvloop" but uvloop is not installed', file=sys.stderr)
            raise SystemExit(EXIT_FAILED) from None
        return None
    return uvloop.new_event_loop


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    if args.healthcheck:
        raise SystemExit(healthcheck(args.config))
    try:
        settings = load_settings(
            args.config, {"shard_ids": args.shards, "shard_count": args.shard_count}
        )
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(EXIT_FAILED) from None
    _configure_logging(settings.log_level)
    unknown = unknown_env_vars()
    if unknown:
        log.warning("ignored unknown environment variables (no such key): %s", ", ".join(unknown))
    if args.recompute_ratings:  # the bot is not started: no token needed
        raise SystemExit(asyncio.run(recompute_ratings(settings)))
    if args.analyse_missing:
        raise SystemExit(asyncio.run(analyse_missing(settings)))
    if settings.discord_token is None and not args.migrate_only:
        # Before the store: a bot that cannot log in must not create a database first.
        print("error: set HOKM_DISCORD_TOKEN (config key discord_token)", file=sys.stderr)
        raise SystemExit(EXIT_FAILED)
    factory = loop_factory(settings.event_loop)
    # a Ctrl-C before the handlers are in place ends the bot quietly
    with contextlib.suppress(KeyboardInterrupt), asyncio.Runner(loop_factory=factory) as runner:
        raise SystemExit(runner.run(run(settings, migrate_only=args.migrate_only)))
    raise SystemExit(0)


if __name__ == "__main__":
    main()
