"""Closed DMs, missing permissions, injected 5xx, 429, hangs and dropped connections."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
import pytest

from tests.double import ClientRunner, DiscordDouble

from .bots import make_bot


async def text_channel(bot: discord.Client, double: DiscordDouble) -> discord.TextChannel:
    channel = bot.get_channel(double.channel.id)
    assert isinstance(channel, discord.TextChannel)
    return channel


async def test_closed_dms_raise_forbidden_50007(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    bot = await run_client(make_bot())
    darya = discord_double.members[3]
    discord_double.close_dms(darya)

    user = await bot.fetch_user(darya.id)
    with pytest.raises(discord.Forbidden) as caught:
        await user.send("your hand")

    assert caught.value.code == 50007
    assert caught.value.status == 403
    assert "Cannot send messages to this user" in str(caught.value)
    assert discord_double.dms(darya) == []
    assert discord_double.counters.dm == 2  # the DM channel opens fine; the send fails


async def test_missing_send_permission_raises_50013(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    bot = await run_client(make_bot())
    discord_double.deny_send(discord_double.channel)

    with pytest.raises(discord.Forbidden) as caught:
        await (await text_channel(bot, discord_double)).send("hello")
    assert caught.value.code == 50013


async def test_invalid_components_are_refused_like_discord(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    bot = await run_client(make_bot())
    channel = await text_channel(bot, discord_double)
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="x" * 81, custom_id="long"))

    with pytest.raises(discord.HTTPException) as caught:
        await channel.send("bad", view=view)
    assert caught.value.code == 50035
    assert "label" in str(caught.value)
    with pytest.raises(discord.HTTPException) as empty:
        await bot.http.send_message(channel.id, params=discord.http.handle_message_parameters())
    assert empty.value.code == 50006


async def test_injected_500_is_retried_by_discord_py(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    bot = await run_client(make_bot())
    fault = discord_double.fail_next("POST", "/channels/{channel_id}/messages", status=500)

    await (await text_channel(bot, discord_double)).send("after a 500")

    assert fault.hits == 1
    assert discord_double.counters.injected_5xx == 1
    assert discord_double.counters.channel_message == 2
    assert [m.content for m in discord_double.messages_in(discord_double.channel)] == [
        "after a 500"
    ]


async def test_injected_503_is_not_retried_for_bot_requests(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    # discord.py retries 500, 502, 504 and 524 on bot routes, but raises on 503.
    bot = await run_client(make_bot())
    discord_double.fail_next("POST", "/channels/*/messages", status=503)

    with pytest.raises(discord.DiscordServerError) as caught:
        await (await text_channel(bot, discord_double)).send("lost")
    assert caught.value.status == 503
    assert discord_double.messages_in(discord_double.channel) == []


async def test_injected_429_is_retried_transparently(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    bot = await run_client(make_bot())
    discord_double.rate_limit_next("PATCH", "/channels/*/messages/*", retry_after=0.05)
    channel = await text_channel(bot, discord_double)

    message = await channel.send("v1")
    await message.edit(content="v2")

    assert discord_double.counters.http_429 == 1
    assert discord_double.counters.edit == 2
    assert discord_double.last_message(discord_double.channel).content == "v2"


async def test_hang_longer_than_the_caller_waits_is_a_timeout(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    bot = await run_client(make_bot())
    channel = await text_channel(bot, discord_double)
    discord_double.hang_next("POST", "/channels/*/messages", seconds=30)

    with pytest.raises(TimeoutError):
        await asyncio.wait_for(channel.send("slow"), timeout=0.2)

    # A short hang only delays the answer.
    discord_double.hang_next("POST", "/channels/*/messages", seconds=0.05)
    await channel.send("late but fine")
    assert [m.content for m in discord_double.messages_in(discord_double.channel)] == [
        "late but fine"
    ]


async def test_dropped_connection_surfaces_as_a_client_error(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    bot = await run_client(make_bot())
    discord_double.drop_next("POST", "/channels/*/messages")

    with pytest.raises(aiohttp.ClientError):
        await (await text_channel(bot, discord_double)).send("into the void")


async def test_interaction_callback_5xx_is_retried_within_the_deadline(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    bot = make_bot()

    @bot.tree.command(name="ping", description="Ping")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong")

    await run_client(bot)
    await bot.tree.sync()
    discord_double.fail_next("POST", "/interactions/*/callback", status=502)

    record = await discord_double.slash(discord_double.members[0], discord_double.channel, "ping")

    assert record.message.content == "pong"
    assert discord_double.counters.interaction_response == 2
