"""``Snapshots``: the newest committed snapshot of each table, which every edit renders when it
goes; an older one handed in later never replaces it, and an ended table's last is kept for
the edits that were waiting (they find the table over, as they found the live table before)."""

from __future__ import annotations

from bot.discord.snapshots import ENDED, Snapshots
from bot.service.table import Table

from .test_hand_story import playing_table


def _at(table: Table, version: int, status: str = "playing") -> Table:
    snapshot = table.snapshot()
    snapshot.version = version
    snapshot.status = status  # type: ignore[assignment]
    return snapshot


def test_the_newest_snapshot_wins_whatever_order_they_come_in() -> None:
    snapshots, table = Snapshots(), playing_table()
    one, two = _at(table, 1), _at(table, 2)
    assert snapshots.note(one) is one
    assert snapshots.note(two) is two
    assert snapshots.note(one) is two  # an older change's, handed in late
    assert snapshots.newest(one) is two and snapshots.newest(two) is two
    again = _at(table, 2)  # the same version again (a DM found closed): it is the newest
    assert snapshots.note(again) is again and snapshots.newest(one) is again


def test_an_ended_tables_last_snapshot_is_what_a_waiting_edit_finds() -> None:
    snapshots, table = Snapshots(), playing_table()
    playing = snapshots.note(_at(table, 4))
    over = snapshots.note(_at(table, 5, "finished"))
    assert snapshots.newest(playing) is over and over.status == "finished"
    for n in range(ENDED):  # the oldest ended tables are let go
        other = playing_table()
        other.table_id = f"t{n}"
        snapshots.note(_at(other, 1, "finished"))
    assert snapshots.newest(playing) is playing
