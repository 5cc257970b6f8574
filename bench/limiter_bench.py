"""What one acquire costs on each limiter backend (docs/scaling.md, "One budget for the token").

For each backend: ``try_acquire`` alone (the backend's own round trip: a PL/pgSQL call on one
asyncpg connection, an EVALSHA on Redis, a few dict operations locally) and the whole front
(``Limiter.acquire``: the priority queue, the pump, the future), timed call by call with
limits so high that every call is granted; and the bot process's CPU per acquire, which is
what the bot pays (the server's share is PostgreSQL's or Redis's). Then the front again with
``--at-once`` calls waiting at every moment (callers that ask again as soon as they are
granted, as the outbox's jobs do under load): the wall time and bot CPU per call, and the round
trips to the backend per call (a batch asks for every queued call at once). The last line
printed is one JSON object.

    python bench/limiter_bench.py                         # the machine's PostgreSQL and Redis
    python bench/limiter_bench.py --calls 5000
    python bench/limiter_bench.py --database-url postgresql://u:p@db/postgres --redis-url redis://r:6379/0

PostgreSQL: a database ``hokm_bench_<random>`` is created on that server and dropped at the
end. Redis: keys under a random name, which expire by themselves within a minute.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.limits import Backend, Limiter, Limits, LocalBackend
from bot.limits.postgres_backend import PostgresBackend, asyncpg_connect_args
from bot.limits.redis_backend import RedisBackend, safe_redis_url

OPEN = Limits(rate=1e9, burst=1e9, channel_limit=10**9, channel_window=1.0)
"""Every call granted: the cost of asking, never of waiting."""
CHANNELS = 200


def summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    micro = [s * 1e6 for s in ordered]
    return {
        "mean_us": round(statistics.fmean(micro), 1),
        "p50_us": round(micro[len(micro) // 2], 1),
        "p99_us": round(micro[min(len(micro) - 1, int(len(micro) * 0.99))], 1),
    }


async def time_backend(backend: Backend, calls: int) -> dict[str, Any]:
    await backend.connect()
    for i in range(50):  # warm up: connection, statement, script cache
        await backend.try_acquire(i % CHANNELS, OPEN)
    samples = []
    cpu = time.process_time()
    for i in range(calls):
        start = time.perf_counter()
        verdict = await backend.try_acquire(i % CHANNELS, OPEN)
        samples.append(time.perf_counter() - start)
        assert verdict.granted
    cpu_per = (time.process_time() - cpu) / calls
    return {**summary(samples), "cpu_us": round(cpu_per * 1e6, 1)}


async def time_front(backend: Backend, calls: int) -> dict[str, Any]:
    limiter = Limiter(backend, Limits(**vars(OPEN)))
    await limiter.start()
    samples = []
    cpu = time.process_time()
    for i in range(calls):
        start = time.perf_counter()
        await limiter.acquire(i % CHANNELS)
        samples.append(time.perf_counter() - start)
    cpu_per = (time.process_time() - cpu) / calls
    assert limiter.fallback_grants == 0, "the backend failed during the run"
    await limiter.close()
    return {**summary(samples), "cpu_us": round(cpu_per * 1e6, 1)}


async def time_front_queued(backend: Backend, calls: int, at_once: int) -> dict[str, Any]:
    limiter = Limiter(backend, Limits(**vars(OPEN)))
    await limiter.start()
    left = calls

    async def caller(n: int) -> None:
        nonlocal left
        while left > 0:
            left -= 1
            await limiter.acquire(n % CHANNELS)

    cpu, wall = time.process_time(), time.perf_counter()
    await asyncio.gather(*(caller(n) for n in range(at_once)))
    wall_per = (time.perf_counter() - wall) / calls
    cpu_per = (time.process_time() - cpu) / calls
    assert limiter.fallback_grants == 0, "the backend failed during the run"
    trips = getattr(limiter, "round_trips", None)  # counted since the batches came
    await limiter.close()
    return {
        "wall_us": round(wall_per * 1e6, 1),
        "cpu_us": round(cpu_per * 1e6, 1),
        "round_trips_per_call": None if trips is None else round(trips / calls, 3),
    }


async def admin(database_url: str, sql: str) -> None:
    import asyncpg  # type: ignore[import-untyped]

    conn = await asyncpg.connect(**asyncpg_connect_args(database_url))
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--at-once", type=int, default=16)
    parser.add_argument(
        "--database-url", default="postgresql+asyncpg://postgres@127.0.0.1:5432/postgres"
    )
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    args = parser.parse_args()
    namespace = f"bench-{secrets.token_hex(4)}"
    bench_db = f"hokm_bench_{secrets.token_hex(4)}"
    from sqlalchemy.engine import make_url

    pg_url = make_url(args.database_url).set(database=bench_db).render_as_string(False)
    await admin(args.database_url, f'CREATE DATABASE "{bench_db}"')
    results: dict[str, Any] = {"calls": args.calls}
    try:
        kinds: dict[str, Any] = {
            "local": lambda: LocalBackend(),
            "postgresql": lambda: PostgresBackend(pg_url, namespace),
            "redis": lambda: RedisBackend(args.redis_url, namespace),
        }
        for kind, make in kinds.items():
            backend_alone = make()
            alone = await time_backend(backend_alone, args.calls)
            await backend_alone.close()
            front = await time_front(make(), args.calls)
            queued = await time_front_queued(make(), args.calls, args.at_once)
            results[kind] = {"try_acquire": alone, "acquire": front, "queued": queued}
            print(
                f"{kind:<10} try_acquire: mean {alone['mean_us']:>7.1f} µs  "
                f"p50 {alone['p50_us']:>7.1f}  p99 {alone['p99_us']:>7.1f}  "
                f"bot CPU {alone['cpu_us']:>6.1f} µs | Limiter.acquire: mean "
                f"{front['mean_us']:>7.1f} µs  p99 {front['p99_us']:>7.1f}  "
                f"bot CPU {front['cpu_us']:>6.1f} µs | {args.at_once} at once: "
                f"{queued['wall_us']:>6.1f} µs a call, bot CPU {queued['cpu_us']:>6.1f} µs, "
                f"round trips a call {queued['round_trips_per_call']}"
            )
    finally:
        await admin(args.database_url, f'DROP DATABASE IF EXISTS "{bench_db}" WITH (FORCE)')
    where = f"PostgreSQL {make_url(args.database_url).host}, Redis {safe_redis_url(args.redis_url)}"
    print(f"({args.calls} calls each, {CHANNELS} channels; {where})")
    print(json.dumps(results))


if __name__ == "__main__":
    asyncio.run(main())
