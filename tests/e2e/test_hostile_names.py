"""Members with hostile nicknames play: nothing the bot sends pings the server, a role or a
bystander, and their names show as text, never as markup."""

from __future__ import annotations

import re
from collections.abc import Iterator

import discord

from bot.discord.client import HokmBot
from bot.names import clip, shown_name
from bot.present import custom_ids
from bot.present.render import log_lines
from bot.service.events import Back
from bot.service.table import Table
from engine import PLAY, Match, Rules
from tests.double.mentions import mention_problems
from tests.double.models import StoredMessage
from tests.double.server import DiscordDouble
from tests.reliability.inproc import fast_forward, open_table, seated_table, until

from .conftest import BotFactory, each_language_once
from .helpers import skip_time, table_message

SEED = 11


def name_members(double: DiscordDouble, names: list[str]) -> None:
    """What each member is called from now on (the bot reads it from their next interaction)."""
    for user, name in zip(double.members, names, strict=True):
        user.global_name = name


def bot_texts(double: DiscordDouble) -> Iterator[str]:
    """Every version of every message the bot showed in #hokm: content and embed text."""
    channel = double.channel
    assert channel is not None
    for msg in double.messages_in(channel):
        if msg.author is not double.bot:
            continue
        yield msg.text
        for old in msg.history:
            yield StoredMessage(
                0, 0, None, msg.author, content=old["content"], embeds=old["embeds"]
            ).text


async def time_out_twice_then_click(double: DiscordDouble, bot: HokmBot, table: Table) -> int:
    """The hakem lets trump and the lead run out (the computer takes over), then clicks again:
    the lines "named trump", "ran out of time", "missed two turns" and "is back" name them.
    Returns once the table message shows those lines."""
    match = table.match
    assert match is not None
    hakem = match.hakem
    skip_time(bot, table, 31)
    await until(lambda: match.phase == PLAY, what="trump named on time-out")
    skip_time(bot, table, 21)
    await until(lambda: table.seat(hakem).autoplay, what="the computer to take over")
    user_id = table.seat(hakem).user_id
    assert user_id is not None
    card = next(iter(match.hand_of(hakem)))
    update = await bot.service.play_card(table.table_id, user_id, match.hand_number, card)
    assert update.has(Back) and not table.seat(hakem).autoplay
    log = log_lines(table.settings.language, table.log)
    await double.wait_until(
        lambda: all(line in table_message(double, table).text for line in log),
        timeout=10,
        what="the table message to show the hakem's lines",
    )
    return hakem


# ----------------------------------------------------------------------- item 1: mentions


async def test_a_full_match_with_hostile_nicknames_pings_nobody_it_should_not(
    discord_double: DiscordDouble, make_bot: BotFactory
) -> None:
    double = discord_double
    guild, channel = double.guild, double.channel
    assert guild is not None and channel is not None
    role = double.add_role(guild, "Moderators", 0)
    bystander = double.add_member(guild, "bystander")
    name_members(
        double,
        ["@everyone", f"<@&{role.id}>", f"<@{bystander.id}>", f"@here <@!{bystander.id}>"],
    )
    double.close_dms(double.members[3])  # "I can't DM …": a line that does call that member
    bot = await make_bot(match_seed_base=SEED)
    seated = {u.id for u in double.members}

    def meant(content: str) -> set[int]:
        """Only the players, and only in "the match begins" and "I can't DM you" lines."""
        return seated if ("The match begins" in content or "I can't DM" in content) else set()

    # first ace, trump named, time-outs, back in play, next hakem, the winners
    table = await seated_table(double, bot, {"target_score": 4})  # 4 points: two hands at least
    await time_out_twice_then_click(double, bot, table)
    await fast_forward(bot, table, lambda: False)
    assert table.status == "finished"
    await double.wait_for_message(channel, lambda m: "win the match" in m.text, timeout=15)
    # a random hakem, then the host cancels
    await double.slash(double.manager, channel, "hokm settings", {"first_hakem": "random"})
    second = await seated_table(double, bot)
    await double.slash(double.members[0], channel, "hokm cancel")
    await until(lambda: second.status == "cancelled", what="the cancel")
    for member in (bystander, double.members[1]):  # a record names the member: no ping
        await double.slash(double.members[2], channel, "standings", {"member": member})
    await bot.outbox.drain(within=10)
    await double.wait_until(
        lambda: "cancelled by" in table_message(double, second).text, what="the cancel line"
    )

    shown = "\n".join(bot_texts(double))
    for line in (
        "the first ace goes to",
        "was drawn as the first hakem",
        "Next hakem:",
        "named **",
        "is back at the table",
        "The table was cancelled by",
        "I can't DM",
    ):
        assert line in shown, f"the match never showed {line!r}"
    sent = [r for r in double.requests if r.message is not None]
    kinds = {r.kind for r in sent}
    assert {"channel_message", "edit", "dm", "interaction_response"} <= kinds, kinds
    assert any(str(bystander.id) in (r.message.content if r.message else "") for r in sent)
    assert mention_problems(double.requests, meant) == []

    # the checker is not blind: one planted message that pings everyone is caught, alone
    planted = "@everyone look"
    await bot.get_partial_messageable(channel.id).send(
        planted, allowed_mentions=discord.AllowedMentions.all()
    )
    problems = mention_problems(double.requests, meant)
    assert problems and all(repr(planted) in p for p in problems), problems


# ----------------------------------------------------------------------- item 2: names as text

HEADING = re.compile(r"^[\u200e\u200f\u2066-\u2069\s]*#{1,3}\s", re.MULTILINE)


def isolates_balanced(line: str) -> bool:
    depth = 0
    for ch in line:
        depth += ch in "\u2066\u2067\u2068"
        depth -= ch == "\u2069"
        if depth < 0:
            return False
    return depth == 0


@each_language_once("language")
async def test_hostile_names_show_escaped_in_the_channel(
    discord_double: DiscordDouble, make_bot: BotFactory, language: str
) -> None:
    double = discord_double
    channel = double.channel
    assert channel is not None
    hakem = Match(SEED, Rules()).hakem  # seats fill in join order: give the hakem the worst name
    worst = "# 🤖 **Rostam**\u2069\u202e 10♠"
    names = ["🤖 Rostam", "__x__ > ~~y~~", "||z|| 1. <#1>", "- a `b`"]
    names[hakem] = worst
    name_members(double, names)
    bot = await make_bot(match_seed_base=SEED)
    if language == "fa":
        await double.slash(double.manager, channel, "hokm settings", {"language": "fa"})
    host, *others = double.members
    table = await open_table(double, bot, host)
    for user in others:  # by custom id: the label is in the table's language
        join = custom_ids.lobby_id(table.table_id, "join")
        await double.click(user, table_message(double, table), custom_id=join)
    assert table.status == "playing"
    # kept without its invisible characters; escaped only when shown (render time)
    assert table.seat(hakem).name == clip(worst) == "# 🤖 **Rostam** 10♠"
    await time_out_twice_then_click(double, bot, table)
    escaped = shown_name(worst)
    assert escaped == r"\# \*\*Rostam\*\* 10♠"

    await bot.outbox.drain(within=10)

    texts = list(bot_texts(double))
    lines = [line for text in texts for line in text.splitlines()]
    named = [
        line
        for line in lines
        if line.lstrip("\u200f\u2068").startswith(escaped)
        and ("named" in line or "حکم کرد" in line)
    ]
    assert named, "the hakem's name does not open the 'named trump' line"
    back = [
        line
        for line in lines
        if line.lstrip("\u200f\u2068").startswith(escaped)
        and ("is back" in line or "به میز برگشت" in line)
    ]
    assert back, "the hakem's name does not open the 'back at the table' line"
    for line in lines:
        assert not HEADING.match(line), line
        assert "\u202e" not in line, line
        assert isolates_balanced(line), ascii(line)
        assert "🤖 Rostam" not in line.replace("`🤖 Rostam`", ""), line  # only a computer's
        assert not re.search(r"(?<!\\)\*\*Rostam", line), line
        assert "<#1>" not in line, line
    others = "\n".join(texts)
    assert r"\_\_x\_\_" in others or r"\|\|z\|\|" in others or r"\- a \`b\`" in others
