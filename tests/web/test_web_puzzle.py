"""The server's puzzle of the day on its web page: shown under the matches once the server has
puzzles (every seat's cards drawn, the answer folded in a ``<details>``), in both languages,
within the page's policy (no script, nothing from elsewhere, no Unicode isolate in a Persian
line), the same one all day, and another server's puzzles never on this server's page."""

from __future__ import annotations

import re

from bot.service.puzzles import PuzzleBook
from engine import ANY_CARDS
from tests.puzzle_matches import analysed

from .conftest import GUILD, Served

CARD = re.compile(r'data-card="([0-9A-Z]+)"')


async def test_the_puzzle_of_the_day_is_shown_with_its_answer_folded(served: Served) -> None:
    status, page, _ = await served.get(served.home)
    assert status == 200 and 'id="puzzle"' not in page  # no puzzle yet: no section
    match = next(m for m in served.matches if m.match_id == f"{101:012x}")
    assert match.guild_id == GUILD
    assert await PuzzleBook(served.store).harvest(match.match_id, analysed(match.replay)) > 0
    book = served.web.puzzles
    for lang in ("en", "fa"):
        status, page, _ = await served.get(served.home + f"?lang={lang}")
        assert status == 200
        section = page[page.index('<section id="puzzle"') :]
        section = section[: section.index("</section>")]
        offer = next(iter(book._days.values()))
        p = offer.puzzle.position
        drawn = CARD.findall(section.split("<details>")[0])
        held = sorted(ANY_CARDS[c].code for h in p.hands for c in range(54) if h >> c & 1)
        on_table = [ANY_CARDS[c].code for c in p.trick]
        assert sorted(drawn) == held or sorted(drawn) == sorted(held + on_table)
        assert "<details>" in section and "<summary>" in section
        assert "<script" not in section and "\u2068" not in section and "\u2069" not in section
        answer = ANY_CARDS[offer.puzzle.answer].label
        assert answer in section.split("<details>")[1]
    # the same puzzle all day: one check, then kept
    assert len(book._days) == 1
