"""A match's first hand goes where the member clicked when its DM would wait.

When many tables start together, each player's first DM (two calls of the global budget)
queues behind the others for tens of seconds. The bot then sends the hand as a private
follow-up of the member's own lobby click (``/hokm new``, Join), outside that budget, and keeps
it live through the same token: the turn is marked there at once, and no DM is sent. A quiet
bot still sends the first hand by DM (every other e2e test plays through DMs).

The outbox is made busy for real: a few seconds' worth of no-op jobs at the most urgent
priority, each taking a token from the limiter as a real call does.
"""

from __future__ import annotations

import random

from bot.discord.client import HokmBot
from bot.discord.outbox import URGENT
from bot.present import custom_ids
from bot.service.table import Table
from engine import TRUMP
from tests.double.interactions import InteractionRecord
from tests.double.models import StoredMessage, User
from tests.double.server import DiscordDouble
from tests.reliability.leaks import HandWatcher, leaks

from .conftest import BotFactory, each_language_once
from .helpers import message_id
from .players import SUCCESS, hand_message, ready_to_act

BUSY_JOBS = 200
"""No-op jobs queued before the match starts: 5 s of the outbox's 40 calls a second."""


def make_busy(bot: HokmBot) -> None:
    async def noop() -> None:
        await bot.limiter.acquire(None)  # a call's token, taken as a real call takes it

    for i in range(BUSY_JOBS):
        bot.outbox.submit(("busy", i), URGENT, 10**9 + i, noop)


def channel_hand(double: DiscordDouble, user: User) -> StoredMessage | None:
    """The member's newest private hand message in the table's channel."""
    channel = double.channel
    assert channel is not None
    found = [
        m
        for m in double.world.messages.values()
        if m.channel_id == channel.id
        and m.ephemeral_to == user.id
        and any((b.custom_id or "").startswith(("hokm:c:", "hokm:t:")) for b in m.buttons())
    ]
    return max(found, key=lambda m: m.id) if found else None


async def play_in_channel(
    double: DiscordDouble, table: Table, users: dict[int, User], rng: random.Random
) -> StoredMessage:
    """The member to act plays from their private message in the channel once it marks
    their turn; returns that message."""
    match = table.match
    assert match is not None
    user = users[table.seat(match.to_act).user_id or 0]
    await double.wait_until(
        lambda: ready_to_act(channel_hand(double, user), table),
        timeout=3.0,  # a token edit, not a queued DM: well within the outbox's backlog
        what=f"{user.username}'s turn marked where they clicked",
    )
    message = channel_hand(double, user)
    assert message is not None
    if match.phase == TRUMP:
        choices = [b for b in message.buttons() if (b.custom_id or "").startswith("hokm:t:")]
    else:
        choices = [b for b in message.buttons() if b.style == SUCCESS]
    record = await double.click(user, message, custom_id=rng.choice(choices).custom_id)
    assert record.response_type == 7, record.response_name
    return message


@each_language_once()
async def test_a_busy_bot_sends_the_first_hand_through_each_members_lobby_click(
    discord_double: DiscordDouble, make_bot: BotFactory, lang: str
) -> None:
    double = discord_double
    channel = double.channel
    assert channel is not None
    bot = await make_bot(match_seed_base=11)
    watcher = HandWatcher.install(bot)
    if lang == "fa":
        await double.slash(double.manager, channel, "hokm settings", {"language": "fa"})
    host, *others = double.members
    lobby: dict[int, InteractionRecord] = {}
    lobby[host.id] = await double.slash(
        host, channel, "hokm new", {"turn_seconds": 60, "target_score": 1}
    )
    table = bot.service.table_in_channel(channel.id)
    assert table is not None
    await double.wait_until(lambda: message_id(bot, table) is not None, what="the table message")
    join = custom_ids.lobby_id(table.table_id, "join")
    for i, user in enumerate(others):
        if i == len(others) - 1:
            make_busy(bot)  # the last Join starts the match while the budget is taken
        lobby[user.id] = await double.click(
            user, double.message(message_id(bot, table) or 0), custom_id=join
        )
        assert lobby[user.id].response_type == 7
    match = table.match
    assert table.status == "playing" and match is not None
    users = {u.id: u for u in double.members}
    rng = random.Random(2)
    used: set[int] = set()
    while table.status == "playing" and match.hand_number == 1:
        used.add((await play_in_channel(double, table, users, rng)).id)
    assert match.hand_results, "the first hand was played out from the channel"
    # every seat's hand came as a private follow-up of that member's own lobby click
    for user_id, record in lobby.items():
        [hand] = [m for m in record.followups if m.ephemeral_to == user_id]
        assert hand.visible_to(user_id) and not any(
            hand.visible_to(other) for other in users if other != user_id
        )
        assert hand.id in used or channel_hand(double, users[user_id]) == hand
    assert len(used) == 4  # each member played from theirs
    # no DM was sent for it: not while the budget was taken, nor after it drained
    await double.wait_until(lambda: bot.outbox.backlog == 0, timeout=15, what="the outbox")
    assert all(hand_message(double, u) is None for u in users.values())
    assert leaks(double, watcher) == []


async def test_a_quiet_bot_still_sends_the_first_hand_by_dm(
    discord_double: DiscordDouble, hokm_bot: HokmBot
) -> None:
    """The other side of the choice: nothing waits, so the DM goes and no follow-up is sent."""
    double = discord_double
    channel = double.channel
    assert channel is not None
    host, *others = double.members
    records = [await double.slash(host, channel, "hokm new", {"turn_seconds": 60})]
    table = hokm_bot.service.table_in_channel(channel.id)
    assert table is not None
    await double.wait_until(
        lambda: message_id(hokm_bot, table) is not None, what="the table message"
    )
    join = custom_ids.lobby_id(table.table_id, "join")
    for user in others:
        records.append(
            await double.click(
                user, double.message(message_id(hokm_bot, table) or 0), custom_id=join
            )
        )
    match = table.match
    assert match is not None
    hakem = double.members[[u.id for u in double.members].index(table.seat(match.hakem).user_id)]
    await double.wait_until(
        lambda: ready_to_act(hand_message(double, hakem), table), what="the hakem's DM"
    )
    assert all(not r.followups for r in records)
