"""Every REST call discord.py makes with the bot token waits at the limiter just as it is sent.

The token is taken inside aiohttp's request, after discord.py's own waits: its per-route bucket
(``Ratelimit``, which holds a call while Discord's ``X-RateLimit-*`` headers say the route is
spent, or while a new route's first call is out) and its global lock after a 429. Taken before
them, as it once was, a token could be held for a second or more by a call parked in a spent
channel's bucket; such calls left together when the bucket reset, on top of the calls granted
then, and Discord counted more than 50 in its second (global 429s at saturation). Counted at the
send, the calls that reach Discord in any second are the ones the budget granted in it. A retry
discord.py makes after a 429 or a 5xx is a call of its own, and takes a token of its own.

Counting as calls leave, rather than when a job starts, also keeps the budget honest on a busy
event loop, where a job's call may leave well after the job began, and counts a job's second
call when it is made. Interaction responses and followups never take a token: discord.py sends
them through its webhook adapter, not ``HTTPClient.request``, and Discord does not count them
against the global limit. The channel of a call is discord.py's own ``Route.channel_id``.
"""

from __future__ import annotations

from contextvars import ContextVar
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord.http

from ..limits import Limiter

EXEMPT_PREFIXES = ("/interactions/", "/webhooks/{webhook_id}/{webhook_token}")
"""Interaction-token routes (outside the global limit), should discord.py ever send one here."""

_gated: ContextVar[tuple[int | None] | None] = ContextVar("hokm_gated_call", default=None)
"""Set while discord.py sends one gated call: its channel. Requests on the same session that
are not the bot token's calls (the webhook adapter's, the gateway's) leave it unset."""


def gate_rest_calls(http: discord.http.HTTPClient, limiter: Limiter) -> None:
    """Make each request ``http`` sends take a token from ``limiter`` as it goes. Before
    ``static_login``: the hook is an aiohttp trace the session is created with."""
    if getattr(http, "_HTTPClient__session", None) not in (None, discord.utils.MISSING):
        raise RuntimeError("gate_rest_calls must run before the client logs in")
    send = http.request

    async def request(route: discord.http.Route, **kwargs: Any) -> Any:
        if route.path.startswith(EXEMPT_PREFIXES):
            return await send(route, **kwargs)
        channel = route.channel_id
        mark = _gated.set((int(channel) if channel is not None else None,))
        try:
            return await send(route, **kwargs)
        finally:
            _gated.reset(mark)

    async def on_request_start(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestStartParams,
    ) -> None:
        # aiohttp awaits this in the request itself, after discord.py's waits, before the
        # connection is taken and the request written: each try of a gated call, once.
        gated = _gated.get()
        if gated is not None:
            await limiter.acquire(gated[0])

    trace = http.http_trace or aiohttp.TraceConfig()
    trace.on_request_start.append(on_request_start)
    http.http_trace = trace
    # A deliberate per-instance patch: discord.py offers no hook that knows a request's route.
    http.request = request  # type: ignore[method-assign]
