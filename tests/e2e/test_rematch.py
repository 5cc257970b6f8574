"""A finished match leaves one summary message, and its Rematch
button seats the same players again (docs/rules.md, "Rematch")."""

from __future__ import annotations

import random

from bot.discord.client import HokmBot
from bot.present.teams import team_label
from bot.service.table import Table
from tests.double.client import ClientRunner
from tests.double.models import StoredMessage, User
from tests.double.server import DiscordDouble

from . import players
from .conftest import BotFactory
from .helpers import message_id, open_table, skip_time, table_message


async def play_out(double: DiscordDouble, bot: HokmBot, table: Table) -> None:
    """Humans click their DMs, computers move, until the match is over."""
    await players.play_out(double, bot, table, {u.id: u for u in double.members}, random.Random(7))


async def two_humans_finish(
    double: DiscordDouble, bot: HokmBot, options: dict[str, object] | None = None
) -> tuple[Table, StoredMessage]:
    """members[0] hosts, members[1] joins (seat 2), computers take seats 3 and 4; the match
    is played out; returns the finished table and its summary."""
    host, guest = double.members[0], double.members[1]
    chosen = {"target_score": 1, "difficulty": "easy", "turn_seconds": 45} | (options or {})
    table = await open_table(double, bot, host, chosen)
    await double.click(guest, table_message(double, table), label=_join(table))
    await double.click(host, table_message(double, table), label=_start(table))
    assert table.status == "playing"
    await play_out(double, bot, table)
    summary = await double.wait_for_message(
        double.channel,  # type: ignore[arg-type]
        lambda m: any((b.custom_id or "").startswith("hokm:r:") for b in m.buttons()),
        timeout=15,
    )
    return table, summary


def _join(table: Table) -> str:
    return "پیوستن" if table.settings.language == "fa" else "Join"


def _start(table: Table) -> str:
    return "شروع" if table.settings.language == "fa" else "Start"


async def press(double: DiscordDouble, user: User, summary: StoredMessage) -> str:
    """``user`` presses Rematch; the private answer's text."""
    record = await double.click(user, summary, custom_id=summary.buttons()[0].custom_id)
    assert record.ephemeral, record.response_name
    assert record.message is not None
    return record.message.text


async def test_one_summary_then_every_human_rematches_into_the_same_seats(
    discord_double: DiscordDouble, make_bot: BotFactory, run_client: ClientRunner
) -> None:
    double = discord_double
    channel = double.channel
    assert channel is not None
    bot = await make_bot()
    host, guest, outsider = double.members[0], double.members[1], double.members[2]
    old, summary = await two_humans_finish(double, bot)
    match = old.match
    assert match is not None and match.winner_team is not None
    # the match's end is this one message: the winners by name, each hand with its hakem,
    # points and why (R11), the kots, the duration; no separate hand line or result line
    text = summary.text
    assert text.startswith(f"🏆 {team_label(old, 'en', match.winner_team)} win the match")
    for r in match.hand_results:
        assert f"**{r.number}** · hakem " in text
    assert "Kots dealt — " in text and " hands in " in text and "min" in text
    assert [m for m in double.messages_in(channel) if "win the match" in m.text] == [summary]
    assert not any(
        "Hand 1 to team" in m.text or "Kot!" in m.text for m in double.messages_in(channel)
    )
    # a member who did not play is refused privately; nothing opens
    answer = await press(double, outsider, summary)
    assert "Only the players of that match" in answer
    assert bot.service.table_in_channel(channel.id) is None
    # the host presses: a rematch lobby, computers back in their seats, the guest's seat kept
    answer = await press(double, host, summary)
    assert "You're in for the rematch" in answer and "Waiting for" in answer
    lobby = bot.service.table_in_channel(channel.id)
    assert lobby is not None and lobby.status == "lobby" and lobby.rematch_of == old.table_id
    assert set(lobby.reserved) == {old.seat_of(guest.id)}
    assert lobby.seat_of(host.id) == old.seat_of(host.id)
    for i, seat in enumerate(old.seats):
        if seat is not None and seat.is_computer:
            assert lobby.seat(i).name == seat.name and lobby.seat(i).is_computer
    await double.wait_until(
        lambda: message_id(bot, lobby) is not None, timeout=10.0, what="the rematch lobby"
    )
    shown = table_message(double, lobby).text
    assert "kept for" in shown and "Rematch: waiting for" in shown
    # a second press by the host changes nothing
    assert "already in for the rematch" in await press(double, host, summary)
    # the bot restarts between presses: who pressed is kept with the live lobby
    await run_client.close_all()  # the bot's process ends (its store stays on disk)
    bot = await make_bot()
    lobby = bot.service.table_in_channel(channel.id)
    assert lobby is not None and lobby.rematch_of == old.table_id and lobby.reserved
    # the last human presses: the match starts, same seats and settings
    answer = await press(double, guest, summary)
    assert "The rematch begins" in answer
    assert lobby.status == "playing" and not lobby.reserved
    assert [s and (s.user_id, s.is_computer) for s in lobby.seats] == [
        s and (s.user_id, s.is_computer) for s in old.seats
    ]
    assert lobby.settings == old.settings
    # the old button now: the rematch has begun
    assert "already begun" in await press(double, host, summary)
    assert double.internal_errors == []


async def test_stale_forged_and_seated_elsewhere_rematches_are_refused(
    discord_double: DiscordDouble, hokm_bot: HokmBot
) -> None:
    double, bot = discord_double, hokm_bot
    channel, guild = double.channel, double.guild
    assert channel is not None and guild is not None
    host, guest, third = double.members[0], double.members[1], double.members[2]
    old, summary = await two_humans_finish(double, bot)
    # a forged id on the summary: answered, nothing opens
    rec = await double.click(host, summary, custom_id="hokm:r:zzzz", stale=True)
    assert rec.ephemeral and "isn't valid" in rec.message.text  # type: ignore[union-attr]
    rec = await double.click(host, summary, custom_id="hokm:r:" + "0" * 12, stale=True)
    assert rec.ephemeral and "out of date" in rec.message.text  # type: ignore[union-attr]
    assert bot.service.table_in_channel(channel.id) is None
    # the guest sits at a table in another channel
    other = double.add_text_channel(guild, "hokm-2")
    await double.slash(guest, other, "hokm new", {})
    elsewhere = bot.service.table_in_channel(other.id)
    assert elsewhere is not None
    assert "You're in for the rematch" in await press(double, host, summary)
    lobby = bot.service.table_in_channel(channel.id)
    assert lobby is not None
    answer = await press(double, guest, summary)
    assert f"<#{other.id}>" in answer and "already at a table" in answer
    assert lobby.seat_of(guest.id) is None and lobby.reserved  # still kept for them
    # before the wait runs out the host cannot fill the kept seat ...
    await double.wait_until(
        lambda: message_id(bot, lobby) is not None, timeout=10.0, what="the rematch lobby"
    )
    rec = await double.click(host, table_message(double, lobby), label="Start")
    assert rec.ephemeral and "kept for" in rec.message.text  # type: ignore[union-attr]
    assert lobby.status == "lobby"
    # ... after it, the kept seat is open and the host starts with a computer in it
    skip_time(bot, lobby, lobby.settings.lobby_timeout_minutes * 60 + 1)
    await double.wait_until(lambda: not lobby.reserved, what="the kept seats to open")
    assert lobby.status == "lobby"
    await double.click(host, table_message(double, lobby), label="Start")
    assert lobby.status == "playing"
    assert lobby.seat(old.seat_of(guest.id) or 0).is_computer
    # the channel has a live table that is not this match's rematch lobby any more: after
    # it is cancelled, another table has been played there, so the button is out of date
    await double.slash(host, channel, "hokm cancel")
    await double.wait_until(lambda: lobby.status == "cancelled", what="the cancel")
    await double.slash(third, channel, "hokm new", {})
    assert "already has a table" in await press(double, host, summary)
    await double.slash(third, channel, "hokm cancel")
    assert "out of date" in await press(double, host, summary)
    assert bot.service.table_in_channel(channel.id) is None
    assert double.internal_errors == []


async def test_persian_summary_and_rematch(
    discord_double: DiscordDouble, hokm_bot: HokmBot
) -> None:
    double, bot = discord_double, hokm_bot
    channel = double.channel
    assert channel is not None
    await double.slash(double.manager, channel, "hokm settings", {"language": "fa"})
    old, summary = await two_humans_finish(double, bot)
    match = old.match
    assert match is not None and match.winner_team is not None
    text = summary.text
    title = text.splitlines()[0]
    assert "🏆" in title and team_label(old, "fa", match.winner_team) in title
    assert "بازی را" in title and "win the match" not in text
    assert "بردند" in text and "حاکم" in text and "کُت‌ها" in text and "دقیقه" in text
    assert summary.buttons()[0].label == "بازی دوباره"
    answer = await press(double, double.members[0], summary)
    assert "برای بازی دوباره آماده‌اید" in answer
    lobby = bot.service.table_in_channel(channel.id)
    assert lobby is not None and lobby.settings.language == "fa"
    await double.wait_until(
        lambda: message_id(bot, lobby) is not None, timeout=10.0, what="the rematch lobby"
    )
    assert "نگه‌داشته برای" in table_message(double, lobby).text
    assert "فقط بازیکنان همان بازی" in await press(double, double.members[2], summary)
