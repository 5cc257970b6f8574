"""The Persian web page dates a match in the Solar Hijri calendar, Tehran
time, Persian digits; the English page keeps the Gregorian date in UTC."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta, timezone
from zoneinfo import ZoneInfoNotFoundError

import pytest

from bot.present import dates
from bot.present.web_pages import Home, home_page
from bot.present.web_player import rating_chart
from bot.store import HistoryEntry, HistoryPage, MatchPlayer, StandingsPage
from bot.store.rating_ops import RatingPoint

NOWRUZ_EVE = datetime(2025, 3, 20, 22, 0, tzinfo=UTC)
"""22:00 UTC on 20 March 2025 is 01:30 on 1 Farvardin 1404 in Tehran (UTC+03:30)."""


@pytest.mark.parametrize(
    ("day", "solar"),
    [
        (date(2025, 3, 21), (1404, 1, 1)),  # Nowruz
        (date(2025, 3, 20), (1403, 12, 30)),  # the last day of a leap year (1403)
        (date(2024, 12, 21), (1403, 10, 1)),  # Yalda's morning, 1 Dey
        (date(2026, 1, 1), (1404, 10, 11)),
    ],
)
def test_a_gregorian_day_in_the_solar_hijri_calendar(day: date, solar: tuple[int, ...]) -> None:
    assert dates.solar_hijri(day) == solar


def test_persian_shows_tehran_time_in_the_solar_hijri_calendar_with_persian_digits() -> None:
    assert dates.shown_time("fa", NOWRUZ_EVE) == "۱۴۰۴/۰۱/۰۱ ۰۱:۳۰"
    assert dates.shown_day("fa", NOWRUZ_EVE) == "۱۴۰۴/۰۱/۰۱"  # already the next day in Tehran
    # English is as it was: the UTC date
    assert dates.shown_time("en", NOWRUZ_EVE) == "2025-03-20 22:00 UTC"
    assert dates.shown_day("en", NOWRUZ_EVE) == "2025-03-20"
    naive = NOWRUZ_EVE.replace(tzinfo=None)  # a naive time from the store is UTC
    assert dates.shown_time("fa", naive) == "۱۴۰۴/۰۱/۰۱ ۰۱:۳۰"


def test_without_a_time_zone_database_tehran_is_utc_plus_0330(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def missing(key: str) -> None:
        raise ZoneInfoNotFoundError(key)

    monkeypatch.setattr(dates, "ZoneInfo", missing)
    zone = dates.tehran()
    assert zone == timezone(timedelta(hours=3, minutes=30))
    monkeypatch.setattr(dates, "TEHRAN", zone)
    assert dates.shown_time("fa", NOWRUZ_EVE) == "۱۴۰۴/۰۱/۰۱ ۰۱:۳۰"


def _page(lang: str) -> str:
    players = tuple(MatchPlayer(s, s % 2, 100 + s, False, f"p{s}") for s in range(4))
    entry = HistoryEntry("m1", 5, NOWRUZ_EVE, "standard", 7, (7, 3), 0, False, players)
    board = StandingsPage(1, 1, 20, 1, 0, ())
    return home_page(Home(lang), "guild", board, HistoryPage(1, None, 1, 10, 1, False, (entry,)))


def test_the_persian_web_page_dates_a_match_in_the_solar_hijri_calendar() -> None:
    shown = re.compile(r'<time datetime="([^"]+)">([^<]+)</time>')
    assert shown.findall(_page("fa")) == [("2025-03-20T22:00:00+00:00", "۱۴۰۴/۰۱/۰۱ ۰۱:۳۰")]
    assert shown.findall(_page("en")) == [("2025-03-20T22:00:00+00:00", "2025-03-20 22:00 UTC")]


def test_the_persian_rating_chart_dates_its_points_in_the_solar_hijri_calendar() -> None:
    points = [
        RatingPoint("m1", NOWRUZ_EVE - timedelta(days=2), 0.0, 1.5),
        RatingPoint("m2", NOWRUZ_EVE, 1.5, 2.25),
    ]
    fa = rating_chart("fa", points)
    assert "۱۴۰۳/۱۲/۲۹" in fa and "۱۴۰۴/۰۱/۰۱" in fa and "2025" not in fa
    assert "2025-03-20" in rating_chart("en", points)
