"""The suite's plugins, and the order its tests are handed out in (docs/testing.md, Duration)."""

from __future__ import annotations

import os

import pytest

pytest_plugins = ["tests.double.fixtures", "tests.postgres", "tests.redis_server"]

# Files whose tests take longest (real bot processes killed and restarted, long matches),
# most of it waiting rather than computing. They go first, so that under pytest-xdist
# (the README's `-n auto`) they run while the other workers get through the many short tests,
# instead of one of them starting last and leaving the rest of the workers idle.
LONG_FIRST = (
    "tests/reliability/test_crash_safety.py",
    "tests/reliability/test_growth.py",
    "tests/reliability/test_formats_reliability.py",
    "tests/reliability/",
    "tests/ops/",
    "tests/e2e/",
)


def _rank(item: pytest.Item) -> int:
    path = item.nodeid.split("::", 1)[0]
    return next((i for i, p in enumerate(LONG_FIRST) if path.startswith(p)), len(LONG_FIRST))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Longest files first; otherwise the collection order (a stable sort)."""
    items.sort(key=_rank)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: two workers per CPU, at most 8. A worker spends most of its time waiting
    (rate-limit windows, bot processes starting, time-outs), so one per CPU would leave them
    idle; past 8 the few longest tests set the wall time anyway."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return min(2 * (cpus or 1), 8)
