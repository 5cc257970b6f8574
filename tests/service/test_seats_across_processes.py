"""A member sits at one live table at a time across every process of the bot
(docs/scaling.md): two services, each on its own store of one PostgreSQL database, as two bot
processes. Each process knows only its own tables; the store keeps one row per seated member
(``seated_members``) in the transaction of the save that seats them, so a save seating a
member who sits at another process's table is refused as a whole, naming that table's
channel as the one-process refusal does; of two racing, one seats the member.
"""

from __future__ import annotations

import asyncio

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from bot.service.errors import ActionError
from bot.service.ports import Update
from bot.service.service import TableService
from bot.service.table import Table
from bot.store.guild_settings import GuildSettings

from .helpers import GUILD, HUMANS, Make, open_lobby

OTHER_GUILD = GUILD + 1


async def stored(service: TableService, table_id: str) -> Table:
    record = await service.store.load_table(table_id)
    assert record is not None
    return Table.from_dict(dict(record.state))


async def seated_rows(url: str) -> dict[int, str]:
    """``seated_members`` as the store holds it: member -> table id."""
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            rows = await conn.execute(sa.text("SELECT user_id, table_id FROM seated_members"))
            return {int(r.user_id): str(r.table_id) for r in rows}
    finally:
        await engine.dispose()


async def test_a_member_seated_by_one_process_is_refused_a_seat_by_another(
    processes: Make, pg_url: str
) -> None:
    """Joining, or opening a table, through a process that does not hold the member's table
    is refused with the channel of the table they sit at (``error.seated_elsewhere`` in the
    same server, ``…_other`` in another); nothing is stored. Once they leave, or the table
    ends, they may sit elsewhere."""
    one, two = await processes(), await processes()
    host_1, host_2, member, _ = HUMANS
    first = await open_lobby(one, channel=100, host=host_1)
    second = await open_lobby(two, channel=200, host=host_2)
    await one.join(first.table_id, member, "m")

    with pytest.raises(ActionError) as refused:
        await two.join(second.table_id, member, "m")
    assert (refused.value.code, refused.value.params) == (
        "error.seated_elsewhere",
        {"channel": "<#100>"},
    )
    assert (await stored(two, second.table_id)).seat_of(member) is None
    assert second.seat_of(member) is None  # put back in memory too

    with pytest.raises(ActionError) as refused:
        await two.open_table(
            guild_id=OTHER_GUILD,
            channel_id=300,
            host_id=member,
            host_name="m",
            settings=GuildSettings(),
        )
    assert (refused.value.code, refused.value.params) == (
        "error.seated_elsewhere_other",
        {"channel": "<#100>"},
    )
    assert await two.store.open_table_in_channel(300) is None
    assert two.table_in_channel(300) is None

    await one.leave(first.table_id, member)
    await two.join(second.table_id, member, "m")  # free again
    with pytest.raises(ActionError) as refused:
        await one.join(first.table_id, member, "m")
    assert refused.value.params == {"channel": "<#200>"}

    await two.cancel(second.table_id, host_2, is_admin=False)  # the table ends: all free
    await one.join(first.table_id, member, "m")
    await one.join(first.table_id, host_2, "h")
    assert await seated_rows(pg_url) == {
        host_1: first.table_id,
        member: first.table_id,
        host_2: first.table_id,
    }


async def test_two_processes_racing_to_seat_one_member_at_two_tables_seat_them_once(
    processes: Make, pg_url: str
) -> None:
    """The same member joins two tables at once, each held by another process, and opens two
    tables at once on both: every time exactly one seat is taken and the other is refused
    naming the winner's channel."""
    one, two = await processes(), await processes()
    host_1, host_2, member, _ = HUMANS
    winners: list[int] = []
    for round_ in range(6):
        first = await open_lobby(one, channel=1000 + round_, host=host_1)
        second = await open_lobby(two, channel=2000 + round_, host=host_2)
        results = await asyncio.gather(
            one.join(first.table_id, member, "m"),
            two.join(second.table_id, member, "m"),
            return_exceptions=True,
        )
        winner = check_one_won(results, (first, second))
        winners.append(winner)
        tables = [await stored(one, first.table_id), await stored(two, second.table_id)]
        assert [t.seat_of(member) is not None for t in tables] == [winner == 0, winner == 1]
        assert (await seated_rows(pg_url))[member] == (first, second)[winner].table_id
        for service, table, host in ((one, first, host_1), (two, second, host_2)):
            await service.cancel(table.table_id, host, is_admin=False)

    for round_ in range(6):  # two opens by the same host at once
        channels = (3000 + round_, 4000 + round_)
        results = await asyncio.gather(
            *(
                service.open_table(
                    guild_id=GUILD,
                    channel_id=channel,
                    host_id=member,
                    host_name="m",
                    settings=GuildSettings(),
                )
                for service, channel in zip((one, two), channels, strict=True)
            ),
            return_exceptions=True,
        )
        opened = [r for r in results if isinstance(r, Update)]
        assert len(opened) == 1, results
        (refusal,) = [r for r in results if isinstance(r, ActionError)]
        assert refusal.params == {"channel": f"<#{opened[0].table.channel_id}>"}
        lost = channels[1 - results.index(opened[0])]
        assert await one.store.open_table_in_channel(lost) is None
        await (one, two)[results.index(opened[0])].cancel(
            opened[0].table.table_id, member, is_admin=False
        )
    assert await seated_rows(pg_url) == {}


def check_one_won(results: list[object], tables: tuple[Table, Table]) -> int:
    """Which join won; the other must be refused naming the winner's channel."""
    won = [i for i, r in enumerate(results) if isinstance(r, Update)]
    assert len(won) == 1, results
    lost = results[1 - won[0]]
    assert isinstance(lost, ActionError), lost
    assert lost.code == "error.seated_elsewhere"
    assert lost.params == {"channel": f"<#{tables[won[0]].channel_id}>"}
    return won[0]
