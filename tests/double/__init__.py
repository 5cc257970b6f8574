"""A local Discord double for running the real discord.py bot in tests and benchmarks.

``DiscordDouble`` is the server and the test API; ``tests.double.fixtures`` is the pytest plugin.
See docs/discord_double.md.
"""

from .client import ClientRunner
from .counters import Counters
from .faults import Fault
from .interactions import InteractionRecord, InteractionTimeout
from .models import AppCommand, Button, Channel, Guild, Member, Role, StoredMessage, User
from .process import BotProcess
from .ratelimit import RateLimitConfig
from .server import DEFAULT_TOKEN, DiscordDouble

__all__ = [
    "DEFAULT_TOKEN",
    "AppCommand",
    "BotProcess",
    "Button",
    "Channel",
    "ClientRunner",
    "Counters",
    "DiscordDouble",
    "Fault",
    "Guild",
    "InteractionRecord",
    "InteractionTimeout",
    "Member",
    "RateLimitConfig",
    "Role",
    "StoredMessage",
    "User",
]
