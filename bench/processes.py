"""Several bot processes on one PostgreSQL for the load bench: ``--processes N``.

Each process holds one gateway shard of ``N`` (``python -m bot --shard-count N --shards i``),
the load servers are spread evenly over the shards, and every process uses one fresh database
created on the ``--database`` server for this run (dropped at the end). With ``--kill-one-at
T`` one process is sent SIGKILL ``T`` seconds into the run and started again 10 s later
(``--restart-after``), while the members play on. With ``--kill-every S`` (the soak)
one process is killed every ``S`` seconds, in turn (``kill_order``), each started again
``--restart-after`` seconds after its kill; one is down at a time.

What it reports, and how it knows: ``actions_lost``, ``actions_doubled`` and the audit's own
false positives from the clicks, the store and every process's lines (``bench/audit.py``), and
from the store's move count (``Progress``):

- ``tables_affected``: tables live at the kill in servers of the killed process's shard;
  ``tables_recovered``: those that played a card after the kill; ``recovery_s_max``: the
  longest pause in the play of an affected table across the kill (the store's move count,
  polled every ``POLL`` seconds), beside ``unaffected_pause_s_max``, the same for the other
  tables over the same moment, and ``pause_s_max_before_kill``, every table's longest pause
  before it: the tables' own pace (think times, computers' pauses) in this run. With
  ``--kill-every`` the same over every kill (``kills``: how many).

The killed process is the last one by default (``--kill-index``): it holds no DMs (Discord
sends every DM event to shard 0), so its servers' tables go on through DM clicks handled by
the shard-0 process and through the other processes' sweep of overdue timers.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import math
import secrets
import signal
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.audit import Ledger, ProcessLog, StoredTable, audit, stored_plays
from bench.metrics import cpu_seconds, niced_children_cpu_seconds, rss_mb
from tests.double.process import BotProcess
from tests.double.server import DiscordDouble

__all__ = ["Ledger", "StoredTable", "audit", "stored_plays"]

POLL = 0.5
"""Seconds between two reads of every table's move count."""
READY = "ready to serve"

# --------------------------------------------------------------------------- the database


def _asyncpg_kwargs(url: str) -> dict[str, Any]:
    from sqlalchemy.engine import make_url

    u = make_url(url)
    return {
        "user": u.username or "postgres",
        "password": u.password,
        "host": u.host or "127.0.0.1",
        "port": u.port or 5432,
        "database": u.database or "postgres",
    }


async def _connect(url: str, database: str | None = None) -> Any:
    import asyncpg

    kwargs = _asyncpg_kwargs(url)
    if database is not None:
        kwargs["database"] = database
    return await asyncpg.connect(**kwargs)


@dataclass
class RunDatabase:
    """A database of its own on the ``--database`` server, for one run."""

    server_url: str
    name: str = field(default_factory=lambda: f"hokm_load_{secrets.token_hex(4)}")

    @property
    def url(self) -> str:
        from sqlalchemy.engine import make_url

        u = make_url(self.server_url).set(drivername="postgresql+asyncpg", database=self.name)
        return u.render_as_string(hide_password=False)

    async def create(self) -> None:
        conn = await _connect(self.server_url)
        try:
            await conn.execute(f'CREATE DATABASE "{self.name}"')
        finally:
            await conn.close()

    async def drop(self) -> None:
        conn = await _connect(self.server_url)
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
        finally:
            await conn.close()


# --------------------------------------------------------------------------- the processes


class Fleet:
    """The bot processes of one run, one shard each; killed and restarted by index."""

    def __init__(self, double: DiscordDouble, env: dict[str, str], count: int, tmp: Path):
        self.double, self.env, self.count, self.tmp = double, env, count, tmp
        self.procs: list[BotProcess | None] = [None] * count
        self.dead_cpu = 0.0
        """CPU seconds of processes already gone (read just before the kill)."""
        self.dead_logs: list[ProcessLog] = []
        """Each killed process's life: its shard, pid, log and the moment of its kill."""
        self.dead_rss = 0.0

    def _argv(self, index: int) -> list[str]:
        return [
            sys.executable,
            "-m",
            "bot",
            "--shard-count",
            str(self.count),
            "--shards",
            str(index),
        ]

    async def _start(self, index: int) -> BotProcess:
        env = self.env | {"HOKM_COMMAND_SYNC_FILE": str(self.tmp / f"sync-{index}.sha256")}
        proc = await BotProcess.start(self.double, self._argv(index), env=env, ready=None)
        self.procs[index] = proc
        return proc

    async def start_all(self, within: float = 90.0) -> None:
        """Started together, as a deployment does (one migrates, the others wait for it)."""
        procs = await asyncio.gather(*(self._start(i) for i in range(self.count)))
        for proc in procs:
            if not await wait_for_log(proc, READY, within):
                raise RuntimeError(f"a bot process did not get ready:\n{proc.output()}")

    async def kill(self, index: int) -> None:
        proc = self.procs[index]
        assert proc is not None
        cpu = cpu_seconds(proc.pid)
        self.dead_cpu += 0.0 if math.isnan(cpu) else cpu
        killed_at = time.time()
        proc.proc.send_signal(signal.SIGKILL)
        await proc.wait(10.0)
        self.dead_logs.append(ProcessLog(index, proc.pid, proc.output(tail=10**9), killed_at))
        proc.close_log()
        self.procs[index] = None

    async def restart(self, index: int) -> BotProcess:
        proc = await self._start(index)
        if not await wait_for_log(proc, READY, 60.0):
            raise RuntimeError(f"the restarted process did not get ready:\n{proc.output()}")
        return proc

    def live(self) -> list[BotProcess]:
        return [p for p in self.procs if p is not None]

    def cpu_seconds(self) -> float:
        return self.dead_cpu + sum(
            c for c in (cpu_seconds(p.pid) for p in self.live()) if not math.isnan(c)
        )

    def analysis_cpu_seconds(self) -> float:
        """CPU seconds the live processes' analysis workers (at the lowest priority) used."""
        return niced_children_cpu_seconds([p.pid for p in self.live()])

    def rss_mb(self) -> float:
        return sum(r for r in (rss_mb(p.pid) for p in self.live()) if not math.isnan(r))

    def logs(self) -> list[ProcessLog]:
        """Every process's life so far: the killed ones, then the live ones."""
        return self.dead_logs + [
            ProcessLog(i, p.pid, p.output(tail=10**9))
            for i, p in enumerate(self.procs)
            if p is not None
        ]

    def output(self) -> str:
        return "\n".join(log.text for log in self.logs())

    async def stop(self) -> None:
        for proc in self.live():
            with contextlib.suppress(Exception):
                await proc.terminate(signal.SIGTERM, timeout=10.0)

    async def kill_all(self) -> None:
        for index, proc in enumerate(self.procs):
            if proc is not None:
                await proc.kill()
                proc.close_log()
                self.procs[index] = None


async def wait_for_log(bot: BotProcess, needle: str, within: float) -> bool:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while loop.time() < deadline:
        if needle in bot.output(tail=10**9):
            return True
        if bot.returncode is not None:
            return False
        await asyncio.sleep(0.1)
    return False


# --------------------------------------------------------------------------- what happened


async def load_tables(url: str, database: str) -> list[StoredTable]:
    import json

    conn = await _connect(url, database)
    try:
        rows = await conn.fetch("SELECT table_id, guild_id, channel_id, state FROM game_tables")
    finally:
        await conn.close()
    tables: list[StoredTable] = []
    for row in rows:
        state = json.loads(row["state"])
        match = state.get("match")
        if not match:
            continue
        seats = [(s or {}).get("user_id") for s in state.get("seats", [])]
        tables.append(
            StoredTable(
                row["table_id"], row["guild_id"], row["channel_id"], seats, stored_plays(match)
            )
        )
    return tables


class Progress:
    """Every live table's move count, read from the store every ``POLL`` seconds."""

    def __init__(self, url: str, database: str) -> None:
        self.url, self.database = url, database
        self.moves: dict[str, list[tuple[float, int]]] = defaultdict(list)
        """Per table: (time, move count) at each change."""
        self.guild_of: dict[str, int] = {}
        self.last_seen: dict[str, float] = {}
        """Per table: the last read that found it playing (a finished table leaves the read;
        its last move, which ended it, is then after that)."""
        self.last_read = 0.0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        conn = await _connect(self.url, self.database)
        query = (
            "SELECT table_id, guild_id,"
            " coalesce(json_array_length((state::json)->'match'->'actions'), 0) AS moves"
            " FROM game_tables WHERE status = 'playing'"
        )
        try:
            while True:
                with contextlib.suppress(Exception):
                    rows = await conn.fetch(query)
                    now = loop.time()
                    self.last_read = now
                    for row in rows:
                        self.last_seen[row["table_id"]] = now
                        series = self.moves[row["table_id"]]
                        self.guild_of[row["table_id"]] = row["guild_id"]
                        if not series or series[-1][1] != row["moves"]:
                            series.append((now, row["moves"]))
                await asyncio.sleep(POLL)
        finally:
            await conn.close()

    def ended(self, table_id: str) -> bool:
        """The table stopped being played before the last read (its match ended)."""
        return self.last_seen.get(table_id, math.inf) < self.last_read

    def pause_across(self, table_id: str, at: float, until: float) -> float | None:
        """The pause in ``table_id``'s play that contains ``at`` (to ``until`` if it never
        moved again, or to its end if it ended); None if it was not being played then."""
        series = self.moves.get(table_id, [])
        before = [t for t, _ in series if t <= at]
        after = [t for t, _ in series if t > at]
        if not before:
            return None
        if after:
            return after[0] - before[-1]
        if self.ended(table_id):
            seen = self.last_seen[table_id]
            return seen + POLL - before[-1] if seen > at else None
        return until - before[-1]

    def moved_after(self, table_id: str, at: float) -> bool:
        """A move after ``at``: one read, or the one that ended the match."""
        series = self.moves.get(table_id, [])
        if any(t > at for t, _ in series):
            return True
        return self.ended(table_id) and self.last_seen[table_id] > at


def kill_report(
    progress: Progress, killed_guilds: set[int], kill_at: float, end: float
) -> dict[str, Any]:
    """The ``tables_*``, ``recovery_s_max`` keys of a run with ``--kill-one-at``."""
    return kills_report(progress, [(kill_at, killed_guilds)], end)


def kills_report(
    progress: Progress, kills: Sequence[tuple[float, set[int]]], end: float
) -> dict[str, Any]:
    """``kill_report`` over every kill (the moment, the killed process's servers): tables
    affected and recovered summed over the kills, pauses the longest of any."""
    affected: list[float] = []
    recovered = 0
    others: list[float] = []
    before: list[float] = []
    first = min((at for at, _ in kills), default=end)
    for table_id, series in progress.moves.items():
        pre = [t for t, _ in series if t <= first]
        if len(pre) >= 2:
            before.append(max(b - a for a, b in itertools.pairwise(pre)))
        for kill_at, killed_guilds in kills:
            pause = progress.pause_across(table_id, kill_at, end)
            if pause is None:
                continue
            if progress.guild_of.get(table_id) in killed_guilds:
                affected.append(pause)
                recovered += progress.moved_after(table_id, kill_at)
            else:
                others.append(pause)
    return {
        "tables_affected": len(affected),
        "tables_recovered": recovered,
        "recovery_s_max": round(max(affected, default=math.nan), 1),
        "recovery_s_p50": round(sorted(affected)[len(affected) // 2], 1) if affected else None,
        "unaffected_pause_s_max": round(max(others, default=math.nan), 1),
        "pause_s_max_before_kill": round(max(before, default=math.nan), 1),
    }


# --------------------------------------------------------------------------- a kill every S seconds


@dataclass(frozen=True)
class Kill:
    index: int
    """The killed process (its shard)."""
    at: float
    """The loop's clock at the kill."""


def kill_order(count: int, which: str) -> list[int]:
    """The processes ``--kill-every`` kills, in turn: ``all`` from shard 1 up and shard 0 last
    (shard 0 receives every DM click: the writer killed between its store write and its answer
    is that one), or the ``others`` than shard 0 (its servers' DM clicks go on meanwhile)."""
    others = list(range(1, count))
    return [*others, 0] if which == "all" else others


async def kill_every(
    fleet: Fleet, every: float, restart_after: float, until: float, which: str
) -> list[Kill]:
    """SIGKILL one process every ``every`` seconds (``kill_order``), each started again
    ``restart_after`` seconds after its kill; the next kill waits until it is ready (one
    process down at a time), and no kill comes later than ``restart_after`` before ``until``
    (the loop's clock). Every kill made."""
    loop = asyncio.get_running_loop()
    order = itertools.cycle(kill_order(fleet.count, which))
    kills: list[Kill] = []
    next_at = loop.time() + every
    while next_at + restart_after < until:
        await asyncio.sleep(max(0.0, next_at - loop.time()))
        index = next(order)
        kills.append(Kill(index, loop.time()))
        await fleet.kill(index)
        print(f"killed process {index} (SIGKILL), kill {len(kills)}", file=sys.stderr)
        await asyncio.sleep(restart_after)
        await fleet.restart(index)
        print(f"process {index} restarted", file=sys.stderr)
        next_at = max(next_at + every, loop.time())
    return kills


def rotation_report(
    progress: Progress, kills: Sequence[Kill], shards: int, end: float
) -> dict[str, Any]:
    """``kills_report`` of a run with ``--kill-every``: each kill's servers are its shard's."""
    guilds = set(progress.guild_of.values())
    moments = [(k.at, {g for g in guilds if (g >> 22) % shards == k.index}) for k in kills]
    return {"kills": len(kills)} | kills_report(progress, moments, end)
