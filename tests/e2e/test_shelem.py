"""V6 Shelem end to end, through the real discord.py against the double:
``/hokm new format:shelem``, members and computers at one table, the auction by DM buttons,
the hakem's kitty chosen card by card and laid down, the mode, the play, the channel's reports
and the summary, the standings of the format; refusals answered privately; a restart in the
middle of a hand.

The seed's target (1165) takes a dozen hands and more; these matches are played to the table
option ``shelem_target`` (V6.14, ``ShelemOptions.target_score``: 200 here), as the Hokm tests
play to ``target_score`` 1.
"""

from __future__ import annotations

import random

from bot.discord.client import HokmBot
from bot.discord.cogs.hokm import FORMAT_CHOICES, MODE_CHOICES
from bot.present.teams import team_label
from bot.service.games import SHELEM_FAMILY, family_of
from bot.service.table import Table
from bot.store.guild_settings import GuildSettings
from engine.shelem import BID, DISCARD, MODE, PLAY, ShelemMatch
from tests.double.client import ClientRunner
from tests.double.server import DiscordDouble

from .conftest import BotFactory, each_language_once
from .helpers import open_table, table_message
from .shelem_players import hand_message, play_out, play_turn, shelem_of


async def shelem_table(
    double: DiscordDouble, bot_factory: BotFactory, seed: int, members: int, **options: object
) -> tuple[Table, HokmBot]:
    bot = await bot_factory(match_seed_base=seed)
    host, *others = double.members
    chosen = {"format": "shelem", "shelem_target": 200, "difficulty": "easy"} | options
    table = await open_table(double, bot, host, chosen)
    for user in others[: members - 1]:
        await double.click(user, table_message(double, table), label="Join")
    if table.status == "lobby":
        await double.click(host, table_message(double, table), label="Start")
    assert table.status == "playing" and isinstance(table.match, ShelemMatch)
    return table, bot


async def test_v6_a_full_shelem_match_of_members_and_computers_by_dm(
    discord_double: DiscordDouble, make_bot: BotFactory
) -> None:
    """Two members and two computers bid, lay down, announce and play to the end of a match
    (to 200); the channel hears each auction's winner and each hand's result, the summary
    names the winners, and the standings count the match for Shelem alone."""
    double = discord_double
    channel = double.channel
    assert channel is not None and double.guild is not None
    assert "shelem" in [c.value for c in FORMAT_CHOICES] and len(MODE_CHOICES) == 8
    table, bot = await shelem_table(double, make_bot, 17, 2, modes="nars+sars")
    assert table.fmt.name == "shelem" and len(table.seats) == 4
    assert [s is not None and s.is_computer for s in table.seats] == [False, False, True, True]
    lobby_footer = table_message(double, table).embeds[0]["footer"]["text"]
    assert lobby_footer.startswith("Shelem") and "to 200 points" in lobby_footer
    assert "modes: Nars, Sars" in lobby_footer
    match = shelem_of(table)
    assert match.phase == BID and match.target_score == 200
    users = {u.id: u for u in double.members}
    await play_out(double, bot, table, users, random.Random(4))
    assert match.is_over and match.winner_team is not None
    kinds = [a[0] for a in match.actions if isinstance(a, tuple)]
    assert {"bid", "discard", "mode"} <= set(kinds)
    people = {table.seat(s).user_id for s in (0, 1)}
    bidders = {table.seat(a[1]).user_id for a in match.actions if isinstance(a, tuple)}
    assert people & bidders and None in bidders  # members and computers both bid
    summary = await double.wait_for_message(
        channel, lambda m: "the match" in m.text and bool(m.buttons()), timeout=15
    )
    winner = match.winner_team
    assert summary.text.startswith(f"🏆 {team_label(table, 'en', winner)} win the match")
    assert "bid" in summary.text and summary.buttons()[0].label == "Rematch"
    reports = "\n".join(m.text for m in double.messages_in(channel))
    assert "wins the bid at" in reports
    if len(match.hand_results) > 1:  # the last hand is the summary's
        assert "in hand 1" in reports
    page = await bot.store.standings(double.guild.id, 1, game_format="shelem")
    assert page.total_players == 2
    assert (await bot.store.standings(double.guild.id, 1)).total_players == 0
    shown = await double.slash(double.members[0], channel, "standings", {"format": "shelem"})
    assert shown.message is not None and "Shelem" in shown.message.text
    # /hokm history lists it, by its teams, with its Replay (test_shelem_history.py steps it)
    listed = await double.slash(double.members[0], channel, "hokm history")
    assert listed.message is not None and "Shelem" in listed.message.text
    assert team_label(table, "en", winner).split(" & ")[0] in listed.message.text
    replay = f"hokm:y:{table.table_id}"
    assert listed.message.buttons()[0].custom_id == replay
    rec = await double.click(double.members[0], listed.message, custom_id=replay)
    assert rec.ephemeral and rec.message is not None and "Bidding: " in rec.message.text


@each_language_once()
async def test_v6_refusals_are_private_and_change_nothing(
    discord_double: DiscordDouble, make_bot: BotFactory, lang: str
) -> None:
    """A bid out of turn, a bid not higher than the highest, a stale bid button of another
    deal, laying down the wrong number of cards and a card before the play: each answered
    privately in the table's language, the table unchanged."""
    double = discord_double
    assert double.guild is not None
    bot = await make_bot(match_seed_base=23)
    if lang == "fa":
        await bot.store.set_guild_settings(double.guild.id, GuildSettings(language="fa"))
    host, *others = double.members
    table = await open_table(double, bot, host, {"format": "shelem", "turn_seconds": 60})
    for user in others:
        join = f"hokm:j:{table.table_id}"
        await double.click(user, table_message(double, table), custom_id=join)
    match = shelem_of(table)
    users = {table.seat(i).user_id: u for i, u in enumerate(double.members)}
    tid, deal = table.table_id, match.deal_number
    first = match.to_act
    bidder, other = users[table.seat(first).user_id], users[table.seat((first + 1) % 4).user_id]

    async def refused(user: object, custom_id: str, text: dict[str, str]) -> None:
        state = match.to_dict()
        message = hand_message(double, user) or table_message(double, table)
        rec = await double.click(user, message, custom_id=custom_id, stale=True)
        assert rec.ephemeral and rec.message is not None, rec.response_name
        assert text[lang] in rec.message.text, rec.message.text
        assert match.to_dict() == state  # nothing changed

    await double.wait_until(lambda: hand_message(double, bidder) is not None, timeout=10)
    await refused(
        other,
        f"hokm:sb:{tid}:{deal}:105",
        {"en": "isn't your turn to bid", "fa": "نوبت خواندن شما نیست"},
    )
    rec = await double.click(
        bidder, hand_message(double, bidder), custom_id=f"hokm:sb:{tid}:{deal}:120"
    )
    assert rec.response_type == 7 and match.high == 120
    await double.wait_until(lambda: hand_message(double, other) is not None, timeout=10)
    await refused(
        other,
        f"hokm:sb:{tid}:{deal}:115",
        {"en": "higher than the highest so far", "fa": "بیشتر باشد"},
    )
    await refused(other, f"hokm:sb:{tid}:{deal + 1}:125", {"en": "earlier hand", "fa": "دور قبلی"})
    card = min(match.hand_of((first + 1) % 4))
    await refused(
        other, f"hokm:c:{tid}:1:{card.code}", {"en": "No card is played", "fa": "کارتی بازی نمی‌شود"}
    )
    # the rest pass: the bidder is hakem and lays down
    while match.phase == BID:
        seat = match.to_act
        user = users[table.seat(seat).user_id]
        await double.wait_until(lambda: hand_message(double, user) is not None, timeout=10)  # noqa: B023
        rec = await double.click(
            user, hand_message(double, user), custom_id=f"hokm:sb:{tid}:{deal}:0", stale=True
        )
        assert rec.response_type == 7
    assert match.phase == DISCARD and match.hakem == first
    held = match.hand_of(first)
    three = ".".join(c.code for c in held[:3])
    await refused(
        bidder,
        f"hokm:sl:{tid}:{deal}:{three}",
        {"en": "exactly 4 different cards (you chose 3)", "fa": "دقیقاً ۴ کارت"},
    )
    await refused(
        other,
        f"hokm:sl:{tid}:{deal}:{'.'.join(c.code for c in held[:4])}",
        {"en": "Only the hakem", "fa": "فقط حاکم"},
    )
    # choosing a fifth card is refused; the four are laid down
    four = ".".join(c.code for c in held[:4])
    await refused(
        bidder,
        f"hokm:sk:{tid}:{deal}:{held[5].code}:{four}",
        {"en": "chosen 4 cards already", "fa": "۴ کارت را انتخاب"},
    )
    rec = await double.click(
        bidder, hand_message(double, bidder), custom_id=f"hokm:sl:{tid}:{deal}:{four}", stale=True
    )
    assert rec.response_type == 7 and match.phase in (MODE, PLAY)
    assert match.discards_of(first) == tuple(sorted(held[:4]))


async def test_v6_a_shelem_table_survives_a_restart_mid_hand(
    discord_double: DiscordDouble, make_bot: BotFactory, run_client: ClientRunner
) -> None:
    """The bot stops in the middle of a hand (the auction over, cards played); a new bot on the
    same database restores the table (its match round-trips through the store) and the
    members play it to the end from the buttons they already hold."""
    double = discord_double
    channel = double.channel
    assert channel is not None
    table, bot = await shelem_table(double, make_bot, 31, 2)
    users = {u.id: u for u in double.members}
    rng = random.Random(9)
    match = shelem_of(table)
    for _ in range(200):
        if match.phase == PLAY and len(match.trick) + len(match.tricks) * 4 >= 6:
            break
        if table.seat(match.to_act).computer_plays:
            done = len(match.actions)
            await double.wait_until(lambda: len(match.actions) > done, timeout=5)  # noqa: B023
        else:
            await play_turn(double, bot, table, users, rng)
    assert match.phase == PLAY
    saved = match.to_dict()
    await run_client.close_all()  # the bot's process ends (its store stays)
    again = await make_bot(match_seed_base=31)
    restored = again.service.table_in_channel(channel.id)
    assert restored is not None and isinstance(restored.match, ShelemMatch)
    assert restored.match.to_dict() == saved
    await double.wait_for_message(channel, lambda m: "bot restarted" in m.text, timeout=10)
    await play_out(double, again, restored, users, rng)
    assert restored.match.is_over


async def test_v6_6_a_hakem_with_dms_closed_lays_down_from_my_hand(
    discord_double: DiscordDouble, make_bot: BotFactory
) -> None:
    """The first to speak has DMs closed: he bids from the ephemeral **My hand** view, wins
    the auction, and chooses his four cards there, one click at a time, each click changing
    only that private view; **Lay down** lays them down. Nothing of his went by DM."""
    double = discord_double
    seed = 47
    first = (ShelemMatch(seed).dealer + 1) % 4  # V6.3.1: the seat after the dealer
    bot = await make_bot(match_seed_base=seed)
    host, *others = double.members
    closed = double.members[first]
    double.close_dms(closed)
    table = await open_table(double, bot, host, {"format": "shelem", "turn_seconds": 60})
    for user in others:
        await double.click(user, table_message(double, table), custom_id=f"hokm:j:{table.table_id}")
    match = shelem_of(table)
    assert match.to_act == first and table.seat(first).user_id == closed.id
    tid, deal = table.table_id, match.deal_number
    view = await double.click(closed, table_message(double, table), label="My hand")
    assert view.ephemeral and view.message is not None
    rec = await double.click(closed, view.message, custom_id=f"hokm:sb:{tid}:{deal}:100")
    assert rec.response_type == 7 and match.high == 100
    users = {u.id: u for u in double.members}
    while match.phase == BID:  # the others pass, from their DMs
        user = users[table.seat(match.to_act).user_id or 0]
        await double.wait_until(lambda: hand_message(double, user) is not None, timeout=10)  # noqa: B023
        message = hand_message(double, user)
        assert message is not None
        await double.click(user, message, custom_id=f"hokm:sb:{tid}:{deal}:0", stale=True)
    assert match.phase == DISCARD and match.hakem == first
    view = await double.click(closed, table_message(double, table), label="My hand")
    private = view.message
    assert private is not None and private.ephemeral_to == closed.id
    assert "The kitty brought you: " in private.text
    held = match.hand_of(first)
    for card in held[-4:]:
        current = double.message(private.id)
        toggle = next(
            b for b in current.buttons() if (b.custom_id or "").split(":")[4:5] == [card.code]
        )
        rec = await double.click(closed, current, custom_id=toggle.custom_id)
        assert rec.response_type == 7 and match.phase == DISCARD  # his view only
    current = double.message(private.id)
    confirm = next(b for b in current.buttons() if (b.custom_id or "").startswith("hokm:sl:"))
    assert confirm.label == "Lay down (4/4)" and not confirm.disabled
    rec = await double.click(closed, current, custom_id=confirm.custom_id)
    assert rec.response_type == 7 and match.phase == PLAY
    assert set(match.discards_of(first)) == set(held[-4:])
    assert double.dms(closed) == []


async def test_v6_a_server_makes_shelem_its_default_with_its_options(
    discord_double: DiscordDouble, make_bot: BotFactory
) -> None:
    """``/hokm settings format:shelem`` with Shelem's options: a plain ``/hokm new`` then opens
    a Shelem table with them; jokers with a mode, a target off the fives, and hints at a
    Shelem table are refused privately, nothing changed."""
    double = discord_double
    channel, guild = double.channel, double.guild
    assert channel is not None and guild is not None
    bot = await make_bot()
    admin = double.members[0]
    options = {"format": "shelem", "shelem_modes": "nars+sars", "shelem_target": 300}
    rec = await double.slash(admin, channel, "hokm settings", options)
    assert rec.message is not None and "Nars, Sars" in rec.message.text
    stored = await bot.store.get_guild_settings(guild.id)
    assert (stored.game_format, stored.shelem_modes, stored.shelem_target) == (
        "shelem",
        "nars+sars",
        300,
    )
    for bad, said in (
        ({"shelem_joker": True}, "played without jokers"),
        ({"shelem_target": 303}, "multiple of 5 from 200 to 5000"),
    ):
        rec = await double.slash(admin, channel, "hokm settings", bad)
        assert rec.ephemeral and rec.message is not None and said in rec.message.text, bad
    assert await bot.store.get_guild_settings(guild.id) == stored
    rec = await double.slash(admin, channel, "hokm new", {"hints": True})
    assert rec.ephemeral and rec.message is not None
    assert "not available at Shelem tables" in rec.message.text
    assert bot.service.table_in_channel(channel.id) is None
    table = await open_table(double, bot, admin)
    assert family_of(table) is SHELEM_FAMILY and table.settings.shelem_options().modes == (
        "hokm",
        "nars",
        "sars",
    )
    footer = table_message(double, table).embeds[0]["footer"]["text"]
    assert "to 300 points" in footer and "modes: Nars, Sars" in footer
