"""The analysis worker: a finished match queued once recorded, graded with every hand known,
stored with the match, listeners told; off with 0 workers; a failure logged and the queue
going on; ``--analyse-missing``'s walk over the matches that have none or an older solver's."""

from __future__ import annotations

import dataclasses
import logging
import multiprocessing
import os
import random
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.service.analysis import NICE, Analysed, Analyses, _lower_priority
from bot.store import FinishedMatch, Store
from engine import Match, Rules
from engine.dd_analysis import NOT_COVERED, SOLVER_VERSION, MatchAnalysis, analyse_match
from engine.story import record
from tests.engine.helpers import random_move
from tests.matches import played

NOW = datetime(2026, 12, 6, tzinfo=UTC)


def quick_record() -> dict[str, object]:
    """A one-hand match the plain-Python solver grades in well under a second."""
    match = Match(0, Rules(target_score=1))
    rng = random.Random(0)
    while not match.is_over:
        random_move(match, rng)
    return record(match)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'hokm.sqlite3'}")
    yield opened
    await opened.close()


def finished(n: int, replay: object) -> FinishedMatch:
    match = played(300 + n, (1, 2, None, 4), 7, n)
    return dataclasses.replace(match, replay=replay)  # type: ignore[arg-type]


async def test_a_finished_match_is_analysed_stored_and_told(store: Store) -> None:
    replay = quick_record()
    match = finished(0, replay)
    assert await store.finish_match(match)
    analyses = Analyses(store, 1, executor=ThreadPoolExecutor(1))
    told: list[Analysed] = []
    analyses.listen(told.append)
    assert analyses.submit(match.match_id, match.guild_id, "standard", replay)
    await analyses.idle()
    want = analyse_match(replay)
    assert await store.match_analysis(7, match.match_id) == want.to_dict()
    assert [(d.match_id, d.guild_id, d.analysis) for d in told] == [(match.match_id, 7, want)]
    (done,) = told
    assert [[d.card for d in hand] for hand in done.decisions] == [
        [d.card for d in hand.decisions] for hand in want.hands
    ]  # the positions puzzles are found in, as graded
    assert analyses.done == 1
    await analyses.close()


async def test_with_no_worker_nothing_is_analysed(store: Store) -> None:
    match = finished(1, quick_record())
    assert await store.finish_match(match)
    analyses = Analyses(store, 0)
    assert not analyses.enabled
    assert not analyses.submit(match.match_id, 7, "standard", match.replay)
    await analyses.idle()
    assert await store.match_analysis(7, match.match_id) is None


@pytest.mark.parametrize("game_format", ["three", "shelem"])
async def test_a_format_of_more_than_two_sides_is_said_so(store: Store, game_format: str) -> None:
    match = finished(2, {"not": "replayed"})  # the worker is given the format
    assert await store.finish_match(match)
    analyses = Analyses(store, 1, executor=ThreadPoolExecutor(1))
    analyses.submit(match.match_id, 7, game_format, match.replay)
    await analyses.idle()
    stored = await store.match_analysis(7, match.match_id)
    assert stored is not None
    assert MatchAnalysis.from_dict(stored) == MatchAnalysis(game_format, (), NOT_COVERED)
    await analyses.close()


async def test_a_failure_is_logged_and_the_queue_goes_on(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    bad, good = finished(3, {"v": 1, "format": "standard"}), finished(4, quick_record())
    for match in (bad, good):
        assert await store.finish_match(match)
    analyses = Analyses(store, 1, executor=ThreadPoolExecutor(1))

    def broken(done: Analysed) -> None:
        raise RuntimeError("a listener's bug")

    told: list[str] = []
    analyses.listen(broken)
    analyses.listen(lambda done: told.append(done.match_id))
    with caplog.at_level(logging.ERROR):
        for match in (bad, good):
            analyses.submit(match.match_id, 7, "standard", match.replay)
        await analyses.idle()
    assert await store.match_analysis(7, bad.match_id) is None
    assert await store.match_analysis(7, good.match_id) is not None
    assert told == [good.match_id]  # the broken listener did not stop the next one
    assert f"match {bad.match_id}: analysis failed" in caplog.text
    assert "AS" not in caplog.text and "A♠" not in caplog.text  # logs never hold a card
    await analyses.close()


async def test_analyse_missing_walks_the_matches_without_one(store: Store) -> None:
    replay = quick_record()
    matches = [finished(10 + n, replay) for n in range(3)]
    for match in matches:
        assert await store.finish_match(match)
    analyses = Analyses(store, 1, executor=ThreadPoolExecutor(1))
    assert analyses.submit(matches[1].match_id, 7, "standard", replay)
    await analyses.idle()
    assert await analyses.analyse_missing() == 2
    assert await analyses.analyse_missing() == 0
    for match in matches:
        assert await store.match_analysis(7, match.match_id) is not None
    await analyses.close()


async def test_an_analysis_an_older_solver_made_is_made_again(store: Store) -> None:
    """``SOLVER_VERSION``: a fix that could change a grade makes the older analyses count as
    missing; the one made again replaces it, and the next walk finds nothing."""
    replay = quick_record()
    old, current = finished(40, replay), finished(41, replay)
    for match in (old, current):
        assert await store.finish_match(match)
    stale = MatchAnalysis("standard", (), "").to_dict()  # what a flawed solver might have said
    assert await store.save_analysis(old.match_id, stale, NOW, solver=SOLVER_VERSION - 1)
    made = analyse_match(replay).to_dict()
    assert await store.save_analysis(current.match_id, made, NOW, solver=SOLVER_VERSION)
    analyses = Analyses(store, 1, executor=ThreadPoolExecutor(1))
    told: list[Analysed] = []
    analyses.listen(told.append)
    assert await analyses.analyse_missing() == 1
    assert [d.match_id for d in told] == [old.match_id]
    assert await store.match_analysis(7, old.match_id) == made
    assert await analyses.analyse_missing() == 0
    await analyses.close()


async def test_start_up_catches_up_the_missing_of_its_servers_bounded(store: Store) -> None:
    """``catch_up``: the matches stored without an analysis, of the servers this process
    serves, queued (at most ``limit``) behind the worker's queue; a match queued twice (it
    ended as the catch-up read it) is graded once; nothing with analysis off."""
    replay = quick_record()
    matches = [finished(20 + n, replay) for n in range(4)]
    other = dataclasses.replace(finished(30, replay), guild_id=8)
    for match in [*matches, other]:
        assert await store.finish_match(match)
    off = Analyses(store, 0)
    await off.catch_up()
    assert off.caught_up == 0
    analyses = Analyses(store, 1, executor=ThreadPoolExecutor(1))
    told: list[Analysed] = []
    analyses.listen(told.append)
    for _ in range(2):  # queued twice before a worker took it: graded once
        assert analyses.submit(matches[0].match_id, 7, "standard", replay)
    await analyses.idle()
    assert [d.match_id for d in told] == [matches[0].match_id]
    await analyses.catch_up(owns=lambda guild_id: guild_id == 7, limit=2)
    await analyses.idle()
    assert analyses.caught_up == 2
    graded = [d.match_id for d in told]
    assert len(graded) == len(set(graded)) == 3
    assert await store.match_analysis(8, other.match_id) is None  # another process's server
    await analyses.catch_up(owns=lambda guild_id: guild_id == 7)
    await analyses.idle()
    assert analyses.caught_up == 3
    for match in matches:
        assert await store.match_analysis(7, match.match_id) is not None
    await analyses.close()


def _priority_after_lowering() -> tuple[int, int]:
    _lower_priority()
    return os.sched_getscheduler(0), os.nice(0)


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="the idle class is Linux's")
def test_a_worker_runs_in_the_idle_class_at_nice_19() -> None:
    """A worker's core counts as idle to the bot's waking threads (SCHED_IDLE), and its nice
    is the lowest, which the load bench reads to count the analysis's CPU."""
    context = multiprocessing.get_context("spawn")
    with context.Pool(1) as pool:
        policy, nice = pool.apply(_priority_after_lowering)
    assert policy == os.SCHED_IDLE
    assert nice == min(19, os.nice(0) + NICE)
