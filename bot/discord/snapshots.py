"""The newest committed snapshot of each table, as the publisher was told it.

Every committed change carries the table as it was stored (``Update.shown``, a
``Table.snapshot``); the Discord side renders those, never the live table, so it takes no lock
and a move not yet stored is in nothing it shows. A message's edit may go long after the change
that asked for it (an outbox job's turn, a live surface's edit in flight): it renders the newest
snapshot kept here when it goes, as it rendered the live table before. An ended table's last
snapshot is kept a while (``ENDED``), so an edit that was waiting finds the table over.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Final

from ..service.table import Table

ENDED: Final = 512
"""Ended tables whose last snapshot is kept (the newest): an edit waiting when its table ended
goes within seconds, and a table is a few kilobytes."""


class Snapshots:
    """Each table's newest snapshot, by table id."""

    def __init__(self) -> None:
        self._newest: dict[str, Table] = {}
        self._ended: OrderedDict[str, Table] = OrderedDict()

    def note(self, table: Table) -> Table:
        """A committed change's snapshot, kept unless a newer one is (a later version); the
        newest."""
        newest = self.newest(table)
        if newest is table:
            if table.is_live:
                self._newest[table.table_id] = table
            else:
                self._newest.pop(table.table_id, None)
                self._ended[table.table_id] = table
                while len(self._ended) > ENDED:
                    self._ended.popitem(last=False)
        return newest

    def newest(self, table: Table) -> Table:
        """The newest snapshot of ``table``'s table: the one kept, or ``table`` when it is no
        older (or none is kept)."""
        key = table.table_id
        kept = self._newest.get(key) or self._ended.get(key)
        return kept if kept is not None and kept.version > table.version else table
