"""Run real discord.py clients in the test's own event loop against a double."""

# Waiting helpers take a timeout so a failure can say what it waited for.
# ruff: noqa: ASYNC109, RUF100

from __future__ import annotations

import asyncio
import contextlib

import discord
import discord.gateway
import discord.http

from bot.discord.endpoints import use_discord_endpoints

from .server import DiscordDouble

FAST_GUILD_READY_TIMEOUT = 0.05


class ClientRunner:
    """Starts clients as tasks, waits until they are ready, and closes them all at the end.

    discord.py waits ``guild_ready_timeout`` (2 s by default) after the last GUILD_CREATE before
    it fires ``on_ready``, because it cannot know how many guilds will come. The double sends
    every GUILD_CREATE right after READY, so the runner shortens that wait to 0.05 s unless the
    client was built with a smaller value (``fast_ready=False`` keeps the client's own value).
    """

    def __init__(self, double: DiscordDouble) -> None:
        self.double = double
        self._running: list[tuple[discord.Client, asyncio.Task[None]]] = []
        self._saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)

    async def __call__(
        self, client: discord.Client, *, timeout: float = 10.0, fast_ready: bool = True
    ) -> discord.Client:
        return await self.start(client, timeout=timeout, fast_ready=fast_ready)

    async def start(
        self, client: discord.Client, *, timeout: float = 10.0, fast_ready: bool = True
    ) -> discord.Client:
        """Log ``client`` in against the double and return once ``client.is_ready()``."""
        use_discord_endpoints(self.double.api_base, self.double.gateway_url)
        state = client._connection
        if fast_ready and state.guild_ready_timeout > FAST_GUILD_READY_TIMEOUT:
            state.guild_ready_timeout = FAST_GUILD_READY_TIMEOUT
        task = asyncio.create_task(client.start(self.double.token), name="double-client")
        self._running.append((client, task))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not client.is_ready():
            if task.done():
                exc = task.exception()
                raise RuntimeError(f"the client stopped before it was ready: {exc!r}") from exc
            if loop.time() > deadline:
                raise AssertionError(f"the client was not ready within {timeout:g} s")
            await asyncio.sleep(0.005)
        return client

    async def close_all(self) -> None:
        """Close every client started here and restore discord.py's endpoints."""
        for client, task in reversed(self._running):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.close(), timeout=5.0)
            if not task.done():
                task.cancel()
            with contextlib.suppress(BaseException):
                await task
        self._running.clear()
        use_discord_endpoints(None, None)
        discord.http.Route.BASE = self._saved[0]
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved[1]
