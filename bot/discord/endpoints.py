"""Point discord.py at another REST base and gateway (a REST proxy, or a local Discord double).

discord.py has no option for this, but reads three places that can be set before the client
starts (checked against discord.py 2.7):

- ``discord.http.Route.BASE``: read each time a ``Route`` is built, i.e. on every request,
  including interaction callbacks and webhooks (they use the same ``Route``).
- ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``: where a plain ``Client`` opens its
  first gateway connection, and where any client re-identifies after a non-resumable
  INVALID_SESSION. Resumes go to ``resume_gateway_url`` from READY, so the gateway that sent
  READY decides where resumes go (a gateway proxy must rewrite that field).
- ``HTTPClient.get_bot_gateway``: an ``AutoShardedClient`` without an explicit ``shard_count``
  takes its gateway URL from ``GET /gateway/bot``. When a gateway URL is configured, the answer's
  ``url`` is replaced by it, so the override holds for sharded bots too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord.gateway
import discord.http
import yarl

if TYPE_CHECKING:
    from discord.types.gateway import SessionStartLimit

DISCORD_API_BASE = "https://discord.com/api/v10"
DISCORD_GATEWAY = "wss://gateway.discord.gg/"

_original_get_bot_gateway = discord.http.HTTPClient.get_bot_gateway
_gateway_override: str | None = None


async def _get_bot_gateway(self: discord.http.HTTPClient) -> tuple[int, str, SessionStartLimit]:
    """``GET /gateway/bot``, with the configured gateway URL in place of the one returned."""
    shards, url, limits = await _original_get_bot_gateway(self)
    return shards, _gateway_override or url, limits


def use_discord_endpoints(api_base: str | None, gateway_url: str | None) -> None:
    """Send discord.py's REST calls to ``api_base`` and its gateway connections to ``gateway_url``.

    ``api_base`` is the full versioned base, e.g. ``http://127.0.0.1:8080/api/v10``; a trailing
    slash is dropped. ``gateway_url`` is a websocket URL such as ``ws://127.0.0.1:8080/gateway``
    (discord.py appends ``?v=10&encoding=json&compress=...``). ``None`` restores Discord's own
    endpoint for that half (so does an empty string, as from an empty environment variable), so
    calling this with the values from configuration is always safe.
    Call it before the client starts; it changes process-wide class attributes and affects
    every client in the process.
    """
    global _gateway_override
    gateway_url = gateway_url or None
    base = (api_base or DISCORD_API_BASE).rstrip("/")
    if not base.startswith(("http://", "https://")):
        raise ValueError(f"api_base must be an http(s) URL, got {api_base!r}")
    if gateway_url is not None and not gateway_url.startswith(("ws://", "wss://")):
        raise ValueError(f"gateway_url must be a ws(s) URL, got {gateway_url!r}")
    discord.http.Route.BASE = base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url or DISCORD_GATEWAY)
    _gateway_override = gateway_url
    # A deliberate monkeypatch of discord.py's class; mypy forbids assigning to a method.
    if gateway_url is None:
        discord.http.HTTPClient.get_bot_gateway = _original_get_bot_gateway  # type: ignore[method-assign]
    else:
        discord.http.HTTPClient.get_bot_gateway = _get_bot_gateway  # type: ignore[method-assign]
