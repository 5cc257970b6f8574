"""What one finished match's write costs the store's writer, without the machine's noise:
CPU time per write (this thread's), and with ``--callgrind`` the instructions per write.

`bench/store_bench.py` times the write end to end on a busy machine, where the wall time's
tail is mostly other processes holding the CPU. This measures the write's own work, so two
versions of the store can be compared (A/B) on the same file: ``--code DIR`` imports ``bot``
from another checkout (e.g. ``git archive main | tar -x -C /tmp/base``).

The write is the bot's: ``finish_match`` with its table's final save (the match, players,
replay, standings, rating update, the table and its seats), one transaction, called in this
thread the way the store's writer thread calls it (``ThreadRunner._write_sync``), after the
table was opened (untimed). The matches are generated as ``store_bench`` generates them, in
its busiest guild (by ranked players), so most change ratings.

    python bench/write_cost.py --db /tmp/hokm-store-bench.sqlite3       # a filled bench file
    python bench/write_cost.py --matches 20000                          # fills a small file first
    python bench/write_cost.py --callgrind                              # instructions per write
    python bench/write_cost.py --code /tmp/base                         # the other version

The file grows by the writes (fresh match ids every run). The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import math
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _import_path(code: str | None) -> None:
    """``bot`` (and ``engine``) from ``code`` when given, else from this checkout; the bench
    helpers always from this checkout's ``bench``."""
    sys.path.insert(0, str(ROOT / "bench"))
    sys.path.insert(0, str(Path(code).resolve() if code else ROOT))
    import bot.store  # noqa: F401 (now, before store_bench puts this checkout first)
    import engine  # noqa: F401


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


async def _fill(path: Path, matches: int, seed: int) -> None:
    import store_bench

    from bot.store import Store

    gen = store_bench.Generator(1_000, 50_000, seed)
    store = await Store.open(f"sqlite:///{path}")
    try:
        args = argparse.Namespace(matches=matches, batch=0)
        await store_bench.fill(args, store, gen)
    finally:
        await store.close()


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """Open the file, make ``args.writes`` matches and time each write in this thread."""
    import sqlalchemy as sa
    import store_bench

    from bot.store import Store, TableRecord

    store_bench.SCRIPTS = args.scripts  # fewer engine matches to simulate: quicker start-up
    path = Path(args.db).absolute()
    if store_bench.count_matches(path) < args.matches:
        store_bench.remove_db(path)
        asyncio.run(_fill(path, args.matches, args.seed))

    store: Store = asyncio.run(Store.open(f"sqlite:///{path}"))
    runner: Any = store._runner
    ops = store._ops
    write = runner._write_sync  # the writer thread's unit of work, run in this thread

    def busiest(conn: sa.Connection) -> int:
        return int(
            conn.execute(
                sa.text(
                    "SELECT guild_id FROM standings GROUP BY guild_id "
                    "ORDER BY count(*) DESC, guild_id LIMIT 1"
                )
            ).scalar_one()
        )

    guild_id = runner._read_sync(busiest, ())
    gen = store_bench.Generator(1_000, 50_000, args.seed)
    g = gen.guild_ids.index(guild_id)
    run_id = time.time_ns()
    total = args.warmup + args.writes
    new = [gen.match(10**6, 10**6, guild=g, match_id=f"w{run_id}-{i}") for i in range(total)]
    channel = 2 * 10**15 + run_id % 10**12 * 2
    cpu: list[float] = []
    wall: list[float] = []
    gc.collect()
    gc.freeze()
    for i, m in enumerate(new):
        table = write(
            ops.save_table, (TableRecord(f"w{run_id}-{i}", guild_id, channel, "playing", 1, {}),)
        )
        final = table.bump(state={"final": True})
        t, c = time.perf_counter(), time.thread_time()
        assert write(ops.finish_match, (m, final))
        if i >= args.warmup:
            cpu.append((time.thread_time() - c) * 1000)
            wall.append((time.perf_counter() - t) * 1000)
    asyncio.run(store.close())
    return {
        "writes": len(cpu),
        "cpu_p50_ms": round(statistics.median(cpu), 3),
        "cpu_mean_ms": round(statistics.fmean(cpu), 3),
        "cpu_p99_ms": round(percentile(cpu, 0.99), 3),
        "wall_p50_ms": round(statistics.median(wall), 3),
        "wall_p99_ms": round(percentile(wall, 0.99), 3),
    }


def callgrind(args: argparse.Namespace) -> dict[str, Any]:
    """Instructions per write: this script under callgrind with ``n`` and ``2n`` writes, the
    difference over ``n`` (start-up, imports and the file's opening cancel out). Each run
    works on its own copy of the file, so both start from the same state."""
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed")
    counts = []
    with tempfile.TemporaryDirectory() as tmp:
        for writes in (args.writes, 2 * args.writes):
            copy = Path(tmp) / "copy.sqlite3"
            shutil.copyfile(args.db, copy)
            out = Path(tmp) / "callgrind.out"
            cmd = [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                sys.executable,
                __file__,
                "--db",
                str(copy),
                "--writes",
                str(writes),
                "--warmup",
                str(args.warmup),
                "--matches",
                "0",
                "--scripts",
                str(args.scripts),
                "--seed",
                str(args.seed),
            ]
            if args.code:
                cmd += ["--code", args.code]
            done = subprocess.run(cmd, capture_output=True, text=True, check=True)
            found = re.search(r"Collected : (\d+)", done.stderr)
            assert found, done.stderr[-2000:]
            counts.append(int(found.group(1)))
            for p in Path(tmp).iterdir():
                p.unlink()
    per_write = (counts[1] - counts[0]) / args.writes
    print(f"instructions per write: {per_write / 1e6:.2f} M ({counts[0]:,} / {counts[1]:,})")
    return {"instructions_per_write": round(per_write), "writes": args.writes}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument(
        "--db", default=str(Path(tempfile.gettempdir()) / "hokm-write-cost.sqlite3")
    )
    parser.add_argument(
        "--matches", type=int, default=20_000, help="fill the file first if it has fewer"
    )
    parser.add_argument("--writes", type=int, default=300, help="timed writes")
    parser.add_argument("--warmup", type=int, default=20, help="untimed writes first")
    parser.add_argument("--scripts", type=int, default=20, help="engine matches per target")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--code", help="import bot from this checkout instead (A/B)")
    parser.add_argument("--callgrind", action="store_true", help="count instructions per write")
    args = parser.parse_args()
    _import_path(args.code)
    if args.callgrind:
        if args.matches:  # fill here, not under valgrind
            import store_bench

            store_bench.SCRIPTS = args.scripts
            path = Path(args.db).absolute()
            if store_bench.count_matches(path) < args.matches:
                store_bench.remove_db(path)
                asyncio.run(_fill(path, args.matches, args.seed))
        result = callgrind(args)
    else:
        result = measure(args)
        print(
            f"finish_match in this thread: CPU p50 {result['cpu_p50_ms']:.3f} ms, "
            f"mean {result['cpu_mean_ms']:.3f} ms, p99 {result['cpu_p99_ms']:.3f} ms; "
            f"wall p50 {result['wall_p50_ms']:.3f} ms, p99 {result['wall_p99_ms']:.3f} ms"
        )
    import bot

    result["code"] = str(Path(bot.__file__).resolve().parents[1])
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
