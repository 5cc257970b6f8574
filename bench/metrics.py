"""What the load bench measures besides the double's counters: percentiles, the bot's CPU and
memory, its log (errors, loop lag), its store (cards played), and this process's GC pauses.

Kept apart from the simulated members so the figures are computed one way for every mode
(``bench/bot_load.py``, its attack mode and ``--churn``).
"""

from __future__ import annotations

import asyncio
import gc
import json
import math
import os
import re
import sqlite3
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.bot_text import click_kind
from bot.service import service as service_module
from bot.service import thinking as thinking_module
from tests.double.interactions import InteractionRecord
from tests.double.rest import RequestRecord
from tests.double.server import DiscordDouble

LAG_LINE_RE = re.compile(
    r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),\d+ .*loop lag: "
    r"p50=([\d.]+)ms p99=([\d.]+)ms max=([\d.]+)ms"
)
SEARCH_LINE_RE = re.compile(
    r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3}) INFO "
    + re.escape(thinking_module.log.name)
    + r": table (\w+)(:\S+)?: searched (\d+) ms of (\d+|inf) ms left after waiting (\d+) ms$"
)
"""The worker's line for each request it answered (``bot/service/thinking.py``); a hint's key
is its table's with ``:hint:<seat>`` after it."""
TABLE_OPENED_RE = re.compile(
    r" INFO " + re.escape(service_module.log.name) + r": table (\w+): opened in channel (\d+) "
)
LAG_LOG_SECONDS = 5
"""How often the bot logs its loop lag (``HOKM_LOOP_LAG_REPORT_SECONDS``, bot/loop_monitor.py)."""


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0..100); NaN for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def rounded(value: float, digits: int = 1) -> float | None:
    return None if math.isnan(value) else round(value, digits)


# --------------------------------------------------------------------------- this process's GC


class GcWatch:
    """Keeps the double's heap out of the cyclic GC's way, and records the pauses left.

    The double keeps every message and every earlier version of it, so a full collection
    would walk an ever larger heap while the double (and so every measured acknowledgement)
    waits. Freezing what exists every second leaves the collector only the young objects.
    """

    def __init__(self) -> None:
        self.pauses: list[float] = []
        self._started = 0.0

    def __enter__(self) -> GcWatch:
        gc.collect()
        gc.freeze()
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._callback)
        gc.unfreeze()

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.pauses.append(time.perf_counter() - self._started)

    async def keep_frozen(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            gc.freeze()


# --------------------------------------------------------------------------- the bot and its traffic


def routes_breakdown(double: DiscordDouble, requests: Sequence[RequestRecord]) -> dict[str, int]:
    """Non-interaction requests by route, with message routes split into DM and channel."""
    out: Counter[str] = Counter()
    for q in requests:
        if q.kind in ("interaction_response", "followup"):
            continue
        route = q.template or q.path
        if route.startswith("/channels/{channel_id}/messages"):
            raw = q.path.split("/")[2]
            channel = double.world.channels.get(int(raw)) if raw.isdigit() else None
            route = route.replace("{channel_id}", "{dm}" if channel and channel.is_dm else "{ch}")
        out[f"{q.method} {route}"] += 1
    return dict(out.most_common())


def record_kind(record: InteractionRecord) -> str:
    """What an interaction was: a slash command or the kind of button clicked."""
    return click_kind(str((record.payload.get("data") or {}).get("custom_id") or ""))


def ack_breakdown(records: Sequence[InteractionRecord], t0: float) -> dict[str, Any]:
    """Ack p99 by what was clicked, and over time (5 s windows), to see where latency comes from."""
    by_kind: dict[str, list[float]] = {}
    by_window: dict[int, list[float]] = {}
    for r in records:
        if r.response_time is None:
            continue
        ms = r.response_time * 1000
        by_kind.setdefault(record_kind(r), []).append(ms)
        by_window.setdefault(int((r.dispatched_at - t0) // 5), []).append(ms)
    return {
        "ack_ms_p99_by_kind": {
            k: [len(v), rounded(percentile(v, 99))] for k, v in sorted(by_kind.items())
        },
        "ack_ms_p99_per_5s": [rounded(percentile(by_window[w], 99), 0) for w in sorted(by_window)],
    }


def rss_mb(pid: int) -> float:
    try:
        import psutil

        return psutil.Process(pid).memory_info().rss / 2**20
    except Exception:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        except OSError:
            pass
    return math.nan


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return math.nan


def niced_children_cpu_seconds(pids: list[int], nice: int = 19) -> float:
    """CPU seconds used so far by the live descendants of ``pids`` that run at ``nice`` (the
    bot's analysis workers, ``bot.service.analysis.NICE``; the computer players' worker and
    multiprocessing's helpers keep the bot's priority). A worker's CPU is not in its parent's
    ``cpu_seconds``."""
    tick = os.sysconf("SC_CLK_TCK")
    parent: dict[int, int] = {}
    stats: dict[int, list[str]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        parent[int(entry.name)], stats[int(entry.name)] = int(fields[1]), fields
    roots, total = set(pids), 0.0
    for pid, fields in stats.items():
        up, seen = parent.get(pid), 0
        while up is not None and up not in roots and seen < 64:
            up, seen = parent.get(up), seen + 1
        if up in roots and int(fields[16]) == nice:
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def host_busy_seconds() -> float:
    """CPU seconds all cores spent busy (not idle/iowait) since boot, from /proc/stat."""
    try:
        values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return math.nan
    idle = values[3] + (values[4] if len(values) > 4 else 0)
    return (sum(values[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def cards_in_store(db: Path) -> int | None:
    """Cards played at every table of this run, from the bot's own store (computers included)."""
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            rows = con.execute("SELECT state FROM game_tables").fetchall()
        finally:
            con.close()
        total = 0
        for (state,) in rows:
            match = json.loads(state).get("match") or {}
            # a play is logged as "AS", or as ["play", seat, "AS"] by older engines
            total += sum(
                1
                for a in match.get("actions", ())
                if isinstance(a, str) or (isinstance(a, list) and a and a[0] == "play")
            )
        return total
    except (sqlite3.Error, ValueError, TypeError, AttributeError):
        return None


def scan_log(text: str, since: float = 0.0, until: float = math.inf) -> dict[str, Any]:
    """Error and warning lines, and the loop-lag lines logged between ``since`` and ``until``
    (wall clock; a lag line covers the ``LAG_LOG_SECONDS`` before it)."""
    lines = text.splitlines()
    errors = [ln for ln in lines if " ERROR " in ln or " CRITICAL " in ln]
    tracebacks = sum(1 for ln in lines if ln.startswith("Traceback"))
    warnings = [
        ln for ln in lines if " WARNING " in ln and "PyNaCl" not in ln and "davey" not in ln
    ]
    lag = []
    for found in map(LAG_LINE_RE.search, lines):
        if found is None:
            continue
        at = time.mktime(time.strptime(found.group(1), "%Y-%m-%d %H:%M:%S"))
        if since + LAG_LOG_SECONDS - 1 <= at <= until + 1:
            lag.append((float(found.group(3)), float(found.group(4))))
    return {
        "error_lines": errors,
        "tracebacks": tracebacks,
        "warning_lines": warnings,
        "lag": lag,
    }


# --------------------------------------------------------------------------- the worker's searches


def thinking_report(
    log_text: str, channel_ids: set[int], since: float, until: float
) -> dict[str, Any]:
    """The computers' decisions of the tables in ``channel_ids`` (the victims), from the
    worker's log lines between ``since`` and ``until``: their think time (what was left of
    their deadline when the worker started them: the computer's pause plus its grace, 1.1 s,
    less the wait for a worker; 0 when the deadline passed while they waited), the time the
    worker searched them (the search may end before its deadline, and on a busy machine takes
    longer for the same work) and their wait. Plus every hint searched, at any table."""
    channel_of = {m.group(1): int(m.group(2)) for m in TABLE_OPENED_RE.finditer(log_text)}
    searched: list[float] = []
    given: list[float] = []
    waited: list[float] = []
    hints = 0
    for found in map(SEARCH_LINE_RE.match, log_text.splitlines()):
        if found is None:
            continue
        stamp, millis, table_id, part, ms, left_ms, wait_ms = found.groups()
        at = time.mktime(time.strptime(stamp, "%Y-%m-%d %H:%M:%S")) + int(millis) / 1000
        if not since <= at <= until:
            continue
        if part:
            hints += part.startswith(":hint")
        elif channel_of.get(table_id) in channel_ids:
            searched.append(float(ms))
            given.append(float(left_ms))
            waited.append(float(wait_ms))
    return {
        "victim_computer_think_ms_p50": rounded(percentile(given, 50)),
        "victim_computer_think_ms_p10": rounded(percentile(given, 10)),
        "victim_computer_thinks": len(given),
        "victim_computer_searched_ms_p50": rounded(percentile(searched, 50)),
        "victim_computer_wait_ms_p50": rounded(percentile(waited, 50)),
        "victim_computer_wait_ms_p90": rounded(percentile(waited, 90)),
        "hint_searches": hints,
    }
