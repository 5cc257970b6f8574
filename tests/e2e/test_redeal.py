"""R6 from Discord: at a table opened with ``redeal:true``, a hakem whose first five cards
hold no J, Q, K or A has a Redeal button beside the trump buttons; pressing it deals five new
cards, the table and the channel say so, and the match goes on to its end."""

from __future__ import annotations

import random

from engine import TRUMP, Match, Rules
from tests.double.models import StoredMessage, User
from tests.double.server import DiscordDouble

from .conftest import BotFactory
from .helpers import open_table, table_message
from .players import play_out

SEED = 14
"""The first seed whose first hakem (seat 0, the host) holds no court card among the five."""


def redeal_buttons(message: StoredMessage | None) -> list[str]:
    if message is None:
        return []
    return [
        b.custom_id or "" for b in message.buttons() if (b.custom_id or "").startswith("hokm:d:")
    ]


def newest_with_redeal(double: DiscordDouble, user: User) -> StoredMessage | None:
    return next((m for m in reversed(double.dms(user)) if redeal_buttons(m)), None)


async def test_r6_the_hakem_redeals_five_cards_without_a_court_card_from_the_dm(
    discord_double: DiscordDouble, make_bot: BotFactory
) -> None:
    double = discord_double
    channel = double.channel
    assert channel is not None
    expected = Match(SEED, Rules(redeal_without_court=True))
    assert expected.hakem == 0 and expected.can_redeal(0)
    bot = await make_bot(match_seed_base=SEED)
    host, *others = double.members
    table = await open_table(double, bot, host, {"redeal": True, "target_score": 1})
    for user in others:
        await double.click(user, table_message(double, table), label="Join")
    match = table.match
    assert match is not None and match.hakem == 0 and match.phase == TRUMP
    await double.wait_until(
        lambda: newest_with_redeal(double, host) is not None, what="the hakem's Redeal button"
    )
    dm = newest_with_redeal(double, host)
    assert dm is not None
    trump_row = [b for b in dm.buttons() if (b.custom_id or "").startswith(("hokm:t:", "hokm:d:"))]
    assert [b.label for b in trump_row][-1] == "Redeal" and len(trump_row) == 5
    assert "ask for a **Redeal**" in dm.content
    five = set(match.hand_of(0))
    (redeal_id,) = redeal_buttons(dm)
    # another member's press of it (forged onto the table message) is refused: only the hakem
    other = await double.click(
        others[0], table_message(double, table), custom_id=redeal_id, stale=True
    )
    assert other.ephemeral and "Only the hakem" in other.message.text  # type: ignore[union-attr]
    record = await double.click(host, dm, custom_id=redeal_id)
    assert record.response_type == 7, record.response_name
    assert match.deal_number == 2 and set(match.hand_of(0)) != five and match.phase == TRUMP
    assert record.message is not None
    shown = {b.label for b in record.message.buttons() if (b.custom_id or "").startswith("hokm:c:")}
    assert shown == {c.label for c in match.hand_of(0)}  # the new five, in place
    assert bool(redeal_buttons(record.message)) == match.can_redeal(0)
    line = "asked for a redeal: new cards for the hakem."
    await double.wait_until(lambda: line in table_message(double, table).text, what="the line")
    await double.wait_for_message(channel, lambda m: line in m.text and not m.embeds, timeout=15)
    # the match goes on to its end
    await play_out(double, bot, table, {u.id: u for u in double.members}, random.Random(2))
    assert match.actions[0] == ("redeal", 0)


async def test_r6_no_redeal_button_at_a_table_without_the_house_rule(
    discord_double: DiscordDouble, make_bot: BotFactory
) -> None:
    double = discord_double
    bot = await make_bot(match_seed_base=SEED)
    host, *others = double.members
    table = await open_table(double, bot, host, {"target_score": 1})
    for user in others:
        await double.click(user, table_message(double, table), label="Join")
    assert table.match is not None and table.match.hakem == 0
    await double.wait_until(
        lambda: any(
            (b.custom_id or "").startswith("hokm:t:") for m in double.dms(host) for b in m.buttons()
        ),
        what="the hakem's trump buttons",
    )
    assert all(redeal_buttons(m) == [] for m in double.dms(host))
