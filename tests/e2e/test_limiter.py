"""The Hokm bot on each limiter backend against the double (docs/scaling.md, "One budget for
the token"): the budget where the settings put it, the bot playing as before, and a Redis that
cannot be reached costing one warning line and nothing else."""

from __future__ import annotations

import logging
import socket

import pytest

from tests.double.server import DiscordDouble
from tests.e2e.conftest import BotFactory
from tests.e2e.helpers import open_table, seat_everyone
from tests.e2e.players import hand_message
from tests.redis_server import RedisServer


async def play_until_hands_are_out(double: DiscordDouble, make: BotFactory, **settings: object):
    bot = await make(**settings)
    table = await open_table(double, bot, double.members[0])
    await seat_everyone(double, bot, table, double.members[1:4])
    await double.wait_until(lambda: table.status == "playing", what="the match to start")
    players = double.members[:4]
    await double.wait_until(  # the hakem's five cards, by DM, through the outbox
        lambda: any(hand_message(double, m) is not None for m in players),
        what="a hand by DM",
        timeout=10.0,
    )
    return bot


async def test_with_redis_url_every_call_takes_its_token_from_redis(
    discord_double: DiscordDouble, make_bot: BotFactory, redis_server: RedisServer
) -> None:
    bot = await play_until_hands_are_out(discord_double, make_bot, redis_url=redis_server.url)
    assert bot.limiter.name == "redis" and not bot.limiter.degraded
    assert bot.limiter.granted >= 5 and bot.limiter.fallback_grants == 0


async def test_a_shard_slice_on_postgresql_shares_the_budget_in_the_database(
    discord_double: DiscordDouble, make_bot: BotFactory, request: pytest.FixtureRequest
) -> None:
    pg_url = request.getfixturevalue("pg_url")
    bot = await play_until_hands_are_out(
        discord_double, make_bot, database_url=pg_url, shard_ids=[0, 1], shard_count=4
    )
    assert bot.limiter.name == "postgresql" and not bot.limiter.degraded
    assert bot.limiter.granted >= 5 and bot.limiter.fallback_grants == 0
    assert bot.limiter.fallback.share == 0.5


async def test_an_unreachable_redis_costs_one_warning_and_the_bot_plays_on(
    discord_double: DiscordDouble, make_bot: BotFactory, caplog: pytest.LogCaptureFixture
) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    caplog.set_level(logging.INFO, logger="bot.limits")
    bot = await play_until_hands_are_out(
        discord_double, make_bot, redis_url=f"redis://:s3cret@127.0.0.1:{port}/0"
    )
    assert bot.limiter.degraded and bot.limiter.fallback_grants >= 5
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and "redis unreachable" in warnings[0], warnings
    assert "s3cret" not in caplog.text
