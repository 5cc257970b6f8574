"""Small discord.py bots the double's own tests drive (not the Hokm bot)."""

from __future__ import annotations

import discord
from discord.ext import commands


async def identify_at_once(shard_id: int | None, *, initial: bool = False) -> None:
    """discord.py sleeps 5 s before every IDENTIFY but the first (one per extra shard, and after
    an invalid session), pacing itself for Discord; the double needs no pacing."""
    return None


def make_bot(*, members: bool = True, sharded: bool = False) -> commands.Bot:
    """A bare ``commands.Bot`` with a short ``guild_ready_timeout`` so start-up is quick."""
    intents = discord.Intents.default()
    intents.members = members
    cls = commands.AutoShardedBot if sharded else commands.Bot
    bot = cls(command_prefix="!", intents=intents, guild_ready_timeout=0.05)
    bot.before_identify_hook = identify_at_once  # type: ignore[method-assign]
    return bot
