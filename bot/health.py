"""The container health check: a file touched while the gateway connection is up.

The bot touches ``health_file`` when the gateway says READY or RESUMED and every
``TOUCH_EVERY`` seconds while its websocket is open; it removes the file when the connection
drops and when it stops. ``python -m bot --healthcheck`` (Docker's HEALTHCHECK) is healthy
while the file is younger than ``STALE_AFTER``: a process that is alive but has lost Discord
turns unhealthy within a minute, without the check having to speak the gateway protocol.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger(__name__)

TOUCH_EVERY = 15.0
STALE_AFTER = 60.0


class HealthFile:
    """Keeps ``path`` fresh while ``connected()`` says so."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)

    def touch(self) -> None:
        try:
            self.path.touch()
        except OSError as exc:  # a health file must never stop the bot
            log.warning("could not touch health file %s: %s", self.path, exc)

    def clear(self) -> None:
        with contextlib.suppress(OSError):
            self.path.unlink()

    async def run(self, connected: Callable[[], bool]) -> None:
        """Touch or clear every ``TOUCH_EVERY`` seconds, by the connection's state."""
        while True:
            if connected():
                self.touch()
            else:
                self.clear()
            await asyncio.sleep(TOUCH_EVERY)


def check(path: str | None, *, now: float | None = None) -> tuple[bool, str]:
    """Whether the bot that writes ``path`` is connected, and a short reason."""
    if not path:
        return False, "health_file is not set (HOKM_HEALTH_FILE)"
    try:
        age = (time.time() if now is None else now) - os.stat(path).st_mtime
    except FileNotFoundError:
        return False, f"{path} is missing: not connected to the gateway"
    except OSError as exc:
        return False, f"{path}: {exc}"
    if age > STALE_AFTER:
        return False, f"{path} is {age:.0f} s old: no gateway connection since"
    return True, f"gateway connected ({path} touched {max(age, 0):.0f} s ago)"
