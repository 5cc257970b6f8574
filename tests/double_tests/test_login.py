"""Login, READY and GUILD_CREATE as a real discord.py client sees them; endpoint switching."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
import discord.gateway
import discord.http
import pytest
import yarl

from bot.discord.endpoints import DISCORD_API_BASE, DISCORD_GATEWAY, use_discord_endpoints
from tests.double import ClientRunner, DiscordDouble

from .bots import make_bot


async def test_login_ready_and_guild_create(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    bot = await run_client(make_bot())

    assert bot.user is not None and bot.user.id == discord_double.bot.id
    assert bot.application_id == discord_double.application_id
    guild = bot.get_guild(discord_double.guild.id)
    assert guild is not None and guild.name == "Hokm Club"
    assert [c.name for c in guild.text_channels] == ["hokm"]
    assert {m.name for m in guild.members} == {"HokmBot", "arash", "bahar", "cyrus", "darya"}
    arash = guild.get_member(discord_double.manager.id)
    bahar = guild.get_member(discord_double.members[1].id)
    assert arash is not None and arash.guild_permissions.manage_guild
    assert bahar is not None and not bahar.guild_permissions.manage_guild
    assert discord_double.gateway.stats.identifies == 1
    assert discord_double.gateway.stats.heartbeats >= 1
    seen = [(r.method, r.template) for r in discord_double.requests]
    assert ("GET", "/users/@me") in seen
    assert ("GET", "/oauth2/applications/@me") in seen


async def test_without_members_intent_guild_create_carries_only_the_bot(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    bot = await run_client(make_bot(members=False))

    guild = bot.get_guild(discord_double.guild.id)
    assert guild is not None
    assert guild.member_count == 5
    assert [m.id for m in guild.members] == [discord_double.bot.id]


async def test_rest_answers_exact_json_content_type_and_ratelimit_headers(
    discord_double: DiscordDouble,
) -> None:
    url = f"{discord_double.api_base}/users/@me"
    auth = {"Authorization": f"Bot {discord_double.token}"}
    async with aiohttp.ClientSession() as session:
        async with session.get(url, headers=auth) as resp:
            assert resp.status == 200
            assert resp.headers["Content-Type"] == "application/json"
            assert "X-RateLimit-Remaining" in resp.headers
            assert "X-RateLimit-Bucket" in resp.headers
            assert (await resp.json())["id"] == str(discord_double.bot.id)
        async with session.get(url) as resp:
            assert resp.status == 401
        async with session.get(f"{discord_double.api_base}/gateway/bot", headers=auth) as resp:
            data = await resp.json()
            assert data["url"] == discord_double.gateway_url
            assert data["shards"] == 1


async def test_unknown_route_answers_404_and_is_recorded(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    bot = await run_client(make_bot())

    with pytest.raises(discord.NotFound) as caught:
        await bot.http.request(discord.http.Route("GET", "/nowhere/{x}", x=42))

    assert caught.value.code == 0
    assert discord_double.counters.unknown_routes == ["GET /nowhere/42"]
    discord_double.counters.unknown_routes.clear()  # the fixture would fail the test otherwise


@pytest.mark.discord_double(shard_count=2)
async def test_sharded_bot_takes_gateway_from_gateway_bot(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    second = discord_double.create_guild("Second Table")
    discord_double.add_text_channel(second, "hokm-2")
    bot = make_bot(sharded=True)

    @bot.tree.command(name="ping", description="Ping")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"pong from shard {bot.shard_id}")

    await run_client(bot)
    await bot.tree.sync()

    assert bot.shard_count == 2
    assert discord_double.gateway.stats.identifies == 2
    assert {g.id for g in bot.guilds} == {discord_double.guild.id, second.id}
    # DMs arrive on shard 0 only.
    record = await discord_double.slash(discord_double.members[2], None, "ping")
    assert record.response_type == 4
    assert discord_double.gateway.session_for(None).shard_id == 0


async def test_gateway_url_override_wins_over_gateway_bot(discord_double: DiscordDouble) -> None:
    saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    try:
        use_discord_endpoints(discord_double.api_base, "ws://127.0.0.1:9/elsewhere")
        await http.static_login(discord_double.token)
        shards, url, _ = await http.get_bot_gateway()
        assert (shards, url) == (1, "ws://127.0.0.1:9/elsewhere")
        use_discord_endpoints(discord_double.api_base, None)
        _, url, _ = await http.get_bot_gateway()
        assert url == discord_double.gateway_url
    finally:
        await http.close()
        use_discord_endpoints(None, None)
        discord.http.Route.BASE = saved[0]
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved[1]


def test_use_discord_endpoints_sets_and_restores() -> None:
    saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    try:
        use_discord_endpoints("http://127.0.0.1:9/api/v10/", "ws://127.0.0.1:9/gateway")
        assert discord.http.Route.BASE == "http://127.0.0.1:9/api/v10"
        assert discord.http.Route("GET", "/users/@me").url == "http://127.0.0.1:9/api/v10/users/@me"
        gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        assert gateway == yarl.URL("ws://127.0.0.1:9/gateway")

        use_discord_endpoints("", "")
        assert discord.http.Route.BASE == DISCORD_API_BASE
        gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        assert gateway == yarl.URL(DISCORD_GATEWAY)

        with pytest.raises(ValueError):
            use_discord_endpoints("127.0.0.1:9", None)
        with pytest.raises(ValueError):
            use_discord_endpoints(None, "http://127.0.0.1:9/gateway")
    finally:
        use_discord_endpoints(None, None)
        discord.http.Route.BASE = saved[0]
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved[1]
