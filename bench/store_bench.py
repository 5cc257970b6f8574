"""Store benchmark: fill a store (SQLite, or PostgreSQL with ``--url``) with finished
matches, then time the hot calls.

The fill goes through the store's own code (`Store.finish_matches`, one transaction per
batch), so it exercises the same inserts, player rows and standings upserts as the bot.
Then it times, with many repetitions: the first standings page of the busiest guild, one
member's record, ``/hokm history``'s first page for the server and for a member, a page
anywhere in the server's history, one match's replay read, writing one finished match (its
players, replay, standings and rating update, with its table's final save, as the bot does),
and one live-table save. The stored matches are real engine matches (random play) with their
replay records. The last line printed is one JSON object.

    python bench/store_bench.py                      # 1,000,000 matches (minutes)
    python bench/store_bench.py --matches 20000      # quick mode (seconds)
    python bench/store_bench.py --reuse              # time an already filled file again
    python bench/store_bench.py --url postgresql+asyncpg://postgres@127.0.0.1/hokm_bench
                                                     # the same on PostgreSQL (its own database)
    python bench/store_bench.py --reuse --cache-mib 1024 --idle 180
                                                     # a larger writer cache (store_cache_mib),
                                                     # timed after 3 minutes idle
    python bench/store_bench.py --reuse --drop-file-cache   # none of the file in the OS cache

On SQLite the timing starts once the writer's cache is filled (``bot/store/write_cache.py``),
as in the bot a minute after its start. ``--idle`` waits before timing, so a machine that drops
idle file pages from memory (this project's VMs do, after a minute) has done so; the line before
the timings says how much of the file is still in memory (``fincore``).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import math
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from bisect import bisect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from bot.store import FinishedMatch, MatchPlayer, Store, TableRecord, TeamStats
from bot.store.database import safe_url
from bot.store.runner import ThreadRunner
from bot.store.write_cache import DEFAULT_WRITER_CACHE_MIB, describe
from engine import STANDARD, TRUMP, Match, Rules
from engine.story import record

START = datetime(2024, 1, 1, tzinfo=UTC)
SPAN = timedelta(days=365)
SCRIPTS = 500  # distinct engine matches per target score (reseated for every stored match)


@dataclass(frozen=True, slots=True)
class Script:
    """One real match of the engine (random legal play), reused by many stored matches: its
    hands, scores and team statistics as the bot records them, and its replay record."""

    hands: list[dict[str, Any]]
    scores: tuple[int, int]
    winner: int
    stats: tuple[TeamStats, TeamStats]
    replay: dict[str, Any]


def simulate(rng: random.Random, target: int) -> Script:
    """A standard match played to ``target`` by random legal moves, recorded as the bot
    records a finished match (``bot.service.history.finished_match``), replay included."""
    match = Match(rng.randrange(2**63), Rules(target_score=target))
    while not match.is_over:
        seat = match.to_act
        if match.phase == TRUMP:
            match.choose_trump(seat, rng.randrange(4))
        else:
            match.play(seat, rng.choice(match.legal_cards(seat)))
    won, kots, suffered = [0, 0], [0, 0], [0, 0]
    for r in match.hand_results:
        won[r.winner_team] += 1
        kots[r.winner_team] += r.is_kot
        team = r.hakem_kot_suffered_by(STANDARD)
        if team is not None:
            suffered[team] += 1
    winner = match.winner_team
    assert winner is not None
    stats = (TeamStats(won[0], kots[0], suffered[0]), TeamStats(won[1], kots[1], suffered[1]))
    hands = [r._asdict() | {"trump": r.trump.letter} for r in match.hand_results]
    scores = (match.scores[0], match.scores[1])
    return Script(hands, scores, winner, stats, record(match))


class Generator:
    """Deterministic, realistic-looking matches over guilds with their own player subsets."""

    def __init__(self, guilds: int, players: int, seed: int) -> None:
        self.rng = random.Random(seed)
        rng = self.rng
        self.guild_ids = [900_000_000_000_000_000 + g for g in range(guilds)]
        self.members: list[list[int]] = []
        self.member_weights: list[list[float]] = []
        sizes = []
        for _ in range(guilds):  # log-uniform community sizes, 8 to 2,000 regulars
            size = min(players, int(math.exp(rng.uniform(math.log(8), math.log(2000)))))
            sizes.append(size)
            ids = rng.sample(range(players), size)
            self.members.append([100_000_000_000_000_000 + p for p in ids])
            # a few regulars play much more than the rest
            weights = [1.0 / (i + 1) ** 0.8 for i in range(size)]
            self.member_weights.append(list(_cumulative(weights)))
        self.guild_cum = list(_cumulative([float(s) for s in sizes]))  # busier where bigger
        self.targets = [rng.choice((7, 7, 7, 7, 7, 5, 3, 10)) for _ in range(guilds)]
        self.scripts = {t: [simulate(rng, t) for _ in range(SCRIPTS)] for t in set(self.targets)}
        self.jitter = [timedelta(seconds=s) for s in range(60)]
        self.durations = [timedelta(minutes=m) for m in range(8, 46)]
        self._players: dict[tuple[int, int | None], MatchPlayer] = {}

    def player(self, seat: int, uid: int | None) -> MatchPlayer:
        """Cached: the fill builds four million seats from a few hundred thousand distinct."""
        key = (seat, uid)
        p = self._players.get(key)
        if p is None:
            name = f"Player {uid % 100_000}" if uid is not None else f"Computer {seat}"
            p = MatchPlayer(seat, seat % 2, uid, uid is None, name)
            self._players[key] = p
        return p

    def match(
        self, index: int, total: int, guild: int | None = None, match_id: str | None = None
    ) -> FinishedMatch:
        rng = self.rng
        g = bisect(self.guild_cum, rng.random() * self.guild_cum[-1]) if guild is None else guild
        members, cum = self.members[g], self.member_weights[g]
        computers = 0 if rng.random() < 0.87 else (1 if rng.random() < 0.75 else 2)
        humans: list[int] = []
        while len(humans) < min(4 - computers, len(members)):
            uid = members[bisect(cum, rng.random() * cum[-1])]
            if uid not in humans:
                humans.append(uid)
        seats: list[int | None] = [*humans, *([None] * (4 - len(humans)))]
        rng.shuffle(seats)
        script = self.scripts[self.targets[g]][int(rng.random() * SCRIPTS)]
        finished = START + SPAN * (index / max(total, 1)) + self.jitter[int(rng.random() * 60)]
        players = tuple(self.player(seat, uid) for seat, uid in enumerate(seats))
        return FinishedMatch(
            match_id=match_id or f"m{index:010d}",
            guild_id=self.guild_ids[g],
            channel_id=self.guild_ids[g] + 1 + rng.randrange(3),
            started_at=finished - self.durations[int(rng.random() * 38)],
            finished_at=finished,
            target_score=self.targets[g],
            scores=script.scores,
            winner_team=script.winner,
            hands=script.hands,
            players=players,
            team_stats=script.stats,
            replay=script.replay,
        )


def _cumulative(values: list[float]) -> list[float]:
    out, acc = [], 0.0
    for v in values:
        acc += v
        out.append(acc)
    return out


def remove_db(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def count_matches(path: Path) -> int:
    if not path.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as raw:
            return int(raw.execute("SELECT count(*) FROM matches").fetchone()[0])
    except sqlite3.Error:
        return 0


async def fill(args: argparse.Namespace, store: Store, gen: Generator) -> float:
    """Write `args.matches` generated matches through `Store.finish_matches`, in batches."""
    total = args.matches
    batch_size = args.batch or min(5_000, max(2_000, total // 20))
    t0 = time.perf_counter()
    done = 0
    report_every = max(total // 20, batch_size)
    next_report = report_every
    while done < total:
        n = min(batch_size, total - done)
        flags = await store.finish_matches([gen.match(done + i, total) for i in range(n)])
        assert all(flags), "fill produced a duplicate match id"
        done += n
        if done >= next_report or done == total:
            elapsed = time.perf_counter() - t0
            print(
                f"filled {done:,}/{total:,} matches in {elapsed:.1f}s ({done / elapsed:,.0f}/s)",
                flush=True,
            )
            next_report += report_every
    return time.perf_counter() - t0


def _waited_ms() -> float | None:
    """This thread's time spent runnable but waiting for a CPU (Linux schedstat), or None."""
    try:
        with open(f"/proc/self/task/{threading.get_native_id()}/schedstat") as f:
            return int(f.read().split()[1]) / 1e6
    except (OSError, IndexError, ValueError):
        return None


def _disk_read_kib() -> float | None:
    """This thread's reads that reached the disk so far (Linux task I/O accounting), or None:
    a page of the file not in the OS page cache any more (the machine evicts idle pages)."""
    try:
        with open(f"/proc/self/task/{threading.get_native_id()}/io") as f:
            for line in f:
                if line.startswith("read_bytes:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return None


class WriterClock:
    """Times each ``finish_match`` inside the store's writer thread: wall time, that thread's
    CPU time, and (Linux) its wait for a CPU while runnable, so a write's own work shows apart
    from the machine's other processes and from the hop to the thread and back."""

    def __init__(self, store: Store) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []
        self.waited: list[float] = []
        self.disk: list[tuple[float, float]] = []  # (KiB read from disk, wall ms) per write
        runner = store._runner
        assert isinstance(runner, ThreadRunner)
        self._runner = runner
        self._inner = runner._write_sync
        finish = store._ops.finish_match

        def timed_write(fn: Callable[..., Any], call_args: tuple[Any, ...]) -> Any:
            if fn != finish:
                return self._inner(fn, call_args)
            d, w, t, c = _disk_read_kib(), _waited_ms(), time.perf_counter(), time.thread_time()
            try:
                return self._inner(fn, call_args)
            finally:
                self.cpu.append((time.thread_time() - c) * 1000)
                self.wall.append((time.perf_counter() - t) * 1000)
                after = _waited_ms()
                if w is not None and after is not None:
                    self.waited.append(after - w)
                read = _disk_read_kib()
                if d is not None and read is not None:
                    self.disk.append((read - d, self.wall[-1]))

        runner._write_sync = timed_write  # type: ignore[method-assign,assignment]

    def stop(self) -> None:
        self._runner._write_sync = self._inner  # type: ignore[method-assign]


def _drop_file_cache(path: Path) -> None:
    """Ask the OS to forget the database file's pages (and its WAL's): every read that
    misses SQLite's own caches then goes to the disk."""
    for part in path.parent.glob(path.name + "*"):
        fd = os.open(part, os.O_RDONLY)
        try:
            os.fsync(fd)  # dirty pages are not dropped
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def _resident_mib(path: Path) -> int | None:
    """How much of the database file the OS page cache holds (util-linux ``fincore``), or
    None where there is no fincore."""
    try:
        out = subprocess.run(
            ["fincore", "--bytes", "--noheadings", "--output", "RES", str(path)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        return round(int(out.split()[0]) / 2**20)
    except (OSError, subprocess.CalledProcessError, ValueError, IndexError):
        return None


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


async def timed(
    label: str, reps: int, make: Callable[[int], Awaitable[Any]], prepare: Any = None
) -> list[float]:
    """Milliseconds per call; `prepare(i)` runs untimed before call i."""
    samples = []
    gc.collect()
    gc.freeze()  # as the bot does once started: what exists stays out of later collections
    for i in range(reps):
        if prepare is not None:
            await prepare(i)
        t = time.perf_counter()
        await make(i)
        samples.append((time.perf_counter() - t) * 1000)
    p50, p99 = statistics.median(samples), percentile(samples, 0.99)
    print(f"{label}: p50 {p50:.3f} ms, p99 {p99:.3f} ms, max {max(samples):.3f} ms", flush=True)
    return samples


def _probe(conn: sa.Connection, reps: int) -> tuple[int, int, list[int], list[str]]:
    """The busiest guild (most ranked players), its members and a sample of its matches."""
    guild_id, guild_players = conn.execute(
        sa.text(
            "SELECT guild_id, count(*) FROM standings GROUP BY guild_id "
            "ORDER BY count(*) DESC, guild_id LIMIT 1"
        )
    ).one()
    members = list(
        conn.execute(
            sa.text("SELECT user_id FROM standings WHERE guild_id = :g"), {"g": guild_id}
        ).scalars()
    )
    sample = list(
        conn.execute(
            sa.text("SELECT match_id FROM matches WHERE guild_id = :g ORDER BY random() LIMIT :n"),
            {"g": guild_id, "n": reps},
        ).scalars()
    )
    return guild_id, guild_players, members, sample


def _rated(conn: sa.Connection, pattern: str) -> int:
    """How many of the matches whose id matches ``pattern`` changed ratings."""
    stmt = sa.text("SELECT count(DISTINCT match_id) FROM rating_changes WHERE match_id LIKE :p")
    return int(conn.execute(stmt, {"p": pattern}).scalar_one())


def _size_mib(conn: sa.Connection) -> int:
    size = conn.execute(sa.text("SELECT pg_database_size(current_database())")).scalar_one()
    return round(int(size) / 2**20)


async def _pg_matches(url: str) -> int:
    """Matches stored in the PostgreSQL database (0 without a schema)."""
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            found = await conn.execute(sa.text("SELECT to_regclass('matches') IS NOT NULL"))
            if not found.scalar_one():
                return 0
            return int((await conn.execute(sa.text("SELECT count(*) FROM matches"))).scalar_one())
    finally:
        await engine.dispose()


async def _pg_reset(url: str) -> None:
    """An empty schema: every table of the bench's own database goes."""
    engine = create_async_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.execute(sa.text("DROP SCHEMA public CASCADE"))
            await conn.execute(sa.text("CREATE SCHEMA public"))
    finally:
        await engine.dispose()


async def run(args: argparse.Namespace) -> dict[str, Any]:
    path: Path = args.db
    postgres = args.url is not None
    url = args.url or f"sqlite:///{path}"
    where = safe_url(url) if postgres else str(path)
    gen = Generator(args.guilds, args.players, args.seed)
    existing = await _pg_matches(url) if postgres else count_matches(path)
    fill_seconds: float | None = None
    if args.reuse and existing:
        print(f"reusing {where} with {existing:,} matches", flush=True)
    elif postgres:
        await _pg_reset(url)
    else:
        remove_db(path)
    if not (args.reuse and existing):
        store = await Store.open(url)
        try:
            fill_seconds = await fill(args, store, gen)
        finally:
            await store.close()  # checkpoints the WAL into the file
        if postgres:
            engine = create_async_engine(url, isolation_level="AUTOCOMMIT")
            try:
                async with engine.connect() as conn:
                    await conn.execute(sa.text("VACUUM ANALYZE"))  # what autovacuum would do
            finally:
                await engine.dispose()
        if args.matches > 100_000:
            os.sync()  # time steady serving, not the kernel flushing the bulk load
    matches = await _pg_matches(url) if postgres else count_matches(path)
    store = await Store.open(url, writer_cache_mib=args.cache_mib)
    try:
        warm = await store.warmed()  # as the bot would be a minute after its start
        if warm is not None:
            print(describe(warm, args.cache_mib), flush=True)
        resident = None if postgres else _resident_mib(path)
        if args.idle:
            print(f"idle {args.idle:.0f} s (file in memory: {resident} MiB)", flush=True)
            await asyncio.sleep(args.idle)  # a machine that reclaims idle file pages does so
            resident = None if postgres else _resident_mib(path)
            print(f"  file in memory after it: {resident} MiB", flush=True)
        if args.drop_file_cache and not postgres:
            _drop_file_cache(path)  # the worst case: a machine just rebooted, say
            resident = _resident_mib(path)
            print(f"dropped the file from the OS cache: {resident} MiB in memory", flush=True)
        guild_id, guild_players, members, sample = await store._runner.read(_probe, args.reps)
        print(f"timing guild {guild_id} ({guild_players:,} ranked players)", flush=True)
        rng = random.Random(args.seed + 1)
        g = gen.guild_ids.index(guild_id) if guild_id in gen.guild_ids else 0
        probe = [rng.choice(members) for _ in range(args.reps)]

        for _ in range(20):  # warm caches and the connection pool
            await store.standings(guild_id, 1)
            await store.member_record(guild_id, probe[0])
        standings = await timed(
            "standings page 1", args.reps, lambda i: store.standings(guild_id, 1)
        )
        member = await timed(
            "member record", args.reps, lambda i: store.member_record(guild_id, probe[i])
        )
        history = await timed(
            "history page 1 (server)", args.reps, lambda i: store.history(guild_id, 1)
        )
        history_member = await timed(
            "history page 1 (member)",
            args.reps,
            lambda i: store.history(guild_id, 1, user_id=probe[i]),
        )
        pages = (await store.history(guild_id, 1)).pages
        anywhere = [rng.randint(1, pages) for _ in range(args.reps)]
        history_any = await timed(
            f"history page 1-{pages} (server)",
            args.reps,
            lambda i: store.history(guild_id, anywhere[i]),
        )
        replays = await timed(
            "match replay read",
            args.reps,
            lambda i: store.match_replay(guild_id, sample[i % len(sample)]),
        )

        run_id = time.time_ns()  # fresh ids, so --reuse runs time real inserts too
        new = [
            gen.match(matches, matches, guild=g, match_id=f"t{run_id}-{i}")
            for i in range(args.reps)
        ]
        channel = 10**15 + run_id % 10**12 * 2  # fresh channels too (a run may have died)
        tables: dict[int, TableRecord] = {}

        async def open_table(i: int) -> None:
            rec = TableRecord(f"b{run_id}-{i}", guild_id, channel, "playing", 1, {})
            tables[i] = await store.save_table(rec)

        inside = WriterClock(store) if isinstance(store._runner, ThreadRunner) else None
        writes = await timed(
            "finish_match (+ ratings, replay, final table save)",
            args.reps,
            lambda i: store.finish_match(new[i], tables[i].bump(state={"final": True})),
            prepare=open_table,
        )
        rated = await store._runner.read(_rated, f"t{run_id}-%")
        print(f"  {rated} of the {args.reps} matches written changed ratings", flush=True)
        wall: list[float] | None = None
        cpu: list[float] | None = None
        waited: list[float] | None = None
        disk_reads: int | None = None
        if inside is not None:
            inside.stop()
            wall, cpu, waited = inside.wall, inside.cpu, inside.waited or None
            print(
                f"  of which in the writer thread: p50 {statistics.median(wall):.3f} ms, "
                f"p99 {percentile(wall, 0.99):.3f} ms; its CPU p50 "
                f"{statistics.median(cpu):.3f} ms, p99 {percentile(cpu, 0.99):.3f} ms",
                flush=True,
            )
            if waited:
                print(
                    f"  waiting for a CPU meanwhile: p50 {statistics.median(waited):.3f} ms, "
                    f"p99 {percentile(waited, 0.99):.3f} ms (other processes on the machine)",
                    flush=True,
                )
            if inside.disk:
                ranked = sorted(inside.disk, key=lambda write: write[1])
                worst = ranked[-max(1, len(ranked) // 100) :]
                disk_reads = sum(1 for kib, _ in ranked if kib > 0)
                print(
                    f"  {disk_reads} of the writes read from the disk "
                    f"({sum(kib for kib, _ in ranked):,.0f} KiB), "
                    f"{sum(1 for kib, _ in worst if kib > 0)} of the slowest 1 %",
                    flush=True,
                )

        state = {
            "hand": 3,
            "trick": ["AS", "KS", None, None],
            "hands": [[f"c{i}" for i in range(13)]] * 4,
        }
        live = await store.save_table(
            TableRecord(f"live{run_id}", guild_id, channel + 1, "playing", 1, state)
        )

        async def save(i: int) -> None:
            nonlocal live
            live = await store.save_table(live.bump(state={**state, "n": i}))

        saves = await timed("save_table (one card)", args.reps, save)
        await store.save_table(live.bump(status="cancelled"))
        if postgres:
            db_mib = await store._runner.read(_size_mib)
        else:
            db_mib = round(sum(p.stat().st_size for p in path.parent.glob(path.name + "*")) / 2**20)
    finally:
        await store.close()

    return {
        "standings_p50_ms": round(statistics.median(standings), 3),
        "standings_p99_ms": round(percentile(standings, 0.99), 3),
        "member_record_p50_ms": round(statistics.median(member), 3),
        "member_record_p99_ms": round(percentile(member, 0.99), 3),
        "history_p50_ms": round(statistics.median(history), 3),
        "history_p99_ms": round(percentile(history, 0.99), 3),
        "history_member_p50_ms": round(statistics.median(history_member), 3),
        "history_member_p99_ms": round(percentile(history_member, 0.99), 3),
        "history_any_page_p99_ms": round(percentile(history_any, 0.99), 3),
        "history_pages": pages,
        "replay_read_p50_ms": round(statistics.median(replays), 3),
        "replay_read_p99_ms": round(percentile(replays, 0.99), 3),
        "match_write_p50_ms": round(statistics.median(writes), 3),
        "match_write_p99_ms": round(percentile(writes, 0.99), 3),
        "match_writes_rated": rated,
        "match_write_in_thread_p50_ms": wall and round(statistics.median(wall), 3),
        "match_write_in_thread_p99_ms": wall and round(percentile(wall, 0.99), 3),
        "match_write_thread_cpu_p50_ms": cpu and round(statistics.median(cpu), 3),
        "match_write_thread_cpu_p99_ms": cpu and round(percentile(cpu, 0.99), 3),
        "match_write_cpu_wait_p99_ms": waited and round(percentile(waited, 0.99), 3),
        "match_writes_reading_disk": disk_reads,
        "matches": matches,
        "fill_seconds": None if fill_seconds is None else round(fill_seconds, 1),
        "table_save_p50_ms": round(statistics.median(saves), 3),
        "table_save_p99_ms": round(percentile(saves, 0.99), 3),
        "guild_players": guild_players,
        "db_mib": db_mib,
        "store": "postgresql" if postgres else "sqlite",
        "writer_cache_mib": None if postgres else args.cache_mib,
        "writer_cache_held_mib": warm
        and warm.pages is not None
        and round(warm.pages * warm.page_size / 2**20),
        "idle_s": args.idle,
        "file_in_memory_mib": resident,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--matches", type=int, default=1_000_000)
    parser.add_argument("--guilds", type=int, default=1_000)
    parser.add_argument("--players", type=int, default=50_000)
    parser.add_argument(
        "--db", default=str(Path(tempfile.gettempdir()) / "hokm-store-bench.sqlite3")
    )
    parser.add_argument(
        "--url",
        help="a PostgreSQL database of its own (postgresql+asyncpg://…) instead of the SQLite "
        "file: every table in it is dropped first (without --reuse)",
    )
    parser.add_argument("--reuse", action="store_true", help="time an existing filled store")
    parser.add_argument("--reps", type=int, default=500, help="repetitions per timed call")
    parser.add_argument(
        "--batch", type=int, default=0, help="matches per fill transaction (0: automatic)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--cache-mib",
        type=int,
        default=DEFAULT_WRITER_CACHE_MIB,
        help="the SQLite writer's page cache (the bot's store_cache_mib)",
    )
    parser.add_argument(
        "--idle",
        type=float,
        default=0.0,
        help="seconds to wait before timing, for a machine that drops idle file pages",
    )
    parser.add_argument(
        "--drop-file-cache",
        action="store_true",
        help="before timing, drop the database file from the OS page cache (SQLite only)",
    )
    args = parser.parse_args()
    args.db = Path(args.db).absolute()
    result = asyncio.run(run(args))
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
