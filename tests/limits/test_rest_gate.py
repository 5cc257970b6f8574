"""discord.py's requests take their token at the limiter as they go out (``rest_gate``): a
job's call when it is made, not when the job starts; each of a job's calls; the call's own
channel. Interaction responses and followups never pass the gate: Discord does not count them
against the token's global limit, and neither does the bot."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import discord
import discord.http
import pytest

from bot.discord.endpoints import use_discord_endpoints
from bot.discord.outbox import REPORT, Outbox
from bot.discord.rest_gate import gate_rest_calls
from bot.limits import Limiter, Limits, LocalBackend
from tests.double import ClientRunner, DiscordDouble, RateLimitConfig
from tests.double_tests.bots import make_bot


@pytest.fixture
async def gated(discord_double: DiscordDouble) -> AsyncIterator[discord.http.HTTPClient]:
    use_discord_endpoints(discord_double.api_base, discord_double.gateway_url)
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    yield http
    await http.close()
    use_discord_endpoints(None, None)


def say(http: discord.http.HTTPClient, channel: int, text: str) -> object:
    return http.send_message(channel, params=discord.http.handle_message_parameters(content=text))


async def test_a_job_spends_its_tokens_when_its_calls_go_one_per_call(
    discord_double: DiscordDouble, gated: discord.http.HTTPClient
) -> None:
    limits = Limits(rate=0.5, burst=2.0)  # no refill to speak of within the test
    limiter = Limiter(LocalBackend(), limits)
    gate_rest_calls(gated, limiter)
    await gated.static_login(discord_double.token)  # GET /users/@me: one token
    tokens = limiter.local.tokens(limits, limiter.clock())
    assert limiter.granted == 1 and tokens == pytest.approx(1.0, abs=0.05)
    outbox = Outbox(limiter=limiter)
    rendering = asyncio.Event()
    go_on = asyncio.Event()
    channel = discord_double.channel.id

    async def job() -> None:  # a render that takes a while, then two messages
        rendering.set()
        await go_on.wait()
        await say(gated, channel, "one")
        await say(gated, channel, "two")

    worker = asyncio.create_task(outbox.run())
    try:
        outbox.submit(("report", channel), REPORT, channel, job)
        await rendering.wait()
        # the job has started: nothing is spent until its first call goes
        assert limiter.granted == 1
        assert limiter.local.tokens(limits, limiter.clock()) >= tokens
        go_on.set()
        await outbox.drain(within=10.0)  # the second call waits about 2 s for its token
    finally:
        worker.cancel()
        await outbox.close()
        await limiter.close()
    assert limiter.granted == 3
    assert len(limiter.local._sent[channel]) == 2  # both counted in the call's own channel
    texts = [m.content for m in discord_double.messages_in(discord_double.channel)]
    assert texts[-2:] == ["one", "two"]


async def test_interaction_responses_and_followups_take_no_token(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    bot = make_bot()
    limiter = Limiter(LocalBackend(), Limits())
    gate_rest_calls(bot.http, limiter)

    @bot.tree.command(name="ping", description="Ping")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong")
        await interaction.followup.send("again")
        await interaction.edit_original_response(content="pong!")
        assert interaction.channel is not None
        await interaction.channel.send("a plain message")  # the bot token's: one token

    await run_client(bot)
    await bot.tree.sync()
    before = limiter.granted
    assert before >= 2  # login and the sync went through the gate
    discord_double.counters.reset()
    record = await discord_double.slash(discord_double.members[0], discord_double.channel, "ping")
    await record.wait_followups(1)
    await discord_double.wait_for_message(
        discord_double.channel, lambda m: m.content == "a plain message"
    )
    assert discord_double.counters.interaction_response == 1
    assert discord_double.counters.followup >= 1
    assert limiter.granted == before + 1
    await limiter.close()


@pytest.mark.discord_double(ratelimits=RateLimitConfig(channel_messages=5, channel_window=3.0))
async def test_calls_parked_in_a_spent_route_bucket_hold_no_token_so_a_saturated_burst_draws_no_429(
    discord_double: DiscordDouble, gated: discord.http.HTTPClient
) -> None:
    """120 messages at once, ten in each of twelve channels, while Discord allows 5 in a
    channel per 3 s: the first five of every channel go within about 1.5 s, and discord.py
    parks each channel's sixth to tenth call in its route bucket until the channel's window is
    over, all at about the same moment. A token taken before that wait would be held meanwhile,
    and the 60 parked calls would leave together when the buckets reset (more than 50 in
    Discord's second: global 429s). Taken at the send, every second holds at most what the
    budget granted in it."""
    # The process's own channel log is left out (as for a route it does not model): only
    # discord.py's buckets hold the channel's calls back.
    limits = Limits(rate=40.0, burst=5.0, channel_limit=10**6, channel_window=1.0)
    limiter = Limiter(LocalBackend(), limits)
    gate_rest_calls(gated, limiter)
    await gated.static_login(discord_double.token)
    assert discord_double.guild is not None
    channels = [discord_double.add_text_channel(discord_double.guild, f"b{i}") for i in range(12)]
    discord_double.counters.reset()
    async with asyncio.timeout(30.0):
        await asyncio.gather(
            *(say(gated, c.id, f"{c.name}-{i}") for i in range(10) for c in channels)
        )
    await limiter.close()
    assert sum(len(discord_double.messages_in(c)) for c in channels) == 120
    assert limiter.granted >= 121  # login and every message, no retry needed
    assert discord_double.counters.http_429 == 0
