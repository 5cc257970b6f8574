"""V6.6.1 through the real bot and the Discord double: a click on a card of the hakem's hand
chooses it to lay down, a second click puts it back. The answer edits his own DM in place,
the table does not change, and the choice rides on his buttons until **Lay down**."""

from __future__ import annotations

from bot.present import custom_ids
from engine.shelem import DISCARD, ShelemMatch
from tests.double.server import DiscordDouble

from .conftest import BotFactory
from .test_hand_end import dm_with, members_table, move, user_of


async def test_v6_6_1_a_kitty_click_chooses_a_card_and_puts_it_back_in_place(
    discord_double: DiscordDouble, make_bot: BotFactory
) -> None:
    double = discord_double
    bot = await make_bot()
    table = await members_table(double, bot, "shelem", "en")
    match = table.match
    assert isinstance(match, ShelemMatch)
    for _ in range(40):  # the bidding, through the service
        if match.phase == DISCARD:
            break
        await move(bot, table)
    assert match.phase == DISCARD
    hakem, deal, tid = match.to_act, match.deal_number, table.table_id
    user = user_of(double, table, hakem)
    held = match.hand_of(hakem)
    version = table.version

    def buttons() -> set[str]:
        return {b.custom_id for b in double.message(dm.id).buttons() if b.custom_id}

    choose = custom_ids.kitty_id(tid, deal, held[0], ())
    dm = await dm_with(double, user, choose)
    record = await double.click(user, dm, custom_id=choose)
    assert record.response_type == 7, record.response_name  # his own DM, in place
    assert custom_ids.kitty_id(tid, deal, held[1], (held[0],)) in buttons()  # carried on
    put_back = custom_ids.kitty_id(tid, deal, held[0], (held[0],))
    assert put_back in buttons()
    record = await double.click(user, dm, custom_id=put_back)
    assert record.response_type == 7, record.response_name
    assert choose in buttons() and put_back not in buttons()
    assert match.phase == DISCARD and table.version == version  # nothing was played
