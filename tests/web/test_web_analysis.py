"""A finished match's page shows, once the match is analysed, each member's accuracy with
every hand known and their costliest decision (escaped, in both languages); nothing before
the analysis, and "no analysis" for a format the solver does not value."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime

from bot.present.i18n import t
from engine.dd_analysis import SOLVER_VERSION

from .analysis_sample import analysis_of
from .conftest import HOSTILE, Served

NOW = datetime(2026, 12, 6, tzinfo=UTC)


def _section(page: str) -> str | None:
    found = re.search(r'<section id="analysis".*?</section>', page, re.DOTALL)
    return None if found is None else found.group(0)


async def test_a_match_page_shows_each_members_accuracy_once_analysed(served: Served) -> None:
    match = served.matches[0]  # seats: HOSTILE, bahar, a computer, darya
    url = served.home + f"m/{match.match_id}/"
    status, page, _ = await served.get(url)
    assert status == 200 and _section(page) is None  # not analysed yet: nothing said
    assert await served.store.save_analysis(
        match.match_id, analysis_of("standard"), NOW, solver=SOLVER_VERSION
    )

    status, page, _ = await served.get(url)
    section = _section(page)
    assert status == 200 and section is not None
    rows = dict(re.findall(r'<li data-seat="(\d)">(.*?)</li>', section, re.DOTALL))
    assert sorted(rows) == ["0", "1", "3"]  # the members; the computer is not graded
    assert "kept the best outcome in 1 of 2 decisions (50%)" in rows["0"]
    assert "costliest: hand 1, trick 1, 2♠ instead of 3♠ (2 points fewer)" in html.unescape(
        rows["0"]
    )
    assert "0 of 1 decisions (0%)" in rows["1"] and "trump" in rows["1"]
    assert "1 of 1 decisions (100%)" in rows["3"] and "costliest" not in rows["3"]
    assert HOSTILE not in section and html.escape(HOSTILE) in rows["0"]  # the name escaped
    assert 'class="member"' in rows["0"]  # a link to the member's page

    status, page, _ = await served.get(url + "?lang=fa")
    section = _section(page)
    assert status == 200 and section is not None
    assert t("fa", "web.analysis") in section, section
    assert "۵۰" in section, section


async def test_a_format_the_solver_does_not_value_says_so(served: Served) -> None:
    match = served.matches[1]
    assert await served.store.save_analysis(
        match.match_id, analysis_of("three"), NOW, solver=SOLVER_VERSION
    )
    status, page, _ = await served.get(served.home + f"m/{match.match_id}/")
    section = _section(page)
    assert status == 200 and section is not None
    assert html.escape(t("en", "analysis.no_format")) in section and "<li" not in section
