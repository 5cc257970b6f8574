"""Load benchmark: many Hokm tables played at once against the real bot, with Discord's limits.

What it measures, and why: one bot token gets about 50 non-interaction REST calls a second in
all and about 5 message creates/edits per 5 s per channel, whatever the number of tables. So the
number of tables one bot can host is bounded by (a) how many non-interaction calls a played card
costs, (b) how fast the bot acknowledges a click (Discord gives 3 s, players notice ~250 ms), and
(c) its memory. This script runs the bot exactly as in production (``python -m bot``, its own
process, SQLite store) against the local Discord double with its rate limiter on, opens
``--tables`` tables (``/hokm new`` + three Join clicks, or "Add computer" for ``--computers``
seats), and lets four simulated members per table play by clicking legal cards after a
0.5-3 s think time, for ``--seconds`` seconds.

How a member finds their turn (DM, or "My hand" when the DM is late) is told in
``bench/table_driver.py``, what they read and click in ``bench/member.py`` (from the bot's own
catalog and custom ids, ``bench/bot_text.py``); the one poller that keeps the simulator off the
double's change notifications in ``bench/harness.py``.

The last line printed is one JSON object (progress goes to stderr)::

    python bench/bot_load.py --tables 10 --seconds 20
    python bench/bot_load.py --tables 200 --seconds 60
    python bench/bot_load.py --tables 50 --seconds 30 --computers 2 --difficulty hard

Keys (the first ones are the targets): tables; cards_played (every card, computers' too, counted
from the bot's store; ``cards_source``); interactions; interaction_ack_ms_p50/_p99 (the double's
clock, from dispatching INTERACTION_CREATE to receiving the callback); non_interaction_calls
(everything except interaction callbacks and interaction webhooks, counted from when the first
table opens, so start-up and command sync are excluded) and _per_card; http_requests_per_card
(every request the bot makes from then on, interaction callbacks and followups included: what a
card costs the bot in requests, whether or not they spend the global budget); http_429;
steady_bot_cpu_ms_per_card and steady_http_requests_per_card (the same per member's card, from
5 s after the last table opened: the tables' opening left out; ``steady_cards``); errors (each
failed interaction once: unanswered or refused, as Discord would show "This interaction
failed"; plus error replies, 5xx, the double's own failures and ERROR/Traceback entries in the
bot's log); bot_rss_mb (at the end); loop_lag_ms_p99/_max (the worst 5 s window of the bot's own
``loop lag:`` log lines, bot/loop_monitor.py; without them, ack latency above its floor, which
``ack_excess_ms_*`` always reports; ``loop_lag_source`` says which). Then breakdowns: ack p99 by
click kind and per 5 s, calls by route, turn-signal paths, CPU of the bot / this process / other
processes on the machine (other load skews every latency figure), and this process's own loop
lag and GC pauses. With matches ending (``--analysis-workers``): matches_finished,
matches_analysed and hands_analysed (the analyses stored, from the bot's log, whole run),
analysis_cpu_s (CPU seconds the analysis workers, the bot's children at the lowest priority,
used during the measured window: work under way counts too, so it shows the worker ran even
when no match's analysis finished).

The tables are spread over servers of ``--tables-per-server`` (default 25): a server opens at
most ``max_open_tables`` tables (default 25), so 200 tables in one server would measure
25 tables and thousands of refused ``/hokm new``.

``--store-scheme sqlite`` runs the store on its thread runner instead of aiosqlite;
``--profile FILE`` records the bot with py-spy (``pip install py-spy``) for the run.

The shared rate limiter: with ``--processes N --database URL`` the bot processes share the
budget through PostgreSQL; ``--redis-url redis://127.0.0.1:6379/0`` makes them share it through
Redis instead (the bot's ``redis_url`` setting, ``HOKM_REDIS_URL``). ``limiter`` in the result
says which backend each process's log named (``rate limiter: …``). Kept within this file, so
that an older checkout runs it with only this file replaced.

Attack mode (fair sharing; its keys are described in ``bench/attack.py``)::

    python bench/bot_load.py --attack-tables 110 --tables 20 --computers 2 --difficulty hard

Hint attack (one member pressing Hint; ``bench/hint_attack.py``)::

    python bench/bot_load.py --attack-hints 5 --tables 20 --computers 2 --difficulty hard

Churn mode (memory under table churn; ``bench/churn.py``)::

    python bench/bot_load.py --churn 2000
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import re
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from bench.attack import add_attack_args, plan_attack  # noqa: E402
from bench.harness import RESPONSE_TIMEOUT, Args, Bench  # noqa: E402
from bench.metrics import (  # noqa: E402
    LAG_LOG_SECONDS,
    GcWatch,
    ack_breakdown,
    cards_in_store,
    host_busy_seconds,
    percentile,
    rounded,
    routes_breakdown,
    scan_log,
    thinking_report,
)
from bench.processes import (  # noqa: E402
    Fleet,
    Progress,
    RunDatabase,
    audit,
    kill_every,
    kill_report,
    load_tables,
    rotation_report,
)
from bench.table_driver import TableDriver  # noqa: E402
from bot.__main__ import loop_factory  # noqa: E402
from tests.double.ratelimit import RateLimitConfig  # noqa: E402
from tests.double.server import DiscordDouble  # noqa: E402

# --------------------------------------------------------------------------- the run


LIMITER_LINE = re.compile(r"rate limiter: (local|postgresql|redis)\b")


HANDS_GRADED = re.compile(r": analysed in [0-9.]+ s, (\d+) hands graded")
"""The analysis worker's line for a stored match (``bot.service.analysis``)."""


def limiters_named(log_text: str) -> dict[str, int]:
    """How many processes named each limiter backend as they started (``Limiter.start``)."""
    return dict(Counter(LIMITER_LINE.findall(log_text)))


def bot_env(
    double: DiscordDouble,
    tmp: Path,
    guild_ids: list[int],
    args: Args,
    database_url: str | None = None,
) -> dict[str, str]:
    env = dict(double.env())
    env.update(
        {
            "HOKM_DATABASE_URL": database_url or f"{args.store_scheme}:///{tmp / 'hokm.sqlite3'}",
            "HOKM_DEV_GUILD_IDS": json.dumps(guild_ids),
            "HOKM_COMMAND_SYNC_FILE": str(tmp / "command-sync.sha256"),
            "HOKM_GUILD_READY_TIMEOUT": "0.2",
            "HOKM_COMPUTER_DELAY_SECONDS": str(args.computer_delay),
            "HOKM_LOG_LEVEL": "INFO",
            "HOKM_LOOP_LAG_REPORT_SECONDS": str(LAG_LOG_SECONDS),
            "HOKM_EVENT_LOOP": args.event_loop,
        }
    )
    if args.analysis_workers is not None:
        env["HOKM_ANALYSIS_WORKERS"] = str(args.analysis_workers)
    return env


def find_py_spy() -> str | None:
    exe = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    return exe if Path(exe).exists() else None


async def start_profiler(pid: int, path: str, seconds: float) -> asyncio.subprocess.Process | None:
    exe = find_py_spy()
    if exe is None:
        print("py-spy not found; pip install py-spy to use --profile", file=sys.stderr)
        return None
    # .txt: collapsed stacks ("raw"), easy to sum with a script
    fmt = {".json": "speedscope", ".txt": "raw"}.get(Path(path).suffix, "flamegraph")
    argv = [
        exe,
        "record",
        "-p",
        str(pid),
        "-d",
        str(int(seconds)),
        "-o",
        path,
        "-f",
        fmt,
        "-r",
        "50",
    ]
    return await asyncio.create_subprocess_exec(
        *argv, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL
    )


async def progress(bench: Bench, drivers: list[TableDriver], t0: float) -> None:
    loop = asyncio.get_running_loop()
    counters = bench.double.counters
    while True:
        await asyncio.sleep(10.0)
        acks = [
            r.response_time * 1000
            for r in list(bench.world.interactions.values())[-2000:]
            if r.response_time is not None
        ]
        print(
            f"[{loop.time() - t0:5.1f}s] cards={bench.human_cards} paths={dict(bench.paths)} "
            f"calls={counters.non_interaction} 429={counters.http_429} "
            f"ack_p99(last 2000)={percentile(acks, 99):.0f}ms "
            f"open={sum(d.opened for d in drivers)}",
            file=sys.stderr,
        )


async def run(args: Args) -> dict[str, Any]:
    shards = args.processes
    double = DiscordDouble(
        ratelimits=RateLimitConfig(enabled=True), backlog=args.backlog, shard_count=shards
    )
    await double.start()
    tmp = Path(tempfile.mkdtemp(prefix="hokm-load-"))
    fleet: Fleet | None = None
    database = RunDatabase(args.database) if args.database else None
    progress_poll: Progress | None = None
    profiler: asyncio.subprocess.Process | None = None
    try:
        per = args.tables_per_server
        guilds = [
            double.create_guild(
                "Hokm Load" if g == 0 else f"Hokm Load {g}",
                shard=(g % shards, shards) if shards > 1 else None,
            )
            for g in range(math.ceil(args.tables / per))
        ]
        channels = [
            double.add_text_channel(guilds[i // per], f"table-{i:03d}") for i in range(args.tables)
        ]
        users = [
            [double.add_member(guilds[i // per], f"p{i:03d}{k}") for k in "abcd"]
            for i in range(args.tables)
        ]
        guild_ids = [g.id for g in guilds]
        attack = plan_attack(double, args)
        if database is not None:
            await database.create()
        env = bot_env(double, tmp, guild_ids, args, database.url if database else None)
        if attack is not None:
            attack.patch_env(env, guild_ids)
        print(
            f"starting {shards} bot process(es) ({args.tables} tables, {4 * args.tables} members)",
            file=sys.stderr,
        )
        fleet = Fleet(double, env, shards, tmp)
        await fleet.start_all()
        await asyncio.sleep(1.0)  # guild_ready_timeout, then on_ready
        bot = fleet.live()[0]
        print(f"bot ready (pids {[p.pid for p in fleet.live()]})", file=sys.stderr)
        if database is not None:
            progress_poll = Progress(database.server_url, database.name)
            progress_poll.start()

        bench = Bench(double, args)
        bench.marks.members.update(u.id for table_users in users for u in table_users)
        bench.marks.install()
        gc_watch = GcWatch().__enter__()
        freezer = asyncio.create_task(gc_watch.keep_frozen())
        bench.poller.start()
        if attack is not None:
            await attack.start(bench)
        loop = asyncio.get_running_loop()
        double.counters.reset()
        first_interaction = double.world.ids.next()
        t0 = loop.time()
        bench.end_at = t0 + args.seconds
        cpu0, wall0, own0 = fleet.cpu_seconds(), time.monotonic(), time.process_time()
        host0, analysis0 = host_busy_seconds(), fleet.analysis_cpu_seconds()
        wall_t0 = time.time()
        if args.profile:
            profiler = await start_profiler(
                bot.pid, args.profile, args.profile_seconds or args.seconds
            )
        drivers = [TableDriver(bench, i, channels[i], users[i]) for i in range(args.tables)]
        ramp = min(args.ramp if args.ramp is not None else default_ramp(args), args.seconds / 3)
        reporter = asyncio.create_task(progress(bench, drivers, t0))
        killer = (
            asyncio.create_task(kill_and_restart(fleet, args))
            if args.kill_one_at is not None
            else None
        )
        rotation = (
            asyncio.create_task(
                kill_every(
                    fleet, args.kill_every, args.restart_after, bench.end_at, args.kill_which
                )
            )
            if args.kill_every is not None
            else None
        )
        steady = asyncio.create_task(steady_start(bench, fleet, t0 + ramp + STEADY_AFTER_RAMP))
        tasks = [
            asyncio.create_task(d.run(ramp * i / max(1, args.tables)))
            for i, d in enumerate(drivers)
        ]
        done, pending = await asyncio.wait(tasks, timeout=args.seconds + RESPONSE_TIMEOUT + 5.0)
        for task in pending:
            task.cancel()
        crashed = [t.exception() for t in done if not t.cancelled() and t.exception()]
        reporter.cancel()
        # let callbacks that are on their way arrive before counting
        in_flight = [
            r
            for r in double.world.interactions.values()
            if r.id > first_interaction and not (r.responded or r.expired or not r.delivered)
        ]
        await bench.poller.until(
            lambda: all(r.responded or r.expired for r in in_flight), RESPONSE_TIMEOUT
        )
        t_end = loop.time()
        cpu1, wall1, own1 = fleet.cpu_seconds(), time.monotonic(), time.process_time()
        analysis_cpu = fleet.analysis_cpu_seconds() - analysis0
        steady_figures = steady_report(bench, fleet, await steady if steady.done() else None)
        steady.cancel()
        host1 = host_busy_seconds()
        wall_end = time.time()
        counters = double.counters.as_dict()
        non_interaction = double.counters.non_interaction
        http_requests = double.counters.total  # the bot's every request, callbacks included
        memory = fleet.rss_mb()
        kill_at = await killer if killer is not None else None
        kills = await rotation if rotation is not None else []
        if progress_poll is not None:
            await progress_poll.stop()
        await bench.poller.stop()
        freezer.cancel()
        gc_watch.__exit__()
        if profiler is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(profiler.wait(), timeout=15.0)

        records = [r for r in double.world.interactions.values() if r.id > first_interaction]
        acks = [r.response_time * 1000 for r in records if r.response_time is not None]
        unanswered = sum(1 for r in records if not r.responded)
        refused = sum(1 for r in records if r.refused)
        failed = sum(1 for r in records if r.refused or not r.responded)
        requests = [q for q in double.requests if q.at >= t0]
        http_5xx = sum(1 for q in requests if q.status >= 500)
        by_route = routes_breakdown(double, requests)

        await fleet.stop()
        log_text = fleet.output()
        if args.keep_log:
            await asyncio.to_thread(Path(args.keep_log).write_text, log_text)
        logscan = scan_log(log_text, wall_t0, wall_end)
        shared: dict[str, Any] = {}
        if database is not None:
            stored = await load_tables(database.server_url, database.name)
            store_cards: int | None = sum(len(t.plays) for t in stored)
            shared = {"processes": shards} | audit(bench.ledger, stored, fleet.logs())
            if kill_at is not None and progress_poll is not None:
                index = args.kill_index % shards
                killed = {g.id for g in guilds if (g.id >> 22) % shards == index}
                shared |= kill_report(progress_poll, killed, kill_at, t_end)
            if rotation is not None and progress_poll is not None:
                shared |= rotation_report(progress_poll, kills, shards, t_end)
        else:
            store_cards = cards_in_store(tmp / "hokm.sqlite3")
        cards = store_cards if store_cards else bench.human_cards

        floor = min(acks) if acks else math.nan
        excess_p99 = percentile(acks, 99) - floor
        excess_max = (max(acks) - floor) if acks else math.nan
        if logscan["lag"]:  # the bot's own monitor: worst 5 s window
            lag_p99 = max(p for p, _ in logscan["lag"])
            lag_max = max(m for _, m in logscan["lag"])
            lag_source = f"bot log (worst of {len(logscan['lag'])} windows of {LAG_LOG_SECONDS} s)"
        else:
            lag_p99, lag_max = excess_p99, excess_max
            lag_source = "ack latency above its floor (the bot logged no loop lag)"
        # each failure once: a late callback is unanswered *and* refused *and* logged by the bot
        errors = (
            failed
            + bench.stats["internal_error_replies"]
            + max(len(logscan["error_lines"]), logscan["tracebacks"])
            + http_5xx
            + len(double.internal_errors)
            + len(crashed)
        )
        for exc in crashed:
            print(f"driver crashed: {exc!r}", file=sys.stderr)
        for line in (logscan["error_lines"] + logscan["warning_lines"])[:10]:
            print(f"bot log: {line}", file=sys.stderr)
        window = t_end - t0
        wall = wall1 - wall0
        bot_cpu = (cpu1 - cpu0) / wall * 100 if wall > 0 else math.nan
        own_cpu = (own1 - own0) / wall * 100 if wall > 0 else math.nan
        host_cpu = (host1 - host0) / wall * 100 if wall > 0 else math.nan
        attacked = thinking_report(log_text, {c.id for c in channels}, wall_t0, wall_end) | (
            attack.report(log_text, channels, wall_t0, wall_end) if attack else {}
        )
        return (
            attacked
            | shared
            | {
                "tables": args.tables,
                "cards_played": cards,
                "interactions": len(records),
                "interaction_ack_ms_p50": rounded(percentile(acks, 50)),
                "interaction_ack_ms_p99": rounded(percentile(acks, 99)),
                "non_interaction_calls": non_interaction,
                "non_interaction_calls_per_card": round(non_interaction / cards, 3)
                if cards
                else None,
                "http_requests_per_card": round(http_requests / cards, 3) if cards else None,
                "http_429": counters["http_429"],
                **steady_figures,
                "errors": errors,
                "turn_mark_ms_p50": rounded(percentile(bench.marks.timed_ms, 50)),
                "turn_mark_ms_p99": rounded(percentile(bench.marks.timed_ms, 99)),
                "turn_marked_share": (
                    round(bench.marks.marked / bench.marks.turns, 4) if bench.marks.turns else None
                ),
                "bot_rss_mb": rounded(memory),
                "loop_lag_ms_p99": rounded(lag_p99),
                "loop_lag_ms_max": rounded(lag_max),
                "loop_lag_source": lag_source,
                "seconds": round(window, 1),
                "computers": args.computers,
                "difficulty": args.difficulty,
                "store": "postgresql" if database is not None else args.store_scheme,
                "limiter": limiters_named(log_text),
                "event_loop": args.event_loop,
                "cards_source": "store" if store_cards else "simulator (human cards only)",
                "human_cards": bench.human_cards,
                "cards_per_s": round(cards / window, 1) if window > 0 else None,
                "interaction_ack_ms_max": rounded(max(acks) if acks else math.nan),
                "interaction_ack_ms_min": rounded(floor),
                "ack_excess_ms_p99": rounded(excess_p99),
                "ack_excess_ms_max": rounded(excess_max),
                "paths": dict(bench.paths),
                "turn_marks": {
                    "turns": bench.marks.turns,
                    "marked": bench.marks.marked,
                    "timed": len(bench.marks.timed_ms),
                    "untimed_after_computer": bench.marks.untimed,
                    "turn_mark_ms_max": rounded(max(bench.marks.timed_ms, default=math.nan)),
                },
                "turn_signals": {
                    k: bench.stats[k]
                    for k in ("turn_seen_in_dm", "dm_late", "my_hand_clicks", "my_hand_not_turn")
                },
                "late_turns": dict(bench.late_turns),
                "calls": {
                    k: counters[k]
                    for k in ("channel_message", "dm", "edit", "delete", "other")
                    if counters[k]
                },
                "interaction_calls": {
                    "interaction_response": counters["interaction_response"],
                    "followup": counters["followup"],
                },
                **ack_breakdown(records, t0),
                "calls_by_route": by_route,
                "http_429_global": counters["http_429_global"],
                "error_detail": {
                    "interactions_failed": failed,
                    "unanswered": unanswered,
                    "refused_callbacks": refused,
                    "internal_error_replies": bench.stats["internal_error_replies"],
                    "bot_log_errors": len(logscan["error_lines"]),
                    "bot_log_tracebacks": logscan["tracebacks"],
                    "http_5xx": http_5xx,
                    "double_internal_errors": len(double.internal_errors),
                    "driver_crashes": len(crashed),
                },
                "bot_log_warnings": len(logscan["warning_lines"]),
                "rejected_clicks": sum(bench.rejections.values()),
                "rejections": dict(bench.rejections.most_common(5)),
                "tables_opened": bench.stats["tables_opened"],
                "matches_finished": bench.stats["matches_finished"],
                "matches_analysed": log_text.count(": analysed in "),
                "hands_analysed": sum(int(n) for n in HANDS_GRADED.findall(log_text)),
                "analysis_cpu_s": round(analysis_cpu, 1),
                "analysis_workers": args.analysis_workers,
                "bot_cpu_percent": rounded(bot_cpu),
                "bot_cpu_ms_per_card": rounded((cpu1 - cpu0) * 1000 / cards) if cards else None,
                "bot_cpu_ms_per_interaction": (
                    rounded((cpu1 - cpu0) * 1000 / len(records)) if records else None
                ),
                "bench_cpu_percent": rounded(own_cpu),
                "other_processes_cpu_percent": rounded(host_cpu - bot_cpu - own_cpu),
                "cpus": os.cpu_count(),
                "sim_gc_pause_ms_max": rounded(max(gc_watch.pauses, default=math.nan) * 1000),
                "sim_loop_lag_ms_p99": rounded(percentile(bench.poller.lag, 99) * 1000),
                "sim_loop_lag_ms_max": rounded(max(bench.poller.lag, default=math.nan) * 1000),
            }
        )
    finally:
        if profiler is not None and profiler.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                profiler.kill()
            await profiler.wait()
        if progress_poll is not None:
            await progress_poll.stop()
        if fleet is not None:
            await fleet.kill_all()
        await double.stop()
        if database is not None:
            with contextlib.suppress(Exception):
                await database.drop()
        shutil.rmtree(tmp, ignore_errors=True)


STEADY_AFTER_RAMP = 5.0
"""Seconds after the last table opened when the steady window starts (``steady_*`` keys)."""


async def steady_start(bench: Bench, fleet: Fleet, at: float) -> tuple[float, int, int]:
    """The bot's CPU seconds, the members' cards and the bot's requests when every table has
    been playing a while: the ``steady_*`` keys leave the tables' opening out (``/hokm new``,
    joins, first messages), which a short run at few tables otherwise spreads over its cards."""
    await asyncio.sleep(max(0.0, at - asyncio.get_running_loop().time()))
    return fleet.cpu_seconds(), bench.human_cards, bench.double.counters.total


def steady_report(
    bench: Bench, fleet: Fleet, start: tuple[float, int, int] | None
) -> dict[str, Any]:
    """Per member's card from the steady window's start to now (None when the run ended
    before it began): the bot's CPU, and every request the bot made."""
    if start is None:
        return {"steady_bot_cpu_ms_per_card": None, "steady_http_requests_per_card": None}
    cpu0, cards0, requests0 = start
    cards = bench.human_cards - cards0
    cpu = fleet.cpu_seconds() - cpu0
    requests = bench.double.counters.total - requests0
    return {
        "steady_bot_cpu_ms_per_card": rounded(cpu * 1000 / cards) if cards else None,
        "steady_http_requests_per_card": round(requests / cards, 3) if cards else None,
        "steady_cards": cards,
    }


OPENINGS_PER_SECOND = 40.0
"""The default ramp opens at most this many tables a second (200 tables in 5 s, as before
``--processes``; 600 in 15 s): the opening burst of ``/hokm new`` and Join clicks stays what one
bot was measured with, whatever the number of tables."""


def default_ramp(args: Args) -> float:
    return max(5.0, args.tables / OPENINGS_PER_SECOND)


async def kill_and_restart(fleet: Fleet, args: Args) -> float:
    """SIGKILL one process ``--kill-one-at`` seconds in, start it again ``--restart-after``
    seconds later; the moment of the kill (the loop's clock)."""
    assert args.kill_one_at is not None
    await asyncio.sleep(args.kill_one_at)
    index = args.kill_index % fleet.count
    at = asyncio.get_running_loop().time()
    await fleet.kill(index)
    print(f"killed process {index} (SIGKILL)", file=sys.stderr)
    await asyncio.sleep(args.restart_after)
    await fleet.restart(index)
    print(f"process {index} restarted", file=sys.stderr)
    return at


def parse_args(argv: list[str] | None = None) -> Args:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10, help="tables played at once")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to play")
    parser.add_argument(
        "--computers", type=int, default=0, choices=range(4), help="computer seats per table"
    )
    parser.add_argument(
        "--difficulty", default="easy", choices=("easy", "normal", "hard"), help="/hokm new option"
    )
    parser.add_argument("--target-score", type=int, default=None, help="/hokm new option")
    parser.add_argument(
        "--analysis-workers",
        type=int,
        default=None,
        help="HOKM_ANALYSIS_WORKERS: processes grading finished matches (0 off; the bot's "
        "default 1); with a low --target-score matches end within the run",
    )
    parser.add_argument("--think-min", type=float, default=0.5)
    parser.add_argument("--think-max", type=float, default=3.0)
    parser.add_argument(
        "--dm-patience",
        type=float,
        default=1.0,
        help="seconds a member waits for their DM after thinking before pressing My hand",
    )
    parser.add_argument(
        "--computer-delay", type=float, default=1.0, help="HOKM_COMPUTER_DELAY_SECONDS"
    )
    parser.add_argument(
        "--ramp",
        type=float,
        default=None,
        help="spread the table openings over this many seconds (default: 5, or one table per"
        f" 1/{OPENINGS_PER_SECOND:g} s beyond {5 * OPENINGS_PER_SECOND:g} tables)",
    )
    parser.add_argument(
        "--tables-per-server",
        type=int,
        default=25,
        help="tables in each load server (a server opens at most max_open_tables, default 25)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--backlog", type=int, default=4096, help="the double's listen backlog")
    parser.add_argument(
        "--store-scheme",
        default="sqlite+aiosqlite",
        choices=("sqlite+aiosqlite", "sqlite"),
        help="URL scheme of the temp SQLite store (config.example.toml uses sqlite+aiosqlite)",
    )
    parser.add_argument("--keep-log", help="write the bot's log here")
    parser.add_argument(
        "--profile", help="record the bot with py-spy into this file (.svg, .json or .txt)"
    )
    parser.add_argument(
        "--profile-seconds",
        type=float,
        default=None,
        help="record only the run's first seconds (the tables' opening), not all of it",
    )
    parser.add_argument(
        "--event-loop",
        choices=("auto", "uvloop", "asyncio"),
        default="auto",
        help="the bot's event_loop setting (this process runs asyncio's loop either way)",
    )
    parser.add_argument(
        "--harness-loop",
        choices=("auto", "uvloop", "asyncio"),
        default="auto",
        help="this process's event loop (the double and the members), as event_loop does",
    )
    parser.add_argument("--verbose", action="store_true")
    group = parser.add_argument_group("several processes (see bench/processes.py)")
    group.add_argument(
        "--processes", type=int, default=1, help="bot processes, one gateway shard each"
    )
    group.add_argument(
        "--database",
        help="a PostgreSQL server URL (postgresql://user@host:port/db): the run creates a"
        " database of its own there and drops it at the end; needed for --processes > 1",
    )
    group.add_argument(
        "--kill-one-at", type=float, help="SIGKILL one process this many seconds into the run"
    )
    group.add_argument(
        "--kill-index", type=int, default=-1, help="which process (default: the last one)"
    )
    group.add_argument(
        "--restart-after", type=float, default=10.0, help="seconds until it is started again"
    )
    group.add_argument(
        "--kill-every",
        type=float,
        metavar="SECONDS",
        help="the soak: SIGKILL one process every SECONDS, in turn (--kill-which),"
        " each started again --restart-after seconds after its kill; one is down at a time",
    )
    group.add_argument(
        "--kill-which",
        choices=("all", "others"),
        default="all",
        help="with --kill-every: all processes in turn, shard 1 up and shard 0 (every DM"
        " click's) last; or the others than shard 0 only",
    )
    group.add_argument(
        "--redis-url",
        help="share the rate limiter through this Redis (the bot's redis_url) instead of"
        " PostgreSQL; e.g. redis://127.0.0.1:6379/0",
    )
    add_attack_args(parser)
    ns = parser.parse_args(argv)
    redis_url = vars(ns).pop("redis_url")
    if redis_url:  # the bot processes inherit this environment (tests/double/process.py)
        os.environ["HOKM_REDIS_URL"] = redis_url
    if ns.tables < 1 or ns.seconds <= 0 or ns.tables_per_server < 1 or ns.processes < 1:
        parser.error("--tables, --tables-per-server, --processes and --seconds must be positive")
    if ns.processes > 1 and not ns.database:
        parser.error("--processes above 1 needs --database (several processes share PostgreSQL)")
    if ns.kill_one_at is not None and (ns.processes < 2 or ns.kill_one_at >= ns.seconds):
        parser.error("--kill-one-at needs --processes 2 or more, and a time within --seconds")
    if ns.kill_every is not None and (
        ns.processes < 2 or ns.kill_one_at is not None or ns.kill_every <= ns.restart_after
    ):
        parser.error(
            "--kill-every needs --processes 2 or more, no --kill-one-at, and a period longer"
            " than --restart-after"
        )
    return Args(**vars(ns))


def main(argv: list[str] | None = None) -> None:
    from bench.churn import churn_main  # --churn N: memory under table churn (bench/churn.py)

    if churn_main(argv):
        return
    args = parse_args(argv)
    # The double and the simulated members run on uvloop too, when installed: on a 2-core
    # machine their CPU competes with the bot's, and their own loop lag delays the moment a
    # turn mark is seen (``sim_loop_lag_ms_*``), which is not the bot's doing.
    with asyncio.Runner(loop_factory=loop_factory(args.harness_loop)) as runner:
        result = runner.run(run(args))
    result["harness_loop"] = args.harness_loop
    print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main()
