"""The sentences of ``/hokm history`` and its Replay (issue 16), in English and Persian.

Part of ``catalog.CATALOG`` (merged like ``catalog_ratings``). In Persian a hand of the match
is "دست" as everywhere in the bot, and a trick within it "دور" (one round of the table), so
the replay's position line never says "دست" twice for two things.
"""

from __future__ import annotations

from typing import Final

HISTORY: Final[dict[str, dict[str, str]]] = {
    "history.title": {"en": "📜 Match history — {guild}", "fa": "📜 بازی‌های گذشته — {guild}"},
    "history.of_member": {"en": "Matches {name} played:", "fa": "بازی‌های {name}:"},
    "history.empty": {"en": "No finished matches yet.", "fa": "هنوز بازی تمام‌شده‌ای نیست."},
    "history.empty_member": {
        "en": "{name} hasn't finished a match here yet.",
        "fa": "{name} هنوز اینجا بازی تمام‌شده‌ای ندارد.",
    },
    "history.page": {
        "en": "Page {page} of {pages} · matches: {total} · Replay: every hand, trick by trick",
        "fa": "صفحهٔ {page} از {pages} · {total} بازی · بازپخش: همهٔ دورها، دست به دست",
    },
    "history.row": {
        "en": "**{n}.** {date} · {format} · {scores}",
        "fa": "**{n}.** {date} · {format} · {scores}",
    },
    "history.format_standard": {"en": "Standard", "fa": "معمولی"},
    "history.format_two": {"en": "Two players", "fa": "دونفره"},
    "history.format_three": {"en": "Three players", "fa": "سه‌نفره"},
    "history.format_five": {"en": "Five players", "fa": "پنج‌نفره"},
    "history.format_six_teams": {"en": "Six, 2 teams of 3", "fa": "شش‌نفره، ۲ تیم سه‌نفره"},
    "history.format_six_pairs": {"en": "Six, 3 teams of 2", "fa": "شش‌نفره، ۳ تیم دونفره"},
    "history.format_joker_six": {"en": "Joker six", "fa": "شش‌نفرهٔ جوکردار"},
    "button.replay": {"en": "🎬 Replay {n}", "fa": "🎬 بازپخش {n}"},
    # ---------------------------------------------------------------- the replay (ephemeral)
    "replay.title": {"en": "🎬 Replay: {scores}", "fa": "🎬 بازپخش: {scores}"},
    "replay.position": {"en": "**Hand {hand} of {hands}**", "fa": "**دور {hand} از {hands}**"},
    "replay.trick": {"en": "trick {n} of {of}", "fa": "دست {n} از {of}"},
    "replay.deal": {"en": "the deal", "fa": "پخش کارت‌ها"},
    "replay.bid": {"en": "Bid: {n}", "fa": "خوانده: {n}"},
    "replay.leads": {
        "en": "Every hand as play began; {name} leads.",
        "fa": "کارت‌های همه در شروع این دور؛ {name} شروع می‌کند.",
    },
    "replay.trick_line": {"en": "Trick {n}: {cards} → {name}", "fa": "دست {n}: {cards} ← {name}"},
    "replay.hand_of": {"en": "{name}: {cards}", "fa": "{name}: {cards}"},
    "replay.result": {
        "en": "{team} take the hand ({tricks}): {change} ({why})",
        "fa": "{team} دور را بردند ({tricks}): {change} ({why})",
    },
    "replay.result_solo": {
        "en": "{team} takes the hand ({tricks}): {change} ({why})",
        "fa": "{team} دور را برد ({tricks}): {change} ({why})",
    },
    "replay.footer": {
        "en": "Only you can see this replay · ⏮ ⏭ a hand · ◀ ▶ a trick",
        "fa": "این بازپخش را فقط شما می‌بینید · ⏮ ⏭ یک دور · ◀ ▶ یک دست",
    },
    # Shelem's replay (V6, issue 17): its bidding, trump and kitty (``shelem_replay``)
    "replay.shelem_redealt": {
        "en": "Dealt again before this deal (the first three passed): {n}×",
        "fa": "پخش دوباره پیش از این پخش (سه نفر اول پاس دادند): {n} بار",
    },
    "replay.shelem_trump": {
        "en": "Trump: {suit} (the hakem's first card)",
        "fa": "حکم: {suit} (اولین کارت حاکم)",
    },
    "replay.shelem_kitty": {
        "en": "Kitty: {kitty} · laid down: {laid}",
        "fa": "زمین: {kitty} · خوابانده: {laid}",
    },
    "replay.shelem_kitty_aside": {
        "en": "Kitty, laid aside for the hakem's side (sar-shelem): {kitty}",
        "fa": "زمین، کنار گذاشته برای تیم حاکم (سرشلم): {kitty}",
    },
    "error.replay_live": {
        "en": "That match is still being played: it can be replayed once it is over.",
        "fa": "این بازی هنوز در جریان است: پس از پایانش می‌شود بازپخشش کرد.",
    },
    "error.replay_unknown": {
        "en": "No finished match of this server has that id.",
        "fa": "هیچ بازی تمام‌شده‌ای در این سرور با این شناسه نیست.",
    },
    "error.replay_unavailable": {
        "en": "The replay of this match isn't available: it was recorded before replays were kept.",
        "fa": "بازپخش این بازی موجود نیست: پیش از آنکه بازپخش‌ها نگه داشته شوند ثبت شده است.",
    },
    "error.replay_broken": {
        "en": "The replay of this match can't be shown: its record no longer plays back to the result.",
        "fa": "بازپخش این بازی نشان داده نمی‌شود: ثبتش دیگر به همان نتیجه نمی‌رسد.",
    },
    "error.replay_not_yours": {
        "en": "This replay belongs to the member who opened it: press 🎬 Replay under `/hokm history` for your own.",
        "fa": "این بازپخش مال کسی است که بازش کرد: برای بازپخش خودتان زیر `/hokm history` دکمهٔ 🎬 بازپخش را بزنید.",
    },
}
