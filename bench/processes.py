"""Several bot processes on one PostgreSQL for the load bench (issue 15): ``--processes N``.

Each process holds one gateway shard of ``N`` (``python -m bot --shard-count N --shards i``),
the load servers are spread evenly over the shards, and every process uses one fresh database
created on the ``--database`` server for this run (dropped at the end). With ``--kill-one-at
T`` one process is sent SIGKILL ``T`` seconds into the run and started again 10 s later
(``--restart-after``), while the members play on.

What it reports, and how it knows (``Ledger`` and ``Progress``):

- ``actions_lost``: a card click the bot answered as played (the member's hand was updated)
  whose card is not that member's play in that hand in the store at the end;
- ``actions_doubled``: a click answered as played twice, plus a card the store shows a member
  played that no click of theirs (answered or not: a click applied but answered too late is
  still theirs), no time-out (R14) and no computer take-over the bot logged for that seat
  explains: a move applied that nobody made;
- ``tables_affected``: tables live at the kill in servers of the killed process's shard;
  ``tables_recovered``: those that played a card after the kill; ``recovery_s_max``: the
  longest pause in the play of an affected table across the kill (the store's move count,
  polled every ``POLL`` seconds), beside ``unaffected_pause_s_max``, the same for the other
  tables over the same moment, and ``pause_s_max_before_kill``, every table's longest pause
  before it: the tables' own pace (think times, computers' pauses) in this run.

The killed process is the last one by default (``--kill-index``): it holds no DMs (Discord
sends every DM event to shard 0), so its servers' tables go on through DM clicks handled by
the shard-0 process and through the other processes' sweep of overdue timers.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import math
import re
import secrets
import signal
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.bot_text import click_of
from bench.metrics import cpu_seconds, rss_mb
from engine.match import Match, _action_from_json
from engine.rules import FORMATS, Rules
from engine.story import unpack
from tests.double.process import BotProcess
from tests.double.server import DiscordDouble

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
        self.dead_logs: list[str] = []
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
        proc.proc.send_signal(signal.SIGKILL)
        await proc.wait(10.0)
        self.dead_logs.append(proc.output(tail=10**9))
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

    def rss_mb(self) -> float:
        return sum(r for r in (rss_mb(p.pid) for p in self.live()) if not math.isnan(r))

    def output(self) -> str:
        return "\n".join(self.dead_logs + [p.output(tail=10**9) for p in self.live()])

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


@dataclass(frozen=True)
class Play:
    """A card click the bot answered as played."""

    channel_id: int
    user_id: int
    hand: int
    card: str


class Ledger:
    """Every card click of the run, sent and answered as played, to check against the store."""

    def __init__(self) -> None:
        self.plays: Counter[Play] = Counter()
        """Clicks the bot answered as played."""
        self.clicked: set[Play] = set()
        """Every card click sent, answered in time or not (a click applied but answered after
        Discord's 3 s is the member's move all the same)."""

    @staticmethod
    def _play(channel_id: int, user_id: int, custom_id: str) -> Play | None:
        click = click_of(custom_id)
        if click is None or click.kind != "card" or click.card is None:
            return None
        return Play(channel_id, user_id, click.hand, click.card.code)

    def sent(self, channel_id: int, user_id: int, custom_id: str) -> None:
        play = self._play(channel_id, user_id, custom_id)
        if play is not None:
            self.clicked.add(play)

    def accepted(self, channel_id: int, user_id: int, custom_id: str) -> None:
        play = self._play(channel_id, user_id, custom_id)
        if play is not None:
            self.clicked.add(play)
            self.plays[play] += 1


@dataclass
class StoredTable:
    table_id: str
    guild_id: int
    channel_id: int
    seats: list[int | None]
    """Each seat's member id (None: a computer)."""
    plays: list[tuple[int, int, str]]
    """Every card played, in order: (hand number, seat, card code)."""


def stored_plays(match_data: dict[str, Any]) -> list[tuple[int, int, str]]:
    """Each card of a stored match with its hand and seat, by playing its actions again."""
    fmt = FORMATS[str(match_data.get("format", "standard"))]
    match = Match(int(match_data["seed"]), Rules.from_dict(match_data["rules"]), fmt)
    out: list[tuple[int, int, str]] = []
    for action in unpack(match_data.get("actions", [])):
        if isinstance(action, str) and len(action) <= 3:
            out.append((match.hand_number, match.to_act, action))
        match.apply(_action_from_json(action))  # type: ignore[arg-type]
    return out


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


_LOGGED = re.compile(r"table (\S+): (.*)$")
_WORD = re.compile(r"\b(timeout|replaced|back) seat=(\d+)")


def logged_seat_events(log_text: str) -> dict[tuple[str, int], Counter[str]]:
    """Per (table, seat): how many time-outs, take-overs and returns the processes logged."""
    found: dict[tuple[str, int], Counter[str]] = defaultdict(Counter)
    for line in log_text.splitlines():
        m = _LOGGED.search(line)
        if m is None:
            continue
        for word, seat in _WORD.findall(m.group(2)):
            found[(m.group(1), int(seat))][word] += 1
    return found


def audit(ledger: Ledger, tables: Iterable[StoredTable], log_text: str) -> dict[str, Any]:
    """``actions_lost`` and ``actions_doubled`` (the module's docstring says how), and what
    each doubled action was (``actions_doubled_detail``, the first ten), to look into."""
    tables = list(tables)
    by_channel: dict[int, list[StoredTable]] = defaultdict(list)
    for table in tables:
        by_channel[table.channel_id].append(table)
    stored: set[tuple[int, int, int, str]] = set()  # channel, user, hand, card
    for table in tables:
        for hand, seat, card in table.plays:
            user = table.seats[seat] if seat < len(table.seats) else None
            if user is not None:
                stored.add((table.channel_id, user, hand, card))
    lost = sum(
        1
        for play in ledger.plays
        if (play.channel_id, play.user_id, play.hand, play.card) not in stored
    )
    detail = [f"answered twice: {p}" for p, n in ledger.plays.items() if n > 1]
    doubled = sum(n - 1 for n in ledger.plays.values() if n > 1)
    events = logged_seat_events(log_text)
    clicked = {(p.channel_id, p.user_id, p.hand, p.card) for p in ledger.clicked}
    for table in tables:
        unexplained: Counter[int] = Counter()
        for hand, seat, card in table.plays:
            user = table.seats[seat] if seat < len(table.seats) else None
            if user is not None and (table.channel_id, user, hand, card) not in clicked:
                unexplained[seat] += 1
        for seat, count in unexplained.items():
            words = events.get((table.table_id, seat), Counter())
            if words["replaced"]:
                continue  # the computer played for them for a while: not counted one by one
            extra = max(0, count - words["timeout"])
            if extra:
                detail.append(
                    f"table {table.table_id} seat {seat}: {count} plays no click made, "
                    f"{words['timeout']} time-outs logged"
                )
            doubled += extra
    return {
        "actions_lost": lost,
        "actions_doubled": doubled,
        "accepted_card_clicks": sum(ledger.plays.values()),
        "actions_doubled_detail": detail[:10],
    }


class Progress:
    """Every live table's move count, read from the store every ``POLL`` seconds."""

    def __init__(self, url: str, database: str) -> None:
        self.url, self.database = url, database
        self.moves: dict[str, list[tuple[float, int]]] = defaultdict(list)
        """Per table: (time, move count) at each change."""
        self.guild_of: dict[str, int] = {}
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
                    for row in rows:
                        series = self.moves[row["table_id"]]
                        self.guild_of[row["table_id"]] = row["guild_id"]
                        if not series or series[-1][1] != row["moves"]:
                            series.append((now, row["moves"]))
                await asyncio.sleep(POLL)
        finally:
            await conn.close()

    def pause_across(self, table_id: str, at: float, until: float) -> float | None:
        """The pause in ``table_id``'s play that contains ``at`` (to ``until`` if it never
        moved again); None if it was not being played then."""
        series = self.moves.get(table_id, [])
        before = [t for t, _ in series if t <= at]
        after = [t for t, _ in series if t > at]
        if not before:
            return None
        return (after[0] if after else until) - before[-1]


def kill_report(
    progress: Progress, killed_guilds: set[int], kill_at: float, end: float
) -> dict[str, Any]:
    """The ``tables_*``, ``recovery_s_max`` keys of a run with ``--kill-one-at``."""
    affected: list[float] = []
    recovered = 0
    others: list[float] = []
    before: list[float] = []
    for table_id, series in progress.moves.items():
        pre = [(t, n) for t, n in series if t <= kill_at]
        if len(pre) >= 2:
            times = [t for t, _ in pre]
            before.append(max(b - a for a, b in itertools.pairwise(times)))
        pause = progress.pause_across(table_id, kill_at, end)
        if pause is None:
            continue
        if progress.guild_of.get(table_id) in killed_guilds:
            affected.append(pause)
            recovered += any(t > kill_at for t, _ in series)
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
