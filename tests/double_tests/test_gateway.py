"""Gateway failures: dropped connections, RESUME with replay, RECONNECT, invalid sessions."""

from __future__ import annotations

import discord

from tests.double import ClientRunner, DiscordDouble

from .bots import make_bot


def ping_bot() -> discord.Client:
    bot = make_bot()
    bot.resumes = 0  # type: ignore[attr-defined]

    @bot.tree.command(name="ping", description="Ping")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong")

    @bot.event
    async def on_resumed() -> None:
        bot.resumes += 1  # type: ignore[attr-defined]

    return bot


async def test_dropped_connection_resumes_and_replays_missed_events(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    bot = await run_client(ping_bot())
    await bot.tree.sync()
    stats = discord_double.gateway.stats

    assert await discord_double.drop_gateway() == 1
    # Sent while the bot is disconnected: buffered, then replayed after RESUME.
    record = await discord_double.slash(
        discord_double.members[0], discord_double.channel, "ping", wait=False
    )
    await discord_double.wait_until(lambda: stats.resumes == 1, timeout=10, what="RESUME")
    await record.wait_response()

    assert record.message.content == "pong"
    assert stats.identifies == 1
    assert stats.connections == 2
    assert bot.resumes == 1  # type: ignore[attr-defined]


async def test_close_frame_with_code_4000_resumes(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    await run_client(ping_bot())

    await discord_double.drop_gateway(code=4000)

    stats = discord_double.gateway.stats
    await discord_double.wait_until(lambda: stats.resumes == 1, timeout=10, what="RESUME")
    assert stats.identifies == 1


async def test_reconnect_opcode_makes_the_client_resume(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    bot = await run_client(ping_bot())
    await bot.tree.sync()

    assert await discord_double.send_reconnect() == 1

    stats = discord_double.gateway.stats
    await discord_double.wait_until(lambda: stats.resumes == 1, timeout=10, what="RESUME")
    record = await discord_double.slash(discord_double.members[1], discord_double.channel, "ping")
    assert record.message.content == "pong"
    assert stats.identifies == 1


async def test_invalid_session_makes_the_client_identify_again(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    bot = await run_client(ping_bot())  # make_bot() skips discord.py's 5 s pause before IDENTIFY
    await bot.tree.sync()

    await discord_double.invalidate_session(resumable=False)

    await discord_double.wait_identified(2, timeout=15)
    await discord_double.wait_until(bot.is_ready, what="on_ready after re-identify")
    record = await discord_double.slash(discord_double.members[2], discord_double.channel, "ping")
    assert record.message.content == "pong"
    assert discord_double.gateway.stats.resumes == 0


async def test_interaction_without_a_connected_bot_names_the_cause(
    discord_double: DiscordDouble,
) -> None:
    record = await discord_double.slash(
        discord_double.members[0], discord_double.channel, "ping", wait=False, strict=False
    )
    try:
        await record.wait_response(timeout=0.05)
    except AssertionError as exc:
        assert "no gateway session was connected" in str(exc)
    else:
        raise AssertionError("expected a timeout")
