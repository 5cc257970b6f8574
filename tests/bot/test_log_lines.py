"""Public lines under the table message are recorded by the service as catalog keys, in the
save of the move behind them, and localized by the presenter."""

from __future__ import annotations

from bot.present import render
from bot.present.i18n import suit_label, t
from bot.service.service import TableService
from bot.service.table import LogLine, Table
from bot.store import Store
from bot.store.guild_settings import GuildSettings
from engine import Suit
from tests.bot.helpers import lobby_table


async def test_a_cancel_line_is_saved_with_the_cancel_and_shown_in_the_table_language(
    store: Store,
) -> None:
    service = TableService(store)  # no publisher at all: the line cannot come from one
    try:
        update = await service.open_table(
            guild_id=1,
            channel_id=2,
            host_id=3,
            host_name="host",
            settings=GuildSettings().with_changes(language="fa"),
        )
        table_id = update.table.table_id
        await service.cancel(table_id, 3, is_admin=False)
    finally:
        await service.close()
    record = await store.load_table(table_id)
    assert record is not None and record.status == "cancelled"
    assert record.state["log"] == [{"key": "report.cancelled", "params": {"name": "<@3>"}}]
    table = Table.from_dict(dict(record.state))
    assert table.log == [LogLine.of("report.cancelled", name="<@3>")]
    shown = render.table_message(table).embed
    assert shown is not None
    assert t("fa", "report.cancelled", name="<@3>") in shown.description


def test_a_table_saved_with_localized_lines_still_loads_and_shows_them() -> None:
    table = Table.from_dict(
        {
            **_cancelled_table().to_dict(),
            "log": ["an old line, already in English", {"key": "report.expired", "params": {}}],
        }
    )
    assert table.log == ["an old line, already in English", LogLine.of("report.expired")]
    assert render.log_lines("en", table.log) == [
        "an old line, already in English",
        t("en", "report.expired"),
    ]
    assert Table.from_dict(table.to_dict()).log == table.log


def test_a_suit_parameter_is_localized_when_rendered() -> None:
    line = LogLine.of("report.trump_named", name="Rostam", suit=int(Suit.HEARTS))
    for lang in ("en", "fa"):
        text = render.log_text(lang, line)
        assert text == t(
            lang, "report.trump_named", name="Rostam", suit=suit_label(lang, Suit.HEARTS)
        )


def _cancelled_table() -> Table:
    table = lobby_table()
    table.status = "cancelled"
    return table
