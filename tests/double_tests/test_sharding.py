"""Sharding as the real discord.py meets it: a shard's READY, guild events on the shard that owns
the guild (``(guild_id >> 22) % shard_count``), DMs on shard 0, and one global rate limit for
every connection of a token, also across processes holding different shards."""

from __future__ import annotations

import asyncio
import json
from collections import Counter

import discord
import pytest
from discord.ext import commands

from tests.double import ClientRunner, DiscordDouble, RateLimitConfig
from tests.double.models import Guild, User

from .bots import identify_at_once

SHARDS = 2


def shard_of(guild_id: int) -> int:
    return (guild_id >> 22) % SHARDS


def sharded_bot(name: str, shard_ids: list[int], seen: Counter[str]) -> commands.AutoShardedBot:
    """One process of a bot run as several: it holds ``shard_ids`` of ``SHARDS``; its /where
    answers with its name; ``seen`` counts what reached it (``name:event``)."""
    bot = commands.AutoShardedBot(
        command_prefix="!",
        intents=discord.Intents.default() | discord.Intents(members=True),
        shard_ids=shard_ids,
        shard_count=SHARDS,
        guild_ready_timeout=0.05,
    )
    bot.before_identify_hook = identify_at_once  # type: ignore[method-assign]

    @bot.tree.command(name="where", description="Which process answers")
    async def where(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(name)

    async def on_interaction(interaction: discord.Interaction) -> None:
        seen[f"{name}:interaction"] += 1

    async def on_member_join(member: discord.Member) -> None:
        seen[f"{name}:member_join"] += 1

    bot.add_listener(on_interaction)
    bot.add_listener(on_member_join)
    return bot


def guild_with_member(double: DiscordDouble, name: str, shard: int, member: User) -> Guild:
    guild = double.create_guild(name, shard=(shard, SHARDS))
    double.add_text_channel(guild, "hokm")
    double.add_member(guild, member)
    assert shard_of(guild.id) == shard
    return guild


async def wait_for(what: str, check: object, timeout: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():  # type: ignore[operator]
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


@pytest.mark.discord_double(shard_count=SHARDS)
async def test_identify_with_a_shard_gets_ready_with_that_shard_and_its_guilds_only(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    member = discord_double.members[1]
    on_0 = guild_with_member(discord_double, "Zero", 0, member)
    on_1 = guild_with_member(discord_double, "One", 1, member)
    bot = sharded_bot("b", [1], Counter())
    await run_client(bot)

    session = discord_double.gateway.live[1]
    assert (session.shard_id, session.shard_count) == (1, SHARDS)
    assert 0 not in discord_double.gateway.live
    ready = json.loads(session.buffer[0][1])
    assert ready["t"] == "READY" and ready["d"]["shard"] == [1, SHARDS]
    owned = {g.id for g in discord_double.world.guilds.values() if shard_of(g.id) == 1}
    assert {int(g["id"]) for g in ready["d"]["guilds"]} == owned
    assert set(bot.shards) == {1} and bot.shard_count == SHARDS
    assert {g.id for g in bot.guilds} == owned
    assert on_1.id in owned and on_0.id not in owned


@pytest.mark.discord_double(shard_count=SHARDS)
async def test_two_processes_of_one_token_split_the_guild_events_and_dms_go_to_shard_0(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    member = discord_double.members[1]
    on_0 = guild_with_member(discord_double, "Zero", 0, member)
    on_1 = guild_with_member(discord_double, "One", 1, member)
    seen: Counter[str] = Counter()
    first = sharded_bot("first", [0], seen)
    second = sharded_bot("second", [1], seen)
    await run_client(first)
    await run_client(second)
    await first.tree.sync()  # one application: its commands serve every shard

    assert discord_double.gateway.stats.identifies == 2
    assert first.get_guild(on_0.id) is not None and first.get_guild(on_1.id) is None
    assert second.get_guild(on_1.id) is not None and second.get_guild(on_0.id) is None
    everything = {g.id for g in first.guilds} | {g.id for g in second.guilds}
    assert everything == set(discord_double.world.guilds)
    assert not {g.id for g in first.guilds} & {g.id for g in second.guilds}

    # INTERACTION_CREATE in a guild: only the process holding that guild's shard.
    for guild, answerer in ((on_0, "first"), (on_1, "second")):
        channel = next(c for c in discord_double.world.channels.values() if c.guild_id == guild.id)
        before = seen.copy()
        record = await discord_double.slash(member, channel, "where")
        assert (
            record.response_type == 4
            and record.message is not None
            and record.message.content == answerer
        )
        assert seen - before == Counter({f"{answerer}:interaction": 1})

    # A DM interaction (no guild): shard 0 only, whichever guild the member came from.
    before = seen.copy()
    record = await discord_double.slash(member, None, "where")
    assert (
        record.response_type == 4
        and record.message is not None
        and record.message.content == "first"
    )
    assert seen - before == Counter({"first:interaction": 1})

    # Guild events after start-up: a new guild and a new member reach only its shard.
    later = discord_double.create_guild("Later", shard=(1, SHARDS))
    await wait_for("GUILD_CREATE on shard 1", lambda: second.get_guild(later.id) is not None)
    discord_double.add_member(on_0, "newcomer")
    await wait_for("GUILD_MEMBER_ADD on shard 0", lambda: seen["first:member_join"] == 1)
    await asyncio.sleep(0.1)  # anything misrouted would have arrived by now
    assert first.get_guild(later.id) is None
    assert seen["second:member_join"] == 0


@pytest.mark.discord_double(shard_count=SHARDS, ratelimits=RateLimitConfig(global_per_second=10))
async def test_every_connection_of_a_token_shares_one_global_rate_limit(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    """Two processes, each within the budget alone, go over it together: Discord's global
    limit belongs to the token, so the double answers global 429s, which discord.py waits
    out, and every request still arrives."""
    first = sharded_bot("first", [0], Counter())
    second = sharded_bot("second", [1], Counter())
    await run_client(first)
    await run_client(second)
    users = [m.id for m in discord_double.members]

    async def burst(bot: commands.Bot, n: int) -> list[str]:
        found = await asyncio.gather(*(bot.http.get_user(users[i % len(users)]) for i in range(n)))
        return [str(u["id"]) for u in found]

    await asyncio.sleep(1.05)  # a fresh one-second window
    discord_double.limiter.reset()
    assert len(await burst(first, 8)) == 8  # one process alone stays under 10 a second
    assert discord_double.counters.http_429_global == 0

    await asyncio.sleep(1.05)
    discord_double.limiter.reset()
    both = await asyncio.gather(burst(first, 8), burst(second, 8))
    assert [len(b) for b in both] == [8, 8]  # all arrive, after waiting out the 429s
    assert discord_double.counters.http_429_global >= 6  # 16 asked, 10 fit in the window
