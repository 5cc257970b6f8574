"""The in-process bot fixtures of the e2e tests (``make_bot``, ``hokm_bot``), reused here."""

from collections.abc import Callable
from pathlib import Path

import pytest

from bot.discord.outbox import Outbox
from tests.e2e.conftest import hokm_bot, make_bot

__all__ = ["bot_db_url", "hokm_bot", "make_bot"]


@pytest.fixture
def bot_db_url(tmp_path: Path) -> str:
    """The reliability tests run on SQLite only (the store's behaviour on PostgreSQL is
    covered by tests/store and tests/e2e; see docs/testing.md)."""
    return f"sqlite+aiosqlite:///{tmp_path / 'hokm.sqlite3'}"


@pytest.fixture(autouse=True)
def quick_shutdown(monkeypatch: pytest.MonkeyPatch) -> None:
    """An in-process bot drains its outbox for up to 3 s when it closes; tests here often
    end with DM edits still throttled, and graceful shutdown is not what they check."""
    drain: Callable[..., object] = Outbox.drain

    async def capped(self: Outbox, within: float = 10.0) -> None:
        await drain(self, within=min(within, 0.2))  # type: ignore[misc]

    monkeypatch.setattr(Outbox, "drain", capped)
