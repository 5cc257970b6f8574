"""Through the double: an individual Swiss of eight members over three
rounds to target 1, a knockout of four fixed teams, a no-show's forfeit. Each table is pinged
once with its players alone, the tournament message and the standings are kept current, and
no hidden card shows anywhere but its holder's own views."""

from __future__ import annotations

import re

import pytest

from bot.present.i18n import t
from bot.service.tournament_state import TournamentState
from tests.double.mentions import mention_problems, pings
from tests.double.server import DiscordDouble
from tests.reliability.leaks import HandWatcher

from .conftest import BotFactory
from .helpers import skip_time
from .tournament_flow import (
    channel_of,
    join_table,
    members,
    new_tournament,
    next_table,
    no_hidden_cards,
    play_table,
    press,
    tournament_message,
    until_status,
)


def ping_messages(
    double: DiscordDouble, state: TournamentState
) -> list[tuple[str, frozenset[int]]]:
    """Every table ping sent in the channel: its text and whom it notifies."""
    found = []
    for record in double.requests:
        sent = record.message
        if sent is None or "your table is here" not in sent.content:
            continue
        found.append((sent.content, pings(sent.content, sent.allowed_mentions).users))
    return found


async def standings_text(double: DiscordDouble, state: TournamentState) -> str:
    """The final standings, once the message kept current shows them."""
    heading = t(state.language, "tstandings.final", name=state.core.config.name)
    found = await double.wait_for_message(
        channel_of(double), lambda m: heading in m.text, timeout=10
    )
    return found.text


async def test_an_individual_swiss_of_eight_over_three_rounds_to_target_1(
    discord_double: DiscordDouble, make_bot: BotFactory
) -> None:
    double = discord_double
    bot = await make_bot()
    watcher = HandWatcher.install(bot)
    people = members(double, 8)
    state = await new_tournament(double, bot, {"rounds": 3})
    message = await tournament_message(double, state)
    assert "Create Public Threads" in message.text  # the double's bot may not make threads
    for user in people:
        assert "You are in" in await press(double, user, message, "tj")
    again = await press(double, people[0], message, "tj")
    assert again == t("en", "error.t_already_registered")
    await double.slash(double.manager, channel_of(double), "tournament start", {})
    seen: set[str] = set()
    for number in range(6):  # three rounds of two tables, one at a time in the channel
        table = await next_table(double, bot, seen)
        await play_table(double, bot, table, seed=number)
    await until_status(bot, state.tournament_id, "finished")
    done = await bot.tournaments.load(state.tournament_id)
    assert [len(r.tables) for r in done.core.rounds] == [2, 2, 2]
    assert all(t.result is not None and t.result.played for r in done.core.rounds for t in r.tables)
    sent = ping_messages(double, done)
    assert len(sent) == 6  # one ping a table
    tables = [
        set(m for side in done.table_members(r.number, k) for m in side)
        for r in done.core.rounds
        for k in range(len(r.tables))
    ]
    assert sorted(sorted(n) for _, n in sent) == sorted(sorted(m) for m in tables)
    everyone = {u.id for u in people}
    assert mention_problems(double.requests, lambda content: everyone) == []
    final = await standings_text(double, done)
    assert "🏆" in final
    await double.wait_until(
        lambda: "🏆" in double.message(message.id).text, timeout=10, what="the winners shown"
    )
    history = await bot.store.history(done.guild_id, 1, per_page=10)
    assert len(history.rows) == 6
    found = no_hidden_cards(double, watcher)
    assert found == [], [(f.viewer, f.cards, f.text) for f in found]


async def test_a_knockout_of_four_fixed_teams(
    discord_double: DiscordDouble, make_bot: BotFactory
) -> None:
    double = discord_double
    bot = await make_bot()
    watcher = HandWatcher.install(bot)
    people = members(double, 8)
    state = await new_tournament(double, bot, {"system": "knockout", "partners": "fixed"})
    message = await tournament_message(double, state)
    channel = channel_of(double)
    for a, b in zip(people[::2], people[1::2], strict=True):
        record = await double.slash(a, channel, "tournament join", {"partner": b})
        assert record.ephemeral
        assert "You are in" in await press(double, b, message, "tj")  # b confirms
    done = await bot.tournaments.load(state.tournament_id)
    assert [e.members for e in done.core.entrants] == [
        (a.id, b.id) for a, b in zip(people[::2], people[1::2], strict=True)
    ]
    await double.slash(double.manager, channel, "tournament start", {})
    seen: set[str] = set()
    for number in range(3):  # two semi-finals, then the final
        table = await next_table(double, bot, seen)
        await play_table(double, bot, table, seed=10 + number)
    await until_status(bot, state.tournament_id, "finished")
    done = await bot.tournaments.load(state.tournament_id)
    final = done.core.rounds[-1].tables[0]
    assert final.result is not None and final.result.winner is not None
    champion = done.core.entrants[final.sides[final.result.winner][0]].members
    text = await standings_text(double, done)
    assert all(f"<@{m}>" in text.split("🏆")[-1] for m in champion)
    assert no_hidden_cards(double, watcher) == []


async def test_a_no_show_forfeits_when_the_grace_time_ends(
    discord_double: DiscordDouble, make_bot: BotFactory
) -> None:
    double = discord_double
    bot = await make_bot()
    people = members(double, 4)
    state = await new_tournament(double, bot, {"rounds": 1, "grace_seconds": 30})
    message = await tournament_message(double, state)
    for user in people:
        await press(double, user, message, "tj")
    await double.slash(double.manager, channel_of(double), "tournament start", {})
    table = await next_table(double, bot, set())
    absent = people[2].id
    await join_table(double, table, absent=(absent,))
    assert table.status == "lobby"
    skip_time(bot, table, 31)  # the grace time is over
    await until_status(bot, state.tournament_id, "finished")
    done = await bot.tournaments.load(state.tournament_id)
    result = done.core.rounds[0].tables[0].result
    assert result is not None and not result.played and len(result.forfeits) == 1
    assert table.status == "cancelled"
    text = await standings_text(double, done)
    assert f"<@{absent}>" in text and " F" in text  # the forfeit, stated in the standings


@pytest.mark.parametrize("lang", ["fa"])
async def test_the_tournament_message_reads_in_persian(
    discord_double: DiscordDouble, make_bot: BotFactory, lang: str
) -> None:
    double = discord_double
    bot = await make_bot()
    await double.slash(double.manager, channel_of(double), "hokm settings", {"language": lang})
    state = await new_tournament(double, bot, {"rounds": 2})
    message = await tournament_message(double, state)
    assert "سوئیسی" in message.text and "پیوستن" in message.text
    shown = re.sub("[\u200e\u200f\u2066-\u2069]", "", message.text)
    assert "Create Public Threads (ساختن رشته‌های عمومی)" in shown
