"""The frame of a server's web page: the HTML document, the card faces, and the
Content-Security-Policy that allows the page's one stylesheet and one script
(``web_style``) and nothing else.

Text enters HTML only through ``esc`` (``html.escape`` with quotes): a member's name, a
server's name, every catalog sentence once it is filled in (``sentence``, where a piece of
it is HTML of its own: a command in a left-to-right isolate). No image, no font, no link to
anywhere but the page itself: the cards are drawn by CSS from Unicode suits, so the policy
can be ``default-src 'none'`` with the stylesheet and the script allowed by their hashes.
"""

from __future__ import annotations

import base64
import hashlib
import html
import re
from collections.abc import Iterable
from typing import Final

from engine import Card

from .i18n import t, word
from .web_style import CSS, SCRIPT


def _sha256(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()


CSS_HASH: Final = _sha256(CSS)
SCRIPT_HASH: Final = _sha256(SCRIPT)
CONTENT_SECURITY_POLICY: Final = (
    f"default-src 'none'; style-src '{CSS_HASH}'; script-src '{SCRIPT_HASH}'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
"""Nothing loads or frames the page; only its stylesheet applies and only its keyboard
stepping runs (``web_style``), each allowed by its hash."""
COMMAND: Final = "/hokm settings web:false"

RED: Final = frozenset({"♥", "♦"})


def esc(text: object) -> str:
    """Text as HTML text or an attribute value: ``& < > " '`` escaped."""
    return html.escape(str(text), quote=True)


def direction(lang: str) -> str:
    return "rtl" if lang == "fa" else "ltr"


def document(
    lang: str, title: str, body: Iterable[str], *, footer: bool = True, script: bool = False
) -> str:
    """A whole page: ``body`` is HTML already (built from ``esc``-aped text), ``title`` text.
    The language sets ``lang`` and the direction (Persian right to left); ``script`` adds the
    replay's keyboard stepping."""
    command = f'<code dir="ltr">{esc(COMMAND)}</code>'
    end = [f"<footer><p>{sentence(lang, 'web.footer', command=command)}</p></footer>"]
    return "\n".join(
        [
            "<!DOCTYPE html>",
            f'<html lang="{esc(lang)}" dir="{direction(lang)}">',
            "<head>",
            '<meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            '<meta name="robots" content="noindex, nofollow">',
            '<meta name="referrer" content="no-referrer">',
            '<meta name="color-scheme" content="light dark">',
            f"<title>{esc(title)}</title>",
            f"<style>{CSS}</style>",
            *([f"<script>{SCRIPT}</script>"] if script else []),
            "</head>",
            "<body>",
            *body,
            *(end if footer else []),
            "</body>",
            "</html>",
        ]
    )


_SLOT: Final = "\ue000{}\ue001"
"""A parameter's place in a sentence while it is escaped (private-use characters, which no
catalog sentence holds and ``esc`` leaves alone)."""
_ISOLATED_SLOT: Final = re.compile("\u2068?\ue000(\\d+)\ue001\u2069?")


def sentence(lang: str, key: str, **parts: str) -> str:
    """The catalog sentence ``key`` as HTML, escaped, with ``parts`` (HTML of their own, such
    as a command in ``<code dir="ltr">`` or a name in ``<bdi>``) in their places. Each part
    is its own element, so it is isolated by the page's markup rather than by the Unicode
    isolates ``t`` puts round a Persian parameter, which are dropped here."""
    names = list(parts)
    text = esc(t(lang, key, **{name: _SLOT.format(i) for i, name in enumerate(names)}))
    return _ISOLATED_SLOT.sub(lambda m: parts[names[int(m[1])]], text)


STATUS_WORDS: Final = {
    400: "web.bad_request",
    404: "web.not_found",
    500: "web.failed",
    503: "web.busy",
}
"""The catalog key of each plain answer's words (``status_page``)."""


def status_page(status: int) -> str:
    """The page's plain answer for ``status`` (400, 404, 500, 503; any other: 500): its number
    and words in both languages (whose page it is, is unknown), and nothing that says what
    serves it or what was asked. The 404 is the one answer to a wrong secret, a page that is
    off and any address that is not a page: the same bytes whatever was wrong."""
    status = status if status in STATUS_WORDS else 500
    words = " · ".join(t(lang, STATUS_WORDS[status]) for lang in ("en", "fa"))
    body = [f'<main><h1 dir="auto">{status} · {esc(words)}</h1></main>']
    return document("en", str(status), body, footer=False)


_STAR: Final = '<span class="star"></span>'
"""A joker's star, drawn by the stylesheet (``.star``): no glyph a font may lack."""


def card_face(card: Card, lang: str = "en") -> str:
    """One card drawn in CSS: its rank and suit in the corner, the suit large in the middle;
    ``data-card`` holds its code (``QH``) for tests, and screen readers get its label (a
    joker's name in ``lang``). The two jokers are told apart at a glance: a red star on a
    white card, a white star on a black one (stars drawn by the stylesheet, no glyph)."""
    if card.is_joker:
        colour = "red" if card.code == "RJ" else "black"
        label = word(lang, f"web.joker_{colour}")
        cls, corner, pip = f"card joker {colour}", _STAR, _STAR
    else:
        label = card.label
        corner, pip = f"{card.rank_code}<br>{card.suit.symbol}", card.suit.symbol
        cls = "card red" if card.suit.symbol in RED else "card"
    return (
        f'<span class="{cls}" data-card="{esc(card.code)}" role="img" aria-label="{esc(label)}">'
        f'<span class="corner" aria-hidden="true">{corner}</span>'
        f'<span class="pip" aria-hidden="true">{pip}</span></span>'
    )


def card_chip(card: Card, lang: str = "en") -> str:
    """A card in a line of text: ``A♠``, hearts and diamonds in red; a joker a star on its
    colour (as its face), named for screen readers. Each card is an isolate of its own, so
    a run of them follows the page's direction (in Persian the first played on the right)."""
    if card.is_joker:
        colour = "red" if card.code == "RJ" else "black"
        label = esc(word(lang, f"web.joker_{colour}"))
        return f'<span class="chip {colour}" role="img" aria-label="{label}">{_STAR}</span>'
    cls = ' class="red"' if card.suit.symbol in RED else ""
    return f'<span{cls} dir="ltr">{esc(card.label)}</span>'


def cards_row(cards: Iterable[Card], cls: str = "hand", lang: str = "en") -> str:
    return f'<div class="{cls}">{"".join(card_face(c, lang) for c in cards)}</div>'
