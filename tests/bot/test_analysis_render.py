"""A finished match's analysis in words, with every hand known: the summary's line per player,
the Replay's best outcome beside what was played and its marks of the cards that cost points,
on Discord and on the web page, in English and Persian; "no analysis for this format" for a
format of more than two sides."""

from __future__ import annotations

import html
import random
from datetime import UTC, datetime

import pytest

from bot.present.analysis_lines import summary_lines
from bot.present.history import replay_message
from bot.present.i18n import LIST_SEPARATOR, number, t
from bot.present.web_replay import replay_page
from bot.service.match_history import MatchReplay
from bot.store import HistoryEntry, MatchPlayer
from engine import FORMATS, Match, Rules
from engine.dd_analysis import NOT_COVERED, MatchAnalysis, analyse_match
from engine.story import record, story
from tests.engine.helpers import random_move
from tests.engine.test_dd_match import bammed

WHEN = datetime(2026, 12, 6, tzinfo=UTC)


def analysed(name: str = "standard", seed: int = 0) -> MatchReplay:
    match = Match(seed, Rules(target_score=1), FORMATS[name])
    rng = random.Random(seed)
    while not match.is_over:
        random_move(match, rng)
    return replay_of(match)


def replay_of(match: Match) -> MatchReplay:
    fmt = match.fmt
    seated = tuple(
        MatchPlayer(i, fmt.team_of[i], 100 + i, False, f"seat{i}") for i in range(fmt.seats)
    )
    entry = HistoryEntry(
        "abcdef012345",
        5,
        WHEN,
        fmt.name,
        1,
        tuple(match.scores),
        match.winner_team or 0,
        False,
        seated,
    )
    data = record(match)
    return MatchReplay(entry, story(data), analyse_match(data))


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_replay_shows_the_best_outcome_and_marks_each_costly_card(lang: str) -> None:
    replay = analysed()
    assert replay.analysis is not None
    hand = replay.analysis.hands[0]
    costly = [d for d in hand.decisions if d.costly]
    assert costly, "the seed's random play cost points somewhere"
    best_line = t(lang, "analysis.hand", best="@", played="@").split("@")[0]
    tricks = len(replay.story.hands[0].tricks)
    for viewer in ("discord", "web"):
        marks = 0
        for trick in range(tricks + 1):
            if viewer == "discord":
                embed = replay_message(lang, replay, 1, 0, trick).embed
                assert embed is not None
                text = embed.description
            else:
                text = html.unescape(replay_page(lang, None, replay, 0, trick))
            assert best_line in text
            shown = text.count("⚠️")
            want = [d for d in costly if d.index // 4 + 1 == trick]
            assert shown == len(want), (viewer, trick, text)
            for d in want:
                assert f"seat{d.seat}" in text
            marks += shown
        assert marks == len(costly)


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_summary_has_a_line_per_player_and_says_with_every_hand_known(lang: str) -> None:
    replay = analysed()
    assert replay.analysis is not None
    fmt = replay.story.fmt
    names = [f"seat{s}" for s in range(fmt.seats)]
    lines = summary_lines(lang, fmt, names, replay.analysis, [0, 2])
    assert lines[0] == t(lang, "analysis.heading")
    assert len(lines) == 3 and "seat0" in lines[1] and "seat2" in lines[2]
    assert all("should" not in line for line in lines)


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_a_format_of_three_sides_says_there_is_no_analysis(lang: str) -> None:
    replay = analysed("three")
    assert replay.analysis == MatchAnalysis("three", (), NOT_COVERED)
    names = ["a", "b", "c"]
    lines = summary_lines(lang, replay.story.fmt, names, replay.analysis, [0, 1, 2])
    assert lines == [t(lang, "analysis.no_format")]
    embed = replay_message(lang, replay, 1, 0, 0).embed
    assert embed is not None and t(lang, "analysis.no_format") in embed.description
    assert "⚠️" not in embed.description


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_what_is_not_graded_is_said_in_the_summary_and_the_replay(lang: str) -> None:
    """A bam hand (V1) is graded up to its seventh trick and V2's trump not at all: the
    summary says what its accuracy leaves out, the Replay says it beside the hand."""
    replay = replay_of(bammed("two", 10))
    analysis = replay.analysis
    assert analysis is not None
    fmt = replay.story.fmt
    lines = summary_lines(lang, fmt, ["a", "b"], analysis, [0, 1])
    what = t(lang, "analysis.not_graded_trumps") + LIST_SEPARATOR
    what += t(lang, "analysis.not_graded_bam", hands=number(lang, 1))
    assert lines[-1] == t(lang, "analysis.not_graded", what=what)
    embed = replay_message(lang, replay, 1, 0, 0).embed
    assert embed is not None
    assert t(lang, "analysis.after_bam") in embed.description
    assert t(lang, "analysis.trump_not_graded") in embed.description
    graded = analysed()  # a standard match without a bam: nothing left out
    assert graded.analysis is not None
    said = summary_lines(lang, graded.story.fmt, ["a", "b", "c", "d"], graded.analysis, [0])
    assert not any(t(lang, "analysis.not_graded", what="@").split("@")[0] in x for x in said)
