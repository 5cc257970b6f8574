"""The real bot against the Discord double, in
English and Persian: the table message lists this hand's tricks card by card and the last
hand in one line; teams are named by their players; a double click in the DM is answered as
one; equal records share a rank in /standings; a member watching gets told so."""

from __future__ import annotations

from bot.discord.client import HokmBot
from bot.present import custom_ids
from bot.present.i18n import t
from bot.present.tricks import hand_result_line, trick_line
from bot.service.table import Table
from engine import PLAY, Card
from tests.double.server import DiscordDouble
from tests.reliability.inproc import fast_forward, hand_dm, open_table
from tests.store.conftest import MatchMaker

from .conftest import BotFactory, each_language_once
from .helpers import table_message

SEED = 5
NAMES = ["amir", "bahar", "cyrus", "dara"]


async def persian_table(double: DiscordDouble, bot: HokmBot, lang: str) -> Table:
    """The four members (named amir, bahar, cyrus, dara) seated at a table in ``lang``; the
    match has started. Joins go by custom id: the button labels are in the table's language."""
    for user, name in zip(double.members, NAMES, strict=True):
        user.global_name = name
    if lang == "fa":
        await double.slash(double.manager, double.channel, "hokm settings", {"language": "fa"})
    host, *others = double.members
    table = await open_table(double, bot, host, {"turn_seconds": 60})
    for user in others:
        join = custom_ids.lobby_id(table.table_id, "join")
        await double.click(user, table_message(double, table), custom_id=join)
    assert table.status == "playing"
    return table


# ----------------------------------------------------------------------- items 1 and 4


@each_language_once()
async def test_the_table_message_lists_this_hands_tricks_by_player_and_the_last_hand(
    discord_double: DiscordDouble, make_bot: BotFactory, lang: str
) -> None:
    """R7/R9/R10: at hand 2, trick 3, the table message shows hand 1's result in one line
    with the teams by name, then hand 2's tricks 1–2 (numbered from 1), each card after its
    player — and none of hand 1's tricks."""
    double = discord_double
    bot = await make_bot(match_seed_base=SEED)
    table = await persian_table(double, bot, lang)
    match = table.match
    assert match is not None
    await fast_forward(bot, table, lambda: match.hand_number == 2 and len(match.tricks) == 2)
    assert match.hand_number == 2 and len(match.tricks) == 2
    names = [u.global_name for u in double.members]
    if lang == "en":  # spelled out here, apart from the renderer
        expected = [
            f"{tr.number} · "
            + " · ".join(f"{names[s]} {c.label}" for s, c in tr.plays())
            + f" → {names[tr.winner]}"
            for tr in match.tricks
        ]
        assert expected == [trick_line(table, lang, tr) for tr in match.tricks]
    else:
        expected = [trick_line(table, lang, tr) for tr in match.tricks]
        assert all(line.startswith("\u200f\u2068۱\u2069 · ") for line in expected[:1])
    previous = hand_result_line(table, lang, match.hand_results[0])
    await double.wait_until(
        lambda: all(line in table_message(double, table).text for line in [previous, *expected]),
        timeout=10,
        what="the table message to show hand 2's tricks",
    )
    text = table_message(double, table).text
    arrow = " → " if lang == "en" else " ← "
    assert [line for line in text.splitlines() if arrow in line] == expected  # hand 2's only
    lines = text.splitlines()
    assert lines.index(previous) + 1 == lines.index(expected[0])
    winners, losers = match.hand_results[0].winner_team, 1 - match.hand_results[0].winner_team
    join = " & " if lang == "en" else "\u2069 و \u2068"
    teams = [join.join(names[i] for i in (team, team + 2)) for team in (0, 1)]
    assert teams[winners] in previous and teams[losers] in previous
    if lang == "en":
        won = match.hand_results[0].tricks[winners]
        assert previous.startswith(f"{teams[winners]} take hand 1 ({won}–")
        assert "Team 1" not in text and "Team 2" not in text
        assert f"Tricks — {teams[0]}: " in text and f"Score — {teams[0]}: " in text
    else:
        assert "تیم ۱" not in text and "تیم ۲" not in text
    # the channel report says the same line
    channel = double.channel
    assert channel is not None
    await double.wait_for_message(channel, lambda m: previous in m.text, timeout=15)


async def test_the_match_result_names_the_winning_team_by_its_players(
    discord_double: DiscordDouble, make_bot: BotFactory
) -> None:
    """R12: the last report line says which players won, with the final score theirs first."""
    double = discord_double
    bot = await make_bot(match_seed_base=SEED)
    for user, name in zip(double.members, NAMES, strict=True):
        user.global_name = name
    host, *others = double.members
    table = await open_table(double, bot, host, {"target_score": 1})
    for user in others:
        await double.click(user, table_message(double, table), label="Join")
    await fast_forward(bot, table, lambda: False)
    match = table.match
    assert table.status == "finished" and match is not None and match.winner_team is not None
    w = match.winner_team
    team = f"{NAMES[w]} & {NAMES[w + 2]}"
    line = f"🏆 {team} win the match 1–0"  # the summary's title (items 4 and 7)
    channel = double.channel
    assert channel is not None
    await double.wait_for_message(channel, lambda m: line in m.text, timeout=15)
    await double.wait_until(
        lambda: "Match over" in table_message(double, table).text, timeout=10, what="the end"
    )
    final = table_message(double, table)
    assert hand_result_line(table, "en", match.hand_results[-1]) in final.text
    assert [f["name"] for f in final.embeds[0]["fields"]] == [
        f"{NAMES[0]} & {NAMES[2]}",
        f"{NAMES[1]} & {NAMES[3]}",
    ]


# ----------------------------------------------------------------------- item 5


@each_language_once()
async def test_a_double_click_in_the_dm_says_you_already_played(
    discord_double: DiscordDouble, make_bot: BotFactory, lang: str
) -> None:
    """R8: one card per seat per trick; the second click (another card, or the same card from
    a DM not yet updated) is answered privately as a double click and changes nothing."""
    double = discord_double
    bot = await make_bot(match_seed_base=SEED)
    table = await persian_table(double, bot, lang)
    match = table.match
    assert match is not None
    await fast_forward(bot, table, lambda: match.phase == PLAY)
    seat = match.to_act
    user = next(u for u in double.members if u.id == table.seat(seat).user_id)
    dm = await hand_dm(double, user, table, 1)
    legal = [c.code for c in match.legal_cards(seat)]
    first = next(
        b.custom_id for b in dm.buttons() if (b.custom_id or "").rsplit(":", 1)[-1] in legal
    )
    record = await double.click(user, dm, custom_id=first)
    assert record.response_type == 7  # the DM updated in place
    played = Card.parse((first or "").rsplit(":", 1)[1])
    assert match.current_trick() == ((seat, played),)
    before = match.to_dict()
    expected = t(lang, "error.already_played", card=played.label)
    other = next(
        b.custom_id for b in double.message(dm.id).buttons() if b.custom_id and b.custom_id != first
    )
    for custom_id in (other, first):  # another card; the same one again, as a stale client
        again = await double.click(user, dm, custom_id=custom_id, stale=True)
        assert again.ephemeral and again.message is not None
        assert again.message.text == expected
        assert "isn't your turn" not in again.message.text and "نوبت شما نیست" not in expected
    assert match.to_dict() == before
    if lang == "en":
        assert (
            expected == f"You already played {played.label} to this trick; wait for the next one."
        )


# ----------------------------------------------------------------------- item 9


@each_language_once()
async def test_a_member_without_a_seat_is_told_they_are_watching(
    discord_double: DiscordDouble, make_bot: BotFactory, lang: str
) -> None:
    double = discord_double
    bot = await make_bot(match_seed_base=SEED)
    table = await persian_table(double, bot, lang)
    guild = double.guild
    assert guild is not None
    guest = double.add_member(guild, "guest")
    match = table.match
    assert match is not None
    before = (match.to_dict(), [s.user_id for s in table.seats if s])
    watching = t(lang, "error.spectator")
    my_hand = custom_ids.my_hand_id(table.table_id)
    rec = await double.click(guest, table_message(double, table), custom_id=my_hand)
    assert rec.ephemeral and rec.message is not None and rec.message.text == watching
    rec = await double.slash(guest, double.channel, "hokm hand")
    assert rec.ephemeral and rec.message is not None and rec.message.text == watching
    if lang == "en":
        assert watching == "You are watching this table; join the next table with `/hokm new`."
    else:
        assert "تماشاگر" in watching and "/hokm new" in watching
    assert (match.to_dict(), [s.user_id for s in table.seats if s]) == before
    assert guest.id not in {s.user_id for s in table.seats if s}
    assert double.dms(guest) == []


# ----------------------------------------------------------------------- item 6


@each_language_once()
async def test_standings_give_equal_records_the_same_rank(
    discord_double: DiscordDouble, hokm_bot: HokmBot, lang: str
) -> None:
    """One match, amir & cyrus beat bahar & dara: two records of 1/1 and two of 0/1, so the
    leaderboard ranks 1, 1, 3, 3 (equal record: same wins, win rate and matches played), and
    a member's own record says the shared rank."""
    double = discord_double
    guild = double.guild
    assert guild is not None
    if lang == "fa":
        await double.slash(double.manager, double.channel, "hokm settings", {"language": "fa"})
    a, b, c, d = (u.id for u in double.members)
    make = MatchMaker()
    await hokm_bot.store.finish_match(make(guild_id=guild.id, team0=(a, c), team1=(b, d)))
    rec = await double.slash(double.members[0], double.channel, "standings")
    assert rec.message is not None
    rows = [line for line in rec.message.text.splitlines() if "<@" in line]
    one, three = ("1", "3") if lang == "en" else ("\u2068۱\u2069", "\u2068۳\u2069")
    ranks = [line.split("**")[1] for line in rows]
    assert ranks == [f"{one}.", f"{one}.", f"{three}.", f"{three}."], rows
    assert all(f"<@{a}>" in r or f"<@{c}>" in r for r in rows[:2])
    assert all(f"<@{b}>" in r or f"<@{d}>" in r for r in rows[2:])
    # one member's record says the shared rank too
    for member, rank in ((double.members[2], one), (double.members[3], three)):
        rec = await double.slash(double.members[0], double.channel, "standings", {"member": member})
        assert rec.message is not None
        expected = f"rank {rank}" if lang == "en" else f"رتبهٔ {rank}"
        assert expected in rec.message.text, rec.message.text
