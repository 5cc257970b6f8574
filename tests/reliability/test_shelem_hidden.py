"""Guarantee 5, hidden hands, at a Shelem table (V6): across every message, embed,
button and ephemeral answer of a full match, no card of a hand, of the kitty or of the cards
the hakem laid down shows anywhere but where its owner may see it (V6.6.4: the kitty nobody's
before the bidding ends and then the hakem's alone; the laid-down cards the hakem's alone, his
partner's neither). ``leaks.py`` is the checker; four planted leaks prove it looks."""

from __future__ import annotations

import random

from bot.discord.client import HokmBot
from bot.service.table import Table
from engine.shelem import BID, DISCARD, PLAY, ShelemMatch
from tests.double.server import DiscordDouble
from tests.e2e.conftest import BotFactory
from tests.e2e.helpers import table_message
from tests.e2e.shelem_players import play_turn, shelem_of

from .inproc import open_table, until
from .leaks import HandWatcher, leaks
from .leaks import viewer_of as leaks_viewer
from .test_hidden_hands import button_row


async def test_no_card_of_a_hand_the_kitty_or_the_discards_leaks_in_a_shelem_match(
    discord_double: DiscordDouble, make_bot: BotFactory
) -> None:
    double = discord_double
    assert double.channel is not None
    seed = 40  # the dealer is seat 0, so the member with DMs closed (seat 1) speaks first
    assert ShelemMatch(seed).dealer == 0
    bot: HokmBot = await make_bot(match_seed_base=seed)
    watcher = HandWatcher.install(bot)
    host, closed, guest, _ = double.members
    double.close_dms(closed)  # plays from My hand, ephemeral
    options = {"format": "shelem", "shelem_target": 200, "turn_seconds": 60, "difficulty": "easy"}
    table = await open_table(double, bot, host, options)
    for user in (closed, guest):
        await double.click(user, table_message(double, table), label="Join")
    await double.click(host, table_message(double, table), label="Start")
    assert table.status == "playing" and table.seat(3).is_computer
    users = {u.id: u for u in double.members}
    match = shelem_of(table)
    # he bids from his ephemeral My hand and, the others passing, is the first hakem: the
    # kitty and his choice of cards to lay down go to his ephemeral views only
    assert match.to_act == 1 and table.seat(1).user_id == closed.id
    view = await double.click(closed, table_message(double, table), label="My hand")
    assert view.message is not None
    bid = f"hokm:sb:{table.table_id}:{match.deal_number}:100"
    await double.click(closed, view.message, custom_id=bid)
    rng = random.Random(2)
    while match.phase == BID:
        if table.seat(match.to_act).computer_plays:
            done = len(match.actions)
            await until(lambda: len(match.actions) > done, what="a computer to bid")  # noqa: B023
        else:
            await play_turn(double, bot, table, users, random.Random(1), shelem_rate=0.0)
    assert match.hakem == 1  # nobody outbid him (this seed)
    planted: set[int] = set()
    laid_down: set[int] = set()
    for _ in range(3000):
        if table.status != "playing":
            break
        hakem = match.hakem
        if match.phase == DISCARD and not planted:
            planted = plant_kitty_leaks(double, table)
        if match.phase == PLAY and hakem >= 0 and not laid_down and match.discards_of(hakem):
            laid_down = plant_discard_leak(double, table)
        if table.seat(match.to_act).computer_plays:
            done = len(match.actions)

            def moved(done: int = done) -> bool:
                return len(match.actions) > done or table.status != "playing"

            await until(moved, what="a computer to move")
            continue
        await play_turn(double, bot, table, users, rng)
    assert table.status == "finished" and planted and laid_down
    assert double.dms(closed) == []  # the closed-DM member played from ephemerals only
    await until(lambda: bot.outbox.backlog == 0, what="the outbox to drain")
    await double.wait_for_message(double.channel, lambda m: "win the match" in m.text, timeout=15)
    found = leaks(double, watcher)
    assert {leak.message_id for leak in found} == planted | laid_down, [
        (leak.message_id, leak.viewer, leak.cards, leak.text) for leak in found
    ]
    # the checker walked the hakems' own views of the kitty and of the cards they laid down
    private = [
        state.get("content") or ""
        for m in double.world.messages.values()
        if m.author is double.world.bot and leaks_viewer(double, m) is not None
        for state in [*m.history, m.snapshot()]
    ]
    assert any("The kitty brought you: " in text for text in private)
    # in any version of his ephemerals: a later step may edit the kitty view or delete it
    kitty_views = [
        m
        for m in double.ephemerals(closed, include_deleted=True)
        if any(
            "The kitty brought you: " in (state.get("content") or "")
            for state in [*m.history, m.snapshot()]
        )
    ]
    assert kitty_views and double.dms(closed) == []
    assert any("Laid down: " in text for text in private)
    versions = sum(len(m.history) + 1 for m in double.world.messages.values())
    assert versions > 150


def plant_kitty_leaks(double: DiscordDouble, table: Table) -> set[int]:
    """While the hakem lays down: a kitty card in the channel, in his partner's DM (or
    ephemeral), and on a kitty button shown to an opponent. The bot never sends these."""
    match = table.match
    assert isinstance(match, ShelemMatch) and double.channel is not None
    hakem = match.hakem
    kitty = match.kitty_of(hakem)
    card = kitty[0]
    world = double.world
    users = {u.id: u for u in double.members}
    partner = users.get(table.seat((hakem + 2) % 4).user_id or 0)
    opponent = users.get(table.seat((hakem + 1) % 4).user_id or 0) or users.get(
        table.seat((hakem + 3) % 4).user_id or 0
    )
    assert opponent is not None
    public = world.create_message(double.channel, {"content": f"the kitty had {card.label}"})
    out = {public.id}
    if partner is not None:
        note = world.create_message(
            double.channel,
            {"content": f"your partner took {kitty[-1].label}"},
            ephemeral_to=partner.id,
        )
        out.add(note.id)
    button = f"hokm:sk:{table.table_id}:{match.deal_number}:{card.code}:"
    shown = world.create_message(
        double.channel,
        {"content": "x", "components": [button_row(button)]},
        ephemeral_to=opponent.id,
    )
    return out | {shown.id}


def plant_discard_leak(double: DiscordDouble, table: Table) -> set[int]:
    """A card the hakem laid down, shown on a Lay down button in the channel."""
    match = table.match
    assert isinstance(match, ShelemMatch) and double.channel is not None
    down = match.discards_of(match.hakem)
    button = f"hokm:sl:{table.table_id}:{match.deal_number}:{down[0].code}"
    message = double.world.create_message(
        double.channel, {"content": "y", "components": [button_row(button)]}
    )
    return {message.id}


def test_the_checker_reads_jokers_as_cards() -> None:
    """V5 and V6.7 jokers: a joker's label and its button are cards the checker looks for
    (the joker six hidden-hands match in ``test_formats_reliability`` relies on it)."""
    from engine.cards import BLACK_JOKER, RED_JOKER

    from .leaks import ALL, _cards_in

    assert {"BJ", "RJ"} <= ALL and len(ALL) == 54
    line = f"Your hand: {BLACK_JOKER.label} A♠ {RED_JOKER.label} · hokm:c:0123456789ab:3:RJ"
    assert _cards_in(line) == ["BJ", "AS", "RJ", "RJ"]
    kitty = "hokm:sl:0123456789ab:2:BJ.10H.QS"
    assert _cards_in(kitty) == ["BJ", "10H", "QS"]
