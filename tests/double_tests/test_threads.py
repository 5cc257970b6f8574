"""The double's threads, driven by the real discord.py: a public thread started from a
message (it takes the message's id; a second one on that message is refused, 160004) or in
a channel without one, a message posted in it, each announced by THREAD_CREATE so the bot's
cache has it, listed by the server's active threads; and the permissions each step needs."""

from __future__ import annotations

import discord
import pytest

from tests.double import ClientRunner, DiscordDouble
from tests.double.models import (
    BOT_ROLE_PERMISSIONS,
    CREATE_PUBLIC_THREADS,
    SEND_MESSAGES_IN_THREADS,
)

from .bots import make_bot


def grant_threads(double: DiscordDouble, permissions: int) -> None:
    """The bot's role has ``permissions`` besides its own."""
    assert double.guild is not None
    role = next(r for r in double.guild.roles.values() if r.managed)
    role.permissions = BOT_ROLE_PERMISSIONS | permissions


async def test_a_thread_from_a_message_and_in_a_channel_and_a_message_in_each(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    double = discord_double
    grant_threads(double, CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS)
    bot = make_bot()
    await run_client(bot)
    channel = bot.get_channel(double.channel.id)
    assert isinstance(channel, discord.TextChannel)

    message = await channel.send("the tournament")
    thread = await message.create_thread(name="Cup · round 1 · table 1")
    assert thread.id == message.id and thread.parent_id == channel.id
    posted = await thread.send("your table is here")
    assert double.message(posted.id).channel_id == thread.id
    with pytest.raises(discord.HTTPException) as refused:
        await message.create_thread(name="again")
    assert refused.value.code == 160004

    other = await channel.create_thread(
        name="Cup · round 1 · table 2", type=discord.ChannelType.public_thread
    )
    assert other.parent_id == channel.id and other.type is discord.ChannelType.public_thread
    await double.wait_until(lambda: bot.get_channel(other.id) is not None, what="THREAD_CREATE")
    assert isinstance(bot.get_channel(other.id), discord.Thread)
    await other.send("and here")
    active = await channel.guild.active_threads()
    assert {t.name for t in active} == {"Cup · round 1 · table 1", "Cup · round 1 · table 2"}
    assert {t.parent_id for t in active} == {channel.id}


@pytest.mark.parametrize("has", [0, CREATE_PUBLIC_THREADS])
async def test_without_the_permissions_the_double_refuses(
    discord_double: DiscordDouble, run_client: ClientRunner, has: int
) -> None:
    double = discord_double
    grant_threads(double, has)
    bot = make_bot()
    await run_client(bot)
    channel = bot.get_channel(double.channel.id)
    assert isinstance(channel, discord.TextChannel)
    if not has:  # Create Public Threads missing: no thread
        with pytest.raises(discord.Forbidden):
            await channel.create_thread(name="t", type=discord.ChannelType.public_thread)
        assert double.guild is not None and not double.guild.threads
        return
    thread = await channel.create_thread(name="t", type=discord.ChannelType.public_thread)
    with pytest.raises(discord.Forbidden):  # Send Messages in Threads missing: no post
        await thread.send("hello")
