"""The sentences of skill ratings (issue 16), in English and Persian.

Part of ``catalog.CATALOG`` (merged like ``catalog_hints``), so the catalog stays under the
module size limit. ``{rating}`` and ``{change}`` are numbers said in the language by the
presenter; a member's name arrives escaped or as a mention.
"""

from __future__ import annotations

from typing import Final

RATINGS: Final[dict[str, dict[str, str]]] = {
    "settings.rate_computer_matches": {
        "en": "Matches with computer players change ratings: {value}",
        "fa": "بازی با بازیکن کامپیوتری در امتیاز مهارت حساب می‌شود: {value}",
    },
    "table.chances": {
        "en": "📊 Predicted chance: {teams}",
        "fa": "📊 شانس پیش‌بینی‌شده: {teams}",
    },
    "table.team_percent": {"en": "{team} {count}%", "fa": "{team} {count}٪"},
    "summary.ratings": {
        "en": "⭐ Ratings: {changes}",
        "fa": "⭐ امتیاز مهارت: {changes}",
    },
    "standings.row_rated": {
        "en": "**{rank}.** {name} — ⭐ {rating} · {won}/{played} won ({rate}%)",
        "fa": "**{rank}.** {name} — ⭐ {rating} · {won} برد از {played} ({rate}٪)",
    },
    "standings.rating_note": {
        "en": "⭐ skill rating (OpenSkill, μ − 3σ): it rises with wins against strong players",
        "fa": "⭐ امتیاز مهارت (OpenSkill، μ − 3σ): با بردن از بازیکنان قوی بالا می‌رود",
    },
    "standings.member_rating": {
        "en": "Rating: ⭐ {rating} ({rated} rated matches)",
        "fa": "امتیاز مهارت: ⭐ {rating} ({rated} بازی حساب‌شده)",
    },
    "standings.member_unrated": {
        "en": "Rating: none yet (matches with hints, or with computer players, are not rated)",
        "fa": "امتیاز مهارت: هنوز ندارد (بازی با راهنمایی یا با بازیکن کامپیوتری حساب نمی‌شود)",
    },
    "standings.member_trend": {
        "en": "Change over the last {n} rated matches: {change}",
        "fa": "تغییر در {n} بازی حساب‌شدهٔ آخر: {change}",
    },
    "standings.member_partner": {
        "en": "Best partner: {name} ({won} won of {played} together)",
        "fa": "بهترین یار: {name} ({won} برد از {played} بازی با هم)",
    },
}
