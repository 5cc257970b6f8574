"""``/hokm history``'s service: finished matches listed and replayed from their
stored record; a live table is never replayed, and an id from another server finds nothing."""

from __future__ import annotations

import dataclasses
import logging

import pytest

from bot.service.errors import ActionError
from bot.service.service import TableService
from engine import CARDS
from engine.story import record, unpack

from .fakes import FakeClock, FakeStore
from .helpers import GUILD, four_people, match_of, with_computers


async def finished_and_live(
    service: TableService, clock: FakeClock, store: FakeStore
) -> tuple[str, str]:
    """A match the computers played to its end (the host timed out, R14), and a live one."""
    done = await with_computers(service, difficulty="easy")
    for _ in range(10_000):
        if store.matches:
            break
        await clock.advance(1.0)
    assert done.status == "finished"
    live = await four_people(service, channel=101)
    return done.table_id, live.table_id


async def test_a_finished_match_replays_and_a_live_one_never(
    service: TableService, clock: FakeClock, store: FakeStore
) -> None:
    done, live = await finished_and_live(service, clock, store)
    page = await service.history.page(GUILD, 1)
    assert [e.match_id for e in page.rows] == [done]  # the live table is no history yet
    replay = await service.history.replay(GUILD, done)
    assert replay.entry.match_id == done
    assert replay.story.scores == store.matches[done].scores
    hands = replay.story.hands
    assert len(hands) == len(store.matches[done].hands) > 0
    replay.check(0, 0)
    replay.check(len(hands) - 1, len(hands[-1].tricks))
    for hand, trick in ((len(hands), 0), (0, len(hands[0].tricks) + 1), (-1, 0), (0, -1)):
        with pytest.raises(ActionError, match="bad_button"):
            replay.check(hand, trick)
    with pytest.raises(ActionError, match="replay_live"):
        await service.history.replay(GUILD, live)
    # another server's ids find nothing, finished or live (nothing about them is said)
    for other in (done, live):
        with pytest.raises(ActionError, match="replay_unknown"):
            await service.history.replay(GUILD + 1, other)
    with pytest.raises(ActionError, match="replay_unknown"):
        await service.history.replay(GUILD, "feedfacecafe")
    for forged in (0, 2):  # one match: one page
        with pytest.raises(ActionError, match="bad_button"):
            await service.history.page(GUILD, forged)
    assert (await service.history.page(GUILD + 1, 1)).rows == ()  # nothing yet: page 1 of 1


async def test_a_replay_without_a_record_or_with_a_broken_one_is_refused(
    service: TableService, clock: FakeClock, store: FakeStore, caplog: pytest.LogCaptureFixture
) -> None:
    done, live = await finished_and_live(service, clock, store)
    kept = store.matches[done]
    table = service.tables[live]
    assert kept.replay is not None
    store.matches["old"] = dataclasses.replace(kept, match_id="old", replay=None)
    with pytest.raises(ActionError, match="replay_unavailable"):
        await service.history.replay(GUILD, "old")
    # a record that replays, but not to this match's result; one that does not replay at all
    other = record(match_of(table))  # the live match: its scores are not the finished ones
    store.matches["swapped"] = dataclasses.replace(kept, match_id="swapped", replay=other)
    actions = unpack(list(kept.replay["actions"]))
    garbled = dict(kept.replay, actions=[*actions[:3], actions[3], *actions[3:]])
    store.matches["garbled"] = dataclasses.replace(kept, match_id="garbled", replay=garbled)
    not_a_record = dataclasses.replace(kept, match_id="list", replay=["AS KS"])  # type: ignore[arg-type]
    store.matches["list"] = not_a_record
    with caplog.at_level(logging.WARNING):
        for match_id in ("swapped", "garbled", "list"):
            with pytest.raises(ActionError, match="replay_broken"):
                await service.history.replay(GUILD, match_id)
    logged = caplog.text
    assert "garbled: stored replay does not replay (InvalidState)" in logged
    assert not any(c.label in logged or f" {c.code} " in logged for c in CARDS)  # no card


async def test_a_replay_is_rebuilt_once_for_its_clicks(
    service: TableService, clock: FakeClock, store: FakeStore
) -> None:
    """Each ◀ ▶ reads the replay again: a finished match never changes, so the story is kept."""
    done, _ = await finished_and_live(service, clock, store)
    first = await service.history.replay(GUILD, done)

    async def unreachable(guild_id: int, match_id: str) -> None:
        raise AssertionError("read again")

    store.match_replay = unreachable  # type: ignore[method-assign]
    assert await service.history.replay(GUILD, done) is first
