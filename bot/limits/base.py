"""What every limiter backend shares: the limits, a backend's answer, and its interface.

A backend answers one question atomically: may one REST call go now in channel C (the token's
global bucket and the channel's own budget both have room)? If so it takes from both; if not it
takes nothing and says how long to wait. It answers it for several calls at once, in order, in
one round trip (``try_acquire_many``): a process whose calls queue while it waits for an answer
asks for all of them the next time. The local backend answers for this process alone; the
PostgreSQL and Redis ones for every process that shares them, on the server's clock.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

Call = tuple[int | None, float]
"""One call asked for: its channel (``None``: global budget only) and the global tokens it
leaves behind (``Limits.reserve_for``)."""


@dataclass
class Limits:
    """The budget, the same on every process that shares one (each passes its own values with
    every call, so processes with different values get whichever asked last)."""

    rate: float = 40.0
    """Global calls a second (Discord's global limit is 50)."""
    burst: float = 5.0
    """Global calls that may go at once after a quiet spell: in any window of W seconds at
    most ``burst + rate * W`` calls go (45 in a second with the defaults)."""
    channel_limit: int = 5
    """Calls in one channel per ``channel_window`` seconds, counted over a sliding window."""
    channel_window: float = 5.0
    urgent: int = 1
    """Calls of this priority or a more urgent one (a lower number) may take the bucket's last
    token; the others leave ``reserve`` tokens in it."""
    reserve: float = 2.0
    """Global tokens a call that may wait leaves for urgent ones. A process orders its own calls
    by priority, but the shared bucket serves whichever process asks first: without a reserve
    one process's table edits take the tokens another process's turn marks wait for."""

    def reserve_for(self, priority: int) -> float:
        """The reserve a call of ``priority`` keeps (each backend caps it below its own burst,
        so that the call can always go in the end)."""
        return 0.0 if priority <= self.urgent else self.reserve


@dataclass(frozen=True)
class Verdict:
    """A backend's answer. ``wait == 0``: granted, one token taken from both budgets."""

    wait: float = 0.0
    """Seconds until the call may be asked for again (nothing was taken)."""
    channel: bool = False
    """The channel's budget said wait, not the global one."""
    tokens: float = 0.0
    """Global tokens left after this answer: a hint for estimates."""

    @property
    def granted(self) -> bool:
        return self.wait <= 0.0


class Backend(Protocol):
    """One place the budget is kept."""

    name: str
    """``local``, ``postgresql`` or ``redis``, for log lines."""

    async def connect(self) -> None:
        """Open the connection and create what the backend needs; raises when it cannot."""

    async def try_acquire(
        self, channel_id: int | None, limits: Limits, reserve: float = 0.0
    ) -> Verdict:
        """Take a token for one call in ``channel_id`` (``None``: a call outside any channel,
        global budget only) if both budgets have room, leaving at least ``reserve`` global
        tokens behind (``Limits.reserve_for``), atomically."""

    async def try_acquire_many(self, calls: Sequence[Call], limits: Limits) -> list[Verdict]:
        """``try_acquire`` for each of ``calls`` in turn, in one atomic step and one round trip:
        a call refused (its channel full, or the bucket down to its reserve) takes nothing, and
        the calls after it are still asked for (a more urgent one may take the reserve)."""

    async def close(self) -> None:
        """Drop the connection (idempotent); ``connect`` may open it again."""


def namespace_of(token: str | None, api_base: str | None = None) -> str:
    """The budget's name: the same for every process of one bot token (and API), different for
    another bot on the same database or Redis. A hash, so the token is never stored."""
    seed = f"{token or ''}|{api_base or ''}"
    return hashlib.sha256(seed.encode()).hexdigest()[:16]
