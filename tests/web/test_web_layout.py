"""Issue 38 over HTTP, without a browser: the Shelem leaderboard is reached from the page, the
two jokers are drawn apart and named, left-to-right text in a Persian page sits in isolates,
a team's score is set apart from its names, and a replay lays the seats around a table with
the hand's tricks listed below it. ``tests/e2e/test_web_browser.py`` measures the same pages
in Chromium (phone and desktop, no horizontal scroll, the accessibility check)."""

from __future__ import annotations

import re

from .conftest import GUILD, Served
from .sample import shelem_match


async def test_the_shelem_leaderboard_is_linked_from_the_page_and_opens(served: Served) -> None:
    """``/standings`` offers Shelem's leaderboard; the page's format links did not, and
    ``?format=shelem`` was the one 404."""
    kept = shelem_match(7, GUILD, 9, names=("sara", "bahar", "", "darya"))
    assert await served.store.finish_match(kept)
    status, page, _ = await served.get(served.home)
    assert status == 200
    formats = re.search(r'<nav class="formats"[^>]*>(.*?)</nav>', page, re.DOTALL)
    assert formats is not None
    assert 'href="?lang=en&amp;format=shelem"' in formats.group(1)
    status, page, _ = await served.get(served.home + "?format=shelem")
    assert status == 200
    board = page[page.index('id="leaderboard"') : page.index('id="matches"')]
    assert "sara" in board and "darya" in board and "Computer" not in board
    status, page, _ = await served.get(served.home + "?format=shelem&lang=fa")
    assert status == 200 and "شلم" in page
