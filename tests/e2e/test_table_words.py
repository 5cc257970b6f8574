"""In English and Persian (the server's ``language``): what a
table says about its target, a negative score, a solo table's seats and a hand's bidding,
through the real discord.py against the double, with the hidden-cards checker over every
message (``tests/reliability/leaks.py``)."""

from __future__ import annotations

import random
import re

from bot.discord.client import HokmBot
from bot.names import seat_name
from bot.present import custom_ids
from bot.present.i18n import number, t, word
from bot.present.shelem import bid_label
from bot.service.table import Table
from bot.store.guild_settings import GuildSettings
from engine import BID
from engine.shelem import PASS, SHELEM
from tests.double.models import StoredMessage, User
from tests.double.server import DiscordDouble
from tests.reliability.leaks import HandWatcher, leaks

from .conftest import BotFactory, each_language_once
from .helpers import open_table, table_message
from .shelem_players import play_out, shelem_of

MINUS = "\u2212"
LRI, RLI, PDI = "\u2066", "\u2067", "\u2069"
FA_DIGITS = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")


def shown(lang: str, value: int) -> str:
    """A score as the table writes it: ``−35`` with U+2212, in Persian ``۳۵`` digits and the
    negative number in a left-to-right isolate (``\u2066−۳۵\u2069``)."""
    digits = str(abs(value)).translate(FA_DIGITS) if lang == "fa" else str(abs(value))
    if value >= 0:
        return digits
    return f"{LRI}{MINUS}{digits}{PDI}" if lang == "fa" else MINUS + digits


async def in_language(double: DiscordDouble, bot: HokmBot, lang: str, **settings: object) -> None:
    assert double.guild is not None
    await bot.store.set_guild_settings(
        double.guild.id,
        GuildSettings(language=lang, **settings),  # type: ignore[arg-type]
    )


def footer(double: DiscordDouble, table: Table) -> str:
    return str(table_message(double, table).embeds[0]["footer"]["text"])


def channel_text(double: DiscordDouble) -> str:
    assert double.channel is not None
    return "\n".join(m.text for m in double.messages_in(double.channel))


def newest_hand(double: DiscordDouble, user: User, table: Table) -> StoredMessage | None:
    """The newest DM of ``user`` that shows a hand of ``table`` (its header names the channel;
    a seat waiting for a bid has no button to find it by)."""
    mention = f"<#{table.channel_id}>"
    return next((m for m in reversed(double.dms(user)) if mention in m.text), None)


# ---------------------------------------------------------------------- item 4: the target


@each_language_once()
async def test_39_4_a_fixed_target_is_refused_and_every_footer_shows_the_real_one(
    discord_double: DiscordDouble, make_bot: BotFactory, lang: str
) -> None:
    """``/hokm new format:joker_six target_score:1`` (and ``target_score`` at Shelem, which
    plays to ``shelem_target``) is refused privately, in the server's language, and opens
    nothing; a plain joker six under a server default of 1 says 124 points, never the
    default; a standard table to 1 says "1 point"."""
    double = discord_double
    channel = double.channel
    assert channel is not None
    bot = await make_bot()
    await in_language(double, bot, lang, target_score=1)
    host = double.members[0]
    said = {
        "en": ("always plays to 124 points", "shelem_target"),
        "fa": ("همیشه تا ۱۲۴ امتیاز", "shelem_target"),
    }[lang]
    for options, text in (
        ({"format": "joker_six", "target_score": 1}, said[0]),
        ({"format": "joker_six", "target_score": 124}, said[0]),
        ({"format": "shelem", "target_score": 5}, said[1]),
    ):
        rec = await double.slash(host, channel, "hokm new", options)
        assert rec.ephemeral and rec.message is not None, options
        assert text in rec.message.text, rec.message.text
        assert bot.service.table_in_channel(channel.id) is None
        assert double.messages_in(channel) == []  # nothing was posted
    joker = await open_table(double, bot, host, {"format": "joker_six"})
    shown = footer(double, joker)
    if lang == "en":
        assert "First to 124 points ·" in shown and "First to 1 " not in shown
    else:
        assert "تا \u2068۱۲۴\u2069 امتیاز" in shown or "تا ۱۲۴ امتیاز" in shown
        assert "۱ امتیاز" not in shown.replace("۱۲۴", "")
    cancel = custom_ids.lobby_id(joker.table_id, "cancel")
    await double.click(host, table_message(double, joker), custom_id=cancel)
    assert bot.service.table_in_channel(channel.id) is None
    standard = await open_table(double, bot, host)
    shown = footer(double, standard)
    if lang == "en":
        assert shown.startswith("First to 1 point · "), shown
    else:
        assert re.search("^\u200f?تا \u2068?۱\u2069? امتیاز · ", shown), shown


# ---------------------------------------------------------------------- item 5: below zero


@each_language_once()
async def test_39_5_a_shelem_match_lost_below_zero_writes_its_minus_signs(
    discord_double: DiscordDouble, make_bot: BotFactory, lang: str
) -> None:
    """A Shelem match that ends with a side below zero: every score in the channel (the hand's
    result, the table message, the summary's title) has a real minus sign (U+2212) with its
    digits, no hyphen and no dash against it; in Persian each negative number is a
    left-to-right isolate of its own (the sign stays left of its digits in a right-to-left
    line) and the title's pair reads right to left."""
    double = discord_double
    channel = double.channel
    assert channel is not None
    bot = await make_bot(match_seed_base=53)
    watcher = HandWatcher.install(bot)
    await in_language(double, bot, lang)
    host = double.members[0]
    options = {"format": "shelem", "shelem_target": 200, "difficulty": "easy"}
    table = await open_table(double, bot, host, options)
    start = custom_ids.lobby_id(table.table_id, "start")
    await double.click(host, table_message(double, table), custom_id=start)
    match = shelem_of(table)
    match.scores[:] = [-1000, 150]  # the first hand ends it: 150 and more ahead by 200
    await play_out(double, bot, table, {u.id: u for u in double.members}, random.Random(2))
    assert match.is_over and match.winner_team == 1 and match.scores[0] < 0
    summary = await double.wait_for_message(
        channel, lambda m: bool(m.buttons()) and m.id != table_message(double, table).id, timeout=15
    )
    title = str(summary.embeds[0]["title"])
    won, lost = match.scores[1], match.scores[0]
    if lang == "en":
        assert title.endswith(f"win the match {shown('en', won)} – {shown('en', lost)}"), title
    else:  # one right-to-left pair (the winner's score first, on the right)
        assert f"{RLI}{shown('fa', won)} بر {shown('fa', lost)}{PDI}" in title, ascii(title)
    await double.wait_until(
        lambda: shown(lang, lost) in table_message(double, table).text, timeout=10
    )
    everything = channel_text(double) + "\n" + title
    assert re.search("[-–—]" + MINUS, everything) is None, "a dash against a minus"
    assert re.search("-[0-9۰-۹]", everything) is None, "a hyphen for a minus"
    assert everything.count(MINUS) >= 3  # the hand's result, the table's score, the title
    if lang == "fa":  # every minus sign is in an isolate of its own, with its digits
        assert everything.count(MINUS) == len(re.findall(f"{LRI}{MINUS}[۰-۹]+{PDI}", everything))
    assert leaks(double, watcher) == []


# ---------------------------------------------------------------------- item 6: solo seats


@each_language_once()
async def test_39_6_a_solo_table_names_seats_and_players_not_teams(
    discord_double: DiscordDouble, make_bot: BotFactory, lang: str
) -> None:
    """The three-player format (everyone alone): the lobby under "Everyone plays alone" lists
    Seat 1–3, never "Team 2"; once the players sit and play, still seats and players."""
    double = discord_double
    channel = double.channel
    assert channel is not None
    bot = await make_bot(match_seed_base=7)
    watcher = HandWatcher.install(bot)
    await in_language(double, bot, lang)
    host, second, third = double.members[:3]
    table = await open_table(double, bot, host, {"format": "three"})
    team, seat = {"en": ("Team", "Seat"), "fa": ("تیم", "صندلی")}[lang]

    def fields() -> list[tuple[str, str]]:
        embed = table_message(double, table).embeds[0]
        return [(f["name"], f["value"]) for f in embed["fields"]]

    lobby = table_message(double, table)
    alone = {"en": "Everyone plays alone", "fa": "هر کس برای خودش بازی می‌کند"}[lang]
    assert alone in lobby.text
    assert team not in lobby.text
    assert [name for name, _ in fields()] == [
        t(lang, "table.seat", n=number(lang, i)) for i in (1, 2, 3)
    ]
    assert f"<@{host.id}>" in fields()[0][1]
    assert t(lang, "table.empty_seat") in fields()[1][1]
    for user in (second, third):
        join = custom_ids.lobby_id(table.table_id, "join")
        await double.click(user, table_message(double, table), custom_id=join)
    assert table.status == "playing"
    await double.wait_until(lambda: table_message(double, table).text.count(seat) >= 3, timeout=10)
    playing = fields()
    assert [name for name, _ in playing] == [
        t(lang, "table.seat", n=number(lang, i)) for i in (1, 2, 3)
    ]
    for (_, value), user in zip(playing, (host, second, third), strict=True):
        assert f"<@{user.id}>" in value
    assert team not in table_message(double, table).text
    assert leaks(double, watcher) == []


# ---------------------------------------------------------------------- item 7: the bidding


def _high(bids: tuple[int, ...] | list[int]) -> tuple[int, int]:
    """The highest bid so far and its seat (0, -1: none), the joker six's way."""
    high = max(bids, default=0)
    return (high, list(bids).index(high)) if high > 0 else (0, -1)


def bid_expected(table: Table, lang: str, to_act: int, high: str, high_seat: int) -> list[str]:
    """What a waiting seat's DM and the table must say: who is to bid, and the highest bid
    and its bidder, or that nobody has bid yet."""
    who = t(lang, "bid.waiting", name=seat_name(table, to_act))
    if high_seat < 0:
        return [who, word(lang, "bid.none")]
    return [who, t(lang, "shelem.auction_high", bid=high, name=seat_name(table, high_seat))]


async def _check_waiting(
    double: DiscordDouble, table: Table, users: dict[int, User], lang: str, expected: list[str]
) -> None:
    """Every member not to act reads ``expected`` in their DM, and never "see the table"."""
    match = table.match
    assert match is not None
    for seat, s in table.humans():
        if seat == match.to_act or s.user_id is None:
            continue
        user = users[s.user_id]

        def shows(user: User = user) -> bool:
            message = newest_hand(double, user, table)
            return message is not None and all(e in message.text for e in expected)

        await double.wait_until(shows, timeout=15, what=f"{user.username}'s DM: {expected}")
        message = newest_hand(double, user, table)
        assert message is not None
        assert t(lang, "dm.see_table", channel=f"<#{table.channel_id}>") not in message.text


@each_language_once()
async def test_39_7_joker_six_bidding_says_who_bids_and_the_highest_bid(
    discord_double: DiscordDouble, make_bot: BotFactory, lang: str
) -> None:
    """The joker six: four members and two computers bid for hakem. At every member's turn,
    each other member's DM and the table message say who is to bid and the highest bid so
    far with its bidder (or that nobody has bid yet); no card shows anywhere it may not."""
    double = discord_double
    bot = await make_bot(match_seed_base=12)
    watcher = HandWatcher.install(bot)
    await in_language(double, bot, lang)
    host, *others = double.members
    table = await open_table(double, bot, host, {"format": "joker_six", "turn_seconds": 60})
    for user in others:
        join = custom_ids.lobby_id(table.table_id, "join")
        await double.click(user, table_message(double, table), custom_id=join)
    start = custom_ids.lobby_id(table.table_id, "start")
    await double.click(host, table_message(double, table), custom_id=start)
    match = table.match
    assert match is not None and match.phase == BID
    users = {u.id: u for u in double.members}
    checked: set[bool] = set()
    while match.phase == BID:
        seat = match.to_act
        if table.seat(seat).computer_plays:
            done = len(match.actions)
            await double.wait_until(lambda: len(match.actions) > done, timeout=5)  # noqa: B023
            continue
        high, high_seat = _high(match.bids)
        expected = bid_expected(table, lang, seat, number(lang, high), high_seat)
        await _check_waiting(double, table, users, lang, expected)
        turn = t(lang, "table.turn_bid", name=seat_name(table, seat), when="")
        turn = turn.split(" — ")[0].split(" · ")[0]  # fa's countdown after a label
        await double.wait_until(
            lambda: all(
                e in table_message(double, table).text
                for e in [turn, *expected[1:]]  # noqa: B023
            ),
            timeout=10,
            what="the table message to show the bidding",
        )
        checked.add(high_seat >= 0)
        user = users[table.seat(seat).user_id or 0]
        prefix = f"hokm:v:{table.table_id}:{match.hand_number}:"

        def bids_of(user: User = user, prefix: str = prefix) -> list[str]:
            message = newest_hand(double, user, table)
            ids = [b.custom_id or "" for b in message.buttons()] if message else []
            return [i for i in ids if i.startswith(prefix)]

        await double.wait_until(lambda: bool(bids_of()), timeout=15, what="the bid buttons")
        message = newest_hand(double, user, table)
        assert message is not None
        bids = bids_of()
        lowest = min(bids, key=lambda i: int(i.rsplit(":", 1)[1]) or 99)
        rec = await double.click(user, message, custom_id=lowest)
        assert rec.response_type == 7, rec.response_name
    assert checked == {False, True}  # seen before any bid, and with one
    assert leaks(double, watcher) == []


@each_language_once()
async def test_39_7_shelem_bidding_says_who_bids_and_the_highest_bid(
    discord_double: DiscordDouble, make_bot: BotFactory, lang: str
) -> None:
    """Shelem: four members bid. At every turn the others' DMs say who is to bid and the
    highest bid so far with its bidder (or that nobody has bid yet), kept current bid by bid;
    the table message says it too."""
    double = discord_double
    bot = await make_bot(match_seed_base=29)
    watcher = HandWatcher.install(bot)
    await in_language(double, bot, lang)
    host, *others = double.members
    options = {"format": "shelem", "turn_seconds": 60}
    table = await open_table(double, bot, host, options)
    for user in others:
        join = custom_ids.lobby_id(table.table_id, "join")
        await double.click(user, table_message(double, table), custom_id=join)
    match = shelem_of(table)
    users = {u.id: u for u in double.members}
    checked: set[bool] = set()
    rounds = 0
    while match.phase == BID and rounds < 12:
        rounds += 1
        seat = match.to_act
        expected = bid_expected(table, lang, seat, bid_label(lang, match.high), match.high_seat)
        await _check_waiting(double, table, users, lang, expected)
        turn = t(lang, "shelem.turn_bid", name=seat_name(table, seat), when="")
        turn = turn.split(" — ")[0].split(" · ")[0]  # fa's countdown after a label
        await double.wait_until(
            lambda: all(
                e in table_message(double, table).text
                for e in [turn, *expected[1:]]  # noqa: B023
            ),
            timeout=10,
            what="the table message to show the bidding",
        )
        checked.add(match.high_seat >= 0)
        user = users[table.seat(seat).user_id or 0]
        prefix = f"hokm:sb:{table.table_id}:{match.deal_number}:"

        def offered(user: User = user, prefix: str = prefix) -> dict[int, str]:
            message = newest_hand(double, user, table)
            ids = [b.custom_id or "" for b in message.buttons()] if message else []
            return {int(i.rsplit(":", 1)[1]): i for i in ids if i.startswith(prefix)}

        await double.wait_until(lambda: bool(offered()), timeout=15, what="the bid buttons")
        message = newest_hand(double, user, table)
        assert message is not None
        bids = offered()
        points = sorted(v for v in bids if PASS < v < SHELEM)
        choice = bids[points[0]] if points and rounds <= 3 else bids.get(PASS) or bids[min(bids)]
        rec = await double.click(user, message, custom_id=choice)
        assert rec.response_type == 7, rec.response_name
    assert checked == {False, True}
    assert leaks(double, watcher) == []
