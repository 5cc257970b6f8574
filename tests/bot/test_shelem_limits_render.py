"""V6.14.1 as the players see it: a Shelem match that ran to the hand limit says so
in its summary, in English and Persian; one that reached the target does not."""

from __future__ import annotations

import pytest

from bot.present.i18n import LANGUAGES
from bot.present.summary import match_summary
from engine.shelem import MAX_HANDS, ShelemMatch
from tests.engine.shelem_helpers import worst_case_move

from .test_shelem_render import persian_only, shelem_table


@pytest.mark.parametrize("lang", LANGUAGES)
def test_v6_14_1_the_summary_says_the_hand_limit_ended_the_match(lang: str) -> None:
    table = shelem_table(lang)
    match = table.match = ShelemMatch(7)  # a deal whose sides both sink to the limit
    while not match.is_over:
        worst_case_move(match, True)
    assert match.hand_number == MAX_HANDS
    table.status, table.finished_at, table.started_at = "finished", 600.0, 0.0
    spec = match_summary(table)
    text = spec.all_text()
    if lang == "en":
        assert "The match ended at the hand limit (500 hands)" in text
    else:
        assert "سقف دورها (\u2068۵۰۰\u2069 دور)" in text and persian_only(text) == []


def test_v6_14_1_a_match_that_reached_the_target_says_nothing_of_the_limit() -> None:
    table = shelem_table("en", shelem_target=200)
    match = table.match
    assert isinstance(match, ShelemMatch)
    while not match.is_over:
        worst_case_move(match, False)
    assert match.hand_number < MAX_HANDS
    table.status, table.finished_at, table.started_at = "finished", 600.0, 0.0
    assert "hand limit" not in match_summary(table).all_text()
