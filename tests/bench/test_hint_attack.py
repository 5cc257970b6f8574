"""The hint attack's figures come from the worker's own log lines: a line the real
``Thinker`` writes, in the bot's log format, must be read by ``bench.metrics.thinking_report``
(else the bench would report no think time at all, attack or not)."""

from __future__ import annotations

import asyncio
import importlib
import logging
import math
import time
from concurrent.futures import Future

import pytest

from bench.metrics import thinking_report
from bot.service import service as service_module
from bot.service.thinking import Thinker
from engine import Card, Match, SeatView, Suit, seat_view

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
"""The bot's log format (``bot/__main__.py``)."""


def test_the_hint_attack_module_imports() -> None:
    assert importlib.import_module("bench.hint_attack").__doc__


async def test_the_bench_reads_the_workers_search_lines(caplog: pytest.LogCaptureFixture) -> None:
    now = [100.0]
    started: list[Future[Card | Suit]] = []

    def runner(difficulty: str, seed: int, view: SeatView, deadline: float) -> Future[Card | Suit]:
        future: Future[Card | Suit] = Future()
        started.append(future)
        return future

    caplog.set_level(logging.INFO)
    thinker = Thinker(workers=1, runner=runner, clock=lambda: now[0])
    view = seat_view(Match(1), 0)
    victim = thinker.decide("aaaaaaaaaaaa", "hard", 1, view, 101.1)  # 1.1 s to think
    hint = thinker.decide("bbbbbbbbbbbb:hint:0", "hard", 1, view, math.inf)
    late = thinker.decide("aaaaaaaaaaaa", "hard", 1, view, 100.5)  # waits, and expires
    now[0] = 100.5  # the victim's decision searched 500 ms
    started[0].set_result(Suit.SPADES)
    for _ in range(3):
        await asyncio.sleep(0)
    now[0] = 100.75
    started[1].set_result(Suit.SPADES)
    for _ in range(3):
        await asyncio.sleep(0)
    assert victim.done() and hint.done() and late.done()
    opened = logging.makeLogRecord(
        {
            "name": service_module.log.name,
            "levelno": logging.INFO,
            "levelname": "INFO",
            "msg": "table %s: opened in channel %s by %s",
            "args": ("aaaaaaaaaaaa", 7, 1),
        }
    )
    formatter = logging.Formatter(FORMAT)
    lines = [formatter.format(r) for r in [opened, *caplog.records]]
    report = thinking_report("\n".join(lines), {7}, time.time() - 60, time.time() + 60)
    assert report["victim_computer_thinks"] == 2, lines  # the searched one and the expired one
    assert report["victim_computer_think_ms_p10"] == 0.0  # the expired one had no time
    assert report["hint_searches"] == 1
    first = thinking_report("\n".join(lines[:2]), {7}, time.time() - 60, time.time() + 60)
    assert first["victim_computer_think_ms_p50"] == 1100.0, lines
    assert first["victim_computer_searched_ms_p50"] == 500.0
    assert first["victim_computer_wait_ms_p50"] == 0.0
    assert thinking_report("\n".join(lines), {8}, 0, math.inf)["victim_computer_thinks"] == 0
    thinker.close()
