"""The bot's table flows end to end: computers, refusals, closed DMs, time-outs, settings, Persian."""

from __future__ import annotations

import random

import pytest

from bot.discord.client import HokmBot
from bot.service.table import Table
from engine import PLAY, TRUMP, Card
from tests.double.server import DiscordDouble

from .helpers import open_table, seat_everyone, skip_time, table_message
from .players import SUCCESS, hand_message, play_out, play_turn_by_dm, ready_to_act


async def test_computers_fill_three_seats_and_the_match_finishes(
    discord_double: DiscordDouble, hokm_bot: HokmBot
) -> None:
    double, bot = discord_double, hokm_bot
    host = double.members[0]
    table = await open_table(double, bot, host, {"target_score": 1, "difficulty": "easy"})
    record = await double.click(host, table_message(double, table), label="Start")
    assert record.response_type == 7
    assert table.status == "playing"
    assert sum(1 for s in table.seats if s and s.is_computer) == 3
    await play_out(double, bot, table, {host.id: host}, random.Random(1), turns=200)
    channel = double.channel
    assert channel is not None
    await double.wait_for_message(channel, lambda m: "win the match" in m.text, timeout=15)


async def test_refusals_are_private_and_change_nothing(
    discord_double: DiscordDouble, hokm_bot: HokmBot
) -> None:
    double, bot = discord_double, hokm_bot
    host, *others = double.members
    table = await open_table(double, bot, host)
    await seat_everyone(double, bot, table, others)
    match = table.match
    assert match is not None and match.phase == TRUMP
    users = {u.id: u for u in double.members}
    hakem = users[table.seat(match.hakem).user_id or 0]
    trump_dm = await double.wait_for_dm(hakem, lambda m: ready_to_act(m, table))
    # someone else tries the hakem's trump button: a forged click (another member's DM)
    outsider = users[table.seat((match.hakem + 1) % 4).user_id or 0]
    before = match.to_dict()
    dm_of_outsider = await double.slash(outsider, double.channel, "hokm hand")
    assert dm_of_outsider.ephemeral
    await double.click(hakem, trump_dm, custom_id=trump_dm.buttons()[0].custom_id)
    assert match.phase == PLAY
    # out of turn: a member who is not to play clicks a card of their own
    not_turn = next(u for uid, u in users.items() if table.seat_of(uid) != match.turn)
    hand = await double.wait_for_dm(
        not_turn,
        lambda m: any(b.custom_id and b.custom_id.startswith("hokm:c:") for b in m.buttons()),
    )
    before = match.to_dict()
    card_button = next(
        b for b in hand.buttons() if b.custom_id and b.custom_id.startswith("hokm:c:")
    )
    rec = await double.click(not_turn, hand, custom_id=card_button.custom_id)
    assert rec.ephemeral and "isn't your turn" in rec.message.text  # type: ignore[union-attr]
    assert match.to_dict() == before
    # the leader plays, then the next player tries a card that does not follow suit
    rng = random.Random(2)
    await play_turn_by_dm(double, bot, table, users, rng)
    led = match.current_trick()[0][1].suit
    seat = match.turn
    user = users[table.seat(seat).user_id or 0]
    held = match.hand_of(seat)
    if any(c.suit == led for c in held) and any(c.suit != led for c in held):
        await double.wait_until(
            lambda: ready_to_act(hand_message(double, user), table), what="turn marker"
        )
        msg = hand_message(double, user)
        assert msg is not None
        wrong = next(
            b
            for b in msg.buttons()
            if b.style != SUCCESS and b.custom_id and b.custom_id.startswith("hokm:c:")
        )
        before = match.to_dict()
        rec = await double.click(user, msg, custom_id=wrong.custom_id)
        assert rec.ephemeral and "must follow suit" in rec.message.text  # type: ignore[union-attr]
        assert match.to_dict() == before
    # forged and garbage custom_ids, a card not held, another table's id
    forged = [
        "hokm:c:000000000000:1:AS",
        f"hokm:c:{table.table_id}:1:ZZ",
        f"hokm:c:{table.table_id}:99:AS",
        "not-ours",
        "hokm:" + "x" * 95,
        f"hokm:t:{table.table_id}:1:S",
    ]
    not_held = next(
        c
        for c in map(Card, range(52))
        if c not in match.hand_of(seat) and c not in [x for _, x in match.current_trick()]
    )
    forged.append(f"hokm:c:{table.table_id}:{match.hand_number}:{not_held.code}")
    # the player's DM may still be on its way (it goes through the outbox)
    await double.wait_until(lambda: hand_message(double, user) is not None, what="the hand DM")
    msg = hand_message(double, user)
    assert msg is not None
    before = match.to_dict()
    for custom_id in forged:
        rec = await double.click(user, msg, custom_id=custom_id, stale=True)
        assert rec.ephemeral, custom_id
        assert "Traceback" not in rec.message.text  # type: ignore[union-attr]
    assert match.to_dict() == before
    # a second /hokm new in the same channel points at the first table
    rec = await double.slash(host, double.channel, "hokm new")
    assert rec.ephemeral and "already has a table" in rec.message.text  # type: ignore[union-attr]
    # a non-player asks for a hand
    guest = double.add_member(double.guild, "guest")  # type: ignore[arg-type]
    rec = await double.click(guest, table_message(double, table), label="My hand")
    assert rec.ephemeral and "You are watching" in rec.message.text  # type: ignore[union-attr]


async def test_closed_dms_member_finishes_the_match_through_my_hand(
    discord_double: DiscordDouble, hokm_bot: HokmBot
) -> None:
    double, bot = discord_double, hokm_bot
    host, closed, *rest = double.members
    double.close_dms(closed)
    table = await open_table(double, bot, host, {"target_score": 1})
    for user in (closed, *rest):
        await double.click(user, table_message(double, table), label="Join")
    channel = double.channel
    assert channel is not None
    users = {u.id: u for u in double.members}
    rng = random.Random(3)
    used_my_hand = 0
    for _ in range(300):
        if table.status != "playing":
            break
        match = table.match
        assert match is not None
        user = users[table.seat(match.to_act).user_id or 0]
        if user is closed:
            rec = await double.click(closed, table_message(double, table), label="My hand")
            assert rec.ephemeral
            eph = rec.message
            assert eph is not None and eph.visible_to(closed.id)
            buttons = [b for b in eph.buttons() if (b.custom_id or "").startswith("hokm:t:")] or [
                b for b in eph.buttons() if b.style == SUCCESS
            ]
            click = await double.click(closed, eph, custom_id=rng.choice(buttons).custom_id)
            assert click.response_type == 7
            used_my_hand += 1
        else:
            await play_turn_by_dm(double, bot, table, users, rng)
    assert table.status == "finished" and used_my_hand > 0
    assert double.dms(closed) == []
    notice = await double.wait_for_message(channel, lambda m: "can't DM" in m.text, timeout=15)
    assert f"<@{closed.id}>" in notice.text


async def trump_timed_out(double: DiscordDouble, bot: HokmBot) -> tuple[Table, int]:
    """A full table whose hakem let the trump choice run out (R14); returns the hakem's seat."""
    host, *others = double.members
    table = await open_table(double, bot, host)
    await seat_everyone(double, bot, table, others)
    match = table.match
    assert match is not None
    hakem_seat = match.hakem
    skip_time(bot, table, 31)  # the trump choice runs out; the bot names trump
    await double.wait_until(lambda: match.phase == PLAY, what="trump named on time-out")
    return table, hakem_seat


async def test_turn_timeout_plays_for_the_member_and_two_in_a_row_hand_over_to_the_computer(
    discord_double: DiscordDouble, hokm_bot: HokmBot
) -> None:
    double, bot = discord_double, hokm_bot
    table, hakem_seat = await trump_timed_out(double, bot)
    match = table.match
    assert match is not None
    assert table.seat(hakem_seat).missed_turns == 1
    leader = match.turn
    assert leader == hakem_seat
    skip_time(bot, table, 21)  # the hakem misses the lead too: second in a row
    await double.wait_until(
        lambda: len(match.current_trick()) >= 1, what="a card played on time-out"
    )
    assert table.seat(hakem_seat).autoplay
    channel = double.channel
    assert channel is not None
    await double.wait_until(
        lambda: "ran out of time" in table_message(double, table).text, what="the time-out line"
    )
    assert "computer plays for them" in table_message(double, table).text


async def test_settings_refused_to_members_and_applied_for_managers(
    discord_double: DiscordDouble, hokm_bot: HokmBot
) -> None:
    double = discord_double
    admin, member = double.members[0], double.members[1]
    channel = double.channel
    rec = await double.slash(member, channel, "hokm settings", {"turn_seconds": 30})
    assert rec.ephemeral and "Manage Server" in rec.message.text  # type: ignore[union-attr]
    assert (await hokm_bot.store.get_guild_settings(double.guild.id)).turn_seconds == 20  # type: ignore[union-attr]
    rec = await double.slash(
        admin, channel, "hokm settings", {"turn_seconds": 30, "target_score": 5}
    )
    text = rec.message.text  # type: ignore[union-attr]
    assert "Turn time: 30 s" in text and "Default target score: 5" in text
    stored = await hokm_bot.store.get_guild_settings(double.guild.id)  # type: ignore[union-attr]
    assert stored.turn_seconds == 30 and stored.target_score == 5
    for bad in (
        {"turn_seconds": 5},
        {"turn_seconds": 61},
        {"target_score": 14},
        {"trump_seconds": 0},
    ):
        rec = await double.slash(admin, channel, "hokm settings", bad)
        assert rec.ephemeral and "Not changed" in rec.message.text, bad  # type: ignore[union-attr]
    assert (await hokm_bot.store.get_guild_settings(double.guild.id)).turn_seconds == 30  # type: ignore[union-attr]
    rec = await double.slash(admin, channel, "hokm new", {"target_score": 40})
    assert rec.ephemeral and "target_score" in rec.message.text  # type: ignore[union-attr]
    assert hokm_bot.service.table_in_channel(channel.id) is None  # type: ignore[union-attr]


async def test_persian_server_gets_persian_text(
    discord_double: DiscordDouble, hokm_bot: HokmBot
) -> None:
    double, bot = discord_double, hokm_bot
    admin, *others = double.members
    await double.slash(admin, double.channel, "hokm settings", {"language": "fa"})
    table = await open_table(double, bot, admin)
    message = table_message(double, table)
    assert "میز حکم" in message.text
    assert {b.label for b in message.buttons()} >= {"پیوستن", "شروع", "لغو"}
    await seat_everyone_fa(double, table, others)
    match = table.match
    assert match is not None
    users = {u.id: u for u in double.members}
    hakem = users[table.seat(match.hakem).user_id or 0]
    dm = await double.wait_for_dm(hakem, lambda m: ready_to_act(m, table))
    labels = {b.label for b in dm.buttons()}
    assert {"♠ پیک", "♥ دل", "♦ خشت", "♣ گشنیز"} <= labels
    assert "حاکم" in dm.text
    rec = await double.slash(others[0], double.channel, "hokm rules")
    assert "حکم" in rec.message.text  # type: ignore[union-attr]


async def seat_everyone_fa(double: DiscordDouble, table, users) -> None:  # type: ignore[no-untyped-def]
    for user in users:
        await double.click(user, table_message(double, table), label="پیوستن")


@pytest.mark.parametrize("command", ["hokm join", "hokm leave", "hokm hand", "hokm cancel"])
async def test_commands_without_a_table_say_so(
    discord_double: DiscordDouble, hokm_bot: HokmBot, command: str
) -> None:
    rec = await discord_double.slash(discord_double.members[1], discord_double.channel, command)
    assert rec.ephemeral and "no open table" in rec.message.text  # type: ignore[union-attr]


async def test_unfilled_lobby_closes_after_its_timeout(
    discord_double: DiscordDouble, hokm_bot: HokmBot
) -> None:
    double, bot = discord_double, hokm_bot
    table = await open_table(double, bot, double.members[0])
    skip_time(bot, table, 15 * 60 + 1)
    await double.wait_until(lambda: table.status == "cancelled", what="the lobby to expire")
    await double.wait_until(
        lambda: "nobody filled the seats" in table_message(double, table).text,
        timeout=10,
        what="the table message to say so",
    )
    assert bot.service.table_in_channel(double.channel.id) is None  # type: ignore[union-attr]
    assert (await bot.store.load_table(table.table_id)).status == "cancelled"  # type: ignore[union-attr]


async def test_a_replaced_member_takes_the_seat_back_with_any_click(
    discord_double: DiscordDouble, hokm_bot: HokmBot
) -> None:
    double, bot = discord_double, hokm_bot
    table, hakem_seat = await trump_timed_out(double, bot)
    match = table.match
    assert match is not None
    skip_time(bot, table, 21)
    await double.wait_until(
        lambda: table.seat(hakem_seat).autoplay, what="the computer to take over"
    )
    users = {u.id: u for u in double.members}
    hakem = users[table.seat(hakem_seat).user_id or 0]
    rec = await double.click(hakem, table_message(double, table), label="My hand")
    eph = rec.message
    assert eph is not None
    card = next(b for b in eph.buttons() if (b.custom_id or "").startswith("hokm:c:"))
    await double.click(hakem, eph, custom_id=card.custom_id)
    assert not table.seat(hakem_seat).autoplay
    await double.wait_until(
        lambda: "is back at the table" in table_message(double, table).text,
        timeout=10,
        what="the table to say they are back",
    )
