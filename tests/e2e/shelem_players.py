"""Simulated members who play Shelem (V6) by clicking the buttons the bot sent them: bids and
Pass, the hakem's kitty (one card at a time, then Lay down), the mode, and cards."""

from __future__ import annotations

import random

from bot.discord.client import HokmBot
from bot.service.table import Table
from engine.shelem import BID, DISCARD, MODE, PASS, SHELEM, ShelemMatch
from tests.double.models import StoredMessage, User
from tests.double.server import DiscordDouble
from tests.e2e.helpers import dm_closed, message_id, until_match_stored

from .players import SUCCESS

SHELEM_PREFIXES = ("hokm:c:", "hokm:sb:", "hokm:sk:", "hokm:sl:", "hokm:sm:")


def shelem_of(table: Table) -> ShelemMatch:
    assert isinstance(table.match, ShelemMatch)
    return table.match


def hand_message(
    double: DiscordDouble, user: User, *, ephemeral: bool = False
) -> StoredMessage | None:
    """The newest DM (or, ``ephemeral``, My hand view) of ``user`` with Shelem buttons."""
    messages = double.ephemerals(user) if ephemeral else double.dms(user)
    for message in reversed(messages):
        if any((b.custom_id or "").startswith(SHELEM_PREFIXES) for b in message.buttons()):
            return message
    return None


def asks(table: Table, message: StoredMessage | None) -> list[str]:
    """The custom_ids of the buttons that make the move the table waits for, on ``message``:
    this deal's bids, the hakem's cards to lay down, the modes, or this hand's marked cards."""
    match = shelem_of(table)
    if message is None:
        return []
    tid = table.table_id
    ids = [b.custom_id or "" for b in message.buttons() if not b.disabled]
    kind = {BID: "sb", DISCARD: "sk", MODE: "sm"}.get(match.phase)
    if kind is not None:
        return [i for i in ids if i.startswith(f"hokm:{kind}:{tid}:{match.deal_number}:")]
    prefix = f"hokm:c:{tid}:{match.hand_number}:"
    marked = [b.custom_id or "" for b in message.buttons() if b.style == SUCCESS]
    return marked if marked and all(i.startswith(prefix) for i in marked) else []


def bid_value(custom_id: str) -> int:
    return int(custom_id.rsplit(":", 1)[1])


async def play_turn(
    double: DiscordDouble,
    bot: HokmBot,
    table: Table,
    users: dict[int, User],
    rng: random.Random,
    *,
    shelem_rate: float = 0.0,
) -> None:
    """The member to act clicks in their DM (or their My hand view when their DMs are closed):
    a bid (the lowest they may, or Pass, by chance; Shelem at ``shelem_rate``), four cards
    one at a time and Lay down, a mode, or a marked card."""
    match = shelem_of(table)
    seat = match.to_act
    seat_data = table.seat(seat)
    user = users[seat_data.user_id or 0]
    closed = dm_closed(bot, table, seat)
    if closed:
        table_message = double.message(message_id(bot, table) or 0)
        rec = await double.click(user, table_message, label="My hand")
        assert rec.ephemeral and rec.message is not None
        # The view shows the table as last stored: pressed while the move before is being
        # stored (a computer's), it offers the move once that is, through its token's edit.
        view = rec.message.id
        await double.wait_until(
            lambda: bool(asks(table, double.message(view))),
            timeout=15.0,
            what=f"{user.username}'s My hand view to ask for their move",
        )
        message: StoredMessage | None = double.message(view)
    else:
        await double.wait_until(
            lambda: bool(asks(table, hand_message(double, user))),
            timeout=15.0,
            what=f"{user.username}'s DM to ask for their move",
        )
        message = hand_message(double, user)
    assert message is not None
    choices = asks(table, message)
    assert choices, f"no move offered to {user.username}: {message.text[:200]}"
    before = len(match.actions)
    if match.phase == BID:
        bids = {bid_value(i): i for i in choices}
        points = sorted(v for v in bids if PASS < v < SHELEM)
        if SHELEM in bids and rng.random() < shelem_rate:
            cid = bids[SHELEM]
        elif points and (rng.random() < 0.4 or PASS not in bids):  # V6.4.1: no Pass
            cid = bids[points[0]]
        else:
            cid = bids[PASS]
    elif match.phase == DISCARD:
        for pick in rng.sample(choices, match.kitty_size):
            card = pick.split(":")[4]
            current = double.message(message.id)
            cid_now = next(
                b.custom_id or ""
                for b in current.buttons()
                if (b.custom_id or "").split(":")[4:5] == [card]
            )
            rec = await double.click(user, current, custom_id=cid_now)
            assert rec.response_type == 7, rec.response_name  # his own message, in place
        current = double.message(message.id)
        confirm = next(b for b in current.buttons() if (b.custom_id or "").startswith("hokm:sl:"))
        assert not confirm.disabled
        cid = confirm.custom_id or ""
        message = current
    else:
        cid = rng.choice(choices)
    rec = await double.click(user, message, custom_id=cid)
    assert rec.response_type == 7, f"expected the hand in place: {rec.response_name}"
    assert len(match.actions) > before or table.status != "playing"


async def play_out(
    double: DiscordDouble,
    bot: HokmBot,
    table: Table,
    users: dict[int, User],
    rng: random.Random,
    *,
    turns: int = 2000,
    shelem_rate: float = 0.0,
) -> None:
    """Members click and computers move until the match is over (at most ``turns`` turns)
    and stored."""
    for _ in range(turns):
        if table.status != "playing":
            break
        match = shelem_of(table)
        if table.seat(match.to_act).computer_plays:
            done = len(match.actions)
            await double.wait_until(
                lambda: len(match.actions) > done or table.status != "playing",  # noqa: B023
                timeout=5.0,
                what="the computer to move",
            )
            continue
        await play_turn(double, bot, table, users, rng, shelem_rate=shelem_rate)
    assert table.status == "finished"
    await until_match_stored(bot, table)
