"""Each backend (local; PostgreSQL and Redis on real servers) keeps the token's budget: the
global bucket and each channel's sliding window, alone and for two clients at once."""

from __future__ import annotations

import asyncio
import time

from bot.limits import Limiter, Limits
from bot.limits.front import BATCH

from .conftest import BackendFactory
from .helpers import hammer, most_in_window

JITTER = 0.05
"""Grants are timed where the client sees them, a round trip after the backend counted them:
a channel's window is checked this much shorter."""


async def test_the_burst_goes_at_once_then_the_backend_says_how_long(
    budget: BackendFactory,
) -> None:
    backend = budget()
    await backend.connect()
    limits = Limits(rate=1.0, burst=3.0, channel_limit=100, channel_window=1.0)
    verdicts = [await backend.try_acquire(None, limits) for _ in range(4)]
    assert [v.granted for v in verdicts] == [True, True, True, False]
    assert not verdicts[3].channel and 0.0 < verdicts[3].wait <= 1.0
    assert verdicts[3].tokens < 1.0


async def test_a_full_channel_waits_and_takes_nothing_from_the_others(
    budget: BackendFactory,
) -> None:
    backend = budget()
    await backend.connect()
    limits = Limits(rate=1000.0, burst=1000.0, channel_limit=2, channel_window=30.0)
    assert [(await backend.try_acquire(7, limits)).granted for _ in range(2)] == [True, True]
    full = await backend.try_acquire(7, limits)
    assert not full.granted and full.channel and 29.0 < full.wait <= 30.0
    assert (await backend.try_acquire(8, limits)).granted  # another channel
    assert (await backend.try_acquire(None, limits)).granted  # no channel: global only


async def test_a_call_that_may_wait_leaves_the_reserve_to_urgent_ones(
    budget: BackendFactory,
) -> None:
    backend = budget()
    await backend.connect()
    limits = Limits(rate=1.0, burst=4.0, channel_limit=100, channel_window=1.0)
    may_wait = [await backend.try_acquire(None, limits, 2.0) for _ in range(3)]
    assert [v.granted for v in may_wait] == [True, True, False]  # 4, 3 tokens: yes; 2: no
    assert not may_wait[2].channel and 0.9 < may_wait[2].wait <= 1.0  # until 3 tokens
    urgent = [await backend.try_acquire(None, limits) for _ in range(3)]
    assert [v.granted for v in urgent] == [True, True, False]  # the reserve was kept for them
    assert 0.9 < urgent[2].wait <= 1.0


async def test_a_batch_is_answered_call_by_call_in_one_step(budget: BackendFactory) -> None:
    """One round trip for several calls, each answered as if asked alone, in order: a refused
    call takes nothing, and the calls after it are still asked for."""
    backend = budget()
    await backend.connect()
    limits = Limits(rate=1.0, burst=3.0, channel_limit=1, channel_window=30.0)
    calls = [(7, 0.0), (7, 0.0), (None, 0.0), (8, 2.0), (None, 0.0), (None, 0.0)]
    verdicts = await backend.try_acquire_many(calls, limits)
    assert [v.granted for v in verdicts] == [True, False, True, False, True, False]
    assert verdicts[1].channel and 29.0 < verdicts[1].wait <= 30.0  # channel 7 is full
    assert not verdicts[3].channel and 1.9 < verdicts[3].wait <= 2.0  # 1 token; needs 3
    assert not verdicts[5].channel and 0.9 < verdicts[5].wait <= 1.0  # the bucket is empty
    assert (await backend.try_acquire(8, limits)).granted is False  # all three were taken
    assert (await backend.try_acquire_many([], limits)) == []


async def test_calls_queued_together_share_a_round_trip(budget: BackendFactory) -> None:
    """200 calls at once cost about 200 / BATCH round trips to the shared backend, not 200;
    one call at a time still costs one each."""
    limits = Limits(rate=1e6, burst=1e6, channel_limit=10**6, channel_window=1.0)
    limiter = Limiter(budget(), limits)
    await limiter.start()
    try:
        async with asyncio.timeout(20.0):
            await asyncio.gather(*(limiter.acquire(i % 40) for i in range(200)))
            together = limiter.round_trips
            for i in range(5):
                await limiter.acquire(i)
    finally:
        await limiter.close()
    assert limiter.granted == 205 and limiter.fallback_grants == 0
    if limiter.remote:
        assert together <= 200 // BATCH + 2, together
        assert limiter.round_trips == together + 5
    else:
        assert limiter.round_trips == 0  # the local budget is no round trip at all


async def test_three_clients_asking_in_batches_never_exceed_the_rate(
    budget: BackendFactory,
) -> None:
    """Three processes, each with a full batch of calls queued at every ask: together they
    stay within the bucket's promise, and none is starved."""
    limits = Limits(rate=50.0, burst=5.0, channel_limit=1000, channel_window=1.0)
    clients = [Limiter(budget(), limits) for _ in range(3)]
    for client in clients:
        await client.start()
    got: list[list[float]] = [[], [], []]
    until = time.monotonic() + 1.5
    try:
        await asyncio.gather(
            *(hammer(c, until, times, workers=BATCH) for c, times in zip(clients, got, strict=True))
        )
    finally:
        for client in clients:
            await client.close()
    assert all(c.fallback_grants == 0 for c in clients)
    every = [t for times in got for t in times]
    for window in (0.25, 0.5, 1.0):
        assert most_in_window(every, window) <= 5 + 50 * window + 1, window
    assert len(every) >= 30  # it did grant (about 80 on a quiet machine)
    assert min(len(times) for times in got) >= 0.1 * len(every), [len(t) for t in got]


async def _two_clients_hammering(
    budget: BackendFactory,
    limits: Limits,
    priorities: tuple[int, int],
) -> tuple[list[float], list[float]]:
    """Two clients of one budget, each asking as fast as it is granted for 1.5 s with its
    priority; the times of each one's grants, every one from the backend itself."""
    a, b = Limiter(budget(), limits), Limiter(budget(), limits)
    await a.start()
    await b.start()
    got_a: list[float] = []
    got_b: list[float] = []
    until = time.monotonic() + 1.5
    try:
        await asyncio.gather(
            hammer(a, until, got_a, priority=priorities[0]),
            hammer(b, until, got_b, priority=priorities[1]),
        )
    finally:
        await a.close()
        await b.close()
    assert a.fallback_grants == b.fallback_grants == 0
    return got_a, got_b


async def test_across_processes_urgent_calls_go_before_calls_that_may_wait(
    budget: BackendFactory,
) -> None:
    """Two processes on one budget: one sends only table edits (priority 4), the other only
    turn marks (priority 0). The bucket keeps its last two tokens for the marks, so the edits
    get little more than the first burst, where a bucket without a reserve serves whichever
    asks first (about half each, ``test_two_clients_together…``)."""
    limits = Limits(rate=50.0, burst=5.0, channel_limit=1000, channel_window=1.0, reserve=2.0)
    got_tables, got_marks = await _two_clients_hammering(budget, limits, priorities=(4, 0))
    both = got_tables + got_marks
    assert len(both) >= 20
    assert len(got_marks) >= 0.8 * len(both), (len(got_tables), len(got_marks))
    for window in (0.5, 1.0):
        assert most_in_window(both, window) <= 5 + 50 * window + 1, window


async def test_two_clients_together_never_exceed_the_rate_and_share_it_fairly(
    budget: BackendFactory,
) -> None:
    limits = Limits(rate=50.0, burst=5.0, channel_limit=1000, channel_window=1.0)
    got_a, got_b = await _two_clients_hammering(budget, limits, priorities=(0, 0))
    both = got_a + got_b
    for window in (0.25, 0.5, 1.0):
        # the bucket's promise, burst + rate * window, and one grant seen late
        assert most_in_window(both, window) <= 5 + 50 * window + 1, window
    assert len(both) >= 20  # it did grant (about 80 on a quiet machine)
    assert min(len(got_a), len(got_b)) >= 0.3 * len(both), (len(got_a), len(got_b))


async def test_two_clients_keep_one_channel_within_its_limit(budget: BackendFactory) -> None:
    limits = Limits(rate=1000.0, burst=50.0, channel_limit=3, channel_window=0.5)
    a, b = Limiter(budget(), limits), Limiter(budget(), limits)
    await a.start()
    await b.start()
    got_a: list[float] = []
    got_b: list[float] = []
    other: list[float] = []
    until = time.monotonic() + 1.2
    try:
        await asyncio.gather(
            hammer(a, until, got_a, channel=42, workers=2),
            hammer(b, until, got_b, channel=42, workers=2),
            hammer(b, until, other, channel=None, workers=1),  # calls outside the channel
        )
    finally:
        await a.close()
        await b.close()
    both = got_a + got_b
    assert most_in_window(both, 0.5 - JITTER) <= 3
    assert len(both) >= 6  # at least two windows' worth went
    assert got_a and got_b
    # calls outside the full channel went on meanwhile, many times over its 3 per window
    assert len(other) > len(both)
