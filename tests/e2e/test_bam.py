"""V1 from Discord: at a table opened with ``bam:true``, the player who took their side's
seventh trick while the others have none gets Bam! and Stop buttons in their hand; Bam plays
on, and the channel hears of it."""

from __future__ import annotations

from bot.present import custom_ids
from bot.service.events import HandEnded
from bot.service.table import Table
from engine import BAM, Card, GreedyPlayer, Suit, seat_view
from tests.double.models import StoredMessage, User
from tests.double.server import DiscordDouble

from .conftest import BotFactory
from .helpers import open_table, table_message

SEED = 84
"""Greedy play gives seat 1's side (the defenders) the first seven tricks of hand 1."""


def holding(double: DiscordDouble, user: User, custom_id: str) -> StoredMessage | None:
    for message in reversed(double.dms(user)):
        if any(b.custom_id == custom_id for b in message.buttons()):
            return message
    return None


def greedy_id(table: Table) -> str:
    match = table.match
    assert match is not None
    view = seat_view(match, match.to_act)
    if match.phase == BAM:
        return custom_ids.decide_id(table.table_id, match.hand_number, "bam", True)
    player = GreedyPlayer()
    if view.can_choose_trump:
        suit = Suit(player.choose_trump(view))
        return custom_ids.trump_id(table.table_id, match.hand_number, suit)
    card = Card(player.choose_card(view))
    return custom_ids.card_id(table.table_id, match.hand_number, card)


async def test_v1_bam_and_stop_buttons_for_the_side_at_seven_tricks_to_none(
    discord_double: DiscordDouble, make_bot: BotFactory
) -> None:
    double = discord_double
    channel = double.channel
    assert channel is not None
    bot = await make_bot(match_seed_base=SEED)
    host, *others = double.members
    table = await open_table(double, bot, host, {"bam": True})
    for user in others:
        await double.click(user, table_message(double, table), label="Join")
    match = table.match
    assert match is not None and match.rules.bam
    users = {u.id: u for u in double.members}
    ended: list[HandEnded] = []
    inner = bot.publisher.publish

    def publish(update: object) -> None:
        ended.extend(e for e in getattr(update, "events", []) if isinstance(e, HandEnded))
        inner(update)  # type: ignore[arg-type]

    bot.publisher.publish = publish  # type: ignore[method-assign]
    offered = None
    for _ in range(80):
        if match.hand_number > 1 or table.status != "playing":
            break
        user = users[table.seat(match.to_act).user_id or 0]
        cid = greedy_id(table)
        found: list[StoredMessage] = []

        def ready() -> bool:
            hit = holding(double, user, cid)  # noqa: B023
            found[:] = [hit] if hit else []  # noqa: B023
            return bool(found)  # noqa: B023

        await double.wait_until(ready, timeout=15, what=f"{user.username}'s button {cid}")
        if match.phase == BAM:
            offered = found[0]
            labels = [b.label for b in offered.buttons()][:2]
            assert labels == ["Bam!", "Stop"] and "**Bam!**" in offered.content
            assert match.to_act == 1
        bam = match.phase == BAM
        record = await double.click(user, found[0], custom_id=cid)
        assert record.response_type == 7, record.response_name
        if bam:  # its line shows for the rest of hand 1, and only then
            await double.wait_until(
                lambda: "declared **bam**" in table_message(double, table).text,
                what="the bam line",
            )
    assert offered is not None, "the bam was never offered"
    assert ended and ended[0].result.bam  # the side played on
