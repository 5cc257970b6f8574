"""What one card costs in requests at a table of four members, counted through the
double (never timed).

Discord forces one answer per click. Beyond it, a card owes the next player their turn mark,
and a trick's last card owes every other member the trick's end (who took it, the tricks, the
score); the other members' views of a card in the middle of a trick are a courtesy the bot
sends only as its budget allows (``deferred_edits.RATE``). With that budget at 0, the count is
exact: 2 requests for a card in the middle of a trick, 4 for a trick's last card. It was 4 for
every card (each other member's live DM edited on every card). None of them goes through
discord.py's webhook adapter (``token_calls``).
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from discord.webhook.async_ import AsyncWebhookAdapter

from bot.discord.client import HokmBot
from bot.present import custom_ids
from bot.service.table import Table
from engine import PLAY
from tests.double.server import DiscordDouble

from .conftest import BotFactory
from .helpers import open_table, table_message
from .players import play_turn_by_dm

TOKEN_KINDS = ("interaction_response", "followup")


async def _quiet(bot: HokmBot) -> None:
    """Wait until no live edit is in flight or queued, and the outbox is idle (a few checks
    in a row: a click's answer spawns its edits just after the double has it)."""
    hands = bot.publisher.hands
    calm = 0
    for _ in range(500):
        busy = bool(hands._token_tasks) or bot.outbox.backlog > 0
        calm = 0 if busy else calm + 1
        if calm >= 5:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the bot's edits did not settle")


async def _four_members(double: DiscordDouble, bot: HokmBot) -> Table:
    host, *others = double.members
    table = await open_table(double, bot, host, {"turn_seconds": 60})
    for user in others:
        join = custom_ids.lobby_id(table.table_id, "join")
        record = await double.click(user, table_message(double, table), custom_id=join)
        assert record.response_type == 7, record.response_name
    assert table.status == "playing" and table.match is not None
    return table


def _token_requests(double: DiscordDouble) -> int:
    counters = double.counters
    return sum(getattr(counters, kind) for kind in TOKEN_KINDS)


async def test_a_card_costs_its_answer_and_the_next_turn_and_a_trick_end_one_edit_each(
    discord_double: DiscordDouble, make_bot: BotFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """And none of those requests goes through discord.py's webhook adapter, which built a
    ``View``, an ``Embed``, a ``Route`` and a ``Message`` for each (``token_calls``)."""
    double = discord_double
    bot = await make_bot(match_seed_base=5)
    bot.publisher.hands._deferred.rate = 0  # no courtesy edits: what each card owes
    table = await _four_members(double, bot)
    match = table.match
    assert match is not None
    users = {u.id: u for u in double.members}
    rng = random.Random(7)
    await play_turn_by_dm(double, bot, table, users, rng)  # the hakem names trump (R4)
    for _ in range(4):  # the first trick: every member clicks their DM once (a live token)
        await play_turn_by_dm(double, bot, table, users, rng)
    assert match.phase == PLAY and len(match.tricks) == 1
    through_discord_py: list[object] = []
    request = AsyncWebhookAdapter.request

    def counted(self: AsyncWebhookAdapter, route: Any, *args: Any, **kwargs: Any) -> Any:
        through_discord_py.append(route)
        return request(self, route, *args, **kwargs)

    monkeypatch.setattr(AsyncWebhookAdapter, "request", counted)
    costs: list[tuple[bool, int]] = []
    for _ in range(8):  # two more tricks, card by card
        await _quiet(bot)
        before = _token_requests(double)
        tricks = len(match.tricks)
        await play_turn_by_dm(double, bot, table, users, rng)
        await _quiet(bot)
        costs.append((len(match.tricks) > tricks, _token_requests(double) - before))
    assert costs == [(False, 2), (False, 2), (False, 2), (True, 4)] * 2, costs
    assert through_discord_py == []
