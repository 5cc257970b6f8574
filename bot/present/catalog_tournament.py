"""The sentences of tournaments (issue 37), en + fa: the tournament message, the standings, a
table's ping, the notices, the confirmations and refusals of ``/tournament``.

Catalog data like ``catalog.py``, which takes them in whole (``**TOURNAMENT``). A round is
«مرحله» (the glossary keeps «دور» for a hand), a partner «یار», the standings «جدول رده‌بندی».
"""

from __future__ import annotations

from typing import Final

_MESSAGE: Final[dict[str, dict[str, str]]] = {
    "tournament.title": {"en": "🏆 {name}", "fa": "🏆 {name}"},
    "tournament.settings": {
        "en": "{format} · {system} · {partners} · each match to {target} · {turn}s a turn",
        "fa": "{format} · {system} · {partners} · هر بازی تا {target} · هر نوبت {turn} ثانیه",
    },
    "tournament.target_own": {"en": "its own target", "fa": "امتیاز خودش"},
    "tournament.swiss": {"en": "Swiss, {rounds} rounds", "fa": "سوئیسی، {rounds} مرحله"},
    "tournament.knockout": {"en": "knockout", "fa": "حذفی"},
    "tournament.round_robin": {"en": "round robin", "fa": "همه با همه"},
    "tournament.fixed": {"en": "fixed teams", "fa": "تیم‌های ثابت"},
    "tournament.individual": {"en": "players enter alone", "fa": "ثبت‌نام تک‌نفره"},
    "tournament.host": {"en": "Host: {host}", "fa": "میزبان: {host}"},
    "tournament.registration": {
        "en": "Registration closes {when} · {count} entries",
        "fa": "ثبت‌نام {when} بسته می‌شود · {count} ثبت‌نام",
    },
    "tournament.grace": {
        "en": "A player has {grace} seconds to join their table; then they lose that match.",
        "fa": "هر بازیکن {grace} ثانیه فرصت دارد به میزش بپیوندد؛ وگرنه آن بازی را می‌بازد.",
    },
    "tournament.how_fixed": {
        "en": "Teams of {size}: one member types `/tournament join` naming the partner, who then presses **Join**.",
        "fa": "تیم‌های {size} نفره: یکی `/tournament join` را با نام یارش می‌زند و یار دکمهٔ **پیوستن** را می‌زند.",
    },
    "tournament.how_alone": {
        "en": "Press **Join** to enter; each round makes the teams and tables.",
        "fa": "برای ثبت‌نام **پیوستن** را بزنید؛ هر مرحله تیم‌ها و میزها را می‌سازد.",
    },
    "tournament.entries": {"en": "Entries", "fa": "ثبت‌نام‌ها"},
    "tournament.entry": {"en": "{n}. {members}", "fa": "{n}. {members}"},
    "tournament.no_entries": {"en": "Nobody yet.", "fa": "هنوز کسی نیست."},
    "tournament.invited": {
        "en": "⏳ {members}: waiting for {waiting}",
        "fa": "⏳ {members}: در انتظار {waiting}",
    },
    "tournament.more": {"en": "… and {count} more", "fa": "… و {count} تای دیگر"},
    "tournament.round": {"en": "Round {n} of {total}", "fa": "مرحلهٔ {n} از {total}"},
    "tournament.table": {"en": "Table {n}: {sides} — {where}", "fa": "میز {n}: {sides} — {where}"},
    "tournament.vs": {"en": " vs ", "fa": " در برابر "},
    "tournament.and": {"en": " & ", "fa": " و "},
    "tournament.at": {"en": "in {channel}", "fa": "در {channel}"},
    "tournament.waiting": {"en": "waiting for its table", "fa": "در انتظار میز"},
    "tournament.won": {"en": "{side} won {score}", "fa": "{side} برد {score}"},
    "tournament.forfeited": {
        "en": "{sides} did not join: they lose it",
        "fa": "{sides} نیامدند و می‌بازند",
    },
    "tournament.byes": {"en": "Sitting out: {names}", "fa": "استراحت: {names}"},
    "tournament.drops": {
        "en": "Leaving when this round ends: {names}",
        "fa": "پس از این مرحله کنار می‌روند: {names}",
    },
    "tournament.no_threads": {
        "en": "The bot cannot open threads here (missing: {missing}): the tables are played one at a time in this channel.",
        "fa": "ربات اینجا نمی‌تواند رشته بسازد (کم است: {missing}): میزها یکی‌یکی در همین کانال بازی می‌شوند.",
    },
    "tournament.finished": {"en": "🏆 Winners: {names}", "fa": "🏆 برندگان: {names}"},
    "tournament.no_winner": {"en": "It ended without a winner.", "fa": "بی برنده تمام شد."},
    "tournament.cancelled": {
        "en": "This tournament was cancelled.",
        "fa": "این تورنمنت لغو شد.",
    },
    "tournament.cancelled_few": {
        "en": "This tournament was cancelled: too few entries when registration closed.",
        "fa": "این تورنمنت لغو شد: هنگام پایان ثبت‌نام، ثبت‌نام‌ها کافی نبود.",
    },
    "tournament.thread": {
        "en": "{name} · round {r} · table {n}",
        "fa": "{name} · مرحله {r} · میز {n}",
    },
    "button.t_join": {"en": "Join", "fa": "پیوستن"},
    "button.t_leave": {"en": "Withdraw", "fa": "انصراف"},
    "perm.create_public_threads": {
        "en": "Create Public Threads",
        "fa": "Create Public Threads (ساختن رشته‌های عمومی)",
    },
}

_STANDINGS: Final[dict[str, dict[str, str]]] = {
    "tstandings.title": {
        "en": "Standings — {name}, after round {n}",
        "fa": "جدول رده‌بندی — {name}، پس از مرحلهٔ {n}",
    },
    "tstandings.final": {
        "en": "Final standings — {name}",
        "fa": "جدول رده‌بندی نهایی — {name}",
    },
    "tstandings.row": {
        "en": "**{rank}.** {members} — **{points}** pts · Bh {bh} · SB {sb} · ± {diff} · {results}",
        "fa": "**{rank}.** {members} — **{points}** امتیاز · بوخهولتس {bh} · سونبورن‌برگر {sb} · ± {diff} · {results}",
    },
    "tstandings.dropped": {"en": "(left)", "fa": "(کنار رفت)"},
    "tstandings.reached": {"en": "round {n}", "fa": "مرحلهٔ {n}"},
    "tstandings.win": {"en": "W", "fa": "برد"},
    "tstandings.loss": {"en": "L", "fa": "باخت"},
    "tstandings.forfeit": {"en": "F", "fa": "غیبت"},
    "tstandings.walkover": {"en": "WO", "fa": "برد بی‌حریف"},
    "tstandings.bye": {"en": "B", "fa": "استراحت"},
    "tstandings.legend": {
        "en": "Match points: 2 a win. Then Buchholz (Bh), Sonneborn-Berger (SB), points difference (±). W won · L lost · F did not join · WO won, the others did not join · B sat out",
        "fa": "امتیاز بازی: ۲ برای هر برد. سپس بوخهولتس، سونبورن‌برگر و اختلاف امتیاز (±). برد · باخت · غیبت: نیامد · برد بی‌حریف: حریف نیامد · استراحت: بی‌میز",
    },
    "tstandings.winners": {"en": "🏆 Winners: {names}", "fa": "🏆 برندگان: {names}"},
}

_NOTICES: Final[dict[str, dict[str, str]]] = {
    "tournament.ping": {
        "en": "{mentions} — **{name}**, round {r}: your table is here. Press **Join** on it {when}, or you lose this match.",
        "fa": "{mentions} — **{name}**، مرحلهٔ {r}: میز شما اینجاست. {when} روی آن **پیوستن** را بزنید، وگرنه این بازی را می‌بازید.",
    },
    "tournament.cancel_notice": {
        "en": "{mentions} — the tournament **{name}** was cancelled.",
        "fa": "{mentions} — تورنمنت **{name}** لغو شد.",
    },
    "tournament.cancel_few_notice": {
        "en": "{mentions} — the tournament **{name}** was cancelled: too few entries.",
        "fa": "{mentions} — تورنمنت **{name}** لغو شد: ثبت‌نام‌ها کافی نبود.",
    },
    "ok.t_created": {
        "en": "The tournament **{name}** is open: members join with its message's **Join**.",
        "fa": "تورنمنت **{name}** باز است: اعضا با **پیوستن** در پیام آن ثبت‌نام می‌کنند.",
    },
    "ok.t_joined": {"en": "You are in **{name}**.", "fa": "در **{name}** ثبت‌نام کردید."},
    "ok.t_invited": {
        "en": "Invited: {members} must press **Join** on the tournament message.",
        "fa": "دعوت شد: {members} باید **پیوستن** را در پیام تورنمنت بزنند.",
    },
    "ok.t_confirmed": {
        "en": "You confirmed; the team enters when all have.",
        "fa": "تأیید کردید؛ تیم وقتی همه تأیید کنند ثبت‌نام می‌شود.",
    },
    "ok.t_left": {"en": "You withdrew from **{name}**.", "fa": "از **{name}** انصراف دادید."},
    "ok.t_started": {"en": "**{name}** has started.", "fa": "**{name}** شروع شد."},
    "ok.t_cancelled": {"en": "**{name}** is cancelled.", "fa": "**{name}** لغو شد."},
    "ok.t_dropped": {
        "en": "{member} leaves **{name}** when this round ends.",
        "fa": "{member} پس از این مرحله از **{name}** کنار می‌رود.",
    },
}

_ERRORS: Final[dict[str, dict[str, str]]] = {
    "error.t_invalid_config": {
        "en": "That setting is not allowed: {setting} must be {allowed}.",
        "fa": "این تنظیم مجاز نیست: {setting} باید {allowed} باشد.",
    },
    "error.t_wrong_status": {
        "en": "Not now: the tournament is past that.",
        "fa": "الان نه: تورنمنت از این مرحله گذشته است.",
    },
    "error.t_registration_closed": {"en": "Registration has closed.", "fa": "ثبت‌نام بسته شده است."},
    "error.t_registration_open": {
        "en": "Registration is still open.",
        "fa": "ثبت‌نام هنوز باز است.",
    },
    "error.t_already_registered": {
        "en": "You are already in this tournament.",
        "fa": "شما در این تورنمنت ثبت‌نام کرده‌اید.",
    },
    "error.t_not_registered": {
        "en": "That member is not in this tournament.",
        "fa": "این عضو در این تورنمنت نیست.",
    },
    "error.t_wrong_team_size": {
        "en": "A team here has {needed} members ({given} named).",
        "fa": "هر تیم اینجا {needed} عضو دارد ({given} نام برده شد).",
    },
    "error.t_tournament_full": {
        "en": "The tournament is full ({limit} entries).",
        "fa": "تورنمنت پر است ({limit} ثبت‌نام).",
    },
    "error.t_too_few_entrants": {
        "en": "Too few entries to start: {given}, at least {needed}.",
        "fa": "برای شروع ثبت‌نام کافی نیست: {given}، دست‌کم {needed}.",
    },
    "error.t_already_dropped": {
        "en": "That member is leaving already.",
        "fa": "این عضو پیش‌تر کنار گذاشته شده است.",
    },
    "error.t_not_host": {
        "en": "Only the tournament's host or a member with Manage Server may do that.",
        "fa": "فقط میزبان تورنمنت یا عضوی با Manage Server (مدیریت سرور) این کار را می‌تواند.",
    },
    "error.t_over": {"en": "This tournament is over.", "fa": "این تورنمنت تمام شده است."},
    "error.t_gone": {
        "en": "That tournament no longer exists.",
        "fa": "آن تورنمنت دیگر وجود ندارد.",
    },
    "error.t_none_here": {
        "en": "There is no tournament in this channel.",
        "fa": "در این کانال تورنمنتی نیست.",
    },
    "error.t_channel_busy": {
        "en": "This channel already has a tournament under way.",
        "fa": "این کانال همین حالا یک تورنمنت در جریان دارد.",
    },
    "error.t_closes_past": {
        "en": "Registration must close in the future.",
        "fa": "پایان ثبت‌نام باید در آینده باشد.",
    },
    "error.t_name_partner": {
        "en": "Teams are fixed here: name your {needed} partner(s) with `/tournament join`, or press **Join** once a partner has named you.",
        "fa": "تیم‌ها اینجا ثابت‌اند: {needed} یار خود را با `/tournament join` نام ببرید، یا وقتی یاری شما را نام برد **پیوستن** را بزنید.",
    },
    "error.t_waiting_partner": {
        "en": "Your team waits for your partner to press **Join**.",
        "fa": "تیم شما منتظر است یارتان **پیوستن** را بزند.",
    },
    "error.t_partner_registered": {
        "en": "{member} is in the tournament already.",
        "fa": "{member} پیش‌تر ثبت‌نام کرده است.",
    },
    "error.t_partner_invited": {
        "en": "{member} is named in another team already.",
        "fa": "{member} پیش‌تر در تیم دیگری نام برده شده است.",
    },
    "error.t_partner_bot": {
        "en": "A bot cannot enter a tournament.",
        "fa": "ربات نمی‌تواند در تورنمنت ثبت‌نام کند.",
    },
    "error.t_no_partners": {
        "en": "Members enter alone here: name no partner.",
        "fa": "اینجا ثبت‌نام تک‌نفره است: یاری نام نبرید.",
    },
    "error.t_not_your_table": {
        "en": "This table is its tournament players' own.",
        "fa": "این میز فقط برای بازیکنان تورنمنت است.",
    },
    "error.t_no_leave": {
        "en": "A tournament table's players stay at it: their match counts for the tournament.",
        "fa": "بازیکنان میز تورنمنت پشت آن می‌مانند: بازی‌شان برای تورنمنت حساب می‌شود.",
    },
    "error.t_stale": {"en": "That was done already.", "fa": "این کار پیش‌تر انجام شده است."},
    "error.t_stale_round": {
        "en": "That round is over already.",
        "fa": "آن مرحله پیش‌تر تمام شده است.",
    },
    "error.t_round_not_complete": {
        "en": "Not before every table of the round has its result.",
        "fa": "نه پیش از آنکه همهٔ میزهای این مرحله نتیجه داشته باشند.",
    },
    "error.t_unknown_table": {"en": "No such table.", "fa": "چنین میزی نیست."},
    "error.t_result_already_recorded": {
        "en": "That table has its result already.",
        "fa": "این میز پیش‌تر نتیجه دارد.",
    },
    "error.t_invalid_result": {"en": "That result is not possible.", "fa": "این نتیجه ممکن نیست."},
    "error.t_not_at_table": {
        "en": "That member does not play at that table.",
        "fa": "این عضو در آن میز بازی نمی‌کند.",
    },
    "error.t_invalid_tournament": {
        "en": "That tournament's record cannot be read.",
        "fa": "سابقهٔ آن تورنمنت خوانده نمی‌شود.",
    },
    "error.t_tournament_error": {
        "en": "The tournament refused that.",
        "fa": "تورنمنت این را نپذیرفت.",
    },
    "error.t_wrong_channel": {
        "en": "Type this in the tournament's channel.",
        "fa": "این را در کانال تورنمنت بنویسید.",
    },
}

TOURNAMENT: Final[dict[str, dict[str, str]]] = {**_MESSAGE, **_STANDINGS, **_NOTICES, **_ERRORS}
