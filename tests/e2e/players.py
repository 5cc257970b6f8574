"""Simulated members who play Hokm by clicking the buttons the bot sent them."""

from __future__ import annotations

import random

from bot.discord.client import HokmBot
from bot.service.table import Table
from engine import BID, PLAY, TRUMP, Card
from tests.double.models import StoredMessage, User
from tests.double.server import DiscordDouble
from tests.e2e.helpers import until_match_stored

SUCCESS = 3  # Discord's green button style: the bot marks legal cards with it


def hand_message(double: DiscordDouble, user: User) -> StoredMessage | None:
    """The newest DM of ``user`` that holds card or trump buttons."""
    for message in reversed(double.dms(user)):
        if any((b.custom_id or "").startswith(("hokm:c:", "hokm:t:")) for b in message.buttons()):
            return message
    return None


def ready_to_act(message: StoredMessage | None, table: Table) -> bool:
    """The DM shows this hand and marks the seat's turn (trump buttons, green cards, or the
    joker six's bid buttons)."""
    match = table.match
    if message is None or match is None:
        return False
    ids = [b.custom_id or "" for b in message.buttons()]
    if match.phase == BID:  # V5 joker six: a bid (5–9) or Pass
        return any(i.startswith(f"hokm:v:{table.table_id}:{match.hand_number}:") for i in ids)
    if match.phase == TRUMP:
        return any(i.startswith(f"hokm:t:{table.table_id}:{match.hand_number}:") for i in ids)
    marked = [b for b in message.buttons() if b.style == SUCCESS]
    # a card to play or (V2) to lay down, or the stock's card to keep
    prefixes = tuple(f"hokm:{k}:{table.table_id}:{match.hand_number}:" for k in "cw")
    return bool(marked) and all((b.custom_id or "").startswith(prefixes) for b in marked)


async def play_turn_by_dm(
    double: DiscordDouble, bot: HokmBot, table: Table, users: dict[int, User], rng: random.Random
) -> None:
    """Let the member whose turn it is click a marked button in their DM."""
    match = table.match
    assert match is not None
    seat = match.to_act
    user_id = table.seat(seat).user_id
    assert user_id is not None
    user = users[user_id]
    await double.wait_until(
        lambda: ready_to_act(hand_message(double, user), table),
        timeout=15.0,  # Discord lets a DM channel take 5 edits per 5 s; fast players wait
        what=f"{user.username}'s DM to mark their turn",
    )
    message = hand_message(double, user)
    assert message is not None
    if match.phase == TRUMP:
        choices = [b for b in message.buttons() if (b.custom_id or "").startswith("hokm:t:")]
    elif match.phase == BID:  # any bid it may make, or Pass
        choices = [b for b in message.buttons() if (b.custom_id or "").startswith("hokm:v:")]
    else:
        choices = [b for b in message.buttons() if b.style == SUCCESS]
    button = rng.choice(choices)
    before = len(match.actions)
    record = await double.click(user, message, custom_id=button.custom_id)
    assert record.response_type == 7, (
        f"expected the hand to update in place: {record.response_name}"
    )
    assert len(match.actions) > before or table.status != "playing"
    if match.phase == PLAY and button.custom_id and button.custom_id.startswith("hokm:c:"):
        played = Card.parse(button.custom_id.rsplit(":", 1)[1])
        assert played not in match.hand_of(seat)


async def play_out(
    double: DiscordDouble,
    bot: HokmBot,
    table: Table,
    users: dict[int, User],
    rng: random.Random,
    *,
    turns: int = 400,
) -> None:
    """Members click their DMs and computers move until the match is over (at most ``turns``
    turns, so a stuck table fails the test instead of hanging it) and stored."""
    for _ in range(turns):
        if table.status != "playing":
            break
        match = table.match
        assert match is not None
        if table.seat(match.to_act).computer_plays:
            done = len(match.actions)
            await double.wait_until(
                lambda: len(match.actions) > done or table.status != "playing",  # noqa: B023
                timeout=5.0,
                what="the computer to move",
            )
            continue
        await play_turn_by_dm(double, bot, table, users, rng)
    assert table.status == "finished"
    await until_match_stored(bot, table)
