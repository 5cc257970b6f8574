"""A table's hints share that table's turn in the worker's round robin with its
computers' decisions, so a member pressing Hint takes no more of the worker than their table's
share. Counted in the order the worker served the requests, never in wall time."""

from __future__ import annotations

import asyncio
import math
from collections import Counter
from concurrent.futures import Future
from itertools import pairwise

import pytest

from bot.service.thinking import Thinker
from engine import Card, Match, SeatView, Suit, seat_view


class Worker:
    """Stands in for the worker processes: each request started is recorded under its label
    (passed as the difficulty) and finished by the test."""

    def __init__(self) -> None:
        self.started: list[tuple[str, Future[Card | Suit]]] = []

    def __call__(
        self, difficulty: str, seed: int, view: SeatView, deadline: float
    ) -> Future[Card | Suit]:
        future: Future[Card | Suit] = Future()
        self.started.append((difficulty, future))
        return future

    async def finish(self, index: int) -> None:
        self.started[index][1].set_result(Suit.SPADES)
        for _ in range(3):  # the done callbacks run on the loop
            await asyncio.sleep(0)


VIEW = seat_view(Match(1), 0)


@pytest.mark.parametrize("presses_between", [0, 5])
async def test_a_spamming_tables_hints_and_computers_share_one_turn(presses_between: int) -> None:
    """The spammer's table always has a computer's decision and a hint waiting (the hint asked
    again the moment it is answered, and ``presses_between`` more times between two decisions:
    each replaces the waiting one); the victim always has its computer's. The victim is served
    every other time."""
    worker = Worker()
    thinker = Thinker(workers=1, runner=worker)
    pending: dict[str, asyncio.Future[Card | Suit | None]] = {}

    def ask(key: str) -> None:
        label = "victim" if key == "victim" else ("hint" if ":hint:" in key else "spam")
        pending[key] = thinker.decide(key, label, 0, VIEW, math.inf)

    for key in ("spam", "spam:hint:1", "victim"):
        ask(key)
    for step in range(30):
        for _ in range(presses_between):
            ask("spam:hint:1")  # presses: the newest replaces the waiting one
        label = worker.started[step][0]
        await worker.finish(step)
        ask({"victim": "victim", "spam": "spam", "hint": "spam:hint:1"}[label])
    served = [label for label, _ in worker.started[:30]]
    counts = Counter("victim" if s == "victim" else "spammer" for s in served)
    assert counts["victim"] >= 14, served  # without sharing: one in three
    for a, b in pairwise(served):
        assert "victim" in (a, b), served  # never two of the spammer's table in a row
    thinker.close()


async def test_a_table_with_a_hint_waiting_goes_back_in_line_after_its_turn() -> None:
    """Asked in the order A's computer, A's hint, B's computer: B is served before A's hint
    (A had its turn), where first come first served would serve A twice."""
    worker = Worker()
    thinker = Thinker(workers=1, runner=worker)
    thinker.decide("busy", "busy", 0, VIEW, math.inf)  # the worker is busy: the rest wait
    thinker.decide("a", "a", 0, VIEW, math.inf)
    thinker.decide("a:hint:2", "a:hint", 0, VIEW, math.inf)
    thinker.decide("b", "b", 0, VIEW, math.inf)
    assert thinker.waiting == 3
    for step in range(4):
        await worker.finish(step)
    assert [label for label, _ in worker.started] == ["busy", "a", "b", "a:hint"]
    thinker.close()


async def test_a_request_that_cannot_be_computed_does_not_use_up_its_tables_turn() -> None:
    """A's withdrawn request is skipped, and its hint, still waiting, is served in A's turn."""
    now = [0.0]
    worker = Worker()
    thinker = Thinker(workers=1, runner=worker, clock=lambda: now[0])
    thinker.decide("busy", "busy", 0, VIEW, math.inf)
    thinker.decide("a", "a", 0, VIEW, math.inf).cancel()
    thinker.decide("a:hint:0", "a:hint", 0, VIEW, math.inf)
    thinker.decide("b", "b", 0, VIEW, math.inf)
    for step in range(3):
        await worker.finish(step)
    assert [label for label, _ in worker.started] == ["busy", "a:hint", "b"]
    thinker.close()
