"""Fixtures shared by the service-level tests (no Discord): a fresh store per test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import Store


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'hokm.sqlite3'}")
    try:
        yield s
    finally:
        await s.close()
