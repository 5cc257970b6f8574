"""The bot's collector settings (``bot.collector``): what exists at start-up is frozen, and
young collections wait for ``THRESHOLDS[0]`` new objects; at the defaults the collector took
12-14 % of the bot's CPU at 200 tables."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from bot import collector


@pytest.fixture
def restored() -> Iterator[None]:
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


@pytest.mark.usefixtures("restored")
def test_settle_freezes_what_exists_and_collects_less_often() -> None:
    kept: list[list[int]] = [[] for _ in range(100)]
    gc.unfreeze()
    collector.settle()
    assert gc.get_freeze_count() >= len(kept)
    assert gc.get_threshold() == collector.THRESHOLDS
    young, middle, old = collector.THRESHOLDS
    assert young >= 10 * 700 and middle >= 10 and old >= 10  # never below the defaults


def test_the_bot_settles_the_collector_once_started() -> None:
    """The client calls it at the end of its start-up (where gc.freeze was)."""
    import inspect

    from bot.discord import client

    source = inspect.getsource(client.HokmBot.setup_hook)
    assert "collector.settle()" in source
