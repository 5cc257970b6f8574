"""One budget for the bot token's REST calls, however many processes share the token.

Discord allows a bot token about 50 non-interaction calls a second in all, and a channel about
5 message creates or edits per 5 s (``docs/scaling.md``, "One budget for the token"). Every
such call this process makes passes ``Limiter.acquire`` just before it goes out; the budget
itself is kept by a backend: in this process (``local``), or shared by every process of the
token in PostgreSQL or Redis. Discord-free: the edge (``bot.discord.rest_gate``) wires it to
discord.py.
"""

from .base import Backend, Call, Limits, Verdict, namespace_of
from .choose import backend_kind, build_limiter
from .front import Limiter, call_priority
from .local import LocalBackend

__all__ = [
    "Backend",
    "Call",
    "Limiter",
    "Limits",
    "LocalBackend",
    "Verdict",
    "backend_kind",
    "build_limiter",
    "call_priority",
    "namespace_of",
]
