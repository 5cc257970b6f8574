"""Every sentence a user sees, in English and Persian: the catalog's data.

Discord has no Persian locale, so the language is a per-server setting and the bot translates
its own text. The sentences live here, apart from the functions that look them up and fill
them in (``bot.present.i18n``), so the code that formats text is not buried in data and a
translator edits one file of strings.
"""

from __future__ import annotations

from typing import Final, Literal

from .catalog_formats import FORMATS_TEXT
from .catalog_hints import HINTS
from .catalog_history import HISTORY
from .catalog_ratings import RATINGS
from .catalog_rematch import SUMMARY_AND_REMATCH
from .catalog_rules import RULES_TEXT
from .catalog_shelem import SHELEM_TEXT
from .catalog_tournament import TOURNAMENT
from .catalog_web import WEB

Language = Literal["en", "fa"]
LANGUAGES: Final = ("en", "fa")

SUIT_NAMES: Final[dict[str, tuple[str, str, str, str]]] = {
    "en": ("Spades", "Hearts", "Diamonds", "Clubs"),
    "fa": ("پیک", "دل", "خشت", "گشنیز"),
}

CATALOG: Final[dict[str, dict[str, str]]] = {
    # ---------------------------------------------------------------- table message
    "table.title": {"en": "Hokm table", "fa": "میز حکم"},
    "table.lobby_title": {
        "en": "🃏 Hokm table — waiting for players",
        "fa": "🃏 میز حکم — در انتظار بازیکنان",
    },
    "table.host": {"en": "Host: {host}", "fa": "میزبان: {host}"},
    "table.settings": {
        "en": "First to {target} points · {turn}s a turn",
        "fa": "تا {target} امتیاز · هر نوبت {turn} ثانیه",
    },
    "table.team": {"en": "Team {n}", "fa": "تیم {n}"},
    "table.seat": {"en": "Seat {n}", "fa": "صندلی {n}"},
    "table.empty_seat": {"en": "— empty —", "fa": "— خالی —"},
    "table.computer": {"en": "🤖 Computer", "fa": "🤖 کامپیوتر"},
    "table.autoplay": {"en": "(played by the computer)", "fa": "(کامپیوتر به جایش بازی می‌کند)"},
    "table.lobby_hint": {
        "en": "The match starts by itself when the fourth seat is taken. Seats 1 and 3 play against 2 and 4.",
        "fa": "بازی با پر شدن صندلی چهارم خودبه‌خود شروع می‌شود. صندلی‌های ۱ و ۳ در برابر ۲ و ۴.",
    },
    "table.lobby_closes": {
        "en": "Closes {when} if not full.",
        "fa": "اگر پر نشود بسته می‌شود · مهلت: {when}",
    },
    "table.hand": {"en": "Hand {n}", "fa": "دور {n}"},
    "table.hakem": {"en": "Hakem: {name}", "fa": "حاکم: {name}"},
    "table.trump": {"en": "Trump: {suit}", "fa": "حکم: {suit}"},
    "table.trump_pending": {"en": "Trump: {name} is choosing…", "fa": "حکم: {name} در حال انتخاب…"},
    "table.tricks": {"en": "Tricks — {teams}", "fa": "دست‌ها — {teams}"},
    "table.score": {
        "en": "Score — {teams} (to {target})",
        "fa": "امتیاز — {teams} (تا {target})",
    },
    "table.team_count": {"en": "{team}: {count}", "fa": "{team}: {count}"},
    "table.current_trick": {"en": "On the table: {cards}", "fa": "روی میز: {cards}"},
    "table.no_cards_yet": {"en": "On the table: nothing yet", "fa": "روی میز: هنوز کارتی نیامده"},
    "table.turn": {
        "en": "▶ {name} to play — time runs out {when}",
        "fa": "▶ نوبت {name} · مهلت: {when}",
    },
    "table.turn_trump": {
        "en": "▶ {name} to name trump — {when}",
        "fa": "▶ {name} باید حکم را بگوید · مهلت: {when}",
    },
    "table.turn_computer": {"en": "▶ {name} is thinking…", "fa": "▶ {name} در حال فکر کردن…"},
    "table.last_trick": {"en": "Last trick: {cards} → {name}", "fa": "دست قبل: {cards} ← {name}"},
    "table.dm_closed": {
        "en": "📪 {name} has DMs closed: use the **My hand** button below.",
        "fa": "📪 پیام خصوصی {name} بسته است: از دکمهٔ **کارت‌های من** استفاده کنید.",
    },
    "table.over": {"en": "Match over", "fa": "بازی تمام شد"},
    "table.cancelled": {"en": "This table was closed.", "fa": "این میز بسته شد."},
    # ---------------------------------------------------------------- buttons
    "button.join": {"en": "Join", "fa": "پیوستن"},
    "button.leave": {"en": "Leave", "fa": "ترک میز"},
    "button.add_computer": {"en": "Add computer", "fa": "افزودن کامپیوتر"},
    "button.start": {"en": "Start", "fa": "شروع"},
    "button.cancel": {"en": "Cancel", "fa": "لغو"},
    "button.my_hand": {"en": "My hand", "fa": "کارت‌های من"},
    "button.previous": {"en": "Previous", "fa": "قبلی"},
    "button.next": {"en": "Next", "fa": "بعدی"},
    # ---------------------------------------------------------------- hand (DM / ephemeral)
    "hand.header": {"en": "Hokm in {channel} · hand {n}", "fa": "حکم در {channel} · دور {n}"},
    "hand.choose_trump": {
        "en": "You are the hakem. These are your first five cards: name trump {when}.",
        "fa": "شما حاکم هستید. این پنج کارت اول شماست: حکم را بگویید · مهلت: {when}",
    },
    "hand.waiting_trump": {
        "en": "{name} is choosing trump…",
        "fa": "{name} در حال انتخاب حکم است…",
    },
    "hand.trump_line": {"en": "Trump: {suit} · Hakem: {name}", "fa": "حکم: {suit} · حاکم: {name}"},
    "hand.your_turn": {
        "en": "▶ Your turn — play one of the highlighted cards {when}.",
        "fa": "▶ نوبت شماست — یکی از کارت‌های روشن را بازی کنید · مهلت: {when}",
    },
    "hand.waiting_for": {"en": "Waiting for {name}.", "fa": "در انتظار {name}."},
    "hand.on_table": {"en": "On the table: {cards}", "fa": "روی میز: {cards}"},
    "hand.you_played": {"en": "You played {card}.", "fa": "شما {card} را بازی کردید."},
    "hand.over": {"en": "This hand is over.", "fa": "این دور تمام شد."},
    "hand.ephemeral_note": {"en": "Only you can see this.", "fa": "فقط شما این را می‌بینید."},
    # ---------------------------------------------------------------- channel reports
    "report.started": {"en": "🃏 The match begins! {players}", "fa": "🃏 بازی شروع شد! {players}"},
    "report.first_ace": {
        "en": "Cards dealt face up to find the hakem: {cards} — the first ace goes to **{name}**.",
        "fa": "کارت‌ها یکی‌یکی پخش و رو شد تا حاکم معلوم شود: {cards} — اولین آس به **{name}** رسید.",
    },
    "report.random_hakem": {
        "en": "**{name}** was drawn as the first hakem.",
        "fa": "**{name}** به قید قرعه حاکم اول شد.",
    },
    "report.trump_named": {
        "en": "{name} named **{suit}** trump.",
        "fa": "{name} **{suit}** حکم کرد.",
    },
    "report.trick": {
        "en": "Trick {n}: {cards} → **{name}**",
        "fa": "دست {n}: {cards} ← **{name}**",
    },
    "report.hand_win": {
        "en": "{team} take hand {n} ({tricks}): {change} · {score}",
        "fa": "{team} دور {n} را بردند ({tricks}): {change} · {score}",
    },
    "report.hand_kot": {
        "en": "Kot! {team} take hand {n} seven–nil: {change} · {score}",
        "fa": "کُت! {team} دور {n} را هفت بر هیچ بردند: {change} · {score}",
    },
    "report.hand_hakem_kot": {
        "en": "Hakem-kot! The defenders, {team}, take hand {n} seven–nil: {change} · {score}",
        "fa": "حاکم‌کُت! تیم مقابل حاکم، {team}، دور {n} را هفت بر هیچ بردند: {change} · {score}",
    },
    "report.next_hakem": {"en": "Next hakem: {name}.", "fa": "حاکم بعدی: {name}."},
    "report.timeout": {
        "en": "⏱ {name} ran out of time; the bot played {card} for them.",
        "fa": "⏱ وقت {name} تمام شد؛ ربات به جایش {card} را بازی کرد.",
    },
    "report.timeout_trump": {
        "en": "⏱ {name} ran out of time; the bot named {suit} trump for them.",
        "fa": "⏱ وقت {name} تمام شد؛ ربات به جایش {suit} حکم کرد.",
    },
    "report.replaced": {
        "en": "🤖 {name} missed two turns in a row: the computer plays for them until they click again.",
        "fa": "🤖 {name} دو نوبت پشت سر هم بازی نکرد: تا وقتی دوباره کلیک کند، کامپیوتر به جایش بازی می‌کند.",
    },
    "report.back": {"en": "{name} is back at the table.", "fa": "{name} به میز برگشت."},
    "report.dm_closed": {
        "en": "📪 I can't DM {name}. {name}, press **My hand** on the table message to see your cards.",
        "fa": "📪 نمی‌توانم به {name} پیام خصوصی بدهم. {name}، برای دیدن کارت‌هایتان دکمهٔ **کارت‌های من** را در پیام میز بزنید.",
    },
    "report.resumed": {
        "en": "♻️ The bot restarted; this table carries on where it was.",
        "fa": "♻️ ربات دوباره راه افتاد؛ این میز از همان‌جا ادامه می‌دهد.",
    },
    "report.cancelled": {
        "en": "The table was cancelled by {name}.",
        "fa": "{name} میز را لغو کرد.",
    },
    "report.expired": {
        "en": "The table closed: nobody filled the seats in time.",
        "fa": "میز بسته شد: صندلی‌ها به‌موقع پر نشد.",
    },
    "report.player_gone": {
        "en": "{name} left the server; the computer plays their seat.",
        "fa": "{name} سرور را ترک کرد؛ کامپیوتر جای او بازی می‌کند.",
    },
    # ---------------------------------------------------------------- answers to the clicker
    "ok.joined": {"en": "You joined seat {seat}.", "fa": "به صندلی {seat} پیوستید."},
    "ok.left": {"en": "You left the table.", "fa": "میز را ترک کردید."},
    "ok.computer_added": {
        "en": "A computer player took seat {seat}.",
        "fa": "یک کامپیوتر صندلی {seat} را گرفت.",
    },
    "ok.started": {"en": "The match is starting.", "fa": "بازی شروع می‌شود."},
    "ok.cancelled": {"en": "The table is cancelled.", "fa": "میز لغو شد."},
    "ok.table_opened": {"en": "Table opened in this channel.", "fa": "میز در این کانال باز شد."},
    "ok.hand_sent": {"en": "Here is your hand.", "fa": "این کارت‌های شماست."},
    # ---------------------------------------------------------------- refusals
    "error.not_your_turn": {
        "en": "It isn't your turn: {name} is to play.",
        "fa": "نوبت شما نیست: نوبت {name} است.",
    },
    "error.must_follow_suit": {
        "en": "You must follow suit: play a {suit} card.",
        "fa": "باید از خالِ دست پیروی کنید: یک کارت {suit} بازی کنید.",
    },
    "error.card_not_in_hand": {
        "en": "You don't hold {card} (any more).",
        "fa": "کارت {card} را (دیگر) ندارید.",
    },
    "error.wrong_phase": {"en": "That can't be done right now.", "fa": "این کار الان ممکن نیست."},
    "error.not_hakem": {
        "en": "Only the hakem, {name}, names trump.",
        "fa": "فقط حاکم، {name}، حکم را می‌گوید.",
    },
    "error.stale": {
        "en": "That button belongs to an earlier hand or a finished table.",
        "fa": "این دکمه مال دور قبلی یا میزی تمام‌شده است.",
    },
    "error.bad_button": {"en": "That button isn't valid.", "fa": "این دکمه معتبر نیست."},
    "error.not_a_player": {
        "en": "You aren't playing at this table.",
        "fa": "شما در این میز بازی نمی‌کنید.",
    },
    "error.not_your_hand": {
        "en": "That is someone else's hand.",
        "fa": "این کارت‌های کس دیگری است.",
    },
    "error.no_table": {
        "en": "There is no open table in this channel. Start one with `/hokm new`.",
        "fa": "میز بازی در این کانال نیست. با `/hokm new` یکی باز کنید.",
    },
    "error.channel_busy": {
        "en": "This channel already has a table: {link}",
        "fa": "این کانال از قبل یک میز دارد: {link}",
    },
    "error.table_full": {"en": "The table is full.", "fa": "میز پر است."},
    "error.already_seated": {"en": "You are already seated.", "fa": "شما قبلاً نشسته‌اید."},
    "error.seated_elsewhere": {
        "en": "You are already at a table in {channel}; one table at a time (leave it, or let it end, first).",
        "fa": "شما همین حالا سر میزی در {channel} هستید؛ هر بار فقط یک میز (اول آن را ترک کنید یا بگذارید تمام شود).",
    },
    "error.seated_elsewhere_other": {
        "en": "You are already at a table in another server ({channel}); one table at a time (leave it, or let it end, first).",
        "fa": "شما همین حالا سر میزی در سرور دیگری ({channel}) هستید؛ هر بار فقط یک میز (اول آن را ترک کنید یا بگذارید تمام شود).",
    },
    "error.server_tables_full": {
        "en": "This server already has {limit} open tables, its limit. Join one, or wait until one ends.",
        "fa": "این سرور همین حالا {limit} میز باز دارد که سقف آن است. به یکی بپیوندید یا صبر کنید تا یکی تمام شود.",
    },
    "error.missing_permissions": {
        "en": "I can't show a table here: I am missing {missing} in this channel. Ask a server manager to allow it, or use another channel.",
        "fa": "نمی‌توانم اینجا میز نشان دهم: در این کانال اجازهٔ {missing} را ندارم. از مدیر سرور بخواهید آن را بدهد یا از کانال دیگری استفاده کنید.",
    },
    "perm.view_channel": {"en": "View Channel", "fa": "View Channel (مشاهدهٔ کانال)"},
    "perm.send_messages": {"en": "Send Messages", "fa": "Send Messages (ارسال پیام)"},
    "perm.send_messages_in_threads": {
        "en": "Send Messages in Threads",
        "fa": "Send Messages in Threads (ارسال پیام در رشته‌ها)",
    },
    "perm.embed_links": {"en": "Embed Links", "fa": "Embed Links (جاسازی پیوندها)"},
    "error.not_seated": {
        "en": "You aren't seated at this table.",
        "fa": "شما در این میز ننشسته‌اید.",
    },
    "error.not_host": {
        "en": "Only the host can do that.",
        "fa": "فقط میزبان می‌تواند این کار را بکند.",
    },
    "error.not_host_or_admin": {
        "en": "Only the host or a server manager can do that.",
        "fa": "فقط میزبان یا مدیر سرور می‌تواند این کار را بکند.",
    },
    "error.already_started": {
        "en": "The match has already started.",
        "fa": "بازی از قبل شروع شده است.",
    },
    "error.not_started": {"en": "The match hasn't started yet.", "fa": "بازی هنوز شروع نشده است."},
    "error.computers_off": {
        "en": "Computer players are turned off in this server.",
        "fa": "بازیکن کامپیوتری در این سرور خاموش است.",
    },
    "error.need_players": {
        "en": "Not enough players to start.",
        "fa": "برای شروع بازیکن کافی نیست.",
    },
    "error.not_admin": {
        "en": "You need the Manage Server permission for that.",
        "fa": "برای این کار اجازهٔ Manage Server (مدیریت سرور) لازم است.",
    },
    "error.guild_only": {
        "en": "Use this command in a server channel.",
        "fa": "این فرمان را در کانال سرور به کار ببرید.",
    },
    "error.setting": {"en": "Not changed: {detail}", "fa": "تغییر نکرد: {detail}"},
    "error.internal": {
        "en": "Something went wrong on my side; nothing was changed. Please try again.",
        "fa": "مشکلی پیش آمد؛ چیزی تغییر نکرد. لطفاً دوباره امتحان کنید.",
    },
    "error.busy": {
        "en": "The table is busy; try again in a moment.",
        "fa": "میز مشغول است؛ کمی بعد دوباره امتحان کنید.",
    },
    # ---------------------------------------------------------------- standings, settings, rules
    "standings.title": {"en": "🏆 Standings — {guild}", "fa": "🏆 جدول رده‌بندی — {guild}"},
    "standings.empty": {"en": "No finished matches yet.", "fa": "هنوز بازی تمام‌شده‌ای نیست."},
    "standings.page": {"en": "Page {page} of {pages}", "fa": "صفحهٔ {page} از {pages}"},
    "standings.member_none": {
        "en": "{name} hasn't finished a match here yet.",
        "fa": "{name} هنوز اینجا بازی تمام‌شده‌ای ندارد.",
    },
    "standings.member": {
        "en": "**{name}** — rank {rank}\nMatches: {won} won of {played} ({rate}%)\nHands won: {hands}\nKots dealt: {kots}\nHakem-kots suffered: {hk}",
        "fa": "**{name}** — رتبهٔ {rank}\nبازی‌ها: {won} برد از {played} ({rate}٪)\nدورهای برده: {hands}\nکُت‌ها: {kots}\nحاکم‌کُت خورده: {hk}",
    },
    "settings.title": {"en": "⚙️ Hokm settings for this server", "fa": "⚙️ تنظیمات حکم در این سرور"},
    "settings.changed": {"en": "Saved.", "fa": "ذخیره شد."},
    "settings.turn_seconds": {"en": "Turn time: {value} s", "fa": "زمان هر نوبت: {value} ثانیه"},
    "settings.trump_seconds": {
        "en": "Trump-choice time: {value} s",
        "fa": "زمان انتخاب حکم: {value} ثانیه",
    },
    "settings.lobby_timeout_minutes": {
        "en": "Lobby closes after: {value} min",
        "fa": "بسته شدن میز خالی پس از: {value} دقیقه",
    },
    "settings.target_score": {
        "en": "Default target score: {value}",
        "fa": "امتیاز پیش‌فرض برد: {value}",
    },
    "settings.hakem_selection": {"en": "First hakem: {value}", "fa": "حاکم اول: {value}"},
    "settings.allow_computer_players": {
        "en": "Computer players allowed: {value}",
        "fa": "بازیکن کامپیوتری مجاز: {value}",
    },
    "settings.language": {"en": "Language: {value}", "fa": "زبان: {value}"},
    "settings.computer_difficulty": {
        "en": "Computer strength: {value}",
        "fa": "قدرت کامپیوتر: {value}",
    },
    "settings.max_open_tables": {
        "en": "Open tables at most: {value}",
        "fa": "حداکثر میزهای باز: {value}",
    },
    "value.first_ace": {"en": "first ace dealt face up", "fa": "اولین آسی که پخش و رو شود"},
    "value.random": {"en": "random", "fa": "تصادفی"},
    "value.yes": {"en": "yes", "fa": "بله"},
    "value.no": {"en": "no", "fa": "خیر"},
    "value.en": {"en": "English", "fa": "انگلیسی"},
    "value.fa": {"en": "Persian", "fa": "فارسی"},
    "value.easy": {"en": "easy", "fa": "آسان"},
    "value.normal": {"en": "normal", "fa": "معمولی"},
    "value.hard": {"en": "hard", "fa": "سخت"},
    "rules.text": {
        "en": (
            "**Hokm in short**\n"
            "• Four players, two teams: partners sit opposite.\n"
            "• The hakem sees five cards first and names trump; then everyone gets 13.\n"
            "• The hakem leads; you must follow the led suit if you can. If you can't, play anything — a trump wins.\n"
            "• The highest trump wins the trick, otherwise the highest card of the led suit.\n"
            "• First team to 7 tricks takes the hand: 1 point, 2 for a kot (7–0), 3 if the hakem's team took none.\n"
            "• The hakem stays after winning; after losing, the next player becomes hakem.\n"
            "• First team to {points} wins the match."
        ),
        "fa": (
            "**حکم به طور خلاصه**\n"
            "• چهار بازیکن در دو تیم؛ یارها روبه‌روی هم می‌نشینند.\n"
            "• حاکم اول پنج کارت می‌بیند و حکم را می‌گوید؛ بعد به همه ۱۳ کارت می‌رسد.\n"
            "• حاکم دست اول را شروع می‌کند؛ اگر از خالِ دست دارید باید همان را بازی کنید، وگرنه هر کارتی آزاد است و حکم می‌بُرد.\n"
            "• بالاترین حکم دست را می‌برد، وگرنه بالاترین کارتِ خالِ دست.\n"
            "• اولین تیمی که ۷ دست بگیرد آن دور را می‌برد: ۱ امتیاز، کُت (۷ بر ۰) ۲ امتیاز، و اگر تیم حاکم هیچ دستی نگیرد ۳ امتیاز.\n"
            "• حاکم اگر ببرد می‌ماند؛ اگر ببازد نفر بعدی حاکم می‌شود.\n"
            "• اولین تیمی که به {points} برسد برندهٔ بازی است."
        ),
    },
    # ---------------------------------------------------------------- teams by names (issue 13)
    "team.join": {"en": " & ", "fa": " و "},
    # ---------------------------------------------------------------- (issue 13) the hand's tricks, standings, spectators
    "table.trick_line": {"en": "{n} · {cards} → {name}", "fa": "{n} · {cards} ← {name}"},
    "table.tricks_earlier": {"en": "… {count} earlier tricks", "fa": "… {count} دست پیش‌تر"},
    "error.already_played": {
        "en": "You already played {card} to this trick; wait for the next one.",
        "fa": "شما در این دست {card} را بازی کرده‌اید؛ منتظر دست بعد بمانید.",
    },
    "error.spectator": {
        "en": "You are watching this table; join the next table with `/hokm new`.",
        "fa": "شما تماشاگر این میز هستید؛ برای بازی در میز بعدی از `/hokm new` استفاده کنید.",
    },
    # ---------------------------------------------------------------- (issue 13) the DM as the player's table
    "dm.team_count": {"en": "{team} {count}", "fa": "{team}: {count}"},
    "dm.tricks": {"en": "Tricks: {teams}", "fa": "دست‌ها: {teams}"},
    "dm.score": {"en": "Score: {teams} (to {target})", "fa": "امتیاز: {teams} (تا {target})"},
    "dm.last_trick": {
        "en": "Last trick ({n}): {cards} → {name}",
        "fa": "دست قبل ({n}): {cards} ← {name} برد",
    },
    "table.hand_ended": {  # issue 39: the trick that ended a hand, shown after it
        "en": "Hand {hand} ended with trick {n}: {cards} → {name}",
        "fa": "دور {hand} با دست {n} تمام شد: {cards} ← {name} برد",
    },
    "dm.on_table": {"en": "On the table: {cards}", "fa": "روی میز: {cards}"},
    "dm.leads": {
        "en": "On the table: nothing yet; {name} leads.",
        "fa": "روی میز: هنوز کارتی نیامده؛ {name} شروع می‌کند.",
    },
    "dm.see_table": {
        "en": "The others are playing: see the table in {channel}.",
        "fa": "دیگران در حال بازی‌اند: میز را در {channel} ببینید.",
    },
    #
    #
    # ---------------------------------------------------------------- (issue 13) match summary and rematch
    #
    **SUMMARY_AND_REMATCH,  # bot/present/catalog_rematch.py (keeps this file short)
    #
    # ---------------------------------------------------------------- (issue 13) hints
    #
    #
    **HINTS,  # bot/present/catalog_hints.py: this file would grow past the module limit
    **RATINGS,  # bot/present/catalog_ratings.py (issue 16)
    **HISTORY,  # bot/present/catalog_history.py (issue 16): /hokm history and its Replay
    **FORMATS_TEXT,  # bot/present/catalog_formats.py (issue 14): the Hokm family
    **WEB,  # bot/present/catalog_web.py (issue 16): the server's web page
    **SHELEM_TEXT,  # bot/present/catalog_shelem.py (issue 17): V6 Shelem
    **RULES_TEXT,  # bot/present/catalog_rules.py: /hokm rules for every format
    **TOURNAMENT,  # bot/present/catalog_tournament.py (issue 37): tournaments
}
