"""Sharding as the real discord.py meets it: a shard's READY, guild events on the shard that owns
the guild (``(guild_id >> 22) % shard_count``), DMs on shard 0, and one global rate limit for
every connection of a token, also across processes holding different shards. IDENTIFY's
``shard`` checked as Discord does (4010), and the routing frame by frame on bare sessions."""

# Waiting helpers take a timeout so a failure can say what it waited for.
# ruff: noqa: ASYNC109, RUF100

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
import discord
import pytest
from discord.ext import commands

from tests.double import ClientRunner, DiscordDouble, RateLimitConfig
from tests.double.gateway import (
    DIRECT_MESSAGES,
    GUILD_MESSAGES,
    GUILDS,
    INVALID_SHARD,
    MESSAGE_CONTENT,
)
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

    session = discord_double.gateway.live[(1, SHARDS)]
    assert (session.shard_id, session.shard_count) == (1, SHARDS)
    assert list(discord_double.gateway.live) == [(1, SHARDS)]
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


# --------------------------------------------------------------------------- bare sessions


class BareSession:
    """One gateway connection without a library: HELLO, IDENTIFY, then every frame kept."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.events: list[tuple[str, dict[str, Any]]] = []
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for msg in self.ws:
            if msg.type is aiohttp.WSMsgType.TEXT:
                frame = json.loads(msg.data)
                if frame.get("op") == 0:
                    self.events.append((frame["t"], frame["d"]))

    def named(self, event: str) -> list[dict[str, Any]]:
        return [data for name, data in self.events if name == event]

    async def wait_for(self, what: str, check: Callable[[], bool], timeout: float = 5.0) -> None:
        await wait_for(what, check, timeout)

    async def close(self) -> None:
        await self.ws.close()
        await self._reader


@asynccontextmanager
async def bare_gateway(double: DiscordDouble) -> AsyncIterator[Callable[..., Any]]:
    """``session = await identify(shard, intents=…)`` opens a bare session (``shard`` as
    IDENTIFY carries it; the key is left out for ``...``) and waits for its READY."""
    opened: list[BareSession] = []
    async with aiohttp.ClientSession() as http:

        async def identify(shard: object = ..., *, intents: int = GUILDS) -> BareSession:
            ws = await http.ws_connect(double.gateway_url)
            hello = await ws.receive_json(timeout=5)
            assert hello["op"] == 10
            data: dict[str, Any] = {
                "token": double.token,
                "intents": intents,
                "properties": {"os": "linux", "browser": "test", "device": "test"},
            }
            if shard is not ...:
                data["shard"] = shard
            await ws.send_json({"op": 2, "d": data})
            session = BareSession(ws)
            opened.append(session)
            await session.wait_for("READY", lambda: bool(session.named("READY")))
            return session

        try:
            yield identify
        finally:
            for session in opened:
                await session.close()


BAD_SHARDS = [[2, 2], [-1, 2], [0, 0], [0], [0, 1, 2], "0,2", [True, 2], [0.0, 2], [0, "2"], {}]


@pytest.mark.parametrize("shard", BAD_SHARDS, ids=[json.dumps(b) for b in BAD_SHARDS])
async def test_an_invalid_shard_in_identify_is_closed_with_4010(
    discord_double: DiscordDouble, shard: object
) -> None:
    """Discord's close code 4010, Invalid shard: "You sent us an invalid shard when
    identifying" (docs/discord_double.md has the source); no session is opened."""
    async with aiohttp.ClientSession() as http:
        ws = await http.ws_connect(discord_double.gateway_url)
        assert (await ws.receive_json(timeout=5))["op"] == 10
        identify = {"token": discord_double.token, "intents": GUILDS, "shard": shard}
        await ws.send_json({"op": 2, "d": identify})
        closing = await ws.receive(timeout=5)
        assert closing.type is aiohttp.WSMsgType.CLOSE
        assert closing.data == INVALID_SHARD == 4010
        await ws.close()
    stats = discord_double.gateway.stats
    assert (stats.identifies, stats.invalid_shards) == (0, 1)
    assert not discord_double.gateway.live and not discord_double.internal_errors


@pytest.mark.parametrize("shard", [..., None, [0, 1]], ids=["absent", "null", "[0,1]"])
async def test_without_a_shard_one_session_receives_every_guild_and_the_dms(
    discord_double: DiscordDouble, shard: object
) -> None:
    others = [discord_double.create_guild(f"G{i}", shard=(i, 3)) for i in range(3)]
    member = discord_double.members[1]
    async with bare_gateway(discord_double) as identify:
        session = await identify(shard)
        ready = session.named("READY")[0]
        assert ready["shard"] == [0, 1]
        assert {int(g["id"]) for g in ready["guilds"]} == set(discord_double.world.guilds)
        assert {g.id for g in others} <= {int(g["id"]) for g in ready["guilds"]}

        record = await discord_double.slash(member, None, "anything", strict=False, wait=False)
        await session.wait_for(
            "the DM interaction", lambda: bool(session.named("INTERACTION_CREATE"))
        )
        assert record.delivered


@pytest.mark.discord_double(shard_count=2)
async def test_message_events_go_to_the_shard_of_their_guild_and_dms_to_shard_0(
    discord_double: DiscordDouble,
) -> None:
    """MESSAGE_CREATE from a member (gateway) and from the bot (REST) follow the guild; a DM
    has no guild and goes to shard 0 only, whichever shard the member's guild is on."""
    member = discord_double.members[1]
    on_1 = guild_with_member(discord_double, "One", 1, member)
    channel_1 = next(c for c in discord_double.world.channels.values() if c.guild_id == on_1.id)
    home = discord_double.channel
    assert home is not None and home.guild_id is not None
    home_shard = shard_of(home.guild_id)
    dm = discord_double.world.open_dm(member)
    intents = GUILDS | GUILD_MESSAGES | DIRECT_MESSAGES | MESSAGE_CONTENT
    async with bare_gateway(discord_double) as identify, aiohttp.ClientSession() as http:
        sessions = {
            0: await identify([0, 2], intents=intents),
            1: await identify([1, 2], intents=intents),
        }

        discord_double.say(member, channel_1, "in a guild on shard 1")
        discord_double.say(member, dm, "in a DM")
        auth = {"Authorization": f"Bot {discord_double.token}"}
        url = f"{discord_double.api_base}/channels/{home.id}/messages"
        async with http.post(url, json={"content": "from the bot"}, headers=auth) as resp:
            assert resp.status == 200

        expected = {
            0: {"in a DM"} | ({"from the bot"} if home_shard == 0 else set()),
            1: {"in a guild on shard 1"} | ({"from the bot"} if home_shard == 1 else set()),
        }

        def contents(shard: int) -> set[str]:
            return {m["content"] for m in sessions[shard].named("MESSAGE_CREATE")}

        for shard, wanted in expected.items():
            await sessions[shard].wait_for(
                f"messages on shard {shard}", lambda s=shard, w=wanted: contents(s) >= w
            )
        await asyncio.sleep(0.1)  # anything misrouted would have arrived by now
        assert {shard: contents(shard) for shard in sessions} == expected


async def test_sessions_with_different_shard_counts_each_receive_their_share(
    discord_double: DiscordDouble,
) -> None:
    """``num_shards`` only routes (Discord: "sessions with different num_shards values" are
    allowed, e.g. to hand traffic over to a new deployment): each session gets the guilds its
    own ``[shard_id, num_shards]`` owns, so a guild may reach several sessions."""
    pairs = [(0, 1), (1, 2), (3, 4)]
    guilds = [discord_double.create_guild(f"G{i}", shard=(i % 4, 4)) for i in range(8)]
    async with bare_gateway(discord_double) as identify:
        sessions = {pair: await identify(list(pair)) for pair in pairs}

        def owns(pair: tuple[int, int], guild_id: int) -> bool:
            return (guild_id >> 22) % pair[1] == pair[0]

        everything = set(discord_double.world.guilds)
        for pair, session in sessions.items():
            ready = session.named("READY")[0]
            assert ready["shard"] == list(pair)
            wanted = {g for g in everything if owns(pair, g)}
            assert {int(g["id"]) for g in ready["guilds"]} == wanted
            assert {int(g["id"]) for g in session.named("GUILD_CREATE")} == wanted
        assert sum(owns((3, 4), g.id) for g in guilds) == 2  # the test's guilds cover shard 3

        later = discord_double.create_guild("Later", shard=(1, 2))
        receivers = {pair for pair in pairs if owns(pair, later.id)}
        assert (0, 1) in receivers and (1, 2) in receivers
        for pair in receivers:
            session = sessions[pair]
            await session.wait_for(
                f"GUILD_CREATE on {pair}",
                lambda s=session: later.id in {int(g["id"]) for g in s.named("GUILD_CREATE")},
            )
        await asyncio.sleep(0.1)
        for pair in set(pairs) - receivers:
            assert later.id not in {int(g["id"]) for g in sessions[pair].named("GUILD_CREATE")}

        # A DM interaction: shard 0 of its count, here only [0, 1].
        await discord_double.slash(
            discord_double.members[1], None, "anything", strict=False, wait=False
        )
        await sessions[(0, 1)].wait_for(
            "the DM on [0, 1]", lambda: bool(sessions[(0, 1)].named("INTERACTION_CREATE"))
        )
        await asyncio.sleep(0.1)
        assert not sessions[(1, 2)].named("INTERACTION_CREATE")
        assert not sessions[(3, 4)].named("INTERACTION_CREATE")


@pytest.mark.discord_double(shard_count=2)
async def test_a_new_identify_of_the_same_shard_takes_its_events_over(
    discord_double: DiscordDouble,
) -> None:
    """The double's one simplification (documented): of two sessions with the same
    ``[shard_id, num_shards]``, the newer IDENTIFY receives the events, as a restarted process
    needs; the older session gets nothing more."""
    channel = discord_double.channel
    assert channel is not None and channel.guild_id is not None
    shard = [shard_of(channel.guild_id), SHARDS]
    async with bare_gateway(discord_double) as identify:
        old = await identify(shard)
        new = await identify(shard)
        record = await discord_double.slash(
            discord_double.members[1], channel, "anything", strict=False, wait=False
        )
        await new.wait_for("the interaction", lambda: bool(new.named("INTERACTION_CREATE")))
        await asyncio.sleep(0.1)
        assert record.delivered and not old.named("INTERACTION_CREATE")
        assert discord_double.gateway.live[tuple(shard)] is discord_double.gateway.session_for(
            channel.guild_id
        )
