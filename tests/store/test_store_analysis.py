"""A finished match's analysis in the store: saved with the match, read only within
its own server, and the matches that still need one (none, or an older solver's) found in
pages."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import pytest

from bot.store import FinishedMatch, Store

from .conftest import MatchMaker

REPLAY = {"v": 1, "format": "standard", "seed": 5, "rules": {}, "actions": []}
ANALYSIS = {"v": 1, "format": "standard", "skipped": "", "hands": []}
NOW = datetime(2026, 12, 6, tzinfo=UTC)


async def test_an_analysis_is_kept_and_read_within_its_server(store: Store) -> None:
    match = dataclasses.replace(MatchMaker()(guild_id=1), replay=REPLAY)
    assert await store.finish_match(match)
    assert await store.match_analysis(1, match.match_id) is None
    assert await store.save_analysis(match.match_id, ANALYSIS, NOW, solver=2)
    assert await store.match_analysis(1, match.match_id) == ANALYSIS
    assert await store.match_analysis(2, match.match_id) is None  # another server's id
    again = ANALYSIS | {"hands": [{"n": 1}]}
    assert await store.save_analysis(match.match_id, again, NOW, solver=2)  # replaced, not doubled
    assert await store.match_analysis(1, match.match_id) == again


async def test_no_analysis_for_a_match_that_is_not_stored(store: Store) -> None:
    assert not await store.save_analysis("nosuchmatch", ANALYSIS, NOW, solver=2)
    with pytest.raises(ValueError, match="aware"):
        await store.save_analysis("nosuchmatch", ANALYSIS, datetime(2026, 12, 6), solver=2)


async def test_the_matches_without_an_analysis_are_found_in_pages(store: Store) -> None:
    make = MatchMaker()
    made: list[FinishedMatch] = [
        dataclasses.replace(make(guild_id=1 + i % 2), replay=REPLAY) for i in range(5)
    ]
    for match in made:
        assert await store.finish_match(match)
    assert await store.save_analysis(made[2].match_id, ANALYSIS, NOW, solver=2)
    want = sorted(m.match_id for i, m in enumerate(made) if i != 2)
    first = await store.unanalysed_matches(solver=2, limit=3)
    rest = await store.unanalysed_matches(solver=2, after=first[-1].match_id, limit=3)
    assert [u.match_id for u in first + rest] == want
    assert all(u.replay == REPLAY and u.game_format == "standard" for u in first + rest)
    assert {u.guild_id for u in first + rest} == {1, 2}


async def test_an_analysis_an_older_solver_made_is_found_again_until_remade(store: Store) -> None:
    make = MatchMaker()
    old, current = (dataclasses.replace(make(guild_id=1), replay=REPLAY) for _ in range(2))
    for match in (old, current):
        assert await store.finish_match(match)
    assert await store.save_analysis(old.match_id, ANALYSIS, NOW, solver=1)
    assert await store.save_analysis(current.match_id, ANALYSIS, NOW, solver=2)
    assert [u.match_id for u in await store.unanalysed_matches(solver=2)] == [old.match_id]
    assert await store.unanalysed_matches(solver=1) == []  # version 1 asked: both current
    assert await store.match_analysis(1, old.match_id) == ANALYSIS  # read until remade
    assert await store.save_analysis(old.match_id, ANALYSIS, NOW, solver=2)
    assert await store.unanalysed_matches(solver=2) == []
