"""Start-up failures an operator can act on: each becomes one ``error: …`` line and exit 2.

discord.py reports these as tracebacks (``LoginFailure``, ``ClientConnectorError``, a bare
``TimeoutError`` after minutes of silence); this module waits for the network with a bounded
backoff and turns each failure into one sentence naming the setting to check.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from urllib.parse import urlsplit

from .url_redaction import redact_url

# discord.py and aiohttp are imported where needed: `--healthcheck` imports this module too,
# and runs every 30 s in the container.

log = logging.getLogger("bot")

CONNECT_ATTEMPT_SECONDS = 10.0
MAX_RETRY_DELAY = 30.0


class StartupError(Exception):
    """The bot cannot start; the message is the whole explanation (no traceback)."""


def endpoint(url: str) -> tuple[str, int]:
    """Host and port behind an http(s)/ws(s) URL."""
    parts = urlsplit(url)
    secure = parts.scheme in ("https", "wss")
    return parts.hostname or "", parts.port or (443 if secure else 80)


def network_reason(exc: BaseException) -> str:
    """Why a connection failed, in words (no errno soup)."""
    if isinstance(exc, socket.gaierror):
        return f"DNS lookup failed: {exc.strerror or exc}"
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused"
    if isinstance(exc, TimeoutError):
        return "no answer"
    import aiohttp

    if isinstance(exc, aiohttp.ClientConnectorError):
        return network_reason(exc.os_error)
    return str(exc) or type(exc).__name__


async def wait_for_network(api_base: str, budget: float) -> None:
    """Return once Discord's REST host accepts a TCP connection; retry with backoff (1, 2, 4 …
    up to 30 s apart) for ``budget`` seconds, so a container started before its network is up
    waits instead of dying, then raise ``StartupError``."""
    host, port = endpoint(api_base)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + budget
    delay = 1.0
    while True:
        left = deadline - loop.time()
        try:
            _, writer = await asyncio.wait_for(
                asyncio.open_connection(host, port),
                timeout=max(1.0, min(CONNECT_ATTEMPT_SECONDS, left)),
            )
        except (OSError, TimeoutError) as exc:
            reason = network_reason(exc)
            left = deadline - loop.time()
            if left <= 0:
                raise StartupError(
                    f"cannot reach Discord at {host}:{port} ({reason}); gave up after "
                    f"{budget:g} s (startup_retry_seconds)"
                ) from None
            pause = min(delay, left)
            log.warning("cannot reach %s:%d (%s); retrying in %.0f s", host, port, reason, pause)
            await asyncio.sleep(pause)
            delay = min(delay * 2, MAX_RETRY_DELAY)
            continue
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()
        return


def login_failure(exc: BaseException) -> StartupError:
    """What went wrong logging in (the token check and everything ``setup_hook`` does)."""
    import aiohttp
    import discord

    if isinstance(exc, StartupError):
        return exc
    if isinstance(exc, discord.LoginFailure):
        return StartupError(
            "Discord refused the token (HOKM_DISCORD_TOKEN); copy it again from the developer "
            "portal (Bot → Reset Token)"
        )
    if isinstance(exc, discord.HTTPException):
        return StartupError(f"Discord answered {exc.status} while logging in: {exc.text or exc}")
    if isinstance(exc, OSError | aiohttp.ClientError):
        return StartupError(f"cannot reach Discord while logging in ({network_reason(exc)})")
    return StartupError(f"logging in failed: {type(exc).__name__}: {exc}")


def gateway_failure(exc: BaseException, url: str) -> StartupError:
    """Why the gateway connection ended before (or instead of) serving."""
    import discord

    url = redact_url(url)  # a proxy's gateway URL may carry a token
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return StartupError(f"gateway {url}: {exc}")
    if isinstance(exc, discord.ConnectionClosed):
        if exc.code == 4004:
            return StartupError(f"the gateway {url} refused the token (HOKM_DISCORD_TOKEN)")
        return StartupError(f"the gateway {url} closed the connection ({exc.code}: {exc.reason})")
    return StartupError(f"gateway {url}: {type(exc).__name__}: {exc}")


RETRIED = ("Attempting a reconnect", "Failed to connect for shard_id")
"""How discord.py's client and shards begin a log line about a connection they retry."""


class OneLineReconnects(logging.Filter):
    """discord.py logs every gateway reconnect with a full traceback ("Attempting a reconnect
    in …"; a shard's "Failed to connect for shard_id: 1. Retrying..."); the exception's
    one-line summary says as much, and a start-up must not print tracebacks for an outage it
    retries."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and str(record.msg).startswith(RETRIED):
            exc = record.exc_info[1]
            record.msg = f"{record.msg} ({type(exc).__name__}: {exc})"
            record.exc_info = None
            record.exc_text = None
        return True
