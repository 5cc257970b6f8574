"""The sentences of hints for learners (issue 13 item 8), in English and Persian.

Part of ``catalog.CATALOG`` (merged in its "(issue 13) hints" section); kept in a module of
its own so the catalog stays under the module size limit. A reason's ``{suit}`` is a suit
label, ``{card}`` a card label, ``{count}`` a number, all said in the language by the presenter.
"""

from __future__ import annotations

from typing import Final

HINTS: Final[dict[str, dict[str, str]]] = {
    "settings.hints": {
        "en": "Hints for learners: {value}",
        "fa": "راهنمایی برای تازه‌کارها: {value}",
    },
    "button.hint": {"en": "💡 Hint", "fa": "💡 راهنمایی"},
    "table.hints_on": {"en": "💡 hints on", "fa": "💡 با راهنمایی"},
    "hint.card": {
        "en": "💡 Play **{card}**: {reason}.",
        "fa": "💡 **{card}** را بازی کنید: {reason}.",
    },
    "hint.trump": {
        "en": "💡 Name **{suit}** as trump: {reason}.",
        "fa": "💡 **{suit}** را حکم کنید: {reason}.",
    },
    "hint.note": {
        "en": "-# What the hard computer player would do; only you see this.",
        "fa": "-# کاری که بازیکن کامپیوتری سخت می‌کرد؛ فقط شما این را می‌بینید.",
    },
    "hint.only_card": {
        "en": "it is the only card you may play",
        "fa": "تنها کارتی است که می‌توانید بازی کنید",
    },
    "hint.partner_wins": {
        "en": "your partner already wins this trick",
        "fa": "یارتان همین حالا این دست را می‌برد",
    },
    "hint.trump_in": {
        "en": "you are out of {suit}: trump",
        "fa": "{suit} ندارید: حکم بزنید",
    },
    "hint.takes_trick": {"en": "takes the trick", "fa": "دست را می‌برد"},
    "hint.beats_so_far": {
        "en": "beats every card played so far",
        "fa": "از همهٔ کارت‌های روی میز بالاتر است",
    },
    "hint.discard": {
        "en": "you are out of {suit} and can't win: throw away a card you don't need",
        "fa": "{suit} ندارید و نمی‌توانید ببرید: کارتی را بیندازید که لازمش ندارید",
    },
    "hint.keeps_high": {"en": "keeps {card} for later", "fa": "{card} را برای بعد نگه می‌دارد"},
    "hint.cheap": {
        "en": "this trick can't be won: give away your cheapest card",
        "fa": "این دست را نمی‌شود برد: کم‌ارزش‌ترین کارت را بدهید",
    },
    "hint.master": {
        "en": "it is the highest {suit} card still in play",
        "fa": "هیچ {suit} بیرون‌مانده‌ای از آن بالاتر نیست",
    },
    "hint.draw_trumps": {
        "en": "draws out the others' trumps",
        "fa": "حکم‌های دیگران را بیرون می‌کشد",
    },
    "hint.draw_out": {
        "en": "makes the others spend their higher {suit}",
        "fa": "دیگران را وادار می‌کند {suit} بالاترشان را خرج کنند",
    },
    "hint.longest_suit": {
        "en": "your longest suit ({count} of your five cards)",
        "fa": "بلندترین خال شماست ({count} از پنج کارت)",
    },
    "error.hints_off": {
        "en": "Hints are off at this table.",
        "fa": "راهنمایی در این میز خاموش است.",
    },
    "error.hint_not_your_turn": {
        "en": "A hint comes on your turn; it isn't your turn now.",
        "fa": "راهنمایی فقط در نوبت خودتان است؛ الان نوبت شما نیست.",
    },
}
