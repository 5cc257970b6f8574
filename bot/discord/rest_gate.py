"""Every REST call discord.py makes with the bot token waits at the limiter just before it goes.

discord.py's ``HTTPClient.request`` is where a call leaves (the outbox's jobs, a DM channel
opened, start-up): counting there, rather than when a job starts, keeps the budget honest on a
busy event loop, where a job's call may leave well after the job began, and counts a job's
second call when it is made. Interaction responses and followups never pass here: discord.py
sends them through its webhook adapter, and Discord does not count them against the global
limit. The channel of a call is discord.py's own ``Route.channel_id``.
"""

from __future__ import annotations

from typing import Any

import discord.http

from ..limits import Limiter

EXEMPT_PREFIXES = ("/interactions/", "/webhooks/{webhook_id}/{webhook_token}")
"""Interaction-token routes (outside the global limit), should discord.py ever send one here."""


def gate_rest_calls(http: discord.http.HTTPClient, limiter: Limiter) -> None:
    """Make ``http`` acquire from ``limiter`` before each request it sends."""
    send = http.request

    async def request(route: discord.http.Route, **kwargs: Any) -> Any:
        if not route.path.startswith(EXEMPT_PREFIXES):
            channel = route.channel_id
            await limiter.acquire(int(channel) if channel is not None else None)
        return await send(route, **kwargs)

    # A deliberate per-instance patch: discord.py offers no hook before a request.
    http.request = request  # type: ignore[method-assign]
