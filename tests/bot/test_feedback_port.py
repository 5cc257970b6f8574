"""What the Discord side learns comes back through one port the service owns: saved in rows
of its own (``Deliveries``), never written into the table by the publisher."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import bot.discord.publisher
from bot.service.events import DmClosed
from bot.service.service import TableFeedback, TableService, Update
from bot.store import TABLE_MESSAGE, Store
from bot.store.guild_settings import GuildSettings

from .test_import_cycles import import_graph


class Recorder:
    def __init__(self) -> None:
        self.updates: list[Update] = []
        self.feedback: TableFeedback | None = None

    def publish(self, update: Update) -> None:
        self.updates.append(update)


async def test_the_service_hands_its_port_to_the_publisher_and_saves_what_it_learns(
    store: Store,
) -> None:
    recorder = Recorder()

    def make(feedback: TableFeedback) -> Recorder:
        recorder.feedback = feedback
        return recorder

    service = TableService(store, make_publisher=make)
    try:
        assert service.publisher is recorder and recorder.feedback is service
        update = await service.open_table(
            guild_id=1, channel_id=2, host_id=3, host_name="host", settings=GuildSettings()
        )
        table_id = update.table.table_id
        await service.message_posted(table_id, 555)
        await service.dm_posted(table_id, 0, 77, 88, 1)
        await service.dm_closed(table_id, 0)
        rows = {row.seat: row for row in await store.load_deliveries([table_id])}
        assert rows[TABLE_MESSAGE].message_id == 555
        seat = rows[0]
        assert (seat.channel_id, seat.message_id, seat.dm_closed) == (77, 88, True)
        await service.dm_gone(table_id, 0)
        rows = {row.seat: row for row in await store.load_deliveries([table_id])}
        assert rows[0].message_id is None
        assert isinstance(recorder.updates[-1].events[-1], DmClosed)
        await service.channel_gone(table_id)
        record = await store.load_table(table_id)
        assert record is not None and not record.is_live
    finally:
        await service.close()


def publisher_modules() -> list[str]:
    """The publisher and every module of ``bot.discord`` it reaches by importing that knows
    the service (its report lines, its DM bookkeeping): each of them holds tables and what
    sending learns, so each could write one. The outbox and ``ui`` know no table."""
    graph = import_graph()
    found = {"bot.discord.publisher"}
    frontier = ["bot.discord.publisher"]
    while frontier:
        for imported in graph[frontier.pop()]:
            if imported.startswith("bot.discord.") and imported not in found:
                found.add(imported)
                frontier.append(imported)
    return sorted(m for m in found if any(d.startswith("bot.service") for d in graph[m]))


def test_the_publisher_is_more_than_one_module() -> None:
    """The walk below really covers the publisher's parts, not only ``publisher.py``."""
    assert {"bot.discord.publisher", "bot.discord.hand_dms", "bot.discord.reports"} <= set(
        publisher_modules()
    )


@pytest.mark.parametrize("module", publisher_modules())
def test_the_publisher_neither_calls_the_service_nor_writes_a_table(module: str) -> None:
    root = Path(bot.discord.publisher.__file__).resolve().parents[2]
    source = (root / Path(*module.split("."))).with_suffix(".py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert "TableService" not in imported
    assert "service" not in {
        n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == "service"
    }
    writes = [
        ast.unparse(target)
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign | ast.AugAssign)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Attribute) and not ast.unparse(target).startswith("self.")
    ]
    assert writes == []
    assert "setattr(" not in source
