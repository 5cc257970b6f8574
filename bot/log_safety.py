"""Keep libraries from writing hands into the log.

The bot's own lines name tables and seats, never cards in a hand. Some libraries log whole
payloads below a level an operator may well choose (``log_level = "DEBUG"``): discord.py logs
every REST request and response body and every gateway event at DEBUG (a DM *is* a hand, and
an interaction carries the clicked hand message), aiosqlite logs each call with its arguments
at DEBUG, and SQLAlchemy logs every statement with its parameters (a table's saved state holds
all four hands) at INFO. A filter on each of those loggers drops those records whatever the
configured level, so DEBUG stays usable without the log holding a hand.
"""

from __future__ import annotations

import logging

PAYLOAD_LOGGERS: dict[str, int] = {
    "discord.http": logging.INFO,  # "POST … with {body} has returned 200", "… has received {…}"
    "discord.gateway": logging.INFO,  # "WebSocket Event: {payload}", "Received {…}"
    "discord.webhook.async_": logging.INFO,  # interaction responses and followups
    "aiosqlite": logging.INFO,  # "executing functools.partial(execute, sql, params)"
    "sqlalchemy.engine.Engine": logging.WARNING,  # SQL with parameters, result rows
}
"""Logger name → the lowest level it may still emit."""


class _AtLeast(logging.Filter):
    """Passes only records at or above ``floor``."""

    def __init__(self, floor: int) -> None:
        super().__init__()
        self.floor = floor

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno >= self.floor


def keep_payloads_out_of_logs() -> None:
    """Install the filters once (idempotent: a second bot in one process adds none)."""
    for name, floor in PAYLOAD_LOGGERS.items():
        logger = logging.getLogger(name)
        if not any(isinstance(f, _AtLeast) for f in logger.filters):
            logger.addFilter(_AtLeast(floor))
