"""``bench/bot_load.py``'s analysis figures read what the bot really does: ``hands_analysed``
from the worker's own log line, ``analysis_cpu_s`` from the bot's children at the analysis
workers' priority (and only those)."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from bench.bot_load import HANDS_GRADED
from bench.metrics import niced_children_cpu_seconds
from bot.service.analysis import NICE, Analyses
from bot.store import Store
from tests.service.test_analysis_worker import finished, quick_record

BURN = """
import os, sys, time
os.nice(int(sys.argv[1]))
while time.process_time() < 0.3:
    pass
print("burnt", flush=True)
time.sleep(30)
"""


async def test_the_log_line_gives_the_hands_graded(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'hokm.sqlite3'}")
    try:
        match = finished(0, quick_record())
        assert await store.finish_match(match)
        analyses = Analyses(store, 1, executor=ThreadPoolExecutor(1))
        with caplog.at_level(logging.INFO, logger="bot.service.analysis"):
            assert analyses.submit(match.match_id, 7, "standard", match.replay)
            await analyses.idle()
        await analyses.close()
    finally:
        await store.close()
    assert [int(n) for n in HANDS_GRADED.findall(caplog.text)] == [1]  # a one-hand match


def test_only_the_children_at_the_workers_priority_count() -> None:
    """A child at the lowest priority burns 0.3 s of CPU, one at ours the same: only the
    first counts; another process's children never do."""
    lowest = min(19, os.nice(0) + NICE)  # where os.nice(NICE) puts a worker
    if os.nice(0) >= lowest:
        pytest.skip("this process already runs at the lowest priority")
    procs = [
        subprocess.Popen([sys.executable, "-c", BURN, str(nice)], stdout=subprocess.PIPE, text=True)
        for nice in (NICE, 0)
    ]
    try:
        for proc in procs:
            assert proc.stdout is not None and proc.stdout.readline().strip() == "burnt"
        used = niced_children_cpu_seconds([os.getpid()], nice=lowest)
        assert 0.25 <= used < 0.6, used  # the niced child's 0.3 s, not the other's
        assert niced_children_cpu_seconds([procs[1].pid], nice=lowest) == 0.0
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()
