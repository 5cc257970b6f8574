"""The presenter's one budget (``bot/present/budget.py``): names
shortened first, then the oldest lines, then a cut that never splits an escape from what it
escapes nor leaves a direction isolate open; and the Replay's title, which keeps every team's
score however long the names."""

from __future__ import annotations

import random
import re

import pytest

from bot.names import shown_name
from bot.present.budget import (
    ELLIPSIS,
    cut,
    cut_lines,
    first_fit,
    keep_newest,
    overflows,
    size,
    within,
)
from bot.present.history import replay_message, short_format
from bot.present.i18n import LIST_SEPARATOR, isolate
from bot.present.specs import ButtonSpec, EmbedSpec, MessageSpec
from bot.service.match_history import MatchReplay
from bot.store import HistoryEntry, MatchPlayer
from engine import FORMATS, Match, Rules
from engine.story import record, story
from tests.engine.helpers import random_move

from .discord_limits import assert_fits_discord, whole
from .test_history_render import VIEWER, WHEN

WIDE = "*_~`|\\<@" * 4
"""32 characters, each shown as two."""


# ---------------------------------------------------------------------- the cut


def test_a_cut_never_splits_an_escape() -> None:
    shown = shown_name(WIDE)
    for limit in range(2, len(shown)):
        piece = cut(shown, limit)
        assert len(piece) <= limit and piece.endswith(ELLIPSIS)
        whole(piece, f"cut at {limit}")
        assert shown.startswith(piece[: -len(ELLIPSIS)].rstrip())
        assert not piece.endswith("@" + ELLIPSIS) and not piece.endswith("<" + ELLIPSIS)


def test_a_cut_falls_between_isolates_and_closes_one_it_must_enter() -> None:
    line = "🎬 Replay: " + " — ".join(isolate(shown_name(WIDE)) + " 7" for _ in range(3))
    for limit in range(12, len(line)):
        piece = cut(line, limit)
        assert len(piece) <= limit
        whole(piece, f"cut at {limit}")
        assert piece.count("\u2068") in (0, 1, 2, 3)
        assert piece.count("\u2068") == piece.count("\u2069")
    one = isolate("x" * 50 + shown_name(WIDE))  # a text that is one isolate from its start
    for limit in range(3, len(one)):
        piece = cut(one, limit)
        assert len(piece) <= limit
        whole(piece, f"cut at {limit}")


def test_a_cut_keeps_joiners_and_selectors_with_their_character() -> None:
    assert cut("ab👍\ufe0fcd", 5) == "ab👍\ufe0f…"
    assert cut("ab👍\ufe0fcd", 4) == "ab…"
    assert cut("a\u200db", 3) == "a\u200db"
    assert cut("ab\u200dcd", 4) == "a…"
    assert cut("short", 5) == "short" and cut("longer", 1) == ELLIPSIS


def test_whole_lines_go_first_and_the_oldest_give_way() -> None:
    text = "\n".join(f"line {i}" for i in range(10))
    kept = cut_lines(text, 30)
    assert len(kept) <= 30 and kept.endswith("\n" + ELLIPSIS)
    assert kept.splitlines()[:-1] == [f"line {i}" for i in range(len(kept.splitlines()) - 1)]
    assert cut_lines("x" * 50, 10) == "x" * 9 + ELLIPSIS
    lines = [f"{i} " + "y" * 20 for i in range(10)]
    newest = keep_newest(lines, 100, lambda n: f"… {n} earlier")
    assert size(newest) <= 100 and newest[-1] == lines[-1]
    assert newest[0] == f"… {10 - len(newest) + 1} earlier"
    assert keep_newest(lines, 1000, str) == lines
    assert keep_newest(lines, 0, lambda n: f"… {n}") == ["… 10"]


def test_within_brings_any_message_to_discords_limits() -> None:
    wide = shown_name(WIDE)
    big = "\n".join(isolate(wide) * 3 for _ in range(200))
    fields = tuple((wide * 5, big, True) for _ in range(30))
    spec = MessageSpec(
        content=big,
        embed=EmbedSpec(wide * 5, big, fields=fields, footer=big),
        rows=((ButtonSpec("a", wide * 2),),),
    )
    assert overflows(spec)
    trimmed = within(spec)
    assert not overflows(trimmed)
    assert_fits_discord(trimmed)


def test_first_fit_shortens_before_it_cuts() -> None:
    made: list[int] = []

    def make(limit: int) -> str:
        made.append(limit)
        return "x" * limit * 10

    assert first_fit(make, 150) == "x" * 120 and made == [32, 12]
    assert first_fit(lambda limit: "y" * 1000, 50) == "y" * 49 + ELLIPSIS


# ---------------------------------------------------------------------- the Replay's title


def six_player_replay(fmt_name: str, names: list[str]) -> MatchReplay:
    fmt = FORMATS[fmt_name]
    match = Match(5, Rules(target_score=1), fmt)
    rng = random.Random(5)
    while not match.is_over:
        random_move(match, rng)
    seated = tuple(
        MatchPlayer(i, fmt.team_of[i], 100 + i, False, names[i]) for i in range(fmt.seats)
    )
    assert match.winner_team is not None
    entry = HistoryEntry(
        "abcdef012345", 5, WHEN, fmt_name, 1, tuple(match.scores), match.winner_team, False, seated
    )
    return MatchReplay(entry, story(record(match)))


@pytest.mark.parametrize("lang", ["en", "fa"])
@pytest.mark.parametrize("fmt_name", ["six_teams", "six_pairs"])
def test_the_replay_title_keeps_every_teams_score_and_cuts_no_escape(
    lang: str, fmt_name: str
) -> None:
    """Six escaped names of 32 made a title of 450 characters that was cut at 256: the last
    team's score was lost, an escape or an isolate split. Now the names are shortened."""
    names = [WIDE[i:] + WIDE[:i] for i in range(6)]
    replay = six_player_replay(fmt_name, names)
    spec = replay_message(lang, replay, VIEWER, 0, 1)
    assert_fits_discord(spec)
    assert spec.embed is not None
    title = spec.embed.title
    whole(title, "title")
    title, _, shape = title.rpartition(LIST_SEPARATOR)  # the format's name, after the scores
    assert shape == short_format(lang, fmt_name)
    digits = "۰۱۲۳۴۵۶۷۸۹" if lang == "fa" else "0123456789"
    scores = re.findall(rf"(?<![{digits}])[{digits}]+(?![{digits}])", title)
    shown = ["".join(digits[int(d)] for d in str(s)) for s in replay.entry.scores]
    assert scores == shown  # every team's score, the last one too, in order
    assert ELLIPSIS in title  # the names were shortened ...
    assert "\\*" in title or "\\_" in title  # ... and are still escaped
    assert title.lstrip("\u200f").startswith("🎬 ")
