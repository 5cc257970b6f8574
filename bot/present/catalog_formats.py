"""The sentences of the Hokm family (issue 14): formats by name, the lobby of any table size,
a player alone as a "team", and the table options of the variants, en + fa.

Catalog data like ``catalog.py``, which takes them in whole (``**FORMATS_TEXT``): kept apart so
the catalog stays under the module size ``tests/bot/test_layers.py`` allows.
"""

from __future__ import annotations

from typing import Final

FORMATS_TEXT: Final[dict[str, dict[str, str]]] = {
    # A format the catalog has no name for is described by its shape (``present.formats``).
    "format.standard": {
        "en": "Standard: 4 players, 2 teams of 2",
        "fa": "معمولی: ۴ بازیکن، ۲ تیم دونفره",
    },
    "format.solo": {"en": "{seats} players, each alone", "fa": "{seats} بازیکن، هر کس برای خودش"},
    "format.teams": {
        "en": "{seats} players, {teams} teams of {size}",
        "fa": "{seats} بازیکن، {teams} تیم {size} نفره",
    },
    "table.lobby_hint_solo": {
        "en": "The match starts by itself when seat {n} is taken. Everyone plays alone.",
        "fa": "بازی با پر شدن صندلی {n} خودبه‌خود شروع می‌شود. هر کس برای خودش بازی می‌کند.",
    },
    "table.lobby_hint_teams": {
        "en": "The match starts by itself when seat {n} is taken. Teams by seat: {teams}.",
        "fa": "بازی با پر شدن صندلی {n} خودبه‌خود شروع می‌شود. تیم‌ها به ترتیب صندلی: {teams}.",
    },
    "settings.game_format": {"en": "Format: {value}", "fa": "نوع بازی: {value}"},
    # standings per format
    "standings.member_none_format": {
        "en": "{name} hasn't finished a match of this format here yet ({f}).",
        "fa": "{name} هنوز اینجا بازی تمام‌شده‌ای از این نوع ندارد ({f}).",
    },
    "standings.format": {"en": "Format: {f}", "fa": "نوع بازی: {f}"},
    # R6, the redeal house rule
    "settings.redeal_without_court": {
        "en": "Redeal when the hakem's five hold no J, Q, K or A: {value}",
        "fa": "دست دوباره وقتی پنج کارت حاکم سرباز، بی‌بی، شاه یا آس ندارد: {value}",
    },
    "button.redeal": {"en": "Redeal", "fa": "دست دوباره"},
    "hand.can_redeal": {
        "en": "No J, Q, K or A among your five: you may ask for a **Redeal** instead.",
        "fa": "در پنج کارت شما سرباز، بی‌بی، شاه یا آس نیست: می‌توانید **دست دوباره** بخواهید.",
    },
    "report.redealt": {
        "en": "{name} had no card above 10 and asked for a redeal: new cards for the hakem.",
        "fa": "{name} کارتی بالاتر از ۱۰ نداشت و دست دوباره خواست: کارت‌های تازه برای حاکم.",
    },
    "error.redeal_not_allowed": {
        "en": "A redeal needs the table's redeal rule and five cards without J, Q, K or A.",
        "fa": "دست دوباره فقط با قانون دست دوباره و پنج کارت بدون سرباز، بی‌بی، شاه یا آس ممکن است.",
    },
    # A player alone is a team of one: the sentences that name a team take a singular verb.
    "report.hand_win_solo": {
        "en": "{team} takes hand {n} ({tricks}): +{points} · {score}",
        "fa": "{team} دست {n} را برد ({tricks}): +{points} · {score}",
    },
    "report.hand_kot_solo": {
        "en": "Kot! {team} takes hand {n} ({tricks}): +{points} · {score}",
        "fa": "کُت! {team} دست {n} را برد ({tricks}): +{points} · {score}",
    },
    "report.hand_hakem_kot_solo": {
        "en": "Hakem-kot! {team} takes hand {n} ({tricks}), the hakem none: +{points} · {score}",
        "fa": "حاکم‌کُت! {team} دست {n} را برد ({tricks})، حاکم هیچ: +{points} · {score}",
    },
    # Teams at a table other than the standard one may need more or fewer than seven tricks.
    "report.hand_kot_teams": {
        "en": "Kot! {team} take hand {n} ({tricks}): +{points} · {score}",
        "fa": "کُت! {team} دست {n} را بردند ({tricks}): +{points} · {score}",
    },
    "report.hand_hakem_kot_teams": {
        "en": "Hakem-kot! The defenders, {team}, take hand {n} ({tricks}): +{points} · {score}",
        "fa": "حاکم‌کُت! مدافعان، {team}، دست {n} را بردند ({tricks}): +{points} · {score}",
    },
    "summary.title_solo": {
        "en": "🏆 {team} wins the match {s1}–{s2}",
        "fa": "🏆 {team} بازی را {s1}–{s2} برد",
    },
}
