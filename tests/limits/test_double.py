"""Two processes' worth of senders on one token against the Discord double, whose rate limits
are per token across every connection (``tests/double/ratelimit.py``): two discord.py HTTP
clients, each with its own connections, limiter front and outbox, as two bot processes have.

Sharing one budget (PostgreSQL, Redis), a burst far above 50 calls a second from both together
draws no 429; each keeping its own local budget of 40, the same burst does (the control)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

import discord
import discord.http
import pytest

from bot.discord.endpoints import use_discord_endpoints
from bot.discord.outbox import TABLE, Outbox
from bot.discord.rest_gate import gate_rest_calls
from bot.limits import Backend, Limiter, Limits, LocalBackend
from bot.limits.postgres_backend import PostgresBackend
from bot.limits.redis_backend import RedisBackend
from tests.double import DiscordDouble, RateLimitConfig

PER_PROCESS = 60
"""Messages each sender queues at once: 120 in all, 3 seconds' worth of the shared 40 a
second, which the two would send at 80 a second on budgets of their own."""
CHANNELS = 40

Sender = tuple[discord.http.HTTPClient, Outbox, Limiter]
MakeSender = Callable[[Backend, Limits], Awaitable[Sender]]


@pytest.fixture
async def make_sender(discord_double: DiscordDouble) -> AsyncIterator[MakeSender]:
    made: list[Sender] = []
    workers: list[asyncio.Task[None]] = []
    use_discord_endpoints(discord_double.api_base, discord_double.gateway_url)

    async def make(backend: Backend, limits: Limits) -> Sender:
        limiter = Limiter(backend, limits)
        await limiter.start()
        http = discord.http.HTTPClient(asyncio.get_running_loop())
        gate_rest_calls(http, limiter)
        await http.static_login(discord_double.token)
        outbox = Outbox(limiter=limiter)
        workers.append(asyncio.create_task(outbox.run()))
        made.append((http, outbox, limiter))
        return made[-1]

    yield make
    for task in workers:
        task.cancel()
    for http, outbox, limiter in made:
        await outbox.close()
        await http.close()
        await limiter.close()
    use_discord_endpoints(None, None)


def queue_messages(outbox: Outbox, http: discord.http.HTTPClient, channels: list[int], tag: str):
    """``PER_PROCESS`` jobs, each one message, spread over ``channels``."""
    for i in range(PER_PROCESS):
        channel = channels[i % len(channels)]

        async def job(channel: int = channel, i: int = i) -> None:
            params = discord.http.handle_message_parameters(content=f"{tag}{i}")
            await http.send_message(channel, params=params)

        outbox.submit((tag, i), TABLE, channel, job)


async def burst(double: DiscordDouble, a: Sender, b: Sender) -> None:
    assert double.guild is not None
    channels = [double.add_text_channel(double.guild, f"c{i}").id for i in range(CHANNELS)]
    double.counters.reset()
    queue_messages(a[1], a[0], channels, "a")
    queue_messages(b[1], b[0], channels, "b")
    await asyncio.gather(a[1].drain(within=30.0), b[1].drain(within=30.0))
    sent = sum(len(double.messages_in(double.world.channels[c])) for c in channels)
    assert sent == 2 * PER_PROCESS  # every message arrived, 429 or not


@pytest.mark.parametrize("kind", ["postgresql", "redis"])
async def test_two_senders_sharing_one_budget_draw_no_429(
    kind: str,
    discord_double: DiscordDouble,
    make_sender: MakeSender,
    request: pytest.FixtureRequest,
) -> None:
    def backend() -> Backend:
        if kind == "postgresql":
            return PostgresBackend(request.getfixturevalue("pg_url"), "double-burst")
        return RedisBackend(
            request.getfixturevalue("redis_server").url, request.getfixturevalue("redis_prefix")
        )

    a = await make_sender(backend(), Limits(rate=40.0))
    b = await make_sender(backend(), Limits(rate=40.0))
    await burst(discord_double, a, b)
    assert discord_double.counters.http_429 == 0
    assert a[2].fallback_grants == b[2].fallback_grants == 0
    assert min(a[2].granted, b[2].granted) >= PER_PROCESS  # both sent their share


async def test_control_two_senders_on_budgets_of_their_own_are_429d(
    discord_double: DiscordDouble, make_sender: MakeSender
) -> None:
    a = await make_sender(LocalBackend(), Limits(rate=40.0))
    b = await make_sender(LocalBackend(), Limits(rate=40.0))
    await burst(discord_double, a, b)
    assert discord_double.counters.http_429_global >= 1


@pytest.mark.discord_double(ratelimits=RateLimitConfig(channel_messages=2, channel_window=0.5))
@pytest.mark.parametrize("kind", ["postgresql", "redis"])
async def test_two_senders_keep_one_channel_within_its_limit(
    kind: str,
    discord_double: DiscordDouble,
    make_sender: MakeSender,
    request: pytest.FixtureRequest,
) -> None:
    """A DM channel both processes write to (a player whose tables two processes serve)."""

    def backend() -> Backend:
        if kind == "postgresql":
            return PostgresBackend(request.getfixturevalue("pg_url"), "double-channel")
        return RedisBackend(
            request.getfixturevalue("redis_server").url, request.getfixturevalue("redis_prefix")
        )

    # The window a little over the double's: a call counted as it leaves arrives a moment later.
    limits = Limits(rate=40.0, channel_limit=2, channel_window=0.6)
    senders = [await make_sender(backend(), limits) for _ in range(2)]
    channel = discord_double.channel.id
    discord_double.counters.reset()
    for tag, (http, outbox, _) in zip("ab", senders, strict=True):
        for i in range(3):

            async def job(http: discord.http.HTTPClient = http, text: str = f"{tag}{i}") -> None:
                params = discord.http.handle_message_parameters(content=text)
                await http.send_message(channel, params=params)

            outbox.submit((tag, i), TABLE, channel, job)
    await asyncio.gather(*(outbox.drain(within=30.0) for _, outbox, _ in senders))
    contents = sorted(m.content for m in discord_double.messages_in(discord_double.channel))
    assert contents == ["a0", "a1", "a2", "b0", "b1", "b2"]
    assert discord_double.counters.http_429 == 0
