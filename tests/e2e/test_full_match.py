"""Complete matches end to end: /hokm new → DMs → tricks → result → /standings."""

from __future__ import annotations

import random

from bot.discord.client import HokmBot
from bot.present.teams import team_label
from tests.double.server import DiscordDouble

from .conftest import BotFactory
from .helpers import message_id
from .players import hand_message, play_turn_by_dm


async def open_full_table(double: DiscordDouble, bot: HokmBot, target: int) -> str:
    channel = double.channel
    assert channel is not None
    host, *others = double.members
    await double.slash(host, channel, "hokm new", {"target_score": target})
    table = bot.service.table_in_channel(channel.id)
    assert table is not None
    await double.wait_until(lambda: message_id(bot, table) is not None, what="the table message")
    message = double.message(message_id(bot, table) or 0)
    for user in others:
        record = await double.click(user, message, label="Join")
        assert record.response_type == 7
    assert table.status == "playing"
    return table.table_id


async def test_four_members_play_a_match_by_dm_and_standings_update(
    discord_double: DiscordDouble, make_bot: BotFactory
) -> None:
    double = discord_double
    bot = await make_bot(match_seed_base=11)  # a deal that needs a second hand
    channel = double.channel
    assert channel is not None
    users = {u.id: u for u in double.members}
    await open_full_table(double, bot, target=2)
    table = bot.service.table_in_channel(channel.id)
    assert table is not None and table.match is not None
    rng = random.Random(4)
    turns = 0
    first_hand: tuple[object, str] | None = None
    stale_checked = False
    while table.status == "playing":
        await play_turn_by_dm(double, bot, table, users, rng)
        turns += 1
        assert turns < 400
        if first_hand is None and table.match.hand_number == 1:
            dm = hand_message(double, double.members[0])
            if dm is not None and dm.buttons():
                first_hand = (dm, dm.buttons()[0].custom_id or "")
        if first_hand is not None and not stale_checked and table.match.hand_number == 2:
            # a button of an earlier hand: refused privately, nothing changes
            dm, old_id = first_hand
            before = table.match.to_dict()
            rec = await double.click(double.members[0], dm, custom_id=old_id, stale=True)
            assert rec.ephemeral and "earlier hand" in rec.message.text  # type: ignore[union-attr]
            assert table.match.to_dict() == before
            stale_checked = True
    assert stale_checked
    assert table.status == "finished"
    match = table.match
    winner = match.winner_team
    assert winner is not None and match.scores[winner] >= 2
    report = await double.wait_for_message(channel, lambda m: "win the match" in m.text, timeout=15)
    # one closing message: the winners by name, every hand, a Rematch button
    assert report.text.startswith(f"🏆 {team_label(table, 'en', winner)} win the match")
    assert report.buttons()[0].label == "Rematch"
    # four members, no hints: each one's rating change, winners up, losers down
    rated = [line for line in report.text.splitlines() if line.startswith("⭐ Ratings: ")]
    assert len(rated) == 1 and rated[0].count("+") == 2 and rated[0].count(" -") == 2, rated
    assert [m for m in double.messages_in(channel) if "win the match" in m.text] == [report]
    assert any("Hand 1" in m.text or "Kot" in m.text for m in double.messages_in(channel))
    # standings: every member has one match, the winners one win
    record = await double.slash(double.members[1], channel, "standings")
    text = record.message.text if record.message else ""
    for user in double.members:
        assert f"<@{user.id}>" in text
    standings = await bot.store.standings(double.guild.id, 1)  # type: ignore[union-attr]
    assert standings.total_players == 4
    assert sorted(r.matches_won for r in standings.rows) == [0, 0, 1, 1]
    # the finished table frees the channel
    assert bot.service.table_in_channel(channel.id) is None
    # the match heads /hokm history, and its Replay opens, privately, at its deal
    viewer = double.members[2]
    listing = (await double.slash(viewer, channel, "hokm history")).message
    assert listing is not None and listing.buttons()[0].custom_id == f"hokm:y:{table.table_id}"
    rec = await double.click(viewer, listing, custom_id=f"hokm:y:{table.table_id}")
    assert rec.ephemeral and rec.message is not None and rec.message.ephemeral_to == viewer.id
    assert f"**Hand 1 of {match.hand_results[-1].number}** · the deal" in rec.message.text
    assert rec.message.text.count("♠") >= 4  # every seat's cards (the suits of four hands)
