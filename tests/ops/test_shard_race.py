"""Two real bot processes racing on one table: a member clicks a card in their DM
(delivered to the shard-0 process) and in their **My hand** view in the channel (delivered to
the shard-1 process, which serves the server) at the same moment. Whatever the order in which
the two processes get there, one click is applied and the other is refused, and the store
holds the move once: the table's version is the only lock between them."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.store import Store
from tests.double.fixtures import BotProcessFactory
from tests.double.interactions import InteractionRecord
from tests.double.models import Channel, StoredMessage, User
from tests.double.server import DiscordDouble
from tests.e2e.players import SUCCESS

from .test_shards import SHARDS, event_guilds, served_by_shard_1_with_three_computers

UPDATE_MESSAGE = 7
RACES = 4


def _table_message(double: DiscordDouble, channel: Channel) -> StoredMessage | None:
    for message in reversed(double.messages_in(channel)):
        if any(b.label == "My hand" for b in message.buttons()):
            return message
    return None


async def _my_hand(double: DiscordDouble, member: User, channel: Channel) -> StoredMessage:
    table = _table_message(double, channel)
    assert table is not None
    record = await double.click(member, table, label="My hand", timeout=10)
    return await record.wait_original(timeout=10)


def _newest_hand_dm(double: DiscordDouble, member: User) -> StoredMessage:
    for message in reversed(double.dms(member)):
        if any((b.custom_id or "").startswith("hokm:c:") for b in message.buttons()):
            return message
    raise AssertionError("no hand DM")


def _green(message: StoredMessage) -> list[str]:
    return [
        b.custom_id or ""
        for b in message.buttons()
        if b.style == SUCCESS and (b.custom_id or "").startswith("hokm:c:")
    ]


def _actions(state: object) -> list[object]:
    assert isinstance(state, dict)
    return list(state["match"]["actions"])


@pytest.mark.discord_double(shard_count=SHARDS)
async def test_the_same_card_clicked_on_both_processes_at_once_is_played_once(
    discord_double: DiscordDouble, bot_process: BotProcessFactory, tmp_path: Path, pg_url: str
) -> None:
    member, guild, channel, procs = await served_by_shard_1_with_three_computers(
        discord_double, bot_process, tmp_path, pg_url, target_score=7
    )

    races = 0
    async with await Store.open(pg_url) as store:
        while races < RACES:
            live = await store.load_live_tables(guild.id)
            assert live, f"the match ended after {races} races"
            (table,) = live
            view = await _my_hand(discord_double, member, channel)
            trumps = [
                b.custom_id or ""
                for b in view.buttons()
                if (b.custom_id or "").startswith("hokm:t:")
            ]
            if trumps:  # trump (R5): one click, no race
                await discord_double.click(member, view, custom_id=trumps[0], timeout=10)
                continue
            green = _green(view)
            if not green:  # not the member's turn yet
                await asyncio.sleep(0.1)
                continue
            dm = _newest_hand_dm(discord_double, member)
            current = await store.load_table(table.table_id)
            assert current is not None
            before = _actions(current.state)
            card = green[races % len(green)]
            # The member's client shows the card in both places (the DM perhaps a moment
            # behind: a stale click); both are sent at once, alternating which goes first.
            dm_click = discord_double.click(member, dm, custom_id=card, stale=True, timeout=10)
            view_click = discord_double.click(member, view, custom_id=card, timeout=10)
            pair = (dm_click, view_click) if races % 2 == 0 else (view_click, dm_click)
            results: list[InteractionRecord] = list(await asyncio.gather(*pair))
            applied = [r for r in results if r.response_type == UPDATE_MESSAGE]
            refused = [r for r in results if r.response_type != UPDATE_MESSAGE]
            assert len(applied) == 1 and len(refused) == 1, [r.response_name for r in results]
            assert refused[0].original is not None and refused[0].original.ephemeral
            stored = await store.load_table(table.table_id)
            assert stored is not None
            after = _actions(stored.state)
            # nothing lost before it, and the very next move is this card, once
            assert after[: len(before)] == before
            assert after[len(before)] == card.rsplit(":", 1)[-1]
            races += 1

    dm_clicks = event_guilds(discord_double.gateway.live[(0, SHARDS)], "INTERACTION_CREATE")
    guild_clicks = event_guilds(discord_double.gateway.live[(1, SHARDS)], "INTERACTION_CREATE")
    assert dm_clicks.count(0) >= RACES and guild_clicks.count(guild.id) >= RACES
    for proc in procs:
        assert await proc.terminate(timeout=15) == 0
        assert "Traceback" not in proc.output(tail=10**9)
