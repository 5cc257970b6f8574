"""The frame of a server's web page (issue 16): the HTML document, its one stylesheet, the
card faces, and the Content-Security-Policy that allows that stylesheet and nothing else.

Text enters HTML only through ``esc`` (``html.escape`` with quotes): a member's name, a
server's name, every catalog sentence once it is filled in. No script, no image, no font, no
link to anywhere but the page itself: the cards are drawn by CSS from Unicode suits, so the
policy can be ``default-src 'none'`` with the stylesheet allowed by its hash.
"""

from __future__ import annotations

import base64
import hashlib
import html
from collections.abc import Iterable
from typing import Final

from engine import Card

from .i18n import t

CSS: Final = """
:root{color-scheme:light;--felt:#0b5d3b;--ink:#1d1d1d}
body{margin:0;background:#f4f1ea;color:var(--ink);line-height:1.5;
font-family:system-ui,"Noto Sans","Noto Sans Arabic","Vazirmatn",Tahoma,sans-serif}
header,main,footer{max-width:64rem;margin:0 auto;padding:0 1rem}
header{display:flex;justify-content:space-between;align-items:baseline;flex-wrap:wrap;gap:1rem}
h1{font-size:1.5rem;margin:1rem 0 .5rem}
h2{font-size:1.2rem;margin:1.5rem 0 .5rem}
nav a,nav strong{margin-inline-end:.8rem}
a{color:#0b5d3b}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{padding:.35rem .6rem;border-bottom:1px solid #ddd;text-align:start;vertical-align:top}
.num{text-align:end;font-variant-numeric:tabular-nums}
.computer{font-family:ui-monospace,Menlo,monospace}
.win{font-weight:700}
.note,footer{color:#666;font-size:.9rem}
.pager{margin:.75rem 0;display:flex;gap:1rem}
.off{color:#aaa}
.felt{background:var(--felt);color:#fff;border-radius:1rem;padding:.75rem 1rem;margin:1rem 0}
.felt a{color:#fff}
.seat{margin:.6rem 0}
.seat h3{font-size:1rem;margin:.2rem 0;font-weight:600}
.hand,.trick{display:flex;flex-wrap:wrap;gap:.3rem;min-height:3.9rem}
.trick{gap:1rem}
.play{text-align:center;font-size:.85rem}
.play.took .card{outline:3px solid #ffd23f}
.card{display:inline-block;position:relative;width:2.7rem;height:3.8rem;background:#fff;
border:1px solid #777;border-radius:.35rem;box-shadow:0 1px 2px rgba(0,0,0,.35);color:#111;
direction:ltr;font-family:Georgia,"DejaVu Serif",serif}
.card.red{color:#c1121f}
.card .corner{position:absolute;top:.15rem;left:.25rem;font-size:.8rem;line-height:1;
font-weight:700;text-align:center}
.card .pip{position:absolute;inset:0;display:flex;align-items:center;justify-content:center;
font-size:1.7rem}
.steps{display:flex;gap:.4rem;margin:.5rem 0}
.steps a,.steps span{font-size:1.4rem;padding:.1rem .7rem;border-radius:.4rem;
background:#fff;color:var(--felt);text-decoration:none;border:1px solid #ccc}
.steps span{color:#bbb}
""".strip()
"""The page's only stylesheet, inline; the policy names its hash, so it alone applies."""

CSS_HASH: Final = "sha256-" + base64.b64encode(hashlib.sha256(CSS.encode()).digest()).decode()
CONTENT_SECURITY_POLICY: Final = (
    f"default-src 'none'; style-src '{CSS_HASH}'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'"
)
"""Nothing loads, runs or frames the page; only the stylesheet above applies."""

RED: Final = frozenset({"♥", "♦"})


def esc(text: object) -> str:
    """Text as HTML text or an attribute value: ``& < > " '`` escaped."""
    return html.escape(str(text), quote=True)


def direction(lang: str) -> str:
    return "rtl" if lang == "fa" else "ltr"


def document(lang: str, title: str, body: Iterable[str], *, footer: bool = True) -> str:
    """A whole page: ``body`` is HTML already (built from ``esc``-aped text), ``title`` text.
    The language sets ``lang`` and the direction (Persian right to left)."""
    closing = t(lang, "web.footer", command="/hokm settings web:false")
    end = [f"<footer><p>{esc(closing)}</p></footer>"] if footer else []
    return "\n".join(
        [
            "<!DOCTYPE html>",
            f'<html lang="{esc(lang)}" dir="{direction(lang)}">',
            "<head>",
            '<meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            '<meta name="robots" content="noindex, nofollow">',
            '<meta name="referrer" content="no-referrer">',
            f"<title>{esc(title)}</title>",
            f"<style>{CSS}</style>",
            "</head>",
            "<body>",
            *body,
            *end,
            "</body>",
            "</html>",
        ]
    )


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


def card_face(card: Card) -> str:
    """One card drawn in CSS: its rank and suit in the corner, the suit large in the middle;
    ``data-card`` holds its code (``QH``) for tests and screen readers get its label."""
    label = card.label
    if card.is_joker:
        corner, pip = "🃏", "🃏"
        red = card.code == "RJ"
    else:
        corner, pip = f"{card.rank_code}<br>{card.suit.symbol}", card.suit.symbol
        red = card.suit.symbol in RED
    cls = "card red" if red else "card"
    return (
        f'<span class="{cls}" data-card="{esc(card.code)}" role="img" aria-label="{esc(label)}">'
        f'<span class="corner">{corner}</span><span class="pip">{pip}</span></span>'
    )


def cards_row(cards: Iterable[Card], cls: str = "hand") -> str:
    return f'<div class="{cls}">{"".join(card_face(c) for c in cards)}</div>'
