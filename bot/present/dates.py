"""When a finished match ended, as the web page shows it.

English keeps the Gregorian date in UTC, as the store records it. Persian shows the date an
Iranian reader keeps, the Solar Hijri calendar (``jdatetime``) in Tehran time, in Persian
digits: ``۱۴۰۴/۰۱/۰۱ ۰۱:۳۰``. Tehran's time comes from the system's time zone database
(``zoneinfo``); an image without one (a slim container) uses Iran's standard time, UTC+03:30,
which has been Tehran's all year since Iran dropped daylight saving time in 2022.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone, tzinfo
from typing import Final
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import jdatetime  # type: ignore[import-untyped]

_FA_DIGITS: Final = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")
IRAN_STANDARD_TIME: Final = timezone(timedelta(hours=3, minutes=30), "+0330")


def tehran() -> tzinfo:
    """Tehran's time zone: the database's, or Iran's standard time where there is none."""
    try:
        return ZoneInfo("Asia/Tehran")
    except (ZoneInfoNotFoundError, ValueError):
        return IRAN_STANDARD_TIME


TEHRAN: Final = tehran()


def solar_hijri(day: date) -> tuple[int, int, int]:
    """A Gregorian day as the Solar Hijri calendar's year, month and day."""
    shown = jdatetime.date.fromgregorian(date=day)
    return int(shown.year), int(shown.month), int(shown.day)


def _aware(at: datetime) -> datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)  # the store keeps UTC


def shown_time(lang: str, at: datetime) -> str:
    """A moment to the minute: ``2025-03-20 22:00 UTC``, or ``۱۴۰۴/۰۱/۰۱ ۰۱:۳۰`` in Tehran."""
    at = _aware(at)
    if lang != "fa":
        return at.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
    local = at.astimezone(TEHRAN)
    year, month, day = solar_hijri(local.date())
    return f"{year:04d}/{month:02d}/{day:02d} {local:%H:%M}".translate(_FA_DIGITS)


def shown_day(lang: str, at: datetime) -> str:
    """A moment's day: ``2025-03-20`` (UTC), or ``۱۴۰۴/۰۱/۰۱`` (Tehran)."""
    at = _aware(at)
    if lang != "fa":
        return at.astimezone(UTC).strftime("%Y-%m-%d")
    year, month, day = solar_hijri(at.astimezone(TEHRAN).date())
    return f"{year:04d}/{month:02d}/{day:02d}".translate(_FA_DIGITS)
