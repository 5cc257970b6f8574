"""Each committed change carries a snapshot of the table (``Update.snapshot``): the table as
the store holds it, which the Discord side renders without the table's lock. It stays as it
was while the live table moves on (the fakes' publisher checks each equals what was stored)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.service.service import TableService
from bot.service.table import Table
from engine.shelem import ShelemMatch

from .fakes import FakeClock, FakePublisher
from .helpers import with_computers
from .test_shelem import four_at_shelem


def _state(table: Table) -> dict[str, Any]:
    state: dict[str, Any] = json.loads(json.dumps(table.to_dict()))
    return state


async def test_every_snapshot_stays_the_state_it_was_published_with(
    service: TableService, clock: FakeClock, publisher: FakePublisher
) -> None:
    """A computers' match to its end: no later move reaches an earlier update's snapshot, and
    no snapshot is the live table or holds its match."""
    table = await with_computers(service, difficulty="easy")
    for _ in range(10_000):
        if table.status != "playing":
            break
        await clock.advance(1.0)
    assert table.status == "finished"
    snapshots = [p for p in publisher.published if p.update.snapshot is not None]
    assert len(snapshots) == len(publisher.published) > 50
    versions = []
    for published in snapshots:
        snapshot = published.update.snapshot
        assert snapshot is not None
        assert snapshot is not table and snapshot.match is not table.match
        assert _state(snapshot) == published.table  # as stored then, all moves since aside
        versions.append(snapshot.version)
    assert versions == sorted(versions) and versions[-1] == table.version
    last = snapshots[-1].update
    assert last.shown is last.snapshot and last.shown.status == "finished"


@pytest.mark.parametrize("shelem", [False, True])
async def test_a_snapshot_is_apart_from_its_table(service: TableService, shelem: bool) -> None:
    """Playing on, a seat taken over by the computer, a line logged: none of it reaches the
    snapshot taken before (Shelem's match too)."""
    table = await (four_at_shelem(service) if shelem else with_computers(service))
    before = _state(table)
    snapshot = table.snapshot()
    assert _state(snapshot) == before
    match = table.match
    assert match is not None
    if isinstance(match, ShelemMatch):
        match.bid(match.to_act, match.legal_bids(match.to_act)[0])
    else:
        match.choose_trump(match.hakem, 0)
    table.seat(0).autoplay = not table.seat(0).autoplay
    table.log.clear()
    table.settings.language = "fa"
    table.reserved[2] = table.seat(0)
    table.win_chances.append(0.5)
    assert _state(snapshot) == before
    assert snapshot.reserved == {} and snapshot.settings.language == "en"
