"""The load bench's turn-mark timing reads what the double stored: a mark
is a hand message version that newly shows the member's turn, on whichever surface."""

from __future__ import annotations

import asyncio
from typing import Any

import discord

from bench.turn_marks import TurnMarks
from bot.present import custom_ids
from engine import Card
from tests.double.models import StoredMessage, User
from tests.double.state import World

TABLE = "0123456789ab"


def _hand(user: int, cards: list[str], green: bool) -> StoredMessage:
    style = discord.ButtonStyle.success if green else discord.ButtonStyle.secondary
    row: list[dict[str, Any]] = [
        {
            "type": 2,
            "custom_id": custom_ids.card_id(TABLE, 1, Card.parse(code)),
            "style": style.value,
            "label": code,
        }
        for code in cards
    ]
    return StoredMessage(
        id=100 + user,
        channel_id=5,
        guild_id=9,
        author=User(id=1, username="hokm-bot", bot=True),
        content="hand",
        components=[{"type": 1, "components": row}],
        ephemeral_to=user,
    )


async def test_a_mark_is_a_version_that_newly_shows_the_turn_and_is_timed_from_its_start() -> None:
    world = World(token="x")
    marks = TurnMarks(world, {7})
    loop = asyncio.get_running_loop()
    started = loop.time()
    msg = _hand(7, ["AS", "KS"], green=False)
    marks.observe(msg)  # not their turn yet: no mark
    assert marks.first_mark(7, started, loop.time() + 1) is None
    msg.components = _hand(7, ["AS", "KS"], green=True).components
    marks.observe(msg)
    marks.observe(msg)  # the same version again is no new mark
    assert len(marks.marks[7]) == 1
    marks.observe(_hand(8, ["AS"], green=True))  # not a member of the run: ignored
    assert 8 not in marks.marks
    marks.turn(7, started, marked=True, until=loop.time() + 1)
    marks.turn(7, None, marked=False, until=loop.time())  # after a computer: counted, untimed
    assert marks.turns == 2 and marks.marked == 1 and marks.untimed == 1
    assert len(marks.timed_ms) == 1 and marks.timed_ms[0] >= 0
    assert marks.first_mark(7, loop.time() + 5, loop.time() + 6) is None  # only after a start
