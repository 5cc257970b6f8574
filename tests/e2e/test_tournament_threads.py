"""Through the double, with the thread permissions granted: each table of a tournament round
opens in a public thread of the tournament's channel (docs/rules.md T11), its table message
and its one ping posted there, played from the thread's buttons and the players' DMs; one
thread a table; no hidden card shown anywhere but its holder's own views."""

from __future__ import annotations

import asyncio

from bot.service.table import Table
from tests.double.mentions import mention_problems
from tests.double.models import CREATE_PUBLIC_THREADS, SEND_MESSAGES_IN_THREADS, Channel
from tests.double.server import DiscordDouble
from tests.double_tests.test_threads import grant_threads
from tests.reliability.leaks import HandWatcher

from .conftest import BotFactory
from .helpers import message_id
from .tournament_flow import (
    channel_of,
    members,
    new_tournament,
    no_hidden_cards,
    play_table,
    press,
    tournament_message,
    until_status,
)


async def test_t11_tables_open_and_are_played_in_threads(
    discord_double: DiscordDouble, make_bot: BotFactory
) -> None:
    double = discord_double
    grant_threads(double, CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS)
    bot = await make_bot()
    watcher = HandWatcher.install(bot)
    people = members(double, 8)
    state = await new_tournament(double, bot, {"rounds": 1})
    message = await tournament_message(double, state)
    assert "Create Public Threads" not in message.text  # nothing missing here
    for user in people:
        await press(double, user, message, "tj")
    await double.slash(double.manager, channel_of(double), "tournament start", {})
    tid = state.tournament_id

    async def opened() -> list[Table]:
        found = []
        for slot in (await bot.tournaments.load(tid)).slots.values():
            table = bot.service.tables.get(slot.table_id)
            if slot.opened and table is not None and message_id(bot, table) is not None:
                found.append(table)
        return found

    tables: list[Table] = []
    for _ in range(300):
        tables = await opened()
        if len(tables) == 2:
            break
        await asyncio.sleep(0.05)
    assert len(tables) == 2
    assert double.guild is not None and len(double.guild.threads) == 2  # one thread a table
    for table in tables:
        thread = double.guild.threads[table.channel_id]
        assert thread.parent_id == channel_of(double).id
        assert message_id(bot, table) in thread.message_ids  # the table message is in its thread

        def pinged(thread: Channel = thread) -> bool:  # the ping goes by the outbox
            return any("your table is here" in m.text for m in double.messages_in(thread))

        await double.wait_until(pinged, timeout=10, what="the table's ping in its thread")
        pings = [m for m in double.messages_in(thread) if "your table is here" in m.text]
        assert len(pings) == 1
    state = await bot.tournaments.load(tid)
    for (r, k), slot in state.slots.items():  # T13: a later claim would find its thread
        assert await bot.tournaments.port.table_threads_made(state, r, k) == (slot.channel_id,)
    for n, table in enumerate(tables):
        await play_table(double, bot, table, seed=n)
    await until_status(bot, tid, "finished")
    done = await bot.tournaments.load(tid)
    assert all(t.result is not None and t.result.played for t in done.core.rounds[0].tables)
    assert len(double.guild.threads) == 2
    everyone = {u.id for u in people}
    assert mention_problems(double.requests, lambda content: everyone) == []
    found = no_hidden_cards(double, watcher)
    assert found == [], [(f.viewer, f.cards, f.text) for f in found]
