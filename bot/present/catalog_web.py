"""The sentences of a server's web page (issue 16) and of the setting that turns it on, in
English and Persian.

Part of ``catalog.CATALOG`` (merged like ``catalog_history``). The page's text is plain: the
web presenter (``bot.present.web_pages``) escapes every sentence for HTML after filling it
in, so none of these holds markup, and none may (it would show as text).
"""

from __future__ import annotations

from typing import Final

WEB: Final[dict[str, dict[str, str]]] = {
    # ---------------------------------------------------------------- /hokm settings web
    "settings.web": {
        "en": "Web page (leaderboard and replays): {value}",
        "fa": "صفحهٔ وب (رده‌بندی و بازپخش‌ها): {value}",
    },
    "settings.web_url": {
        "en": "🌐 The server's web page (shown only to you):",
        "fa": "🌐 صفحهٔ وب این سرور (فقط به شما نشان داده می‌شود):",
    },
    "settings.web_url_note": {
        "en": "Anyone with this address can open it. `/hokm settings web:false` closes it; "
        "turned on again, it gets a new address.",
        "fa": "هر کس این نشانی را داشته باشد می‌تواند بازش کند. `/hokm settings web:false` آن "
        "را می‌بندد؛ اگر دوباره روشن شود، نشانی تازه‌ای می‌گیرد.",
    },
    "error.web_unavailable": {
        "en": "This bot serves no web page: its operator has not set `web_port` in its config.",
        "fa": "این ربات صفحهٔ وب ندارد: گردانندهٔ آن `web_port` را در تنظیماتش نگذاشته است.",
    },
    # ---------------------------------------------------------------- the page
    "web.title": {"en": "🃏 Hokm — {guild}", "fa": "🃏 حکم — {guild}"},
    "web.this_server": {"en": "this server", "fa": "این سرور"},
    "web.leaderboard": {"en": "🏆 Leaderboard", "fa": "🏆 جدول رده‌بندی"},
    "web.matches": {"en": "📜 Finished matches", "fa": "📜 بازی‌های تمام‌شده"},
    "web.col_rank": {"en": "#", "fa": "#"},
    "web.col_player": {"en": "Player", "fa": "بازیکن"},
    "web.col_rating": {"en": "⭐ Rating", "fa": "⭐ امتیاز مهارت"},
    "web.col_won": {"en": "Won", "fa": "برد"},
    "web.col_played": {"en": "Played", "fa": "بازی"},
    "web.col_rate": {"en": "Win rate", "fa": "درصد برد"},
    "web.percent": {"en": "{n}%", "fa": "{n}٪"},
    "web.col_when": {"en": "Finished", "fa": "پایان"},
    "web.col_format": {"en": "Format", "fa": "نوع بازی"},
    "web.col_result": {"en": "Teams and score", "fa": "تیم‌ها و امتیاز"},
    "web.replay": {"en": "🎬 Replay", "fa": "🎬 بازپخش"},
    "web.page": {"en": "Page {page} of {pages}", "fa": "صفحهٔ {page} از {pages}"},
    "web.back": {"en": "← Leaderboard and matches", "fa": "→ رده‌بندی و بازی‌ها"},
    "web.position": {"en": "Hand {hand} of {hands}", "fa": "دور {hand} از {hands}"},
    "web.took": {"en": "{name} takes the trick", "fa": "{name} این دست را برد"},
    "web.step_hand_back": {"en": "Previous hand", "fa": "دور قبلی"},
    "web.step_back": {"en": "Previous trick", "fa": "دست قبلی"},
    "web.step_forward": {"en": "Next trick", "fa": "دست بعدی"},
    "web.step_hand_forward": {"en": "Next hand", "fa": "دور بعدی"},
    "web.hakem_mark": {"en": "hakem", "fa": "حاکم"},
    "web.computer_mark": {"en": "computer player", "fa": "بازیکن کامپیوتری"},
    "web.winners": {"en": "winners", "fa": "برنده"},
    "web.joker_red": {"en": "Red joker", "fa": "جوکر قرمز"},
    "web.language": {"en": "Language", "fa": "زبان"},
    "web.formats": {"en": "Formats", "fa": "نوع بازی"},
    "web.score": {"en": "score", "fa": "امتیاز"},
    "web.pages": {"en": "Pages", "fa": "صفحه‌ها"},
    "web.board_pages": {"en": "Leaderboard pages", "fa": "صفحه‌های رده‌بندی"},
    "web.match_pages": {"en": "Pages of matches", "fa": "صفحه‌های بازی‌ها"},
    "web.final_score": {"en": "Final score", "fa": "امتیاز پایانی"},
    "web.steps": {"en": "Step through the replay", "fa": "گام‌به‌گام در بازپخش"},
    "web.table": {"en": "The table", "fa": "میز بازی"},
    "web.tricks_heading": {"en": "The tricks of hand {hand}", "fa": "دست‌های دور {hand}"},
    "web.trick_item": {"en": "Trick {n}:", "fa": "دست {n}:"},
    "web.trick_taken": {"en": "— {name}", "fa": "— {name}"},
    "web.joker_black": {"en": "Black joker", "fa": "جوکر سیاه"},
    "web.footer": {
        "en": "A read-only page of the Hokm bot. Anyone with its address can see it; a server "
        "admin closes it with {command}.",
        "fa": "صفحهٔ فقط‌خواندنی ربات حکم. هر کس نشانی‌اش را داشته باشد می‌بیندش؛ مدیر سرور "
        "با {command} آن را می‌بندد.",
    },
    "web.no_such_page": {"en": "There is no such page.", "fa": "چنین صفحه‌ای نیست."},
    "web.not_found": {"en": "Not found", "fa": "پیدا نشد"},
    "web.bad_request": {"en": "Bad request", "fa": "درخواست نادرست"},
    "web.busy": {
        "en": "Too many requests just now; try again in a moment",
        "fa": "هم‌اکنون درخواست‌ها بیش از اندازه است؛ کمی بعد دوباره امتحان کنید",
    },
    "web.failed": {"en": "Something went wrong", "fa": "مشکلی پیش آمد"},
    "web.lang_en": {"en": "English", "fa": "English"},
    "web.lang_fa": {"en": "فارسی", "fa": "فارسی"},
    # ---------------------------------------------------------------- issue 38 items 7-9
    # a member's page (web_player.py)
    "web.member_heading": {"en": "👤 {name}", "fa": "👤 {name}"},
    "web.member_rank": {"en": "Rank", "fa": "رتبه"},
    "web.not_rated": {"en": "not rated", "fa": "بدون امتیاز"},
    "web.best_partner": {"en": "🤝 Best partner", "fa": "🤝 بهترین یار"},
    "web.partner_record": {
        "en": "won {won} of {played} together",
        "fa": "{won} برد در {played} بازی با هم",
    },
    "web.no_partner": {"en": "none yet", "fa": "هنوز ندارد"},
    "web.rating_chart": {"en": "📈 Rating history", "fa": "📈 روند امتیاز مهارت"},
    "web.chart_title": {
        "en": "Rating over the last {n} rated matches",
        "fa": "امتیاز مهارت در {n} بازی حساب‌شدهٔ اخیر",
    },
    "web.chart_desc": {
        "en": "From {first} to {last}; lowest {low}, highest {high}.",
        "fa": "از {first} تا {last}؛ کمترین {low}، بیشترین {high}.",
    },
    "web.chart_point": {"en": "{when}: {rating} ({change})", "fa": "{when}: {rating} ({change})"},
    "web.no_rated_matches": {
        "en": "No rated match in this format yet.",
        "fa": "هنوز بازی حساب‌شده‌ای در این نوع بازی نیست.",
    },
    "web.no_format_matches": {
        "en": "No finished match in this format yet.",
        "fa": "هنوز بازی تمام‌شده‌ای در این نوع بازی نیست.",
    },
    "web.recent_matches": {
        "en": "📜 Latest matches (every format)",
        "fa": "📜 آخرین بازی‌ها (همهٔ انواع)",
    },
    "web.outcome_won": {"en": "won", "fa": "برد"},
    "web.outcome_lost": {"en": "lost", "fa": "باخت"},
    "web.col_outcome": {"en": "Outcome", "fa": "نتیجه"},
    "web.match_link": {"en": "📋 Match", "fa": "📋 بازی"},
    # a match's page (web_match.py)
    "web.download": {"en": "⬇️ Download (JSON)", "fa": "⬇️ دریافت (JSON)"},
    "web.download_note": {
        "en": "The file replays with the bot's engine: {command}",
        "fa": "این پرونده با موتور ربات بازپخش و وارسی می‌شود: {command}",
    },
    "web.length": {"en": "Length", "fa": "طول بازی"},
    "web.hands_played": {"en": "hands played: {n}", "fa": "دورهای بازی‌شده: {n}"},
    "web.duration": {"en": "{minutes} min", "fa": "{minutes} دقیقه"},
    "web.players": {"en": "👥 Players", "fa": "👥 بازیکنان"},
    "web.hands": {"en": "🃏 Hands", "fa": "🃏 دورها"},
    "web.col_seat": {"en": "#", "fa": "#"},
    "web.col_change": {"en": "Rating change", "fa": "تغییر امتیاز مهارت"},
    "web.col_hand": {"en": "#", "fa": "#"},
    "web.col_contract": {"en": "Hakem and contract", "fa": "حاکم و خوانده"},
    "web.col_hand_result": {"en": "Result", "fa": "نتیجه"},
}
