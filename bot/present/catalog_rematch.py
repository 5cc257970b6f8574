"""The sentences of the match summary and the rematch (issue 13 item 7), en + fa.

Catalog data like ``catalog.py``, which takes them in whole (``**SUMMARY_AND_REMATCH``): kept in
a file of their own so the catalog stays under the module size ``tests/bot/test_layers.py``
allows while several parts of issue 13 add their sentences at once.
"""

from __future__ import annotations

from typing import Final

SUMMARY_AND_REMATCH: Final[dict[str, dict[str, str]]] = {
    "summary.title": {
        "en": "🏆 {team} win the match {score}",
        "fa": "🏆 {team} بازی را {score} بردند",
    },
    "summary.hand": {
        "en": "**{n}** · hakem {hakem} · {trump} · {team} {tricks}: {change} ({why})",
        "fa": "**{n}** · حاکم {hakem} · {trump} · {team} {tricks}: {change} ({why})",
    },
    "summary.why_win": {"en": "won", "fa": "برد"},
    "summary.why_kot": {"en": "kot", "fa": "کُت"},
    "summary.why_hakem_kot": {"en": "hakem-kot", "fa": "حاکم‌کُت"},
    "summary.earlier": {
        "en": "… {count} earlier hands not shown",
        "fa": "… {count} دور اول اینجا نیامده",
    },
    "summary.score": {"en": "Final score — {teams}", "fa": "امتیاز نهایی — {teams}"},
    "summary.kots": {"en": "Kots dealt — {teams}", "fa": "کُت‌ها — {teams}"},
    "summary.hakem_kots": {
        "en": "Hakem-kots suffered — {teams}",
        "fa": "حاکم‌کُت خورده — {teams}",
    },
    "summary.played": {
        "en": "{hands} hands in {duration} · first to {target}",
        "fa": "{hands} دور در {duration} · تا {target} امتیاز",
    },
    "summary.minutes": {"en": "{m} min", "fa": "{m} دقیقه"},
    "summary.hours": {"en": "{h} h {m} min", "fa": "{h} ساعت و {m} دقیقه"},
    "summary.hands_title": {"en": "Hands", "fa": "دورها"},
    "summary.rematch_hint": {
        "en": "Rematch: same seats and settings; it starts when every player of this match has pressed it.",
        "fa": "بازی دوباره: همین صندلی‌ها و همین تنظیمات؛ وقتی همهٔ بازیکنان این بازی دکمه را بزنند شروع می‌شود.",
    },
    "button.rematch": {"en": "Rematch", "fa": "بازی دوباره"},
    "table.rematch_waiting": {
        "en": "Rematch: waiting for {names} to press **Rematch**. Their seats are kept until {when}; then anyone may join and the host may fill seats with computers.",
        "fa": "بازی دوباره: در انتظار {names} تا دکمهٔ **بازی دوباره** را بزنند. صندلی‌هایشان تا پایان مهلت نگه داشته می‌شود؛ بعد هر کسی می‌تواند بنشیند و میزبان می‌تواند جاها را با کامپیوتر پر کند · مهلت: {when}",
    },
    "table.reserved": {"en": "⏳ kept for {name}", "fa": "⏳ نگه‌داشته برای {name}"},
    "report.rematch_released": {
        "en": "Not everyone came back for the rematch in time: the kept seats are open now. Join, or the host may start with computers.",
        "fa": "همه به‌موقع برای بازی دوباره برنگشتند: صندلی‌های نگه‌داشته حالا آزادند. بنشینید، یا میزبان می‌تواند با کامپیوتر شروع کند.",
    },
    "ok.rematch_waiting": {
        "en": "You're in for the rematch. Waiting for {names}.",
        "fa": "برای بازی دوباره آماده‌اید. در انتظار {names}.",
    },
    "ok.rematch_started": {"en": "The rematch begins.", "fa": "بازی دوباره شروع شد."},
    "error.rematch_not_player": {
        "en": "Only the players of that match can ask for its rematch. Start your own table with `/hokm new`.",
        "fa": "فقط بازیکنان همان بازی می‌توانند بازی دوباره بخواهند. با `/hokm new` میز خودتان را باز کنید.",
    },
    "error.rematch_stale": {
        "en": "That rematch button is out of date: another table has been played in this channel since.",
        "fa": "این دکمهٔ بازی دوباره کهنه است: از آن به بعد میز دیگری در این کانال بازی شده است.",
    },
    "error.rematch_started": {
        "en": "The rematch has already begun.",
        "fa": "بازی دوباره از قبل شروع شده است.",
    },
    "error.rematch_already_in": {
        "en": "You're already in for the rematch. Waiting for {names}.",
        "fa": "شما از قبل برای بازی دوباره آماده‌اید. در انتظار {names}.",
    },
    "error.rematch_seat_taken": {
        "en": "Your seat at the rematch was given to someone else after the wait ran out.",
        "fa": "پس از تمام شدن زمان انتظار، صندلی شما در بازی دوباره به کس دیگری رسید.",
    },
    "error.rematch_kept": {
        "en": "The seats of this rematch are kept for {names} until {when}.",
        "fa": "صندلی‌های این بازی دوباره برای {names} نگه داشته می‌شود · مهلت: {when}",
    },
}
