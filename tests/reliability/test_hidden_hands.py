"""Guarantee 5, hidden hands: across every message, embed, button and ephemeral answer of a
full match, no card of a player's hand appears anywhere but that player's own DM or
ephemeral view before it is played (``leaks.py`` is the checker)."""

from __future__ import annotations

import asyncio

import pytest

from bot.discord.client import HokmBot
from bot.present import custom_ids
from bot.service.errors import ActionError
from bot.service.table import Table
from bot.store import StoreError, TableRecord
from engine import PLAY, Card
from tests.double.models import StoredMessage, User
from tests.double.server import DiscordDouble
from tests.e2e.conftest import BotFactory
from tests.e2e.helpers import dm_closed, table_message

from .inproc import fast_forward, open_table, seated_table, until
from .leaks import TRICK_LINE, HandWatcher, label, leaks
from .leaks import viewer_of as leaks_viewer
from .script import button_id, member_choice


def holding(messages: list[StoredMessage], custom_id: str) -> StoredMessage | None:
    for message in reversed(messages):
        if any(b.custom_id == custom_id for b in message.buttons()):
            return message
    return None


async def click_scripted(
    double: DiscordDouble, bot: HokmBot, table: Table, users: dict[int, User]
) -> None:
    """The member to act clicks their scripted choice: in their DM, or, with DMs closed, in
    the ephemeral hand that "My hand" on the table message shows them."""
    match = table.match
    assert match is not None
    seat = match.to_act
    user = users[table.seat(seat).user_id or 0]
    cid = button_id(table.table_id, match.hand_number, member_choice(match, seat))
    if dm_closed(bot, table, seat):
        rec = await double.click(user, table_message(double, table), label="My hand")
        assert rec.ephemeral and rec.message is not None
        message = rec.message
    else:
        found: list[StoredMessage] = []

        def ready() -> bool:
            hit = holding(double.dms(user), cid)
            found[:] = [hit] if hit else []
            return bool(found)

        await double.wait_until(ready, timeout=10, what=f"{user.username}'s DM with {cid}")
        message = found[0]
    rec = await double.click(user, message, custom_id=cid)
    assert rec.response_type == 7, rec.response_name


async def test_no_hand_leaks_in_a_full_match_with_a_closed_dm_player(
    discord_double: DiscordDouble, make_bot: BotFactory
) -> None:
    double = discord_double
    assert double.channel is not None
    bot: HokmBot = await make_bot(match_seed_base=3)
    watcher = HandWatcher.install(bot)
    host, closed, *rest = double.members
    double.close_dms(closed)
    table = await open_table(double, bot, host, {"target_score": 2, "turn_seconds": 60})
    for user in (closed, *rest):
        await double.click(user, table_message(double, table), label="Join")
    users = {u.id: u for u in double.members}
    match = table.match
    assert match is not None
    planted: set[int] = set()
    for _ in range(400):
        if table.status != "playing":
            break
        await click_scripted(double, bot, table, users)
        if len(match.actions) == 20 and not planted:
            planted = plant_leaks(double, bot, table)
            # a live table is never replayed, even asked for by its own id
            rec = await double.click(
                host, table_message(double, table), custom_id=f"hokm:y:{table.table_id}", stale=True
            )
            assert rec.ephemeral and rec.message is not None
            assert "still being played" in rec.message.text and not rec.message.buttons()
    assert table.status == "finished" and len(match.hand_results) >= 2  # a new deal was seen too
    assert double.dms(closed) == [] and any(
        m.ephemeral_to == closed.id and m.buttons() for m in double.world.messages.values()
    )
    await until(lambda: bot.outbox.backlog == 0, what="the outbox to drain")
    summary = await double.wait_for_message(
        double.channel, lambda m: "win the match" in m.text, timeout=15
    )
    # the match summary is one of the surfaces walked below: public, after
    # the last deal, when the cards left in the hands are still hidden from everyone
    assert summary.author is double.world.bot and summary.buttons()[0].label == "Rematch"
    await double.wait_until(  # the finished table's last edit may still be on its way
        lambda: not table_message(double, table).buttons(), what="the table message's last edit"
    )
    # once it is over, its Replay shows every hand, and the checker lets it
    rec = await double.click(closed, summary, custom_id=f"hokm:y:{table.table_id}", stale=True)
    replay = rec.message
    assert rec.ephemeral and replay is not None and replay.ephemeral_to == closed.id
    for _ in range(2):
        ahead = next(b for b in double.message(replay.id).buttons() if b.label == "▶")
        await double.click(closed, replay, custom_id=ahead.custom_id)
    assert len(double.message(replay.id).history) == 2 and "Trick 2: " in replay.text
    found = leaks(double, watcher)
    # the table message listed the hand's tricks card by card, and every
    # such line was checked against the tricks completed by then
    shown = [
        line
        for m in double.messages_in(double.channel)
        for text in [m.text, *(str(v.get("embeds")) for v in m.history)]
        for line in text.splitlines()
        if TRICK_LINE.search(line)
    ]
    assert len(set(shown)) >= len(match.tricks) >= 7, shown  # at least the last hand's
    # the checker finds the four planted leaks, and nothing the bot sent
    assert {leak.message_id for leak in found} == planted, [
        (leak.message_id, leak.viewer, leak.cards, leak.text) for leak in found
    ]
    versions = sum(len(m.history) + 1 for m in double.world.messages.values())
    assert versions > 150  # the checker really walked the match
    # hand messages now show the table (the trick in progress with other
    # players' cards, the last trick); the checker walked those versions too and found no
    # card in them that was still hidden from their reader.
    private = [
        state.get("content") or ""
        for m in double.world.messages.values()
        if m.author is double.world.bot and leaks_viewer(double, m) is not None
        for state in [*m.history, m.snapshot()]
    ]
    assert sum("On the table: " in text and " · " in text for text in private) > 20
    assert sum("Last trick (" in text for text in private) > 20
    # a hand's end shows the trick that ended it in the channel's report, on the
    # table message and in every member's hand message, after the next hand was dealt (its
    # cards may be anyone's by then); every such line was checked against the tricks taken.
    ended = [text for text in private if " ended with trick " in text]
    assert len(ended) >= 3 and all(" take hand " in text for text in ended), ended
    assert any(" ended with trick " in m.text for m in double.messages_in(double.channel))


def plant_leaks(double: DiscordDouble, bot: HokmBot, table: Table) -> set[int]:
    """Six messages the bot never sends: a card still held by seat 0, shown in the channel,
    in another seat's DM, in an ephemeral to a third seat, in a line shaped like a trick
    line of the table message and in one shaped like the trick that ended a hand
    (tricks that never happened); and a Replay view of this live table, every hand
    in it. The checker must flag exactly these."""
    match = table.match
    assert match is not None and double.channel is not None
    card = Card(min(match.hand_of(0)))
    world = double.world
    users = {u.id: u for u in double.members}
    others = range(1, len(table.seats))  # three seats or more
    open_dms = [i for i in others if not dm_closed(bot, table, i)]
    other = users[table.seat(open_dms[0]).user_id or 0]
    third = users[table.seat(next(i for i in others if i != open_dms[0])).user_id or 0]
    public = world.create_message(double.channel, {"content": f"psst: {label(card.code)}"})
    dm = world.create_message(world.open_dm(other), {"content": f"seat 0 holds… {card.label}"})
    ephemeral = world.create_message(
        double.channel,
        {"content": "x", "components": [button_row(f"hokm:c:{table.table_id}:1:{card.code}")]},
        ephemeral_to=third.id,
    )
    fake = f"1 · a {card.label} · b 2♣ · c 3♣ · d 4♣ → a"
    trick = world.create_message(double.channel, {"embeds": [{"description": fake}]})
    # shaped like the trick that ended a hand, in Persian, of a trick never taken
    ended = (
        f"\u200fدور \u2068۱\u2069 با دست \u2068۳\u2069 تمام شد: \u2068a {card.label}\u2069 ← a برد"
    )
    end = world.create_message(world.open_dm(other), {"content": ended})
    held = " ".join(c.rank_code for c in match.hand_of(0))
    replay = world.create_message(
        double.channel,
        {
            "embeds": [{"description": f"seat 1: {held}"}],
            "components": [button_row(f"hokm:z:{table.table_id}:{third.id}:0:0:n")],
        },
        ephemeral_to=third.id,
    )
    return {public.id, dm.id, ephemeral.id, trick.id, replay.id, end.id}


def button_row(custom_id: str) -> dict[str, object]:
    return {
        "type": 1,
        "components": [{"type": 2, "style": 2, "label": "?", "custom_id": custom_id}],
    }


async def test_a_move_is_never_shown_before_it_is_stored(
    discord_double: DiscordDouble, make_bot: BotFactory
) -> None:
    """A card's store write stalls and then fails. Meanwhile another member asks for their
    hand: the answer does not wait for the write (nothing rendered takes the table's lock): it
    shows the table as last stored, without the card on the table, which the failed write then
    puts back in the player's hand."""
    double = discord_double
    bot: HokmBot = await make_bot(match_seed_base=3)
    table = await seated_table(double, bot, {"turn_seconds": 60})
    match = table.match
    assert match is not None
    await fast_forward(bot, table, lambda: match.phase == PLAY)
    seat = match.to_act
    users = {u.id: u for u in double.members}
    player = users[table.seat(seat).user_id or 0]
    onlooker = users[table.seat((seat + 1) % 4).user_id or 0]
    card = member_choice(match, seat)
    assert isinstance(card, Card)
    gate, entered = asyncio.Event(), asyncio.Event()
    inner = bot.store.save_table

    async def stalls_then_fails(record: TableRecord) -> TableRecord:
        moved = card.code not in record.state["match"]["hands"][seat]
        if record.table_id == table.table_id and moved and not gate.is_set():
            entered.set()
            await gate.wait()
            raise StoreError("disk I/O error")
        return await inner(record)

    bot.store.save_table = stalls_then_fails  # type: ignore[method-assign]
    move = asyncio.create_task(
        bot.service.play_card(table.table_id, player.id, match.hand_number, card)
    )
    await asyncio.wait_for(entered.wait(), timeout=5)
    assert card not in match.hand_of(seat)  # applied in memory, not stored yet
    ask = await double.click(onlooker, table_message(double, table), label="My hand", wait=False)
    await until(lambda: ask.responded, what="the hand answered while the write stalls")
    assert not move.done() and card not in match.hand_of(seat)  # still unstored meanwhile
    gate.set()
    with pytest.raises(ActionError, match=r"error\.internal"):
        await move
    await ask.wait_response()
    restored = table.match  # the failed write took it back (a fresh Match object)
    assert restored is not None and card in restored.hand_of(seat)
    assert ask.message is not None and card.label not in ask.message.text


async def test_no_hand_leaks_through_hints(
    discord_double: DiscordDouble, make_bot: BotFactory
) -> None:
    """At a table with hints on, every member presses Hint on every turn (in
    their DM, or in My hand with DMs closed) before playing; the checker walks every hint
    answer with the rest and finds nothing the bot sent (and the three planted leaks)."""
    double = discord_double
    assert double.channel is not None
    bot: HokmBot = await make_bot(match_seed_base=5)
    watcher = HandWatcher.install(bot)
    host, closed, *rest = double.members
    double.close_dms(closed)
    options = {"target_score": 1, "turn_seconds": 60, "hints": True}
    table = await open_table(double, bot, host, options)
    for user in (closed, *rest):
        await double.click(user, table_message(double, table), label="Join")
    users = {u.id: u for u in double.members}
    match = table.match
    assert match is not None
    answers: list[StoredMessage] = []
    planted: set[int] = set()
    for _ in range(200):
        if table.status != "playing":
            break
        user = users[table.seat(match.to_act).user_id or 0]
        cid = custom_ids.hint_id(table.table_id, match.hand_number)
        if dm_closed(bot, table, match.to_act):
            rec = await double.click(user, table_message(double, table), label="My hand")
            assert rec.message is not None
            where = rec.message
        else:
            found: list[StoredMessage] = []

            def ready() -> bool:
                hit = holding(double.dms(user), cid)  # noqa: B023
                found[:] = [hit] if hit else []  # noqa: B023
                return bool(found)  # noqa: B023

            await double.wait_until(ready, timeout=10, what=f"{user.username}'s Hint button")
            where = found[0]
        asked = await double.click(user, where, custom_id=cid)
        answers += await asked.wait_followups(1, timeout=10.0)
        await click_scripted(double, bot, table, users)
        if len(match.actions) == 12 and not planted:
            planted = plant_leaks(double, bot, table)
    assert table.status == "finished"
    assert len(answers) > 20 and all(a.ephemeral_to is not None for a in answers)
    assert all(a.author is double.world.bot for a in answers)  # so ``leaks`` walks them
    assert sum(1 for a in answers if any(c in a.content for c in "♠♥♦♣")) == len(answers)
    await until(lambda: bot.outbox.backlog == 0, what="the outbox to drain")
    found_leaks = leaks(double, watcher)
    assert {leak.message_id for leak in found_leaks} == planted, [
        (leak.message_id, leak.viewer, leak.cards, leak.text) for leak in found_leaks
    ]


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_checker_reads_the_trick_that_ended_a_hand(lang: str) -> None:
    """The line of the trick that ended a hand names cards the next hand may have
    dealt to anyone; the checker sets it aside only when that hand had that trick."""
    import dataclasses
    import datetime as dt

    from bot.present.hand_end import HandEnd, deciding_line
    from bot.service.table import Seat, Table, TableSettings
    from engine import Trick

    from .leaks import ALL, Snapshot, _explained

    table = Table("0123456789ab", 1, 2, 3, TableSettings(language=lang), 0.0)
    table.seats = [Seat(name, user_id=10 + i) for i, name in enumerate(("a", "b", "c", "d"))]
    cards = tuple(Card.parse(code) for code in ("8H", "7H", "8S", "2C"))
    trick = Trick(10, 2, cards, 2)
    line = deciding_line(table, lang, HandEnd(1, trick, 40))
    taken = Snapshot(
        dt.datetime.now(dt.UTC),
        {},
        [ALL] * 4,
        frozenset(),
        {},
        [(1, 10, ("8H", "7H", "8S", "2C"))],
        (),
    )
    assert _explained(line, [taken])
    for other in ([(2, 10, ("8H", "7H", "8S", "2C"))], [(1, 9, ("8H", "7H", "8S", "2C"))]):
        assert not _explained(line, [dataclasses.replace(taken, tricks=other)])
    forged = deciding_line(
        table, lang, HandEnd(1, trick._replace(cards=(*cards[:3], Card.parse("AS"))), 40)
    )
    assert not _explained(forged, [taken])
