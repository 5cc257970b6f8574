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
    "format.joker_six": {
        "en": "Joker six: 6 players, 2 teams of 3, two jokers, bidding for hakem, to 124",
        "fa": "شش‌نفرهٔ جوکردار: ۶ بازیکن، ۲ تیم سه‌نفره، دو جوکر، خواندن برای حاکمی، تا ۱۲۴",
    },
    # a command's format choice: Discord counts every character of a command's registration
    "format.choice.joker_six": {
        "en": "Joker six: 6 players, 2 teams of 3, jokers",
        "fa": "شش‌نفرهٔ جوکردار: ۶ بازیکن، ۲ تیم سه‌نفره، جوکر",
    },
    "format.choice.shelem": {
        "en": "Shelem: 4 players, 2 teams of 2, bidding",
        "fa": "شلم: ۴ بازیکن، ۲ تیم دونفره، خواندن",
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
    # V1, bam
    "settings.bam": {
        "en": "Bam (a side at seven tricks to none may play on for every trick): {value}",
        "fa": "بام (تیمی که هفت دست گرفته و حریف هیچ، می‌تواند برای همهٔ دست‌ها ادامه دهد): {value}",
    },
    "hand.bam_choice": {
        "en": "Your side has its tricks and the others none. **Bam!**: play on; every trick of "
        "the hand wins the match, one lost and the kot stands. **Stop**: take the kot now. "
        "Decide {when}.",
        "fa": "تیم شما دست‌های لازم را گرفته و حریف هیچ. **بام!**: ادامه دهید؛ اگر همهٔ دست‌های این دور را بگیرید بازی را می‌برید، و اگر یکی را ببازید همان کُت می‌ماند. **بس**: همین حالا کُت را بگیرید · مهلت: {when}",
    },
    "button.bam": {"en": "Bam!", "fa": "بام!"},
    "button.stop": {"en": "Stop", "fa": "بس"},
    "report.bam_offered": {
        "en": "{name}'s side has its tricks and the others none: bam or stop?",
        "fa": "تیم {name} دست‌های لازم را گرفته و حریف هیچ: بام یا بس؟",
    },
    "report.bam": {
        "en": "{name} declared **bam**: every trick of this hand, or the kot stands.",
        "fa": "{name} **بام** خواند: همهٔ دست‌های این دور، وگرنه همان کُت.",
    },
    "report.stop": {"en": "{name} stopped: the kot is scored.", "fa": "{name} بس کرد: کُت ثبت شد."},
    "report.timeout_decision": {
        "en": "{name} ran out of time; the server decided for them.",
        "fa": "وقت {name} تمام شد؛ سرور به جایش تصمیم گرفت.",
    },
    "report.hand_bam": {
        "en": "Bam! Every trick of hand {n} to {team} ({tricks}), and the match: {change} · {score}",
        "fa": "بام! همهٔ دست‌های دور {n} برای {team} ({tricks}) و بازی: {change} · {score}",
    },
    "summary.why_bam": {"en": "bam", "fa": "بام"},
    "summary.why_hakem_bam": {"en": "hakem-bam", "fa": "حاکم‌بام"},
    "table.turn_decide": {
        "en": "▶ {name} to decide — time runs out {when}",
        "fa": "▶ نوبت تصمیم {name} · مهلت: {when}",
    },
    # V2, two players: the discards and the draw
    "hand.discard": {
        "en": "Lay a card face down ({count} to go): click it. Decide {when}.",
        "fa": "یک کارت را به پشت کنار بگذارید ({count} مانده): رویش بزنید · مهلت: {when}",
    },
    "hand.draw": {
        "en": "The stock's top card is **{card}**: keep it (the next goes face down), or lay it "
        "down and keep the next, unseen. Decide {when}.",
        "fa": "کارت روی دسته **{card}** است: یا نگهش دارید (کارت بعدی به پشت کنار می‌رود)، یا آن را کنار بگذارید و کارت بعدی را ندیده بردارید · مهلت: {when}",
    },
    "hand.face_down": {"en": "Laid face down: {cards}", "fa": "به پشت کنار گذاشته: {cards}"},
    "button.keep": {"en": "Keep {card}", "fa": "نگه‌داشتن {card}"},
    "button.take_next": {"en": "Take the next", "fa": "برداشتن بعدی"},
    "table.stock": {
        "en": "Building the hands: {count} cards left in the stock",
        "fa": "کارت‌گیری: {count} کارت در دسته مانده",
    },
    # V5, the joker six: bidding for hakem
    "hand.bid": {
        "en": "Bid how many tricks your team takes with you as hakem (highest so far: {high}), "
        "or pass. Decide {when}.",
        "fa": "بخوانید تیمتان با حاکمی شما چند دست می‌گیرد (بالاترین خوانده تا حالا: {high})، یا پاس بدهید · مهلت: {when}",
    },
    "button.pass": {"en": "Pass", "fa": "پاس"},
    "table.bidding": {"en": "Bidding for hakem: {bids}", "fa": "خواندن برای حاکمی: {bids}"},
    "table.no_hakem": {"en": "no hakem yet", "fa": "هنوز حاکمی نیست"},
    "report.bids": {"en": "{name} bids {n}.", "fa": "{name} {n} خواند."},
    "report.passes": {"en": "{name} passes.", "fa": "{name} پاس داد."},
    "report.nobody_bid": {
        "en": "Everyone passed: a point to {name}'s team, and a new deal.",
        "fa": "همه پاس دادند: یک امتیاز برای تیم {name} و پخش دوباره.",
    },
    "report.hand_made": {
        "en": "{team} make their bid in hand {n} ({tricks}): {change} · {score}",
        "fa": "{team} در دور {n} به خوانده رسیدند ({tricks}): {change} · {score}",
    },
    "report.hand_set": {
        "en": "The bid fails in hand {n}: {change} to {team} ({tricks}) · {score}",
        "fa": "در دور {n} تیم حاکم به خوانده نرسید: {change} برای {team} ({tricks}) · {score}",
    },
    "summary.why_made": {"en": "bid made", "fa": "به خوانده رسید"},
    "summary.why_set": {"en": "bid failed", "fa": "به خوانده نرسید"},
    "error.bid_not_allowed": {
        "en": "Bid {low}–{high} tricks, or pass.",
        "fa": "بین {low} و {high} دست بخوانید، یا پاس بدهید.",
    },
    # R6, the redeal house rule
    "settings.redeal_without_court": {
        "en": "Redeal when the hakem's five hold no J, Q, K or A: {value}",
        "fa": "پخش دوباره وقتی پنج کارت حاکم سرباز، بی‌بی، شاه یا آس ندارد: {value}",
    },
    "button.redeal": {"en": "Redeal", "fa": "پخش دوباره"},
    "hand.can_redeal": {
        "en": "No J, Q, K or A among your five: you may ask for a **Redeal** instead.",
        "fa": "در پنج کارت شما سرباز، بی‌بی، شاه یا آس نیست: می‌توانید **پخش دوباره** بخواهید.",
    },
    "report.redealt": {
        "en": "{name} had no card above 10 and asked for a redeal: new cards for the hakem.",
        "fa": "{name} کارتی بالاتر از ۱۰ نداشت و پخش دوباره خواست: کارت‌های تازه برای حاکم.",
    },
    "error.redeal_not_allowed": {
        "en": "A redeal needs the table's redeal rule and five cards without J, Q, K or A.",
        "fa": "پخش دوباره فقط با قانون پخش دوباره و پنج کارت بدون سرباز، بی‌بی، شاه یا آس ممکن است.",
    },
    # A player alone is a team of one: the sentences that name a team take a singular verb.
    "report.hand_win_solo": {
        "en": "{team} takes hand {n} ({tricks}): {change} · {score}",
        "fa": "{team} دور {n} را برد ({tricks}): {change} · {score}",
    },
    "report.hand_kot_solo": {
        "en": "Kot! {team} takes hand {n} ({tricks}): {change} · {score}",
        "fa": "کُت! {team} دور {n} را برد ({tricks}): {change} · {score}",
    },
    "report.hand_hakem_kot_solo": {
        "en": "Hakem-kot! {team} takes hand {n} ({tricks}), the hakem none: {change} · {score}",
        "fa": "حاکم‌کُت! {team} دور {n} را برد ({tricks})، حاکم هیچ: {change} · {score}",
    },
    # Teams at a table other than the standard one may need more or fewer than seven tricks.
    "report.hand_kot_teams": {
        "en": "Kot! {team} take hand {n} ({tricks}): {change} · {score}",
        "fa": "کُت! {team} دور {n} را بردند ({tricks}): {change} · {score}",
    },
    "report.hand_hakem_kot_teams": {
        "en": "Hakem-kot! The defenders, {team}, take hand {n} ({tricks}): {change} · {score}",
        "fa": "حاکم‌کُت! تیم مقابل حاکم، {team}، دور {n} را بردند ({tricks}): {change} · {score}",
    },
    "summary.title_solo": {
        "en": "🏆 {team} wins the match {score}",
        "fa": "🏆 {team} بازی را {score} برد",
    },
    # issue 39: the target a table really plays to, and who bids with the highest bid so far
    "table.settings_one": {
        "en": "First to {target} point · {turn}s a turn",
        "fa": "تا {target} امتیاز · هر نوبت {turn} ثانیه",
    },
    "error.target_fixed": {
        "en": "This format always plays to {target} points: open the table without target_score.",
        "fa": "این نوع بازی همیشه تا {target} امتیاز است: میز را بدون target_score باز کنید.",
    },
    "error.target_shelem": {
        "en": "Shelem plays to its own target: choose it with shelem_target, not target_score.",
        "fa": "شلم امتیاز پایانی خودش را دارد: آن را با shelem_target بگذارید، نه target_score.",
    },
    "table.turn_bid": {
        "en": "▶ {name} to bid — time runs out {when}",
        "fa": "▶ نوبت خواندن {name} · مهلت: {when}",
    },
    "bid.waiting": {"en": "Waiting for {name} to bid", "fa": "در انتظار خواندن {name}"},
    "bid.none": {"en": "No bid yet", "fa": "هنوز کسی نخوانده"},
}
