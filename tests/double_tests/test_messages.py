"""Counters by kind, message events over the gateway, history, and the interaction deadline."""

from __future__ import annotations

import asyncio

import discord
import pytest

from tests.double import ClientRunner, DiscordDouble, InteractionTimeout

from .bots import make_bot


async def test_every_request_is_counted_by_kind(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    bot = make_bot()

    @bot.tree.command(name="ping", description="Ping")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong")
        await interaction.followup.send("and a followup")
        await interaction.edit_original_response(content="pong!")

    await run_client(bot)
    await bot.tree.sync()
    discord_double.counters.reset()
    channel = bot.get_channel(discord_double.channel.id)
    assert isinstance(channel, discord.TextChannel)

    message = await channel.send("table")
    await message.edit(content="table, updated")
    await message.delete()
    await (await bot.fetch_user(discord_double.members[1].id)).send("your hand")
    record = await discord_double.slash(discord_double.members[0], discord_double.channel, "ping")
    await discord_double.wait_until(lambda: record.original.content == "pong!", what="the edit")

    counters = discord_double.counters.as_dict()
    counters.pop("unknown_routes")
    assert counters == {
        "interaction_response": 1,
        "followup": 2,
        "channel_message": 1,
        "dm": 2,
        "edit": 1,
        "delete": 1,
        "other": 1,  # fetch_user
        "http_429": 0,
        "http_429_global": 0,
        "injected_5xx": 0,
    }
    assert discord_double.counters.non_interaction == 6
    deleted = discord_double.messages_in(discord_double.channel, include_deleted=True)[0]
    assert deleted.deleted and deleted.content == "table, updated"


async def test_message_events_history_and_member_messages(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    bot = make_bot()
    seen: list[tuple[int, str]] = []
    all_seen = asyncio.Event()

    @bot.event
    async def on_message(message: discord.Message) -> None:
        seen.append((message.author.id, message.content))
        if len(seen) == 4:
            all_seen.set()

    await run_client(bot)
    channel = bot.get_channel(discord_double.channel.id)
    assert isinstance(channel, discord.TextChannel)

    sent = [await channel.send(f"line {i}") for i in range(3)]
    discord_double.say(discord_double.members[2], discord_double.channel, "salam")
    history = [m.content async for m in channel.history(limit=10)]
    fetched = await channel.fetch_message(sent[1].id)

    assert history == ["salam", "line 2", "line 1", "line 0"]
    assert fetched.content == "line 1"
    await asyncio.wait_for(all_seen.wait(), timeout=3)
    bot_id, cyrus_id = discord_double.bot.id, discord_double.members[2].id
    # Without the message content intent, a member's message arrives with empty content.
    assert seen == [(bot_id, "line 0"), (bot_id, "line 1"), (bot_id, "line 2"), (cyrus_id, "")]


@pytest.mark.discord_double(interaction_timeout=0.1)
async def test_callback_after_the_deadline_is_refused_like_discord(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    bot = make_bot()
    errors: list[int] = []

    @bot.tree.command(name="slow", description="Too slow")
    async def slow(interaction: discord.Interaction) -> None:
        await asyncio.sleep(0.3)  # the bot is too slow; Discord's window is 3 s, here 0.1 s
        try:
            await interaction.response.send_message("too late")
        except discord.NotFound as exc:
            errors.append(exc.code)

    await run_client(bot)
    await bot.tree.sync()

    with pytest.raises(InteractionTimeout, match="Unknown interaction"):
        await discord_double.slash(
            discord_double.members[0], discord_double.channel, "slow", timeout=1.0
        )
    assert errors == [10062]


async def test_every_message_request_records_its_allowed_mentions(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    """Channel and DM sends, edits, interaction responses, followups and webhook edits each
    keep their content and ``allowed_mentions`` (``None`` when the request had none)."""
    bot = make_bot()
    only_5 = discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(5)], replied_user=False
    )
    none = discord.AllowedMentions.none()

    @bot.tree.command(name="ping", description="Ping")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("r <@5>", allowed_mentions=only_5)
        note = await interaction.followup.send("f", allowed_mentions=none, wait=True)
        await note.edit(content="f2", allowed_mentions=only_5)
        await interaction.edit_original_response(content="r2", allowed_mentions=none)

    await run_client(bot)
    await bot.tree.sync()
    channel = bot.get_channel(discord_double.channel.id)
    assert isinstance(channel, discord.TextChannel)
    start = len(discord_double.requests)
    message = await channel.send("c @everyone", allowed_mentions=none)
    await message.edit(content="c2")  # no allowed_mentions: recorded as absent
    await message.delete()
    await (await bot.fetch_user(discord_double.members[1].id)).send("d", allowed_mentions=only_5)
    record = await discord_double.slash(discord_double.members[0], discord_double.channel, "ping")
    await discord_double.wait_until(lambda: record.original.content == "r2", what="the edit")

    seen = [
        (r.kind, r.message.content, r.message.allowed_mentions)
        for r in discord_double.requests[start:]
        if r.message is not None
    ]
    five = {"parse": [], "users": [5]}
    assert seen == [
        ("channel_message", "c @everyone", {"parse": []}),
        ("edit", "c2", None),
        ("dm", "d", five),
        ("interaction_response", "r <@5>", five),
        ("followup", "f", {"parse": []}),
        ("followup", "f2", five),
        ("followup", "r2", {"parse": []}),
    ]
