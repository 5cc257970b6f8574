"""The match summary: every hand with its points and why (R11), within
Discord's embed limits for the longest match with the longest names, in both languages."""

from __future__ import annotations

import pytest

from bot.discord.ui import embed_of
from bot.names import seat_name
from bot.present import custom_ids
from bot.present.summary import DESCRIPTION_LIMIT, duration, match_summary
from bot.service.table import Seat, Table, TableSettings
from engine import HandResult, Match, Rules, Suit
from engine.match import MATCH_OVER

LONG = "_*~`|>#@" * 4  # 32 characters, every one escaped when shown


def finished_table(hands: int, lang: str, target: int = 13) -> Table:
    """A table whose match ended after ``hands`` hands (team 0 wins the last one)."""
    table = Table(
        table_id="a1b2c3d4e5f6",
        guild_id=1,
        channel_id=2,
        host_id=10,
        settings=TableSettings(target_score=target, language=lang),
        created_at=1000.0,
        started_at=1000.0,
        finished_at=1000.0 + 95 * 60,
    )
    table.seats = [Seat(name=f"{LONG[:31]}{i}", user_id=10 + i) for i in range(4)]
    match = Match(1, Rules(target_score=target))
    scores = [0, 0]
    kinds = ("win", "kot", "hakem_kot")
    for n in range(1, hands + 1):
        winner = 0 if n == hands else n % 2
        kind = kinds[n % 3] if n < hands else "win"
        points = {"win": 1, "kot": 2, "hakem_kot": 3}[kind]
        scores[winner] += points
        tricks = (7, 0 if kind != "win" else 3) if winner == 0 else (0 if kind != "win" else 3, 7)
        hakem = (winner + 1) % 4 if kind == "hakem_kot" else winner
        match.hand_results.append(
            HandResult(n, hakem, Suit(n % 4), tricks, winner, points, kind, tuple(scores))
        )
    match.scores = scores
    match.phase = MATCH_OVER
    table.match = match
    table.status = "finished"
    return table


@pytest.mark.parametrize("lang", ["en", "fa"])
@pytest.mark.parametrize("hands", [13, 25])
def test_a_long_match_with_32_character_names_fits_discords_embed(lang: str, hands: int) -> None:
    table = finished_table(hands, lang)
    spec = match_summary(table)
    embed = embed_of(spec)
    assert embed is not None and spec.embed is not None
    assert len(spec.embed.title) <= 256 and len(spec.embed.description) <= 4096
    assert len(embed) <= 6000
    assert spec.rows[0][0].custom_id == custom_ids.rematch_id(table.table_id)
    # 13 hands are all there; with 25 the newest are, the first folded into one line
    shown = spec.embed.description.count("** · ")
    if hands == 13:
        assert shown == 13
    else:
        assert 10 <= shown < 25 and (lang == "fa" or f"**{hands}** · " in spec.embed.description)
        assert ("earlier hands" if lang == "en" else "دور اول") in spec.embed.description
    assert "`" not in spec.embed.description.replace("\\`", "")  # names are escaped


def test_r11_each_hand_says_why_and_kots_are_counted() -> None:
    table = finished_table(6, "en")
    spec = match_summary(table)
    text = spec.all_text()
    assert "(won)" in text and "(kot)" in text and "(hakem-kot)" in text
    assert "Kots dealt — " in text and "Hakem-kots suffered — " in text
    assert "6 hands in 1 h 35 min · first to 13" in text
    assert len(spec.embed.description) <= DESCRIPTION_LIMIT  # type: ignore[union-attr]
    assert "earlier hands" not in text  # six hands: every one shown


def test_persian_summary_uses_persian_words_and_digits() -> None:
    text = match_summary(finished_table(6, "fa")).all_text()
    text = "".join(c for c in text if c not in "\u2068\u2069\u200f")  # bidi marks
    assert "بردند" in text and "حاکم‌کُت" in text and "۱ ساعت و ۳۵ دقیقه" in text
    assert "بازی دوباره" in text


def test_duration_is_whole_minutes_at_least_one() -> None:
    assert duration("en", 10) == "1 min"
    assert duration("en", 61 * 60) == "1 h 1 min"


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_summary_shows_each_rated_players_change(lang: str) -> None:
    """One line with each rated member's rating change, names escaped as in the
    rest of the summary; a member left unrated (or a computer) is not named in it; the
    longest match with it still fits."""
    table = finished_table(25, lang)
    before = match_summary(table).embed
    assert before is not None and "⭐" not in before.description
    table.rating_changes = {10: 1.26, 11: -0.84, 12: 0.04}
    spec = match_summary(table)
    assert spec.embed is not None
    line = next(x for x in spec.embed.description.splitlines() if "⭐" in x)
    if lang == "en":
        assert line.startswith("⭐ Ratings: ")
        assert "+1.3" in line and "-0.8" in line and "+0.0" in line
    else:
        assert "+۱٫۳" in line and "−۰٫۸" in line
    for seat in range(3):  # the names as the summary shows them everywhere (escaped)
        assert seat_name(table, seat) in line
    assert seat_name(table, 3) not in line  # seat 3 (user 13) was not rated
    embed = embed_of(spec)
    assert embed is not None and len(embed) <= 6000 and len(spec.embed.description) <= 4096
