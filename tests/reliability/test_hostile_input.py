"""Guarantee 3, hostile input: a clear private answer or a clean end, never a traceback to the
user, never a table stuck for ever.

Forged and malformed custom_ids, clicks from non-players and from another server, slash
options out of range, the channel deleted mid-match, the bot losing the right to post, a
member who walks away mid-match, and a fuzz of 1,200 random malformed clicks at a live table.
"""

from __future__ import annotations

import asyncio
import logging
import random
import string

import pytest

from bot.discord.client import HokmBot
from bot.present import custom_ids
from bot.service.table import Table
from engine import CARDS, PLAY, Card, Suit
from tests.double.interactions import InteractionRecord
from tests.double.models import StoredMessage, User
from tests.double.server import DiscordDouble
from tests.e2e.conftest import BotFactory
from tests.e2e.helpers import skip_time, table_message

from .inproc import card_buttons, fast_forward, hand_dm, seated_table, until

INTERNAL = "Something went wrong"


def answer_text(rec: InteractionRecord) -> str:
    return rec.message.text if rec.message is not None else ""


def assert_private_refusal(rec: InteractionRecord, *needles: str) -> None:
    assert rec.responded and rec.response_type == 4 and rec.ephemeral, (
        rec.description,
        rec.response_name,
    )
    text = answer_text(rec)
    assert INTERNAL not in text and "Traceback" not in text, text
    if needles:
        assert any(n in text for n in needles), (rec.description, text)


def no_errors_logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def other_guild_table(double: DiscordDouble, bot: HokmBot) -> tuple[Table, User]:
    """The second server's member opens a lobby in its #general (see ``other_guild``)."""
    guild = next(g for g in double.world.guilds.values() if g.name == "Other Club")
    channel = next(iter(guild.channels.values()))
    stranger = next(m.user for m in guild.members.values() if m.user.username == "stranger")
    await double.slash(stranger, channel, "hokm new", {})
    table = bot.service.table_in_channel(channel.id)
    assert table is not None
    await until(lambda: table.message_id is not None, what="the other table message")
    return table, stranger


async def test_forged_ids_non_players_and_strangers_get_private_answers(
    discord_double: DiscordDouble, make_bot: BotFactory, caplog: pytest.LogCaptureFixture
) -> None:
    double = discord_double
    assert double.guild is not None
    other_guild = double.create_guild("Other Club")
    double.add_text_channel(other_guild, "general")
    double.add_member(other_guild, "stranger")
    bot = await make_bot(dev_guild_ids=[double.guild.id, other_guild.id], match_seed_base=3)
    table = await seated_table(double, bot, {"turn_seconds": 60})
    match = table.match
    assert match is not None
    await fast_forward(bot, table, lambda: match.phase == PLAY)
    other, stranger = await other_guild_table(double, bot)
    onlooker = double.add_member(double.guild, "onlooker")
    seat = match.to_act
    player = next(u for u in double.members if u.id == table.seat(seat).user_id)
    dm = await hand_dm(double, player, table, match.hand_number)
    tid, hand = table.table_id, match.hand_number
    held = set(match.hand_of(seat))
    not_held = next(c for c in map(Card, range(52)) if c not in held)
    forged = {
        f"hokm:c:{other.table_id}:1:AS": ("earlier hand or a finished table", "aren't playing"),
        f"hokm:c:{tid}:{hand + 1}:{next(iter(held)).code}": ("earlier hand",),
        f"hokm:c:{tid}:{hand}:{not_held.code}": ("don't hold", "isn't your turn"),
        f"hokm:t:{tid}:{hand}:S": ("can't be done", "Only the hakem", "isn't your turn"),
        f"hokm:j:{tid}": ("isn't valid",),  # a lobby button clicked from a DM
        "hokm:c:zzzzzzzzzzzz:1:AS": ("isn't valid",),
        "not-ours": ("isn't valid",),
        "": ("isn't valid",),
        "hokm:h:" + "0" * 93: ("isn't valid",),  # 100 characters, not a table id
        "hokm:c:" + tid + ":1:AS" + "x" * 80: ("isn't valid",),  # over 100 characters
        "hokm:c:" + tid + ":1:10S\u200b": ("isn't valid",),
    }
    before = match.to_dict()
    for custom_id, needles in forged.items():
        rec = await double.click(player, dm, custom_id=custom_id, stale=True)
        assert_private_refusal(rec, *needles)
    public = table_message(double, table)
    for who in (onlooker,):  # not seated: every table button says so
        rec = await double.click(who, public, label="My hand")
        assert_private_refusal(rec, "You are watching")  # a spectator (issue 13 item 9)
        for custom_id in (
            custom_ids.my_hand_id(tid),
            custom_ids.card_id(tid, hand, next(iter(held))),
            custom_ids.trump_id(tid, hand, match.trump or Suit.SPADES),
            custom_ids.lobby_id(tid, "leave"),
            custom_ids.lobby_id(tid, "cancel"),
        ):
            rec = await double.click(who, public, custom_id=custom_id, stale=True)
            assert_private_refusal(rec)
    # a member of another server clicks its own channel's message, forging our table's ids
    foreign = double.message(other.message_id or 0)
    for custom_id in (
        custom_ids.lobby_id(tid, "join"),
        custom_ids.lobby_id(tid, "cancel"),
        custom_ids.my_hand_id(tid),
        custom_ids.card_id(tid, hand, next(iter(held))),
    ):
        rec = await double.click(stranger, foreign, custom_id=custom_id, stale=True)
        assert_private_refusal(rec, "isn't valid", "aren't playing")
    assert match.to_dict() == before and table.status == "playing"
    assert other.status == "lobby" and other.seat_of(stranger.id) == 0
    assert no_errors_logged(caplog) == []


async def test_forged_page_and_card_clicks_never_rewrite_a_public_message(
    discord_double: DiscordDouble, make_bot: BotFactory
) -> None:
    """A standings-page id clicked on the table message must not turn it into standings; a
    member's own legal card clicked on the public table message must not show their hand
    there (it is played, and the hand is shown to them alone)."""
    double = discord_double
    bot = await make_bot(match_seed_base=3)
    table = await seated_table(double, bot, {"turn_seconds": 60})
    match = table.match
    assert match is not None
    await fast_forward(bot, table, lambda: match.phase == PLAY)
    public = table_message(double, table)
    shown = public.snapshot()
    rec = await double.click(
        double.members[1], public, custom_id=custom_ids.standings_id(1, "n"), stale=True
    )
    assert rec.responded and rec.response_type != 7, "the table message became standings"
    assert public.embeds == shown["embeds"]
    seat = match.to_act
    player = next(u for u in double.members if u.id == table.seat(seat).user_id)
    card = match.legal_cards(seat)[0]
    rec = await double.click(
        player,
        public,
        custom_id=custom_ids.card_id(table.table_id, match.hand_number, card),
        stale=True,
    )
    assert rec.responded and rec.response_type != 7, "the public message now shows a hand"
    assert not any(card_buttons(v) for v in [public]), "card buttons on the public message"
    assert card not in match.hand_of(seat)  # the move itself was valid and is applied
    assert rec.ephemeral or rec.response_type == 6


@pytest.mark.parametrize(
    ("command", "options", "needle"),
    [
        ("hokm new", {"target_score": 0}, "target_score"),
        ("hokm new", {"target_score": 14}, "target_score"),
        ("hokm new", {"target_score": -(2**53)}, "target_score"),
        ("hokm new", {"turn_seconds": 9}, "turn_seconds"),
        ("hokm new", {"turn_seconds": 2**53}, "turn_seconds"),
        ("hokm settings", {"trump_seconds": 121}, "trump_seconds"),
        ("hokm settings", {"lobby_timeout_minutes": 0}, "lobby_timeout_minutes"),
        ("hokm settings", {"lobby_timeout_minutes": 10**12}, "lobby_timeout_minutes"),
        ("hokm settings", {"target_score": -1}, "target_score"),
    ],
)
async def test_slash_options_out_of_range_are_refused_privately(
    discord_double: DiscordDouble,
    hokm_bot: HokmBot,
    command: str,
    options: dict[str, int],
    needle: str,
) -> None:
    double = discord_double
    assert double.guild is not None and double.channel is not None
    before = await hokm_bot.store.get_guild_settings(double.guild.id)
    rec = await double.slash(double.members[0], double.channel, command, options)
    assert_private_refusal(rec, needle)
    assert hokm_bot.service.table_in_channel(double.channel.id) is None
    assert await hokm_bot.store.get_guild_settings(double.guild.id) == before


async def test_channel_deleted_mid_match_ends_the_table_cleanly(
    discord_double: DiscordDouble, hokm_bot: HokmBot, caplog: pytest.LogCaptureFixture
) -> None:
    double, bot = discord_double, hokm_bot
    table = await seated_table(double, bot, {"turn_seconds": 60})
    match = table.match
    assert match is not None
    await fast_forward(bot, table, lambda: match.phase == PLAY)
    player = next(u for u in double.members if u.id == table.seat(match.to_act).user_id)
    dm = await hand_dm(double, player, table, match.hand_number)
    assert double.channel is not None
    double.delete_channel(double.channel)
    await until(lambda: table.status == "cancelled", what="the table to be abandoned")
    # the table is cancelled in memory before the service's save of it commits
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 10.0
    stored = await bot.store.load_table(table.table_id)
    while stored is not None and stored.status != "cancelled" and loop.time() < deadline:
        await asyncio.sleep(0.02)
        stored = await bot.store.load_table(table.table_id)
    assert stored is not None and stored.status == "cancelled"
    assert table.table_id not in bot.service.tables and not bot.service.turns.has_timer(
        table.table_id
    )
    rec = await double.click(player, dm, custom_id=card_buttons(dm)[0])
    assert_private_refusal(rec, "finished table")
    assert bot.service.tables == {} and await bot.store.load_live_tables() == []
    assert no_errors_logged(caplog) == []


async def test_no_right_to_post_ends_a_new_table_cleanly_and_a_match_goes_on(
    discord_double: DiscordDouble, hokm_bot: HokmBot, caplog: pytest.LogCaptureFixture
) -> None:
    double, bot = discord_double, hokm_bot
    channel = double.channel
    assert channel is not None
    double.deny_send(channel)
    rec = await double.slash(double.members[0], channel, "hokm new", {})
    assert rec.ephemeral
    await until(lambda: bot.service.table_in_channel(channel.id) is None, what="a clean end")
    assert await bot.store.load_live_tables() == []
    double.deny_send(channel, denied=False)

    table = await seated_table(double, bot, {"turn_seconds": 60, "target_score": 1})
    double.deny_send(channel)  # lost mid-match: reports cannot be posted, play goes on
    await fast_forward(bot, table, lambda: False)
    assert table.status == "finished"
    stored = await bot.store.load_table(table.table_id)
    assert stored is not None and stored.status == "finished"
    assert no_errors_logged(caplog) == []


async def test_a_member_who_leaves_mid_match_is_replaced_after_two_time_outs(
    discord_double: DiscordDouble, make_bot: BotFactory
) -> None:
    """Without privileged intents the bot never hears that a member left the server; their
    turns time out, and after two in a row the computer plays their seat to the end."""
    double = discord_double
    bot = await make_bot(match_seed_base=3)
    table = await seated_table(double, bot, {"target_score": 1})
    match = table.match
    assert match is not None
    gone = match.hakem  # the member to act walks away
    skip_time(bot, table, 31)  # trump choice times out
    await until(lambda: match.phase == PLAY, what="trump named on time-out")
    assert match.to_act == gone and table.seat(gone).missed_turns == 1
    skip_time(bot, table, 21)  # the lead times out too: two in a row
    await until(lambda: table.seat(gone).autoplay, what="the computer to take the seat")
    await fast_forward(bot, table, lambda: False)
    assert table.status == "finished"
    assert table.seat(gone).autoplay and table.seat(gone).user_id is not None


def random_ids(rng: random.Random, table: Table, other_ids: list[str]) -> str:
    """One malformed or misdirected custom_id."""
    match = table.match
    assert match is not None
    tid, hand = table.table_id, match.hand_number
    kind = rng.randrange(10)
    if kind == 0:
        return "".join(rng.choice(string.printable) for _ in range(rng.randrange(0, 120)))
    if kind == 1:
        return "hokm:" + "".join(
            rng.choice("chjlasxpt:0123456789abcdefSHDC") for _ in range(rng.randrange(1, 140))
        )
    if kind == 2:
        return "".join(chr(rng.randrange(0x80, 0x2FFF)) for _ in range(rng.randrange(1, 60)))
    if kind == 3:  # another hand, or hand 0 / huge
        h = rng.choice([0, hand - 1, hand + 1, 9999, 10**6])
        return f"hokm:c:{tid}:{h}:{rng.choice(CARDS).code}"
    if kind == 4:  # another table (live in another channel, or made up)
        return f"hokm:c:{rng.choice(other_ids)}:{hand}:{rng.choice(CARDS).code}"
    if kind == 5:  # this hand, any card (legal moves are filtered out by the caller)
        return custom_ids.card_id(tid, hand, rng.choice(CARDS))
    if kind == 6:
        return custom_ids.trump_id(tid, hand, rng.choice(list(Suit)))
    if kind == 7:
        return custom_ids.lobby_id(tid, rng.choice(["join", "leave", "add_computer", "start"]))
    if kind == 8:
        return custom_ids.my_hand_id(rng.choice([tid, *other_ids]))
    valid = custom_ids.card_id(tid, hand, rng.choice(CARDS))
    cut = rng.randrange(len(valid))
    return valid[:cut] + rng.choice(["", "x", ":", "9", "::", "\x00"]) + valid[cut + 1 :]


def seat_facts(table: Table) -> list[tuple[object, ...]]:
    return [(s.user_id, s.autoplay, s.missed_turns, s.dm_closed) for s in table.seats if s]


def changes_state(table: Table, user: User, custom_id: str) -> bool:
    """Whether a click would be a legal move (the fuzz only sends ones that change nothing)."""
    try:
        click = custom_ids.parse(custom_id)
    except custom_ids.BadCustomId:
        return False
    match = table.match
    assert match is not None
    seat = table.seat_of(user.id)
    if click.table_id != table.table_id or seat is None or seat != match.to_act:
        return False
    if click.kind == "card" and click.hand == match.hand_number:
        return click.card in match.legal_cards(seat) if match.phase == PLAY else False
    if click.kind == "trump" and click.hand == match.hand_number:
        return match.phase != PLAY
    return False


async def test_fuzz_a_thousand_malformed_clicks_change_nothing_and_all_are_answered(
    discord_double: DiscordDouble, make_bot: BotFactory, caplog: pytest.LogCaptureFixture
) -> None:
    double = discord_double
    assert double.guild is not None
    bot = await make_bot(match_seed_base=3)
    table = await seated_table(double, bot, {"turn_seconds": 60})
    match = table.match
    assert match is not None
    await fast_forward(bot, table, lambda: match.phase == PLAY and len(match.current_trick()) == 2)
    outsiders = [double.add_member(double.guild, f"visitor{i}") for i in range(2)]
    users = {u.id: u for u in double.members}
    # what each member can click: the table message, their own DMs and ephemeral hands
    for user in double.members:
        await double.click(user, table_message(double, table), label="My hand")
    await until(lambda: all(double.dms(u) for u in double.members), what="every member's hand DM")
    clickable: list[tuple[User, StoredMessage]] = []
    for user in [*double.members, *outsiders]:
        clickable.append((user, table_message(double, table)))
        clickable += [(user, m) for m in double.dms(user) + double.ephemerals(user)]
    other_ids = ["0123456789ab", "ffffffffffff", "deadbeef0000"]
    before_match, before_seats = match.to_dict(), seat_facts(table)
    stored_before = await bot.store.load_table(table.table_id)
    assert stored_before is not None
    rng = random.Random(5)
    records: list[InteractionRecord] = []
    sent = 0
    while sent < 1200:
        batch = []
        while len(batch) < 40:
            user, message = rng.choice(clickable)
            custom_id = random_ids(rng, table, other_ids)
            if changes_state(table, user, custom_id):
                continue
            batch.append(
                await double.click(user, message, custom_id=custom_id, stale=True, wait=False)
            )
        for rec in batch:
            await rec.wait_response(timeout=10)
        records += batch
        sent += len(batch)
    assert all(r.responded for r in records)
    updates = [r for r in records if r.response_type == 7]
    assert updates == [], [(r.description, r.response_name) for r in updates[:3]]
    internal = [r.description for r in records if INTERNAL in answer_text(r)]
    assert internal == []
    assert match.to_dict() == before_match
    assert seat_facts(table) == before_seats
    stored = await bot.store.load_table(table.table_id)
    assert stored is not None and stored.state["match"] == stored_before.state["match"]
    assert table.status == "playing" and users
    assert no_errors_logged(caplog) == []
