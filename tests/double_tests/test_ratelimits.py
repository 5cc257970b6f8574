"""Discord's 429s as discord.py meets them: per-channel bursts, the global limit, exemptions."""

from __future__ import annotations

import asyncio

import discord
import discord.http
import pytest

from tests.double import ClientRunner, DiscordDouble, RateLimitConfig

from .bots import make_bot

SMALL_CHANNEL_LIMIT = RateLimitConfig(channel_messages=2, channel_window=0.5)


async def send_many(http: discord.http.HTTPClient, channel_id: int, prefix: str, n: int) -> None:
    await asyncio.gather(
        *(
            http.send_message(
                channel_id, params=discord.http.handle_message_parameters(content=f"{prefix}{i}")
            )
            for i in range(n)
        )
    )


@pytest.mark.discord_double(ratelimits=SMALL_CHANNEL_LIMIT)
async def test_one_client_obeys_the_headers_and_never_sees_a_429(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    bot = await run_client(make_bot())

    await send_many(bot.http, discord_double.channel.id, "m", 5)

    assert discord_double.counters.http_429 == 0
    assert len(discord_double.messages_in(discord_double.channel)) == 5


@pytest.mark.discord_double(ratelimits=SMALL_CHANNEL_LIMIT)
async def test_channel_burst_from_two_clients_is_429d_retried_and_all_arrive(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    # Two processes sharing a token each believe they have the channel's whole budget.
    bot = await run_client(make_bot())
    other = discord.http.HTTPClient(asyncio.get_running_loop())
    await other.static_login(discord_double.token)
    try:
        await asyncio.gather(
            send_many(bot.http, discord_double.channel.id, "a", 3),
            send_many(other, discord_double.channel.id, "b", 3),
        )
    finally:
        await other.close()

    assert discord_double.counters.http_429 >= 1
    assert discord_double.counters.http_429_global == 0
    contents = sorted(m.content for m in discord_double.messages_in(discord_double.channel))
    assert contents == ["a0", "a1", "a2", "b0", "b1", "b2"]
    assert discord_double.counters.channel_message == 6 + discord_double.counters.http_429


async def test_global_limit_is_429d_with_global_flag_and_retried(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    bot = await run_client(make_bot())

    users = await asyncio.gather(*(bot.fetch_user(discord_double.manager.id) for _ in range(60)))

    assert len(users) == 60
    assert discord_double.counters.http_429_global >= 1
    assert discord_double.counters.http_429 == discord_double.counters.http_429_global


@pytest.mark.discord_double(ratelimits=RateLimitConfig(global_per_second=3))
async def test_interaction_responses_and_followups_do_not_spend_the_global_budget(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    bot = make_bot()

    @bot.tree.command(name="ping", description="Ping")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong")
        await interaction.followup.send("again")

    await run_client(bot)
    await bot.tree.sync()
    discord_double.counters.reset()

    records = await asyncio.gather(
        *(discord_double.slash(m, discord_double.channel, "ping") for m in discord_double.members)
    )
    await asyncio.gather(*(r.wait_followups(1) for r in records))

    assert discord_double.counters.http_429 == 0
    assert discord_double.counters.interaction_response == 4
    assert discord_double.counters.followup == 4
    assert discord_double.counters.non_interaction == 0


@pytest.mark.discord_double(ratelimits=False)
async def test_limits_can_be_switched_off(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    bot = await run_client(make_bot())

    await send_many(bot.http, discord_double.channel.id, "m", 12)

    assert discord_double.counters.http_429 == 0
    assert len(discord_double.messages_in(discord_double.channel)) == 12
