"""Item 3: the log never holds a deal's seed or a hand, at any level.

A full match is played through the double (DMs, clicks, table edits) with the root logger at
DEBUG and every record kept. At each committed change the test notes every seat's unplayed
cards (the hakem's undealt eight included); a log line that names two cards that were, at some
moment, unplayed in one seat's hand is a hand (or part of one) in the log. One card is public
("played 7♠" when a turn timed out). The seed is a 63-bit number chosen so that neither its
decimal nor its hex form can turn up by chance.
"""

from __future__ import annotations

import logging
import random
import re
from typing import Any

import pytest

from bot.discord.client import HokmBot
from bot.service.table import Table
from tests.double.server import DiscordDouble
from tests.e2e.conftest import BotFactory
from tests.e2e.helpers import open_table, seat_everyone
from tests.e2e.players import play_turn_by_dm

from .leaks import SUITS

SEED = 0x5EED_C0DE_1234_ABCD  # < 2**63
CODE = re.compile(r"(?<![0-9A-Za-z])(10|[2-9JQKA])([SHDC])(?![0-9A-Za-z])")
LABEL = re.compile(r"(?<![0-9])(10|[2-9JQKA])([♠♥♦♣])")


def cards_named(text: str) -> set[str]:
    """Every card a line names, as a code ("10H"), whether written as a code or a label."""
    found = {rank + suit for rank, suit in CODE.findall(text)}
    found |= {rank + "SHDC"[SUITS.index(suit)] for rank, suit in LABEL.findall(text)}
    return found


class HiddenCards:
    """Every seat's unplayed cards (held or still undealt) at each committed change."""

    def __init__(self) -> None:
        self.sets: set[frozenset[str]] = set()

    def install(self, bot: HokmBot) -> None:
        inner = bot.publisher.publish

        def publish(update: Any) -> None:
            self.note(update.table)
            inner(update)

        bot.publisher.publish = publish  # type: ignore[method-assign]

    def note(self, table: Table) -> None:
        if table.match is None:
            return
        data = table.match.to_dict()
        for held, rest in zip(data["hands"], data["rest"], strict=True):
            if len(held) + len(rest) >= 2:
                self.sets.add(frozenset(held) | frozenset(rest))

    def leaked(self, text: str) -> set[str]:
        named = cards_named(text)
        if len(named) < 2:
            return set()
        return max((named & hidden for hidden in self.sets), key=len, default=set())


def everything_logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The bot process's records as an operator would read them (the double's are not)."""
    return [caplog.handler.format(r) for r in caplog.records if not r.name.startswith("tests.")]


async def test_no_log_line_of_a_full_match_holds_the_seed_or_a_hand(
    discord_double: DiscordDouble, make_bot: BotFactory, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    double = discord_double
    bot = await make_bot(match_seed_base=SEED)
    hidden = HiddenCards()
    hidden.install(bot)
    host, *others = double.members
    table = await open_table(double, bot, host, {"target_score": 2})
    await seat_everyone(double, bot, table, others)
    assert table.status == "playing" and table.match_seed == SEED
    hidden.note(table)
    users = {u.id: u for u in double.members}
    rng = random.Random(5)
    turns = 0
    while table.status == "playing":
        await play_turn_by_dm(double, bot, table, users, rng)
        turns += 1
        assert turns < 400
    assert table.status == "finished"
    await bot.outbox.drain()

    lines = everything_logged(caplog)
    # the capture really saw DEBUG records and the match's own lines
    assert any(r.levelno == logging.DEBUG for r in caplog.records)
    assert any(f"table {table.table_id}: match started" in line for line in lines)
    assert len(hidden.sets) > 8  # hands were noted at many moments
    for line in lines:
        assert str(SEED) not in line, line
        assert f"{SEED:x}" not in line.lower(), line
        assert not hidden.leaked(line), (sorted(hidden.leaked(line)), line[:500])
