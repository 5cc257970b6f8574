"""``/standings`` ranks by the conservative skill rating with matches and
wins beside it, and ``/standings member`` shows the rating, its recent change and the best
partner, in English and Persian, pinging nobody."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.discord.client import HokmBot
from bot.ratings import Rating, win_chances
from bot.service.table import Table
from tests.double.mentions import mention_problems
from tests.double.server import DiscordDouble
from tests.store.conftest import MatchMaker

from .conftest import each_language_once
from .helpers import open_table, seat_everyone, table_message


def ids_in_order(text: str) -> list[int]:
    rows = [line for line in text.splitlines() if "<@" in line]
    return [int(line.split("<@")[1].split(">")[0]) for line in rows]


@each_language_once()
async def test_standings_by_rating_and_a_members_rating(
    discord_double: DiscordDouble, hokm_bot: HokmBot, lang: str
) -> None:
    double = discord_double
    guild, channel = double.guild, double.channel
    assert guild is not None and channel is not None
    if lang == "fa":
        await double.slash(double.manager, channel, "hokm settings", {"language": "fa"})
    a, b, c, d = (u.id for u in double.members)
    # members who played with hints only
    p, p2, l1, l2 = (double.add_member(guild, f"hinted{i}").id for i in range(4))
    make = MatchMaker()
    store = hokm_bot.store
    for _ in range(3):  # three wins with hints: the most wins, but never rated
        await store.finish_match(
            replace(make(guild_id=guild.id, team0=(p, p2), team1=(l1, l2)), hints=True)
        )
    await store.finish_match(make(guild_id=guild.id, team0=(a, c), team1=(b, d)))  # rated

    rec = await double.slash(double.members[1], channel, "standings")
    assert rec.message is not None
    text = rec.message.text
    # by rating: the rated winners, then the unrated (0) by wins, then the rated losers
    assert ids_in_order(text) == [a, c, p, p2, l1, l2, b, d], text
    page = await store.standings(guild.id, 1)
    assert [r.rank for r in page.rows] == [1, 1, 3, 3, 5, 5, 7, 7]
    assert page.rows[0].rating > 0 == page.rows[2].rating > page.rows[-1].rating
    by_wins = await store.standings(guild.id, 1, order="wins")
    assert [r.user_id for r in by_wins.rows][:2] == [p, p2]  # the record alone would differ
    winner_rating = f"{page.rows[0].rating:.1f}"
    loser_rating = f"{page.rows[-1].rating:.1f}"
    assert winner_rating != "0.0" and loser_rating.startswith("-")
    if lang == "en":
        assert f"<@{a}> — ⭐ {winner_rating} · 1/1 won (100%)" in text
        assert f"<@{p}> — ⭐ 0.0 · 3/3 won (100%)" in text
        assert f"<@{b}> — ⭐ {loser_rating} · 0/1 won (0%)" in text
        assert "skill rating" in text
    else:
        fa = str.maketrans("0123456789.-", "۰۱۲۳۴۵۶۷۸۹٫−")
        assert winner_rating.translate(fa) in text and loser_rating.translate(fa) in text
        assert "امتیاز مهارت" in text

    # one member: rating, change over the last rated matches, best partner
    for _ in range(2):  # a and b win twice more together: b is now a's best partner
        await store.finish_match(make(guild_id=guild.id, team0=(a, b), team1=(c, d)))
    rec = await double.slash(double.members[1], channel, "standings", {"member": a})
    assert rec.message is not None
    member = rec.message.text
    mine = (await store.ratings_of(guild.id, [a]))[a]
    trend = await store.rating_trend(guild.id, a)
    assert mine.matches_rated == 3 and trend is not None and trend > 0
    if lang == "en":
        assert f"Rating: ⭐ {mine.ordinal:.1f} (3 rated matches)" in member, member
        assert f"Change over the last 3 rated matches: {trend:+.1f}" in member, member
        assert f"Best partner: <@{b}> (2 won of 2 together)" in member, member
    else:
        assert (
            f"{mine.ordinal:.1f}".translate(str.maketrans("0123456789.", "۰۱۲۳۴۵۶۷۸۹٫")) in member
        )
        assert "بهترین یار" in member and f"<@{b}>" in member
    # a member who only played with hints has a record but no rating; their partner counts
    rec = await double.slash(double.members[1], channel, "standings", {"member": p})
    assert rec.message is not None
    expected = "Rating: none yet" if lang == "en" else "هنوز ندارد"
    assert expected in rec.message.text and f"<@{p2}>" in rec.message.text
    # nobody was pinged by any of it
    assert mention_problems(double.requests, lambda content: set()) == []


async def test_a_rated_match_starts_with_each_teams_predicted_chance(
    discord_double: DiscordDouble, hokm_bot: HokmBot
) -> None:
    """When a match of members starts, the table message shows each team's chance to win
    from their ratings (openskill's ``predict_win``), and keeps it after a restart's reload."""
    double = discord_double
    guild, channel = double.guild, double.channel
    assert guild is not None and channel is not None
    a, b, c, d = double.members
    make = MatchMaker()
    for _ in range(3):  # a and c have beaten b and d three times
        await hokm_bot.store.finish_match(
            make(guild_id=guild.id, team0=(a.id, c.id), team1=(b.id, d.id))
        )
    table = await open_table(double, hokm_bot, a)
    await seat_everyone(double, hokm_bot, table, [b, c, d])
    await double.wait_until(lambda: table.status == "playing", what="the match to start")
    found = await hokm_bot.store.ratings_of(guild.id, [a.id, b.id, c.id, d.id])
    current = {u: Rating(r.mu, r.sigma) for u, r in found.items()}
    expected = win_chances([[a.id, c.id], [b.id, d.id]], current)
    assert table.win_chances == pytest.approx(expected) and expected[0] > 0.7
    strong, weak = (f"{round(100 * p)}%" for p in expected)
    await double.wait_until(
        lambda: "📊 Predicted chance:" in table_message(double, table).text,
        what="the chances on the table message",
    )
    line = next(x for x in table_message(double, table).text.splitlines() if x.startswith("📊"))
    assert line.index(strong) < line.index(weak) and strong != weak, line
    assert Table.from_dict(table.to_dict()).win_chances == table.win_chances


async def test_a_match_with_hints_has_no_prediction(
    discord_double: DiscordDouble, hokm_bot: HokmBot
) -> None:
    double = discord_double
    a, b, c, d = double.members
    table = await open_table(double, hokm_bot, a, {"hints": True})
    await seat_everyone(double, hokm_bot, table, [b, c, d])
    await double.wait_until(lambda: table.status == "playing", what="the match to start")
    assert table.win_chances == []
    assert "📊" not in table_message(double, table).text
