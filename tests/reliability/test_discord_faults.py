"""Guarantee 4, Discord faults: 5xx and 429 answers, a hung request and a dropped gateway
during play lose no action and never apply one twice; a failed channel post or edit is
retried later with the newest state (the outbox's Retry path).
"""

from __future__ import annotations

import pytest

from bot.discord.client import HokmBot
from bot.present import custom_ids, render
from bot.service.table import Table
from engine import PLAY, Card
from tests.double.models import User
from tests.double.server import DiscordDouble
from tests.e2e.conftest import BotFactory
from tests.e2e.helpers import table_message

from .inproc import card_buttons, fast_forward, open_table, seated_table, until
from .script import member_choice

CALLBACK = "/interactions/*/*/callback"


async def member_turn(double: DiscordDouble, bot: HokmBot, table: Table) -> tuple[User, str]:
    """Play on (through the service) to a member's card turn; their scripted card's id, once
    their DM shows it."""
    match = table.match
    assert match is not None
    await fast_forward(
        bot, table, lambda: match.phase == PLAY and not table.seat(match.to_act).computer_plays
    )
    user = next(u for u in double.members if u.id == table.seat(match.to_act).user_id)
    card = member_choice(match, match.to_act)
    assert isinstance(card, Card)
    cid = custom_ids.card_id(table.table_id, match.hand_number, card)
    await double.wait_for_dm(user, lambda m: cid in card_buttons(m), timeout=10)
    return user, cid


def dm_with(double: DiscordDouble, user: User, custom_id: str):  # type: ignore[no-untyped-def]
    return next(m for m in reversed(double.dms(user)) if custom_id in card_buttons(m))


async def stored_actions(bot: HokmBot, table: Table) -> list[object]:
    record = await bot.store.load_table(table.table_id)
    assert record is not None
    return list(record.state["match"]["actions"])


async def dm_shows(double: DiscordDouble, user: User, table: Table) -> None:
    """The member's DM ends up showing their hand as the table now is."""
    seat = table.seat_of(user.id)
    assert seat is not None
    # kept current through the member's token, or edited once through the outbox (then it
    # says "see the table" rather than name whose turn it is)
    texts = {render.hand_message(table, seat, live=live).content for live in (True, False)}
    await double.wait_until(
        lambda: any(m.content in texts for m in double.dms(user)),
        timeout=15,
        what=f"{user.username}'s DM to show the current hand",
    )


@pytest.mark.parametrize(
    ("fault", "kwargs"),
    [
        ("fail", {"status": 500}),
        ("fail", {"status": 503}),
        ("rate_limit", {"retry_after": 0.3}),
        ("rate_limit", {"retry_after": 0.3, "is_global": True}),
    ],
)
async def test_a_failed_or_throttled_answer_loses_no_card_and_plays_none_twice(
    discord_double: DiscordDouble, make_bot: BotFactory, fault: str, kwargs: dict[str, object]
) -> None:
    double = discord_double
    bot = await make_bot(match_seed_base=3)
    table = await seated_table(double, bot, {"turn_seconds": 60})
    user, cid = await member_turn(double, bot, table)
    before = await stored_actions(bot, table)
    if fault == "fail":
        double.fail_next("POST", CALLBACK, **kwargs)  # type: ignore[arg-type]
    else:
        double.rate_limit_next("POST", CALLBACK, **kwargs)  # type: ignore[arg-type]
    rec = await double.click(user, dm_with(double, user, cid), custom_id=cid, timeout=10)
    assert rec.response_type == 7, (rec.response_name, rec.refused)
    after = await stored_actions(bot, table)
    assert after[: len(before)] == before and after[len(before)] == cid.rsplit(":", 1)[1]
    assert after.count(cid.rsplit(":", 1)[1]) == 1
    assert double.counters.injected_5xx + double.counters.http_429 >= 1


async def test_an_answer_that_comes_too_late_still_counts_once_and_the_dm_catches_up(
    discord_double: DiscordDouble, make_bot: BotFactory
) -> None:
    """The callback hangs past Discord's 3 s: the card is played (committed first) exactly
    once, the member is not told "nothing was changed", and their DM shows the new hand."""
    double = discord_double
    bot = await make_bot(match_seed_base=3)
    table = await seated_table(double, bot, {"turn_seconds": 60})
    user, cid = await member_turn(double, bot, table)
    before = await stored_actions(bot, table)
    double.hang_next("POST", CALLBACK, seconds=3.5)
    rec = await double.click(user, dm_with(double, user, cid), custom_id=cid, wait=False)
    code = cid.rsplit(":", 1)[1]
    await until(lambda: rec.expired, what="the late callback to be refused", timeout=10)
    after = await stored_actions(bot, table)
    assert after[: len(before) + 1] == [*before, code] and after.count(code) == 1
    assert not any("nothing was changed" in m.text for m in double.ephemerals(user))
    await dm_shows(double, user, table)


async def test_a_dropped_gateway_loses_no_click(
    discord_double: DiscordDouble, make_bot: BotFactory
) -> None:
    """The connection drops; a member clicks meanwhile; discord.py resumes and the double
    replays the click once. It is applied once and the member sees their new hand."""
    double = discord_double
    bot = await make_bot(match_seed_base=3)
    table = await seated_table(double, bot, {"turn_seconds": 60})
    user, cid = await member_turn(double, bot, table)
    before = await stored_actions(bot, table)
    resumes = double.gateway.stats.resumes
    assert await double.drop_gateway() == 1
    rec = await double.click(user, dm_with(double, user, cid), custom_id=cid, wait=False)
    await double.wait_until(
        lambda: double.gateway.stats.resumes > resumes, timeout=15, what="a RESUME"
    )
    code = cid.rsplit(":", 1)[1]
    await until(lambda: code in table.match.to_dict()["actions"], what="the replayed click")  # type: ignore[union-attr]
    await until(lambda: rec.responded or rec.expired, what="an answer or the deadline")
    after = await stored_actions(bot, table)
    assert after[len(before)] == code and after.count(code) == 1
    if not rec.responded:  # resumed after Discord's 3 s: the DM shows the move instead
        await dm_shows(double, user, table)
    # and play goes on over the resumed connection
    user2, cid2 = await member_turn(double, bot, table)
    rec2 = await double.click(user2, dm_with(double, user2, cid2), custom_id=cid2)
    assert rec2.response_type == 7


async def test_a_failed_table_edit_is_retried_with_the_newest_state(
    discord_double: DiscordDouble, make_bot: BotFactory
) -> None:
    double = discord_double
    assert double.channel is not None
    bot = await make_bot(match_seed_base=3)
    table = await seated_table(double, bot, {"turn_seconds": 60})
    match = table.match
    assert match is not None
    await fast_forward(bot, table, lambda: match.phase == PLAY)
    message = table_message(double, table)
    await double.wait_until(
        lambda: message.embeds[0]["description"] == render.table_message(table).embed.description,  # type: ignore[union-attr]
        timeout=15,
        what="the table message to be up to date",
    )
    failures = bot.outbox.failures
    fault = double.fail_next("PATCH", f"/channels/{double.channel.id}/messages/*", status=503)
    count = len(match.actions)
    await fast_forward(bot, table, lambda: len(match.actions) >= count + 1)
    await until(lambda: bot.outbox.failures > failures, what="the table edit to fail")
    await fast_forward(bot, table, lambda: len(match.actions) >= count + 3)
    expected = render.table_message(table).embed.description  # type: ignore[union-attr]
    await double.wait_until(
        lambda: message.embeds[0]["description"] == expected,
        timeout=15,
        what="the retried edit to show the newest state",
    )
    assert fault.hits == 1 and double.counters.injected_5xx >= 1


async def test_a_failed_report_post_is_retried_and_posted_once(
    discord_double: DiscordDouble, hokm_bot: HokmBot
) -> None:
    double, bot = discord_double, hokm_bot
    channel = double.channel
    assert channel is not None
    host, *others = double.members
    table = await open_table(double, bot, host, {"turn_seconds": 60})
    for user in others[:2]:
        await double.click(user, table_message(double, table), label="Join")
    double.fail_next("POST", f"/channels/{channel.id}/messages", status=503)
    await double.click(others[2], table_message(double, table), label="Join")
    report = await double.wait_for_message(
        channel, lambda m: "The match begins" in m.text, timeout=15
    )
    assert double.counters.injected_5xx >= 1
    await until(lambda: bot.outbox.backlog == 0, what="the outbox to drain")
    begins = [m for m in double.messages_in(channel) if "The match begins" in m.text]
    assert begins == [report]


async def test_a_command_answered_too_late_is_one_warning_line_not_a_traceback(
    discord_double: DiscordDouble, make_bot: BotFactory, caplog: pytest.LogCaptureFixture
) -> None:
    """A busy process answers ``/hokm new`` after Discord's 3 s: Discord refuses the answer
    (10062). That is load, not a bug: one warning line, no traceback (formatting one is the
    costliest thing a busy loop could add), and the table it opened is there as usual."""
    double = discord_double
    bot = await make_bot()
    host = double.members[0]
    assert double.channel is not None
    double.hang_next("POST", CALLBACK, seconds=3.5)
    with caplog.at_level("WARNING", logger="bot"):
        rec = await double.slash(host, double.channel, "hokm new", wait=False)
        await until(lambda: rec.expired, what="the late answer to be refused", timeout=10)
        channel_id = double.channel.id
        await until(
            lambda: any("answered too late" in r.getMessage() for r in caplog.records),
            what="the bot to learn it was late",
        )
        await until(lambda: bot.service.table_in_channel(channel_id) is not None, what="the table")
    late = [r for r in caplog.records if "answered too late" in r.getMessage()]
    assert len(late) == 1 and late[0].levelname == "WARNING" and late[0].exc_info is None
    assert not [r for r in caplog.records if r.levelname == "ERROR" or r.exc_info]
