"""A whole match through the service on the fakes alone: the host never clicks, so R14 hands
their seat to the computer (R15 filled the rest), and the fake clock alone plays it out to the
end, recorded once. A check of the fakes as much as of the service."""

from __future__ import annotations

from bot.service.events import MatchOver, Replaced, Started, TimedOut, TimedOutTrump
from bot.service.service import TableService
from engine.story import rebuild, story

from .fakes import FakeClock, FakePublisher, FakeStore
from .helpers import match_of, with_computers


async def test_computers_play_a_match_to_the_end(
    service: TableService, clock: FakeClock, store: FakeStore, publisher: FakePublisher
) -> None:
    table = await with_computers(service, difficulty="easy")
    match = match_of(table)
    for _ in range(10_000):
        if store.matches:
            break
        await clock.advance(1.0)
    assert list(store.matches) == [table.table_id]
    recorded = store.matches[table.table_id]
    # R12: the first team to the target wins; the record says what the match says
    assert recorded.scores == tuple(match.scores)
    assert max(match.scores) >= table.settings.target_score
    assert recorded.winner_team == match.winner_team
    assert recorded.scores[recorded.winner_team] == max(recorded.scores)
    assert len(recorded.hands) == len(match.hand_results)
    assert [p.is_computer for p in recorded.players] == [False, True, True, True]
    # the record keeps the whole match for its Replay, and plays back to it exactly
    assert recorded.replay is not None and rebuild(recorded.replay) == match
    told = story(recorded.replay)
    assert [h.result for h in told.hands] == match.hand_results
    assert all(sum(h.result.tricks) == len(h.tricks) > 0 for h in told.hands)
    # the host missed twice in a row (R14) and the computer took the seat over
    misses = [m.seat for m in publisher.of(TimedOut)] + [
        m.seat for m in publisher.of(TimedOutTrump)
    ]
    assert misses == [0, 0]
    assert publisher.of(Replaced) == [Replaced(0)]
    assert len(publisher.of(Started)) == 1
    assert publisher.published[-1].events[-1] == MatchOver(
        recorded.winner_team, tuple(recorded.scores)
    )
    # the table is over everywhere: stored as finished, forgotten, no timer left
    assert store.rows[table.table_id].status == "finished"
    assert service.tables == {} and service.table_in_channel(table.channel_id) is None
    assert not clock.pending
