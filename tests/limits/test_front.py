"""The process's front to the budget (``Limiter``): calls go in priority order, a full channel
holds up nobody else, and a shared backend that fails or hangs never stops the bot: it keeps
to its own share, says so once, and takes the shared budget back when it answers again."""

from __future__ import annotations

import asyncio
import logging
import socket
import time
from collections.abc import Sequence

import pytest

from bot.limits import Call, Limiter, Limits, LocalBackend, Verdict, build_limiter
from bot.limits.postgres_backend import PostgresBackend
from bot.limits.redis_backend import RedisBackend


async def test_waiting_calls_go_in_order_of_priority() -> None:
    limiter = Limiter(LocalBackend(), Limits(rate=20.0, burst=1.0))
    await limiter.acquire(None)  # the burst is spent: the next calls queue
    order: list[int] = []

    async def call(priority: int) -> None:
        await limiter.acquire(None, priority)
        order.append(priority)

    calls = [asyncio.create_task(call(p)) for p in (4, 0, 2, 1)]
    await asyncio.gather(*calls)
    await limiter.close()
    assert order == [0, 1, 2, 4]


async def test_a_full_channel_holds_up_no_other_call() -> None:
    limiter = Limiter(LocalBackend(), Limits(rate=1000.0, burst=10.0, channel_limit=1))
    await limiter.acquire(5)
    blocked = asyncio.create_task(limiter.acquire(5, priority=0))  # 5 s until its window ends
    await asyncio.sleep(0.01)
    async with asyncio.timeout(2.0):
        await limiter.acquire(6, priority=9)  # least urgent, but its channel has room
        await limiter.acquire(None, priority=9)
    assert not blocked.done()
    assert limiter.channel_wait(5) > 4.0 and limiter.channel_wait(7) == 0.0
    await limiter.close()  # a call still waiting then ends with the bot
    await asyncio.wait({blocked}, timeout=1.0)
    assert blocked.cancelled()


async def test_a_call_waiting_on_the_reserve_holds_up_no_urgent_call() -> None:
    limiter = Limiter(LocalBackend(), Limits(rate=2.0, burst=3.0, reserve=2.0))
    await limiter.acquire(None)  # 2 tokens left: a table edit (priority 4) must wait for 3
    table_edit = asyncio.create_task(limiter.acquire(None, priority=4))
    await asyncio.sleep(0.01)
    assert not table_edit.done()
    assert limiter.busy(4) and not limiter.busy(0)  # the outbox may start an urgent job
    async with asyncio.timeout(0.4):  # well before the edit's reserve refills (0.5 s)
        await limiter.acquire(None, priority=0)
        await limiter.acquire(None, priority=1)
    assert not table_edit.done()
    await limiter.close()


class Flaky:
    """A shared backend that can be taken down and brought back, or made to hang."""

    name = "postgresql"

    def __init__(self) -> None:
        self.up = True
        self.hang = False
        self.asked = 0
        self.connects = 0
        self.local = LocalBackend()

    async def connect(self) -> None:
        if not self.up:
            raise ConnectionRefusedError("connection refused")
        self.connects += 1

    async def try_acquire(
        self, channel_id: int | None, limits: Limits, reserve: float = 0.0
    ) -> Verdict:
        self.asked += 1
        if self.hang:
            await asyncio.sleep(3600)
        if not self.up:
            raise ConnectionResetError("connection reset by peer")
        return self.local.take(channel_id, limits, asyncio.get_running_loop().time(), reserve)

    async def try_acquire_many(self, calls: Sequence[Call], limits: Limits) -> list[Verdict]:
        return [await self.try_acquire(channel, limits, reserve) for channel, reserve in calls]

    async def close(self) -> None:
        return None


async def test_a_backend_that_goes_down_leaves_the_process_on_its_share_logged_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="bot.limits")
    flaky = Flaky()
    limiter = Limiter(flaky, Limits(rate=200.0, burst=5.0), share=0.5, retry_after=0.2)
    await limiter.start()
    for _ in range(3):
        await limiter.acquire(1)
    assert flaky.asked == 3 and limiter.fallback_grants == 0
    flaky.up = False
    async with asyncio.timeout(10.0):
        for i in range(40):  # never an exception: the calls keep going, on the local share
            await limiter.acquire(100 + i)
    assert limiter.degraded and limiter.fallback_grants >= 39
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]
    message = warnings[0].getMessage()
    assert "postgresql unreachable" in message and "100 calls a second" in message
    flaky.up = True
    async with asyncio.timeout(10.0):
        while limiter.degraded:  # the retry connects again in the background
            await limiter.acquire(None)
            await asyncio.sleep(0.01)
        asked = flaky.asked
        await limiter.acquire(None)
    assert flaky.asked == asked + 1  # the shared budget again
    assert any("answers again" in r.getMessage() for r in caplog.records)
    await limiter.close()


async def test_a_backend_that_hangs_is_given_up_on_within_its_timeout() -> None:
    flaky = Flaky()
    limiter = Limiter(flaky, Limits(rate=100.0, burst=5.0), timeout=0.1, retry_after=60.0)
    await limiter.start()
    flaky.hang = True
    async with asyncio.timeout(5.0):
        for _ in range(5):
            await limiter.acquire(None)
    assert flaky.asked == 1  # asked once, then left alone until its retry
    assert limiter.fallback_grants == 5 and limiter.degraded
    await limiter.close()


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("kind", ["postgresql", "redis"])
async def test_an_unreachable_server_at_start_up_still_lets_every_call_through(
    kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    port = _closed_port()
    backend = (
        PostgresBackend(f"postgresql+asyncpg://postgres@127.0.0.1:{port}/x", "ns")
        if kind == "postgresql"
        else RedisBackend(f"redis://:hunter2@127.0.0.1:{port}/0", "ns")
    )
    limiter = Limiter(backend, Limits(rate=400.0, burst=10.0), share=0.5, retry_after=0.05)
    caplog.set_level(logging.INFO, logger="bot.limits")
    await limiter.start()
    async with asyncio.timeout(10.0):
        for i in range(50):
            await limiter.acquire(i)
    await limiter.close()
    assert limiter.fallback_grants == 50
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and f"{kind} unreachable" in warnings[0], warnings
    assert "hunter2" not in caplog.text


@pytest.mark.parametrize(
    ("redis_url", "database_url", "shards", "count", "kind", "share"),
    [
        (None, "sqlite+aiosqlite:///x.db", None, None, "local", 1.0),
        (None, "postgresql+asyncpg://h/db", None, None, "local", 1.0),
        (None, "postgresql+asyncpg://h/db", None, 4, "local", 1.0),  # every shard here
        (None, "postgresql+asyncpg://h/db", [0, 1, 2, 3], 4, "local", 1.0),
        (None, "postgresql+asyncpg://h/db", [0, 1], 4, "postgresql", 0.5),
        (None, "postgresql://h/db", [3], 4, "postgresql", 0.25),
        ("redis://r:6379/0", "sqlite:///x.db", None, None, "redis", 1.0),
        ("redis://r:6379/0", "postgresql+asyncpg://h/db", [1], 2, "redis", 0.5),
    ],
)
def test_the_backend_follows_the_settings(
    redis_url: str | None,
    database_url: str,
    shards: list[int] | None,
    count: int | None,
    kind: str,
    share: float,
) -> None:
    limiter = build_limiter(
        rate=40.0,
        redis_url=redis_url,
        database_url=database_url,
        shard_ids=shards,
        shard_count=count,
        namespace="ns",
    )
    assert limiter.name == kind and limiter.limits.rate == 40.0
    assert limiter.fallback.share == share


class LateRead(Flaky):
    """A backend that answers in 50 ms, asked by a process whose event loop then stalls past
    the limiter's timeout (a saturated process): the answer is there when the loop wakes, but
    the timeout's timer runs before the task that reads it."""

    async def try_acquire(
        self, channel_id: int | None, limits: Limits, reserve: float = 0.0
    ) -> Verdict:
        self.asked += 1
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[Verdict] = loop.create_future()
        verdict = self.local.take(channel_id, limits, loop.time(), reserve)
        loop.call_later(0.05, answer.set_result, verdict)
        loop.call_later(0.01, time.sleep, 0.4)  # the loop stalls past the 0.1-s timeout
        return await answer


async def test_a_stalled_event_loop_is_not_taken_for_a_backend_that_hangs(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A process that left the shared budget would spend its own share on top of what the
    others take from it, and the token would draw 429s: a loop too busy to read the answer in
    time is this process's lateness, not the backend's."""
    caplog.set_level(logging.INFO, logger="bot.limits")
    late = LateRead()
    limiter = Limiter(late, Limits(rate=100.0, burst=5.0), timeout=0.1, retry_after=60.0)
    await limiter.start()
    async with asyncio.timeout(10.0):
        for _ in range(3):
            await limiter.acquire(None)
    assert late.asked == 3 and limiter.fallback_grants == 0 and not limiter.degraded
    assert not any(r.levelno >= logging.WARNING for r in caplog.records)
    await limiter.close()


async def test_a_call_handed_on_late_by_a_stalled_loop_is_counted_and_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The budget counts a call when it grants it; a loop that stalls before the call goes
    sends it later than counted (what the budget's margin must absorb). Such calls are counted
    and said at most once a minute, so a run's 429s can be told apart from the budget's."""
    caplog.set_level(logging.INFO, logger="bot.limits")
    limiter = Limiter(LocalBackend(), Limits(rate=100.0, burst=5.0))
    await limiter.acquire(None)
    assert limiter.late_grants == 0

    def stall() -> None:  # runs after the grant, before the waiting call resumes
        limiter.listeners.remove(stall)
        time.sleep(0.2)

    limiter.listeners.append(stall)
    await limiter.acquire(None)
    await limiter.acquire(None)
    limiter.listeners.append(stall)
    await limiter.acquire(None)
    await limiter.close()
    assert limiter.late_grants == 2
    lines = [r.getMessage() for r in caplog.records if "went 0.125 s or more" in r.getMessage()]
    assert lines == [
        "rate limiter: 1 calls so far went 0.125 s or more after the budget counted them (a late event loop)"
    ]
