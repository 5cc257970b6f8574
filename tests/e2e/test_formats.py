"""A whole match of every format the bot hosts, members and computers at
one table, through the real discord.py against the double: ``/hokm new format:…`` (or the
server's default format), Join until the host starts, computers fill the rest, members play by
DM, the summary names every team, the standings count the match for its format."""

from __future__ import annotations

import random

import pytest

from bot.discord.client import HokmBot
from bot.discord.cogs.hokm import FORMAT_CHOICES
from bot.present.formats import format_label
from bot.present.teams import team_label
from bot.store.guild_settings import GuildSettings
from engine import GameFormat
from tests.double.server import DiscordDouble
from tests.formats import SHAPES, format_of

from .conftest import BotFactory
from .helpers import open_table, table_message
from .players import play_out


async def open_format(double: DiscordDouble, bot: HokmBot, fmt: GameFormat) -> dict[str, object]:
    """The ``/hokm new`` options for ``fmt``: its choice when the command offers it, else (a
    stand-in format the test registered after the command was built) the server's default."""
    if fmt.name in [c.value for c in FORMAT_CHOICES]:
        return {"format": fmt.name}
    assert double.guild is not None
    await bot.store.set_guild_settings(double.guild.id, GuildSettings(game_format=fmt.name))
    return {}


@pytest.mark.parametrize(("seats", "size"), SHAPES)
async def test_a_full_match_of_every_format_with_members_and_computers(
    discord_double: DiscordDouble, make_bot: BotFactory, seats: int, size: int
) -> None:
    double = discord_double
    channel = double.channel
    assert channel is not None and double.guild is not None
    with format_of(seats, size) as fmt:
        bot = await make_bot(match_seed_base=seats * 10 + size)
        host, *others = double.members
        people = [host, *others[: min(2, fmt.seats - 1)]]
        options = await open_format(double, bot, fmt)
        table = await open_table(
            double, bot, host, options | {"target_score": 1, "difficulty": "easy"}
        )
        assert table.fmt is fmt and len(table.seats) == fmt.seats
        lobby = table_message(double, table)
        assert len(lobby.embeds[0]["fields"]) == len(fmt.teams)
        for user in people[1:]:
            await double.click(user, table_message(double, table), label="Join")
        if table.status == "lobby":
            await double.click(host, table_message(double, table), label="Start")
        assert table.status == "playing"
        assert [s is not None and s.is_computer for s in table.seats] == [False] * len(people) + [
            True
        ] * (fmt.seats - len(people))
        match = table.match
        assert match is not None and match.fmt is fmt
        await play_out(double, bot, table, {u.id: u for u in double.members}, random.Random(3))
        winner = match.winner_team
        assert winner is not None
        summary = await double.wait_for_message(
            channel, lambda m: "the match" in m.text and bool(m.buttons()), timeout=15
        )
        verb = "wins" if size == 1 else "win"
        assert summary.text.startswith(f"🏆 {team_label(table, 'en', winner)} {verb} the match")
        # every member's standing is counted in this format's standings only
        page = await bot.store.standings(double.guild.id, 1, game_format=fmt.name)
        assert page.total_players == len(people)
        assert sum(r.matches_won for r in page.rows) == sum(
            1 for s in fmt.seats_of(winner) if table.seat(s).user_id is not None
        )
        if fmt.name != "standard":
            assert (await bot.store.standings(double.guild.id, 1)).total_players == 0
        assert bot.service.table_in_channel(channel.id) is None
        # /standings format:… lists them, under the format's name; the standard game's not
        shown = await double.slash(host, channel, "standings", {"format": fmt.name})
        assert shown.message is not None
        assert all(f"<@{u.id}>" in shown.message.text for u in people)
        if fmt.name != "standard":
            assert format_label("en", fmt.name) in shown.message.text
            plain = await double.slash(host, channel, "standings")
            assert plain.message is not None and "No finished matches yet" in plain.message.text
            mine = await double.slash(
                host, channel, "standings", {"member": host.id, "format": fmt.name}
            )
            assert mine.message is not None and "Matches: " in mine.message.text


async def test_v2_two_players_discard_draw_and_play_a_match_by_dm(
    discord_double: DiscordDouble, make_bot: BotFactory
) -> None:
    """V2 from Discord: each player lays cards face down by clicking them, then keeps the
    stock's top card (its Keep button) or takes the next, then they play; to the end."""
    double = discord_double
    channel = double.channel
    assert channel is not None and double.guild is not None
    bot = await make_bot(match_seed_base=21)
    host, guest = double.members[:2]
    table = await open_table(double, bot, host, {"format": "two", "target_score": 1})
    assert len(table.seats) == 2
    await double.click(guest, table_message(double, table), label="Join")
    assert table.status == "playing"
    match = table.match
    assert match is not None
    await play_out(double, bot, table, {u.id: u for u in double.members}, random.Random(5))
    kinds = [a[0] for a in match.to_dict()["actions"] if isinstance(a, list)]
    assert "discard" in kinds and "draw" in kinds
    keep = [
        str(button.get("label"))
        for m in double.dms(host) + double.dms(guest)
        for state in [*m.history, m.snapshot()]
        for row in state.get("components") or []
        for button in row.get("components") or []
        if str(button.get("custom_id", "")).startswith("hokm:w:")
    ]
    assert any(label.startswith("Keep ") for label in keep)  # the stock's card, to its drawer
    summary = await double.wait_for_message(
        channel, lambda m: "wins the match" in m.text, timeout=15
    )
    assert summary.buttons()[0].label == "Rematch"


JOKER_START = 119
"""Where the joker six e2e match starts (both teams): the seed fixes the target at 124, not a
table setting, and a whole match is about a dozen hands of 54 cards; from 119 the first hand
played decides it (a made bid scores 5 or more, a failed one 10 or more to the others), after
any deals everyone passed (a point to the dealer's team)."""


async def test_v5_joker_six_members_bid_and_play_with_computers_to_the_end(
    discord_double: DiscordDouble, make_bot: BotFactory
) -> None:
    """V5 joker six from Discord: ``/hokm new format:joker_six`` is offered; three members and
    three computers; the members bid (or pass) with their DM's bid buttons, the computers bid
    by their hand estimate, the hakem names trump on nine cards and everyone plays, jokers
    included, to the match's end; summary and standings as in every format."""
    double = discord_double
    channel = double.channel
    assert channel is not None and double.guild is not None
    assert "joker_six" in [c.value for c in FORMAT_CHOICES]
    bot = await make_bot(match_seed_base=61)
    host, *others = double.members
    people = [host, *others[:2]]
    table = await open_table(double, bot, host, {"format": "joker_six", "difficulty": "normal"})
    assert table.fmt.name == "joker_six" and len(table.seats) == 6
    for user in people[1:]:
        await double.click(user, table_message(double, table), label="Join")
    await double.click(host, table_message(double, table), label="Start")
    assert table.status == "playing"
    assert [s is not None and s.is_computer for s in table.seats] == [False] * 3 + [True] * 3
    match = table.match
    assert match is not None and match.phase == "bid" and match.target_score == 124
    match.scores[:] = [JOKER_START, JOKER_START]
    await play_out(double, bot, table, {u.id: u for u in double.members}, random.Random(7))
    assert match.is_over and max(match.scores) >= 124
    bids = [a for a in match.actions if isinstance(a, tuple) and a[0] == "bid"]
    assert {table.seat(seat).is_computer for _, seat, _ in bids} == {False, True}
    assert any(r.kind in ("made", "set") for r in match.hand_results)
    winner = match.winner_team
    assert winner is not None
    summary = await double.wait_for_message(
        channel, lambda m: "the match" in m.text and bool(m.buttons()), timeout=15
    )
    assert summary.text.startswith(f"🏆 {team_label(table, 'en', winner)} win the match")
    page = await bot.store.standings(double.guild.id, 1, game_format="joker_six")
    assert page.total_players == len(people)
