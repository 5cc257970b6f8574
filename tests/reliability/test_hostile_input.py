"""Guarantee 3, hostile input: a clear private answer or a clean end, never a traceback to the
user, never a table stuck for ever.

Forged and malformed custom_ids, clicks from non-players and from another server, slash
options out of range, the channel deleted mid-match, the bot losing the right to post, a
member who walks away mid-match, a fuzz of 1,200 random malformed clicks at a live table, and
a fuzz of every kind of id the parser knows (``custom_ids.KINDS``, so a new kind is
fuzzed with no change here): each number at and past its bounds, cut short, extended, in
other scripts' digits, by hypothesis on the parser and through the real bot's click path.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.discord import router
from bot.discord.client import HokmBot
from bot.present import custom_ids
from bot.present.id_fields import Kind, Number
from bot.present.render import error_text
from bot.service.table import Table
from engine import CARDS, PLAY, Card, Suit
from tests.double.interactions import InteractionRecord
from tests.double.models import StoredMessage, User
from tests.double.server import DiscordDouble
from tests.e2e.conftest import BotFactory
from tests.e2e.helpers import dm_closed, message_id, skip_time, table_message
from tests.matches import played, played_shelem

from . import forged_ids
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
    await until(lambda: message_id(bot, table) is not None, what="the other table message")
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
        assert_private_refusal(rec, "You are watching")  # a spectator
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
    foreign = double.message(message_id(bot, other) or 0)
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


async def test_a_member_id_past_64_bits_is_refused_like_any_forged_id(
    discord_double: DiscordDouble, hokm_bot: HokmBot, caplog: pytest.LogCaptureFixture
) -> None:
    """``hokm:g:1:99999999999999999999:n`` named a member past the store's 64 bits
    and came back as "internal error" with a traceback; it is a forged id like any other."""
    double = discord_double
    guild, channel = double.guild, double.channel
    assert guild is not None and channel is not None
    a, b, c, d = double.members
    for n in range(11):  # two pages, so the listing has page buttons to forge
        assert await hokm_bot.store.finish_match(
            played(100 + n, (a.id, b.id, c.id, d.id), guild.id, n)
        )
    rec = await double.slash(a, channel, "hokm history")
    listing = rec.message
    assert listing is not None
    before = listing.text
    rec = await double.click(a, listing, custom_id="hokm:g:1:99999999999999999999:n", stale=True)
    assert_private_refusal(rec, "isn't valid")
    assert double.message(listing.id).text == before
    # the largest id the store can hold is asked about: nobody's, so an empty page
    rec = await double.click(a, listing, custom_id=f"hokm:g:1:{2**63 - 1}:n", stale=True)
    assert rec.response_type == 7 and INTERNAL not in double.message(listing.id).text
    assert no_errors_logged(caplog) == []


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
    # the table leaves memory and its timer goes once the cancel is committed (a watcher of
    # the commit, a moment after the save)
    await until(
        lambda: (
            table.table_id not in bot.service.tables
            and not bot.service.turns.has_timer(table.table_id)
        ),
        what="the cancelled table to leave memory",
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


def seat_facts(bot: HokmBot, table: Table) -> list[tuple[object, ...]]:
    return [
        (s.user_id, s.autoplay, s.missed_turns, dm_closed(bot, table, i))
        for i, s in enumerate(table.seats)
        if s
    ]


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
    before_match, before_seats = match.to_dict(), seat_facts(bot, table)
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
    assert seat_facts(bot, table) == before_seats
    stored = await bot.store.load_table(table.table_id)
    assert stored is not None and stored.state["match"] == stored_before.state["match"]
    assert table.status == "playing" and users
    assert no_errors_logged(caplog) == []


# ---------------------------------------------------------------------- every kind

BAD_BUTTON = error_text("en", "error.bad_button", {})


def with_text(texts: list[str], i: int, text: str) -> list[str]:
    return [*texts[:i], text, *texts[i + 1 :]]


@pytest.mark.parametrize("kind", custom_ids.KINDS, ids=lambda kind: kind.name)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_every_kind_is_taken_in_range_and_refused_past_it(
    kind: Kind[custom_ids.Click], data: st.DataObject
) -> None:
    """Any id of the kind's shape parses; each of its numbers at either bound too; past a
    bound, or written any other way than plain ASCII digits, it is refused."""
    tag, texts = data.draw(forged_ids.valid_parts(kind))
    custom_id = forged_ids.join(tag, texts)
    assert len(custom_id) <= custom_ids.MAX_LENGTH
    assert custom_ids.parse(custom_id).kind
    for i, spec in enumerate(kind.fields[: len(texts)]):
        if not isinstance(spec, Number):
            continue
        for edge in (spec.low, spec.high):
            custom_ids.parse(forged_ids.join(tag, with_text(texts, i, str(edge))))
        for past in forged_ids.past_bounds(spec, texts[i]):
            with pytest.raises(custom_ids.BadCustomId):
                custom_ids.parse(forged_ids.join(tag, with_text(texts, i, past)))
    if len(texts) == len(kind.fields):  # nothing left out: one more field is one too many
        extra = data.draw(st.text(max_size=8).filter(lambda t: ":" not in t))
        with pytest.raises(custom_ids.BadCustomId):
            custom_ids.parse(f"{custom_id}:{extra}")
    for digits in forged_ids.FOREIGN_DIGITS:
        if any(c.isdigit() for c in custom_id):
            with pytest.raises(custom_ids.BadCustomId):
                custom_ids.parse(forged_ids.foreign(custom_id, digits))
    cut = data.draw(st.integers(0, len(custom_id) - 1))
    with contextlib.suppress(custom_ids.BadCustomId):  # a cut id may still be a whole one
        custom_ids.parse(custom_id[:cut])


@pytest.mark.parametrize("kind", custom_ids.KINDS, ids=lambda kind: kind.name)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_any_text_in_a_kinds_fields_is_a_click_in_range_or_refused(
    kind: Kind[custom_ids.Click], data: st.DataObject
) -> None:
    texts = data.draw(st.lists(st.text(max_size=24), max_size=len(kind.fields) + 1))
    custom_id = forged_ids.join(data.draw(st.sampled_from(kind.tags)), texts)
    try:
        click = custom_ids.parse(custom_id)
    except custom_ids.BadCustomId:
        return
    for value in (click.hand, click.page, click.member_id, click.viewer, click.trick):
        assert 0 <= value <= custom_ids.MEMBER_MAX


def might_move(click: custom_ids.Click, user: User, tables: list[Table]) -> bool:
    """Whether a click could be a real move or end a table (the fuzz sends only clicks that
    change nothing): the seat to act's move of the current hand or deal, any Cancel."""
    if click.kind == "lobby" and click.action == "cancel":
        return True
    for table in tables:
        match = table.match
        if click.table_id != table.table_id or match is None:
            continue
        current = {match.hand_number, match.deal_number}
        to_act = table.seat_of(user.id) == match.to_act
        if to_act and click.kind in router.PLAY_CLICKS and click.hand in current:
            return True
    return False


async def shelem_table(double: DiscordDouble, bot: HokmBot) -> tuple[Table, list[User]]:
    """Four new members at a Shelem table of their own channel, bidding."""
    assert double.guild is not None
    channel = double.add_text_channel(double.guild, "shelem")
    players = [double.add_member(double.guild, f"shelem{i}") for i in range(4)]
    await double.slash(players[0], channel, "hokm new", {"format": "shelem", "turn_seconds": 60})
    table = bot.service.table_in_channel(channel.id)
    assert table is not None
    await until(lambda: message_id(bot, table) is not None, what="the Shelem table message")
    for user in players[1:]:
        await double.click(user, table_message(double, table), label="Join")
    assert table.status == "playing"
    return table, players


async def recorded(bot: HokmBot, guild_id: int, tables: list[Table]) -> list[object]:
    """What a click could change: the tables' matches and seats (in memory and stored; not
    which DM shows a hand, which the publisher records as its messages go), the history and
    the standings."""
    facts: list[object] = []
    for table in tables:
        stored = await bot.store.load_table(table.table_id)
        assert stored is not None and table.match is not None
        facts += [
            stored.state["match"],
            stored.status,
            table.match.to_dict(),
            seat_facts(bot, table),
        ]
    facts += [await bot.store.history(guild_id, page) for page in (1, 2)]
    facts.append(await bot.store.standings(guild_id, 1))
    return facts


async def test_fuzz_every_kind_of_id_at_and_past_its_bounds_through_the_real_bot(
    discord_double: DiscordDouble, make_bot: BotFactory, caplog: pytest.LogCaptureFixture
) -> None:
    """Every kind the parser knows, Hokm, Shelem, history, replay and standings ids alike,
    clicked on every surface that takes it: past a bound, the one bad-button answer; in range,
    a clean private refusal or a valid action; never "internal error", nothing recorded
    changed, no ERROR logged."""
    double = discord_double
    guild, channel = double.guild, double.channel
    assert guild is not None and channel is not None
    bot = await make_bot(match_seed_base=3)
    a = double.members[0]
    gone = iter(range(10**17, 10**17 + 64))  # members who left: standings of several pages
    finished = [
        played(100 + n, (a.id, next(gone), next(gone), next(gone)), guild.id, n) for n in range(11)
    ]
    shelem_done, _ = played_shelem(41, (a.id, None, None, None), guild.id, 12)
    for m in (*finished, shelem_done):
        assert await bot.store.finish_match(m)
    hokm = await seated_table(double, bot, {"turn_seconds": 60})
    match = hokm.match
    assert match is not None
    await fast_forward(bot, hokm, lambda: match.phase == PLAY and len(match.current_trick()) == 1)
    shelem, shelem_players = await shelem_table(double, bot)
    tables = [hokm, shelem]
    outsider = double.add_member(guild, "visitor")
    player = next(u for u in double.members if u.id == hokm.seat(match.to_act).user_id)
    bidder = next(u for u in shelem_players if u.id == shelem.seat(shelem.match.to_act).user_id)
    await until(lambda: bool(double.dms(bidder)), what="the Shelem bidder's DM")
    listing = (await double.slash(a, channel, "hokm history")).message
    standings = (await double.slash(a, channel, "standings")).message
    assert listing is not None and standings is not None
    view = (await double.click(a, listing, custom_id=f"hokm:y:{finished[-1].match_id}")).message
    assert view is not None and view.ephemeral_to == a.id
    surfaces = [
        (a, listing),
        (a, standings),
        (a, view),
        (player, await hand_dm(double, player, hokm, match.hand_number)),
        (bidder, double.dms(bidder)[-1]),
        (outsider, table_message(double, hokm)),
        (shelem_players[0], table_message(double, shelem)),
    ]
    real = {
        "table": [hokm.table_id, shelem.table_id, "ffffffffffff"],
        "hand": [str(match.hand_number), str(shelem.match.deal_number)],
        "match": [finished[-1].match_id, shelem_done.match_id, "nosuchmatch"],
        "member": [str(a.id)],
        "viewer": [str(a.id)],
        "page": ["2"],
        "format": ["standard", "shelem"],
    }
    before = await recorded(bot, guild.id, tables)
    rng = random.Random(34)
    refused: list[InteractionRecord] = []
    answered: list[InteractionRecord] = []
    kinds = [forged_ids.variants(kind, real) for kind in custom_ids.KINDS]
    for found in kinds:
        for custom_id in found.good:
            custom_ids.parse(custom_id)  # the parser takes every in-range id
        for custom_id in found.bad:
            with pytest.raises(custom_ids.BadCustomId):
                custom_ids.parse(custom_id)
    for found in kinds:
        batch: list[InteractionRecord] = []
        for custom_id in found.bad:
            user, message = rng.choice(surfaces)
            batch.append(
                await double.click(user, message, custom_id=custom_id, stale=True, wait=False)
            )
        refused += batch
        for custom_id in [*found.good, *found.either]:
            for user, message in surfaces:
                try:
                    if might_move(custom_ids.parse(custom_id), user, tables):
                        continue
                except custom_ids.BadCustomId:
                    pass
                answered.append(
                    await double.click(user, message, custom_id=custom_id, stale=True, wait=False)
                )
                batch.append(answered[-1])
        for rec in batch:
            await rec.wait_response(timeout=10)
    assert len(kinds) == len(custom_ids.KINDS) and all(k.good and k.bad for k in kinds)
    wrong = [(r.description, answer_text(r)) for r in refused if answer_text(r) != BAD_BUTTON]
    assert wrong == [] and all(r.ephemeral for r in refused)
    assert all(r.responded for r in answered)
    internal = [r.description for r in answered if INTERNAL in answer_text(r)]
    assert internal == []
    public = [r.description for r in answered if r.response_type == 4 and not r.ephemeral]
    assert public == []
    assert await recorded(bot, guild.id, tables) == before
    assert hokm.status == "playing" and shelem.status == "playing"
    assert no_errors_logged(caplog) == []
