"""The sentences of a Shelem table (V6, issue 17), en + fa: the auction, the kitty (the seed's
*zamin*, "زمین"), the modes, the points and the hand's result.

Catalog data like ``catalog_formats``, taken in whole by ``catalog.CATALOG``. The Persian
words are the seed's (``004_…``): خواندن (to bid), پاس (pass), شلم, سرشلم, زمین, نرس, آس نرس,
سرس, حکم.
"""

from __future__ import annotations

from typing import Final

SHELEM_TEXT: Final[dict[str, dict[str, str]]] = {
    "format.shelem": {
        "en": "Shelem: 4 players, 2 teams of 2, bidding for the kitty, played for points",
        "fa": "شلم: ۴ بازیکن، ۲ تیم دونفره، خواندن برای زمین، بازی برای امتیاز",
    },
    "format.shelem_short": {"en": "Shelem", "fa": "شلم"},
    "shelem.title": {"en": "Shelem table", "fa": "میز شلم"},
    "shelem.lobby_title": {
        "en": "🃏 Shelem table — waiting for players",
        "fa": "🃏 میز شلم — در انتظار بازیکنان",
    },
    "history.format_shelem": {"en": "Shelem", "fa": "شلم"},
    # table options and settings
    "settings.shelem_joker": {
        "en": "Shelem with two jokers (kitty of 6, bids 120–200, to 1400): {value}",
        "fa": "شلم با دو جوکر (زمین شش‌برگی، خواندن ۱۲۰ تا ۲۰۰، تا ۱۴۰۰): {value}",
    },
    "settings.shelem_modes": {
        "en": "Shelem modes besides hokm: {value}",
        "fa": "حالت‌های شلم جز حکم: {value}",
    },
    "settings.shelem_target": {
        "en": "Shelem match target (0: the seed's 1165, or 1400 with jokers): {value}",
        "fa": "امتیاز پایان بازی شلم (۰: همان ۱۱۶۵، یا ۱۴۰۰ با جوکر): {value}",
    },
    "shelem.modes_none": {"en": "none", "fa": "هیچ"},
    "shelem.mode.hokm": {"en": "Hokm", "fa": "حکم"},
    "shelem.mode.nars": {"en": "Nars", "fa": "نرس"},
    "shelem.mode.ace_nars": {"en": "Ace-nars", "fa": "آس نرس"},
    "shelem.mode.sars": {"en": "Sars", "fa": "سرس"},
    "shelem.footer": {
        "en": "to {target} points · {turn} s per turn",
        "fa": "تا {target} امتیاز · {turn} ثانیه برای هر نوبت",
    },
    "shelem.footer_jokers": {"en": "two jokers", "fa": "دو جوکر"},
    "shelem.footer_modes": {"en": "modes: {modes}", "fa": "حالت‌ها: {modes}"},
    "error.hints_shelem": {
        "en": "Hints are not available at Shelem tables.",
        "fa": "راهنمایی در میزهای شلم در دسترس نیست.",
    },
    # bids as words and on buttons
    "shelem.pass": {"en": "Pass", "fa": "پاس"},
    "shelem.shelem": {"en": "Shelem", "fa": "شلم"},
    "shelem.sar_shelem": {"en": "Sar-shelem", "fa": "سرشلم"},
    "shelem.none": {"en": "—", "fa": "—"},
    # the table message
    "shelem.hand_dealer": {"en": "Dealer: {name}", "fa": "پخش‌کننده: {name}"},
    "shelem.auction": {"en": "Bidding: {bids}", "fa": "خواندن: {bids}"},
    "shelem.auction_high": {
        "en": "Highest bid: **{bid}** by {name}",
        "fa": "بالاترین خوانده: **{bid}** از {name}",
    },
    "shelem.contract": {"en": "Bid: **{bid}** by {name}", "fa": "خوانده: **{bid}** از {name}"},
    "shelem.contract_mode": {
        "en": "Bid: **{bid}** by {name} · {mode}",
        "fa": "خوانده: **{bid}** از {name} · {mode}",
    },
    "shelem.trump_by_card": {
        "en": "Trump: named by {name}'s first card",
        "fa": "حکم: با اولین کارت {name} معلوم می‌شود",
    },
    "shelem.no_trump": {"en": "No trump ({mode})", "fa": "بی‌حکم ({mode})"},
    "shelem.points": {
        "en": "Points this hand: {teams} (of {total})",
        "fa": "امتیاز این دور: {teams} (از {total})",
    },
    "shelem.turn_bid": {
        "en": "▶ {name} to bid — time runs out {when}",
        "fa": "▶ نوبت خواندن {name} · مهلت: {when}",
    },
    "shelem.turn_discard": {
        "en": "▶ {name} is laying down {n} cards — time runs out {when}",
        "fa": "▶ {name} دارد {n} کارت را می‌خواباند · مهلت: {when}",
    },
    "shelem.turn_mode": {
        "en": "▶ {name} to announce the mode — time runs out {when}",
        "fa": "▶ نوبت اعلام حالت بازی با {name} · مهلت: {when}",
    },
    # the hand message
    "shelem.hand_header": {
        "en": "Shelem in {channel} · hand {n}",
        "fa": "شلم در {channel} · دور {n}",
    },
    "shelem.your_cards": {"en": "Your cards: {cards}", "fa": "کارت‌های شما: {cards}"},
    "shelem.hand_bid": {
        "en": "Your bid: the points your side will take with you as hakem (at least {low}), "
        "**Shelem** for every trick, or pass. Decide {when}.",
        "fa": "خواندهٔ شما: امتیازی که تیمتان با حاکمی شما می‌گیرد (دست‌کم {low})، **شلم** برای "
        "همهٔ دست‌ها، یا پاس · مهلت: {when}",
    },
    "shelem.hand_sar_shelem": {
        "en": "{name} bid **Shelem**. Call **Sar-shelem** (your side takes every trick, and "
        "you only look at the kitty), or pass. Decide {when}.",
        "fa": "{name} **شلم** خواند. **سرشلم** بخوانید (تیمتان همهٔ دست‌ها را می‌گیرد و شما زمین "
        "را فقط می‌بینید)، یا پاس · مهلت: {when}",
    },
    "shelem.hand_must_open": {
        "en": "The first three passed again, after {n} deals of this hand everyone passed: "
        "as the dealer you must open, so there is no Pass. Bid at least {low}, or "
        "**Shelem**. Decide {when}.",
        "fa": "پس از {n} بار پخشِ این دور که همه پاس دادند، سه نفر اول باز پاس دادند: شما پخش‌کننده‌اید و باید بخوانید، پس پاس نیست. دست‌کم {low} بخوانید، یا **شلم** · مهلت: {when}",
    },
    "shelem.final_deal": {
        "en": "{n} deals of this hand were passed: this one is the last. If the first three "
        "pass, {name}, the dealer, must open.",
        "fa": "{n} بار پخش این دور را همه پاس دادند: این آخرین پخش است. اگر سه نفر اول پاس بدهند، {name} که پخش‌کننده است باید بخواند.",
    },
    "shelem.kitty": {
        "en": "You won the bid at **{bid}**. The kitty brought you: {cards}",
        "fa": "خوانده را با **{bid}** بردید. از زمین به شما رسید: {cards}",
    },
    "shelem.kitty_seen": {
        "en": "The kitty, laid aside for your side: {cards}",
        "fa": "زمین، کنار گذاشته برای تیم شما: {cards}",
    },
    "shelem.choose_discards": {
        "en": "Click the {n} cards to lay down (their points count for your side), then "
        "**Lay down**. Chosen: {chosen}. Decide {when}.",
        "fa": "روی {n} کارتی که می‌خوابانید بزنید (امتیازشان برای تیم شماست)، بعد **خواباندن**. انتخاب‌شده: {chosen} · مهلت: {when}",
    },
    "shelem.button_lay_down": {"en": "Lay down ({k}/{n})", "fa": "خواباندن ({k} از {n})"},
    "shelem.waiting_discard": {
        "en": "{name} won the bid at **{bid}** and is laying down {n} cards.",
        "fa": "{name} خوانده را با **{bid}** برد و دارد {n} کارت را می‌خواباند.",
    },
    "shelem.laid_down_own": {
        "en": "Laid down: {cards} ({points} points for your side)",
        "fa": "کارت‌هایی که خواباندید: {cards} ({points} امتیاز برای تیم شما)",
    },
    "shelem.choose_mode": {
        "en": "Announce the mode of this hand. Decide {when}.",
        "fa": "حالت این دور را اعلام کنید · مهلت: {when}",
    },
    "shelem.waiting_mode": {
        "en": "{name} is announcing the mode.",
        "fa": "{name} دارد حالت بازی را اعلام می‌کند.",
    },
    "shelem.first_card_names_trump": {
        "en": "Your first card names trump (its suit is trump for the hand). Play it {when}.",
        "fa": "اولین کارت شما حکم را معلوم می‌کند (خال آن در این دور حکم است). آن را بازی کنید · مهلت: {when}",
    },
    "shelem.trump_line": {"en": "Trump: **{suit}**", "fa": "حکم: **{suit}**"},
    # public lines under the table message (recorded by the service)
    "shelem.passes": {"en": "{name} passes.", "fa": "{name} پاس داد."},
    "shelem.bids": {"en": "{name} bids {n}.", "fa": "{name} {n} خواند."},
    "shelem.bids_shelem": {
        "en": "{name} bids **Shelem**: every trick!",
        "fa": "{name} **شلم** خواند: همهٔ دست‌ها!",
    },
    "shelem.bids_sar_shelem": {
        "en": "{name} calls **Sar-shelem** over the shelem!",
        "fa": "{name} روی شلم **سرشلم** خواند!",
    },
    "shelem.all_passed": {
        "en": "The first three passed: {name} deals again.",
        "fa": "سه نفر اول پاس دادند: {name} دوباره پخش می‌کند.",
    },
    "shelem.bid_won": {
        "en": "{name} wins the bid at **{n}** and takes the kitty.",
        "fa": "{name} خوانده را با **{n}** برد و زمین را برداشت.",
    },
    "shelem.bid_won_shelem": {
        "en": "{name} plays **Shelem** and takes the kitty.",
        "fa": "{name} **شلم** بازی می‌کند و زمین را برداشت.",
    },
    "shelem.bid_won_sar_shelem": {
        "en": "{name} plays **Sar-shelem**: the kitty is only looked at, and laid aside.",
        "fa": "{name} **سرشلم** بازی می‌کند: زمین فقط دیده و کنار گذاشته می‌شود.",
    },
    "shelem.laid_down": {
        "en": "{name} laid {n} cards down.",
        "fa": "{name} {n} کارت خواباند.",
    },
    "shelem.announced_hokm": {
        "en": "{name} plays **Hokm**: the first card names trump.",
        "fa": "{name} **حکم** بازی می‌کند: اولین کارت حکم را معلوم می‌کند.",
    },
    "shelem.announced_nars": {
        "en": "{name} announces **Nars**: no trump, the 2 high and the ace low.",
        "fa": "{name} **نرس** اعلام کرد: بی‌حکم، دولو بالاترین و آس پایین‌ترین.",
    },
    "shelem.announced_ace_nars": {
        "en": "{name} announces **Ace-nars**: no trump, the ace high, then the 2 up to the king.",
        "fa": "{name} **آس نرس** اعلام کرد: بی‌حکم، آس از همه بالاتر، بعد دولو، بعد سه و همین‌طور تا شاه که از همه پایین‌تر است.",
    },
    "shelem.announced_sars": {
        "en": "{name} announces **Sars**: no trump, the usual ranks.",
        "fa": "{name} **سرس** اعلام کرد: بی‌حکم، ترتیب معمول کارت‌ها.",
    },
    # the hand's result (channel report and table message)
    "shelem.result.made": {
        "en": "{team} make their bid of {bid} in hand {n} ({points} points): {change} · {score}",
        "fa": "{team} در دور {n} به خواندهٔ {bid} رسیدند ({points} امتیاز): {change} · {score}",
    },
    "shelem.result.all_tricks": {
        "en": "{team} take every trick of hand {n} on a bid of {bid} ({points} points): "
        "{change} · {score}",
        "fa": "{team} همهٔ دست‌های دور {n} را با خواندهٔ {bid} گرفتند ({points} امتیاز): "
        "{change} · {score}",
    },
    "shelem.result.set": {
        "en": "{team} fall short of their bid of {bid} in hand {n} ({points} points): "
        "{change} · {score}",
        "fa": "{team} در دور {n} به خواندهٔ {bid} نرسیدند ({points} امتیاز): {change} · {score}",
    },
    "shelem.result.double_set": {
        "en": "{team} fall short of {bid} in hand {n} and take fewer points than the others "
        "({points} points): twice the bid, {change} · {score}",
        "fa": "{team} در دور {n} به خواندهٔ {bid} نرسیدند و کمتر از تیم مقابل امتیاز گرفتند ({points} امتیاز): دو برابر خوانده، {change} · {score}",
    },
    "shelem.result.shelem": {
        "en": "Shelem! {team} take every trick of hand {n}: {change} · {score}",
        "fa": "شلم! {team} همهٔ دست‌های دور {n} را گرفتند: {change} · {score}",
    },
    "shelem.result.shelem_set": {
        "en": "The shelem fails in hand {n} ({points} points): {team} {change} · {score}",
        "fa": "شلم در دور {n} نشد ({points} امتیاز): {team} {change} · {score}",
    },
    "shelem.result.sar_shelem": {
        "en": "Sar-shelem! {team} take every trick of hand {n}: {change} · {score}",
        "fa": "سرشلم! {team} همهٔ دست‌های دور {n} را گرفتند: {change} · {score}",
    },
    "shelem.result.sar_shelem_set": {
        "en": "The sar-shelem fails in hand {n} ({points} points): {team} {change} · {score}",
        "fa": "سرشلم در دور {n} نشد ({points} امتیاز): {team} {change} · {score}",
    },
    "shelem.result.withheld": {
        "en": "{team}, near the target, score nothing for their {points} points",
        "fa": "{team}، نزدیک پایان، برای {points} امتیازشان چیزی نمی‌گیرند",
    },
    "shelem.report.bid_won": {
        "en": "🗣 {name} wins the bid at **{bid}**.",
        "fa": "🗣 {name} خوانده را با **{bid}** برد.",
    },
    "shelem.report.all_passed": {
        "en": "🔄 Everyone passed: the cards are dealt again.",
        "fa": "🔄 همه پاس دادند: کارت‌ها دوباره پخش می‌شود.",
    },
    # the match summary
    "shelem.summary.hand": {
        "en": "{n}. {hakem} {bid} {how} — {why}: {change}",
        "fa": "{n}. {hakem} {bid} {how} — {why}: {change}",
    },
    "shelem.summary.shelems": {
        "en": "Every trick as hakem: {teams}",
        "fa": "همهٔ دست‌ها در حاکمی: {teams}",
    },
    "shelem.summary.hand_limit": {
        "en": "The match ended at the hand limit ({n} hands): the higher score won, or at "
        "equal scores the winners of the last hand.",
        "fa": "بازی به سقف دورها ({n} دور) رسید و تمام شد: امتیاز بیشتر برد، یا در امتیاز برابر برندگان دور آخر.",
    },
    "shelem.why.made": {"en": "bid made", "fa": "به خوانده رسید"},
    "shelem.why.all_tricks": {"en": "every trick", "fa": "همهٔ دست‌ها"},
    "shelem.why.set": {"en": "bid failed", "fa": "به خوانده نرسید"},
    "shelem.why.double_set": {
        "en": "bid failed, fewer points",
        "fa": "به خوانده نرسید، امتیاز کمتر",
    },
    "shelem.why.shelem": {"en": "shelem", "fa": "شلم"},
    "shelem.why.shelem_set": {"en": "shelem failed", "fa": "شلم نشد"},
    "shelem.why.sar_shelem": {"en": "sar-shelem", "fa": "سرشلم"},
    "shelem.why.sar_shelem_set": {"en": "sar-shelem failed", "fa": "سرشلم نشد"},
    # refusals
    "error.not_your_bid": {
        "en": "It isn't your turn to bid: {name} is to bid.",
        "fa": "نوبت خواندن شما نیست: نوبت {name} است.",
    },
    "error.shelem_bid_too_low": {
        "en": "A bid must be higher than the highest so far ({high}): {bid} is not.",
        "fa": "خوانده باید از بالاترین خواندهٔ تا حالا ({high}) بیشتر باشد: {bid} نیست.",
    },
    "error.shelem_bid_range": {
        "en": "Bid a multiple of 5 from {low} to {high}, Shelem, or pass.",
        "fa": "مضربی از ۵ از {low} تا {high} بخوانید، شلم، یا پاس.",
    },
    "error.after_shelem": {
        "en": "After a shelem only its opponents still in may call sar-shelem, or pass.",
        "fa": "بعد از شلم فقط حریف‌هایی که پاس نداده‌اند می‌توانند سرشلم بخوانند، یا پاس.",
    },
    "error.sar_shelem_not_allowed": {
        "en": "Sar-shelem is called only over a shelem, by its bidder's opponents.",
        "fa": "سرشلم فقط روی شلم و از طرف حریف‌های خوانندهٔ شلم خوانده می‌شود.",
    },
    "error.dealer_must_open": {
        "en": "You cannot pass: {n} deals of this hand were passed, so the dealer must open. "
        "Bid at least {low}, or Shelem.",
        "fa": "نمی‌توانید پاس بدهید: {n} بار پخش این دور را همه پاس دادند، پس پخش‌کننده باید بخواند. دست‌کم {low} بخوانید، یا شلم.",
    },
    "error.bidding_over": {
        "en": "The bidding for this hand is over.",
        "fa": "خواندن در این دور تمام شده است.",
    },
    "error.hakem_decides": {
        "en": "Only the hakem, {name}, decides now.",
        "fa": "الان فقط حاکم، {name}، تصمیم می‌گیرد.",
    },
    "error.not_laying_down": {
        "en": "Cards are laid down only by the hakem, right after the bidding.",
        "fa": "کارت‌ها را فقط حاکم و درست بعد از خواندن می‌خواباند.",
    },
    "error.discard_count": {
        "en": "Lay down exactly {needed} different cards (you chose {given}).",
        "fa": "دقیقاً {needed} کارت مختلف بخوابانید ({given} انتخاب کردید).",
    },
    "error.discard_too_many": {
        "en": "You have chosen {count} cards already: click one of them to put it back first.",
        "fa": "{count} کارت را انتخاب کرده‌اید: اول روی یکی از آن‌ها بزنید تا برگردد.",
    },
    "error.mode_not_allowed": {
        "en": "This table does not play that mode.",
        "fa": "این میز آن حالت را بازی نمی‌کند.",
    },
    "error.mode_over": {
        "en": "The mode of this hand is announced already.",
        "fa": "حالت این دور قبلاً اعلام شده است.",
    },
    "error.joker_names_no_trump": {
        "en": "Your first card names trump, so it cannot be a joker.",
        "fa": "اولین کارت شما حکم را معلوم می‌کند، پس نمی‌تواند جوکر باشد.",
    },
    "error.not_playing_yet": {
        "en": "No card is played before the bidding and the kitty are done.",
        "fa": "پیش از تمام شدن خواندن و زمین کارتی بازی نمی‌شود.",
    },
}
