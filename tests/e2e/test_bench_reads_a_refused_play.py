"""What the load bench counts as a played card ("one doubled action"): a member the
computer was playing for (two missed turns, R14) gets the seat back with any click, and a card
click that cannot go then (not their turn) is answered by editing their hand in place, with
the refusal after it. The bench once took every in-place answer for a played card, so that
card, played for real later in the hand, was "answered as played twice". It now counts a card
as played only when the answer no longer offers it (``bench.member.still_holds``)."""

from __future__ import annotations

from bench.member import still_holds
from bot.discord.client import HokmBot
from engine import PLAY, Card
from tests.double.server import DiscordDouble

from .helpers import open_table, seat_everyone, skip_time, table_message
from .players import SUCCESS, hand_message, ready_to_act

UPDATE_MESSAGE = 7


async def test_a_card_refused_in_place_is_not_counted_as_played_and_a_played_one_is(
    discord_double: DiscordDouble, hokm_bot: HokmBot
) -> None:
    double, bot = discord_double, hokm_bot
    host, *others = double.members
    table = await open_table(double, bot, host)
    await seat_everyone(double, bot, table, others)
    match = table.match
    assert match is not None
    hakem_seat = match.hakem
    skip_time(bot, table, 31)  # the trump choice runs out (one miss)
    await double.wait_until(lambda: match.phase == PLAY, what="trump named on time-out")
    skip_time(bot, table, 21)  # the lead too: two in a row, the computer takes the seat
    await double.wait_until(lambda: table.seat(hakem_seat).autoplay, what="the take-over")
    # "My hand" shows the table as last committed: wait for the computer's lead to be stored,
    # or the view could still offer the card it led
    await double.wait_until(lambda: _led_and_stored(bot, table.table_id), what="the lead stored")
    assert match.to_act != hakem_seat
    users = {u.id: u for u in double.members}
    hakem = users[table.seat(hakem_seat).user_id or 0]

    view = (await double.click(hakem, table_message(double, table), label="My hand")).message
    assert view is not None
    button = next(b for b in view.buttons() if (b.custom_id or "").startswith("hokm:c:"))
    assert button.custom_id is not None
    held = len(match.hand_of(hakem_seat))
    refused = await double.click(hakem, view, custom_id=button.custom_id)
    assert not table.seat(hakem_seat).autoplay  # back at the table
    assert len(match.hand_of(hakem_seat)) == held  # but that card did not go
    assert refused.response_type == UPDATE_MESSAGE  # what the bench took for a played card
    assert still_holds(refused.response_data, button.custom_id)
    (refusal,) = await refused.wait_followups()
    assert "already played" in refusal.text

    seat = match.to_act
    member = users[table.seat(seat).user_id or 0]
    await double.wait_until(
        lambda: ready_to_act(hand_message(double, member), table), what="the next DM"
    )
    dm = hand_message(double, member)
    assert dm is not None
    green = next(b for b in dm.buttons() if b.style == SUCCESS)
    assert green.custom_id is not None
    played = await double.click(member, dm, custom_id=green.custom_id)
    assert played.response_type == UPDATE_MESSAGE
    assert not still_holds(played.response_data, green.custom_id)
    assert match.current_trick()[-1] == (seat, Card.parse(green.custom_id.rsplit(":", 1)[-1]))


def _led_and_stored(bot: HokmBot, table_id: str) -> bool:
    """Whether the table as last committed (what "My hand" shows) holds the hakem's lead."""
    shown = bot.service.shown(table_id).match
    return shown is not None and shown.phase == PLAY and shown.to_act != shown.hakem
