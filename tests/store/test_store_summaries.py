"""Where a finished match's summary is (``match_summaries``): stored once posted, its analysis
edit claimed by one process at a time (a lease that runs out), marked shown, found by a look
for analysed summaries not shown yet, and gone with its ended table."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.store import Store, SummaryMessage, TableRecord

from .conftest import MatchMaker

ANALYSIS = {"v": 1, "format": "standard", "skipped": "", "hands": []}
NOW = datetime(2026, 12, 6, 12, tzinfo=UTC)


async def _finished(store: Store, match_id: str) -> None:
    """A finished match and its ended table, as the bot leaves them (one id for both)."""
    assert await store.finish_match(MatchMaker()(match_id=match_id))
    await store.save_table(
        TableRecord(
            table_id=match_id,
            guild_id=1,
            channel_id=500,
            status="finished",
            version=1,
            state={},
            members=(),
        )
    )


async def test_a_summary_is_claimed_once_its_analysis_is_stored(store: Store) -> None:
    await _finished(store, "m1")
    where = SummaryMessage("m1", 500, 9001)
    assert await store.save_summary(where, None)
    assert await store.summary_message("m1") == (where, False)
    assert await store.claim_summary("m1", NOW, 60) is None  # no analysis yet
    assert await store.summaries_waiting(NOW) == []
    assert await store.save_analysis("m1", ANALYSIS, NOW, solver=2)
    assert await store.summaries_waiting(NOW) == ["m1"]
    assert await store.claim_summary("m1", NOW, 60) == where
    assert await store.claim_summary("m1", NOW, 60) is None  # another process: not theirs
    assert await store.summaries_waiting(NOW) == []
    later = NOW + timedelta(seconds=61)  # the claimer died: its lease ran out
    assert await store.summaries_waiting(later) == ["m1"]
    assert await store.claim_summary("m1", later, 60) == where
    assert await store.summary_shown("m1", later)
    assert await store.summary_message("m1") == (where, True)
    assert await store.claim_summary("m1", later + timedelta(hours=1), 60) is None
    assert await store.summaries_waiting(later + timedelta(hours=1)) == []


async def test_a_summary_posted_with_its_analysis_is_never_edited(store: Store) -> None:
    await _finished(store, "m2")
    assert await store.save_analysis("m2", ANALYSIS, NOW, solver=2)
    assert await store.save_summary(SummaryMessage("m2", 500, 9002), NOW)
    assert await store.summaries_waiting(NOW) == []
    assert await store.claim_summary("m2", NOW, 60) is None


async def test_a_summary_goes_with_its_ended_table(store: Store) -> None:
    assert not await store.save_summary(SummaryMessage("gone", 500, 1), None)
    await _finished(store, "m3")
    assert await store.save_summary(SummaryMessage("m3", 500, 9003), None)
    assert await store.delete_table("m3")
    assert await store.summary_message("m3") is None
