"""A throwaway bot process for testing ``BotProcess``; it reads the same environment variables
as the Hokm bot (HOKM_DISCORD_API_BASE, HOKM_DISCORD_GATEWAY_URL, HOKM_DISCORD_TOKEN)."""

from __future__ import annotations

import asyncio
import os
import signal

import discord
from discord import app_commands

from bot.discord.endpoints import use_discord_endpoints


async def main() -> int:
    use_discord_endpoints(
        os.environ.get("HOKM_DISCORD_API_BASE"), os.environ.get("HOKM_DISCORD_GATEWAY_URL")
    )
    client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.05)
    tree = app_commands.CommandTree(client)

    @tree.command(name="ping", description="Ping")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"pong from pid {os.getpid()}")

    async def setup_hook() -> None:
        await tree.sync()

    client.setup_hook = setup_hook  # type: ignore[method-assign]

    @client.event
    async def on_ready() -> None:
        print("tiny bot ready", flush=True)

    stopping: set[asyncio.Task[None]] = set()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, lambda: stopping.add(loop.create_task(client.close())))
    async with client:
        await client.start(os.environ["HOKM_DISCORD_TOKEN"])
    print("tiny bot stopped", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
