"""Moves for tests that run the bot in-process: seat a table, fast-forward a match.

Fast-forwarding calls the service directly for the members (what a click would do, without
waiting for DM edits), so a test reaches "hand 2" or "the next match" in a fraction of a
second and then acts through the double where it matters.
"""

# Waiting helpers take a timeout so a failure can say what it waited for.
# ruff: noqa: ASYNC109, RUF100

from __future__ import annotations

import asyncio
from collections.abc import Callable

from bot.discord.client import HokmBot
from bot.service.table import Table
from engine import MATCH_OVER, Card, Suit
from tests.double.models import StoredMessage, User
from tests.double.server import DiscordDouble
from tests.e2e.helpers import message_id, seat_everyone, table_message

from .script import member_choice


async def open_table(
    double: DiscordDouble, bot: HokmBot, host: User, options: dict[str, object] | None = None
) -> Table:
    """``/hokm new`` in #hokm; returns the table once its message is posted and recorded.

    Like tests/e2e/helpers.open_table, but it polls the bot's state: ``double.wait_until``
    re-checks only when the double sees a change, so a condition on the bot side can sit
    there until its timeout runs out (3 s per table).
    """
    channel = double.channel
    assert channel is not None
    await double.slash(host, channel, "hokm new", options or {})
    table = bot.service.table_in_channel(channel.id)
    assert table is not None, "the table did not open"
    await until(lambda: message_id(bot, table) is not None, what="the table message")
    return table


async def seated_table(
    double: DiscordDouble, bot: HokmBot, options: dict[str, object] | None = None
) -> Table:
    """The default guild's four members at a table in #hokm; the match has started."""
    host, *others = double.members
    table = await open_table(double, bot, host, options or {})
    await seat_everyone(double, bot, table, others)
    assert table.status == "playing"
    return table


async def until(predicate: Callable[[], bool], *, what: str, timeout: float = 10.0) -> None:
    """Poll in-process state (timers and computers act without touching the double)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        await asyncio.sleep(0.005)


async def member_move(bot: HokmBot, table: Table) -> None:
    """The member to act makes the scripted choice through the service (no Discord)."""
    match = table.match
    assert match is not None
    seat = match.to_act
    user_id = table.seat(seat).user_id
    assert user_id is not None
    choice = member_choice(match, seat)
    if isinstance(choice, Suit):
        await bot.service.choose_trump(table.table_id, user_id, match.hand_number, choice)
    else:
        assert isinstance(choice, Card)
        await bot.service.play_card(table.table_id, user_id, match.hand_number, choice)


async def fast_forward(bot: HokmBot, table: Table, done: Callable[[], bool]) -> None:
    """Play members' moves (and wait for computers') until ``done()`` or the match ends."""
    while not done() and table.status == "playing":
        match = table.match
        assert match is not None and match.phase != MATCH_OVER
        if table.seat(match.to_act).computer_plays:
            count = len(match.actions)
            await until(
                lambda: len(match.actions) > count or table.status != "playing",  # noqa: B023
                what="the computer's move",
            )
        else:
            await member_move(bot, table)


def card_buttons(message: StoredMessage) -> list[str]:
    return [b.custom_id for b in message.buttons() if (b.custom_id or "").startswith("hokm:c:")]


async def hand_dm(
    double: DiscordDouble, user: User, table: Table, hand: int, timeout: float = 10.0
) -> StoredMessage:
    """The user's DM showing their cards of ``hand`` (waiting for it)."""
    prefix = f"hokm:c:{table.table_id}:{hand}:"
    return await double.wait_for_dm(
        user, lambda m: any(c.startswith(prefix) for c in card_buttons(m)), timeout=timeout
    )


__all__ = [
    "card_buttons",
    "fast_forward",
    "hand_dm",
    "open_table",
    "seated_table",
    "table_message",
    "until",
]
