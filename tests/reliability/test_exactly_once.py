"""Guarantee 2, exactly once: every click changes the state at most once.

Double clicks, two members at the same instant, a re-delivered interaction and buttons of an
earlier hand or match; clicks on one table are serialized; tables never wait on each other
(a slow store write or a slow computer on one table does not hold up another).
"""

# ruff: noqa: ASYNC109, RUF100

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.discord.client import HokmBot
from bot.present import custom_ids
from bot.service.table import Table
from bot.store import TableRecord
from engine import PLAY, TRUMP, Card, GreedyPlayer, Player, SeatView, Suit
from tests.double.interactions import InteractionRecord
from tests.double.models import User
from tests.double.server import DiscordDouble
from tests.e2e.conftest import BotFactory
from tests.e2e.helpers import message_id, table_message

from .inproc import card_buttons, fast_forward, hand_dm, open_table, seated_table, until
from .script import member_choice


def users_by_id(double: DiscordDouble) -> dict[int, User]:
    return {u.id: u for u in double.world.users.values()}


def count_handled(bot: HokmBot) -> Counter[int]:
    """How many times the bot's click router finished with each interaction id."""
    handled: Counter[int] = Counter()
    inner: Callable[[discord.Interaction], Awaitable[None]] = bot.on_interaction

    async def counting(interaction: discord.Interaction) -> None:
        try:
            await inner(interaction)
        finally:
            handled[interaction.id] += 1

    bot.on_interaction = counting  # type: ignore[method-assign]
    return handled


async def stored_match(bot: HokmBot, table: Table) -> dict[str, Any]:
    record = await bot.store.load_table(table.table_id)
    assert record is not None and record.version == table.version
    return dict(record.state["match"])


async def to_play_phase(double: DiscordDouble, bot: HokmBot, table: Table) -> tuple[User, str]:
    """The hakem names trump by clicking their DM; returns the member to act and their
    scripted card's custom_id, once their DM shows that button."""
    match = table.match
    assert match is not None and match.phase == TRUMP
    if table.seat(match.hakem).computer_plays:
        await until(lambda: match.phase == PLAY, what="the computer to name trump")
    else:
        hakem = users_by_id(double)[table.seat(match.hakem).user_id or 0]
        suit = member_choice(match, match.hakem)
        assert isinstance(suit, Suit)
        tid = custom_ids.trump_id(table.table_id, match.hand_number, suit)
        dm = await double.wait_for_dm(
            hakem, lambda m: any(b.custom_id == tid for b in m.buttons()), timeout=10
        )
        rec = await double.click(hakem, dm, custom_id=tid)
        assert rec.response_type == 7 and match.phase == PLAY
    await until(lambda: not table.seat(match.to_act).computer_plays, what="a member's turn")
    user = users_by_id(double)[table.seat(match.to_act).user_id or 0]
    card = member_choice(match, match.to_act)
    assert isinstance(card, Card)
    cid = custom_ids.card_id(table.table_id, match.hand_number, card)
    await double.wait_for_dm(user, lambda m: cid in card_buttons(m), timeout=10)
    return user, cid


def dm_with(double: DiscordDouble, user: User, custom_id: str):  # type: ignore[no-untyped-def]
    return next(m for m in reversed(double.dms(user)) if custom_id in card_buttons(m))


async def test_a_double_click_on_a_card_plays_it_once(
    discord_double: DiscordDouble, hokm_bot: HokmBot
) -> None:
    double, bot = discord_double, hokm_bot
    table = await seated_table(double, bot, {"turn_seconds": 60})
    user, cid = await to_play_phase(double, bot, table)
    match = table.match
    assert match is not None
    before = len(match.actions)
    dm = dm_with(double, user, cid)
    first = await double.click(user, dm, custom_id=cid, wait=False)
    second = await double.click(user, dm, custom_id=cid, wait=False)
    await first.wait_response()
    await second.wait_response()
    assert sorted([first.response_type, second.response_type]) == [4, 7]
    refused = first if first.response_type == 4 else second
    assert refused.ephemeral and refused.message is not None
    # the second click of the same card: "already played", or, when that
    # card completed the trick and won it, the card is simply no longer held
    assert "already played" in refused.message.text or "don't hold" in refused.message.text
    assert len(match.actions) == before + 1
    assert await stored_match(bot, table) == match.to_dict()


async def test_two_members_at_the_same_instant(
    discord_double: DiscordDouble, hokm_bot: HokmBot
) -> None:
    """The last seat: two members click Join at once, one sits. A card: the member to act
    and the next one click at once; each click is applied once or refused, in one order."""
    double, bot = discord_double, hokm_bot
    assert double.guild is not None
    fifth = double.add_member(double.guild, "ehsan")
    host, second, third, fourth = double.members
    table = await open_table(double, bot, host, {"turn_seconds": 60})
    message = table_message(double, table)
    for user in (second, third):
        await double.click(user, message, label="Join")
    a = await double.click(fourth, message, label="Join", wait=False)
    b = await double.click(fifth, message, label="Join", wait=False)
    await a.wait_response()
    await b.wait_response()
    assert sorted([a.response_type, b.response_type]) == [4, 7]
    loser = a if a.response_type == 4 else b
    assert loser.ephemeral and loser.message is not None
    assert "full" in loser.message.text or "already started" in loser.message.text
    seated = {s.user_id for s in table.seats if s is not None}
    assert len(seated) == 4 and (fourth.id in seated) != (fifth.id in seated)

    first_user, first_cid = await to_play_phase(double, bot, table)
    match = table.match
    assert match is not None
    users = users_by_id(double)
    nxt = (match.to_act + 1) % 4
    next_user = users[table.seat(nxt).user_id or 0]
    next_dm = await hand_dm(double, next_user, table, match.hand_number)
    next_cid = card_buttons(next_dm)[0]
    before = len(match.actions)
    r1 = await double.click(
        first_user, dm_with(double, first_user, first_cid), custom_id=first_cid, wait=False
    )
    r2 = await double.click(next_user, next_dm, custom_id=next_cid, wait=False)
    await r1.wait_response()
    await r2.wait_response()
    applied = [r for r in (r1, r2) if r.response_type == 7]
    assert r1 in applied  # it was that member's turn whatever the order
    assert len(match.actions) == before + len(applied)
    played = match.to_dict()["actions"][before:]
    assert played[0] == first_cid.rsplit(":", 1)[1]
    if r2 in applied:
        assert played[1] == next_cid.rsplit(":", 1)[1]
    else:
        assert r2.ephemeral
    assert await stored_match(bot, table) == match.to_dict()


async def test_a_redelivered_interaction_changes_nothing_more(
    discord_double: DiscordDouble, hokm_bot: HokmBot
) -> None:
    """The same INTERACTION_CREATE (same id and token) delivered twice: the bot handles the
    copy without applying it again, whether it is a card or "Add computer" in the lobby."""
    double, bot = discord_double, hokm_bot
    handled = count_handled(bot)
    host, *others = double.members
    table = await open_table(double, bot, host, {"turn_seconds": 60})
    rec = await double.click(host, table_message(double, table), label="Add computer")
    assert rec.response_type == 7
    computers = sum(1 for s in table.seats if s is not None and s.is_computer)
    double.redeliver(rec)
    await until(lambda: handled[rec.id] == 2, what="the copy to be handled")
    assert sum(1 for s in table.seats if s is not None and s.is_computer) == computers == 1
    for user in others[:2]:
        await double.click(user, table_message(double, table), label="Join")
    assert table.status == "playing"

    user, cid = await to_play_phase(double, bot, table)
    match = table.match
    assert match is not None
    rec = await double.click(user, dm_with(double, user, cid), custom_id=cid)
    assert rec.response_type == 7
    await until(lambda: not table.seat(match.to_act).computer_plays, what="a member's turn")
    after = match.to_dict()
    double.redeliver(rec)
    await until(lambda: handled[rec.id] == 2, what="the copy to be handled")
    assert match.to_dict() == after
    assert await stored_match(bot, table) == after
    # Discord takes one answer per interaction: the copy got none accepted
    assert rec.response_type == 7 and rec.response_data is not None


async def test_buttons_of_an_earlier_hand_and_an_earlier_match_change_nothing(
    discord_double: DiscordDouble, make_bot: BotFactory
) -> None:
    double = discord_double
    bot = await make_bot(match_seed_base=3)
    table = await seated_table(double, bot, {"target_score": 4, "turn_seconds": 60})
    match = table.match
    assert match is not None
    host_seat = table.seat_of(double.members[0].id)
    assert host_seat is not None
    await fast_forward(bot, table, lambda: match.phase == PLAY)
    old_dm = await hand_dm(double, double.members[0], table, 1)
    old_card = card_buttons(old_dm)[0]
    await fast_forward(bot, table, lambda: match.hand_number == 2)
    assert match.hand_number == 2
    before = match.to_dict()
    rec = await double.click(double.members[0], old_dm, custom_id=old_card, stale=True)
    assert rec.ephemeral and "earlier hand" in rec.message.text  # type: ignore[union-attr]
    assert match.to_dict() == before

    old_table_message = table_message(double, table)
    await fast_forward(bot, table, lambda: False)
    assert table.status == "finished"
    second = await seated_table(double, bot, {"turn_seconds": 60})
    assert second.table_id != table.table_id
    second_match = second.match
    assert second_match is not None
    state = second_match.to_dict()
    for user, message, cid in (
        (double.members[0], old_dm, old_card),
        (double.members[0], old_table_message, custom_ids.my_hand_id(table.table_id)),
        (
            double.members[1],
            old_table_message,
            custom_ids.card_id(table.table_id, 1, Card.parse(old_card.rsplit(":", 1)[1])),
        ),
    ):
        rec = await double.click(user, message, custom_id=cid, stale=True)
        assert rec.ephemeral and "earlier hand or a finished table" in rec.message.text  # type: ignore[union-attr]
    assert second_match.to_dict() == state and second.status == "playing"


async def test_clicks_on_one_table_are_serialized(
    discord_double: DiscordDouble, hokm_bot: HokmBot
) -> None:
    """Twenty clicks at once from all four members: never two saves of one table at a time,
    every click answered, and exactly the answered updates applied."""
    double, bot = discord_double, hokm_bot
    table = await seated_table(double, bot, {"turn_seconds": 60})
    await to_play_phase(double, bot, table)
    match = table.match
    assert match is not None
    active: Counter[str] = Counter()
    peak: Counter[str] = Counter()
    saves: list[str] = []
    inner = bot.store.save_table

    async def tracking(record: TableRecord) -> TableRecord:
        active[record.table_id] += 1
        peak[record.table_id] = max(peak[record.table_id], active[record.table_id])
        try:
            await asyncio.sleep(0.005)  # a write that takes a moment widens any race
            saves.append(record.table_id)
            return await inner(record)
        finally:
            active[record.table_id] -= 1

    bot.store.save_table = tracking  # type: ignore[method-assign]
    users = users_by_id(double)
    dms = {
        seat: await hand_dm(double, users[table.seat(seat).user_id or 0], table, match.hand_number)
        for seat in range(4)
    }
    before = len(match.actions)
    records: list[InteractionRecord] = []
    for round_ in range(5):
        for seat in range(4):
            user = users[table.seat(seat).user_id or 0]
            ids = card_buttons(dms[seat])
            cid = ids[(round_ * 3 + seat) % len(ids)]
            records.append(await double.click(user, dms[seat], custom_id=cid, wait=False))
    for rec in records:
        await rec.wait_response(timeout=10)
    applied = sum(1 for r in records if r.response_type == 7)
    assert applied >= 1 and peak[table.table_id] == 1
    assert all(r.response_type in (4, 7) for r in records)
    assert len(match.actions) - before == applied
    assert await stored_match(bot, table) == match.to_dict()


async def second_table(double: DiscordDouble, bot: HokmBot) -> tuple[Table, User]:
    """A lobby in #hokm-2 hosted by a fifth member; returns it and a sixth member to join."""
    guild = double.guild
    assert guild is not None
    channel = double.add_text_channel(guild, "hokm-2")
    host = double.add_member(guild, "farah")
    joiner = double.add_member(guild, "golnar")
    await double.slash(host, channel, "hokm new", {})
    table = bot.service.table_in_channel(channel.id)
    assert table is not None
    await until(lambda: message_id(bot, table) is not None, what="table 2's message")
    return table, joiner


async def test_a_slow_store_write_on_one_table_does_not_delay_another(
    discord_double: DiscordDouble, hokm_bot: HokmBot
) -> None:
    double, bot = discord_double, hokm_bot
    table = await seated_table(double, bot, {"turn_seconds": 60})
    user, cid = await to_play_phase(double, bot, table)
    other, joiner = await second_table(double, bot)
    gate, entered = asyncio.Event(), asyncio.Event()
    inner = bot.store.save_table

    async def slow_for_table_1(record: TableRecord) -> TableRecord:
        if record.table_id == table.table_id:
            entered.set()
            await gate.wait()
        return await inner(record)

    bot.store.save_table = slow_for_table_1  # type: ignore[method-assign]
    try:
        slow = await double.click(user, dm_with(double, user, cid), custom_id=cid, wait=False)
        await asyncio.wait_for(entered.wait(), timeout=5)
        fast = await double.click(joiner, double.message(message_id(bot, other) or 0), label="Join")
        assert fast.response_type == 7 and other.seat_of(joiner.id) is not None
        assert not slow.responded, "table 2 waited for table 1's write"
    finally:
        gate.set()
    await slow.wait_response()
    assert slow.response_type == 7


class ThinkingPlayer:
    """A computer that thinks until released (a slow search), in the service's worker thread."""

    def __init__(self) -> None:
        self.thinking = threading.Event()
        self.release = threading.Event()

    def choose_trump(self, view: SeatView) -> Suit:
        self._think()
        return GreedyPlayer().choose_trump(view)

    def choose_card(self, view: SeatView) -> Card:
        self._think()
        return GreedyPlayer().choose_card(view)

    def _think(self) -> None:
        self.thinking.set()
        self.release.wait(timeout=20)


async def test_a_slow_computer_on_one_table_does_not_delay_anything_else(
    discord_double: DiscordDouble, hokm_bot: HokmBot
) -> None:
    double, bot = discord_double, hokm_bot
    thinker = ThinkingPlayer()

    def factory(difficulty: str, seed: int) -> Player:
        return thinker if difficulty == "hard" else GreedyPlayer()

    async def think_elsewhere(difficulty: str, seed: int, view: SeatView) -> Card | Suit:
        player = factory(difficulty, seed)
        if view.phase == TRUMP:
            return await asyncio.to_thread(player.choose_trump, view)
        return await asyncio.to_thread(player.choose_card, view)

    bot.service.player_factory = factory
    if getattr(bot.service, "thinker", None) is not None:  # searching players off the loop
        bot.service.thinker = think_elsewhere  # type: ignore[attr-defined]
    bot.service.thinker = None  # think in a thread here, so the test can hold the thinking
    bot.service.think_grace = 30.0  # and give it the time: past its budget greedy would play
    host = double.members[0]
    table = await open_table(double, bot, host, {"difficulty": "hard", "turn_seconds": 60})
    try:
        rec = await double.click(host, table_message(double, table), label="Start")
        assert rec.response_type == 7
        match = table.match
        assert match is not None
        if not table.seat(match.to_act).computer_plays:  # the host names trump first
            await fast_forward(bot, table, lambda: table.seat(match.to_act).computer_plays)
        await until(thinker.thinking.is_set, what="the computer to start thinking")
        moves = len(match.actions)
        other, joiner = await second_table(double, bot)
        fast = await double.click(joiner, double.message(message_id(bot, other) or 0), label="Join")
        assert fast.response_type == 7
        mine = await double.click(host, table_message(double, table), label="My hand")
        assert mine.ephemeral, "the thinking table's own lock was held"
        assert len(match.actions) == moves, "the computer moved before it was released"
    finally:
        thinker.release.set()
    await until(lambda: len(match.actions) > moves, what="the computer's move once released")
