"""``python -m bot --analyse-missing``: every stored finished match without an analysis is
graded with every hand known, in the worker processes, and stored; a second run finds none."""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path

from bot.store import Store
from engine.dd_analysis import MatchAnalysis, analyse_match
from tests.service.test_analysis_worker import quick_record
from tests.store.conftest import MatchMaker

from .helpers import run_bot


async def test_analyse_missing_grades_the_matches_that_have_none(tmp_path: Path) -> None:
    db = tmp_path / "hokm.sqlite3"
    make = MatchMaker()
    replay = quick_record()
    async with await Store.open(f"sqlite:///{db}") as store:
        match = dataclasses.replace(make(guild_id=5), replay=replay)
        await store.finish_match(match)
        await store.finish_match(make(guild_id=5))  # recorded before replays were kept
    env = {"HOKM_DATABASE_URL": f"sqlite:///{db}", "HOKM_ANALYSIS_WORKERS": "0"}
    done = run_bot("--analyse-missing", env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("2 finished matches analysed"), done.stdout
    async with await Store.open(f"sqlite:///{db}") as store:
        stored = await store.match_analysis(5, match.match_id)
    assert stored is not None and MatchAnalysis.from_dict(stored) == analyse_match(replay)
    again = run_bot("--analyse-missing", env=env)
    assert again.stdout.strip().endswith("0 finished matches analysed"), again.stdout
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT count(*) FROM match_analyses").fetchone() == (2,)
