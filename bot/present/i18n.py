"""Looking up and formatting what the catalog says, in English and Persian.

``t`` fills in a catalog sentence (``bot.present.catalog``) in the table's language. Persian
lines that mix in Latin text (card labels, names) are wrapped in Unicode isolates by
``isolate`` so they read right to left without reordering the embedded pieces; ``balanced``
keeps a piece from changing the text around it; ``number`` and ``suit_label`` say numbers and
suits in the language; ``number``, ``signed`` and ``score_pair`` write a negative number
with a real minus sign that stays with its digits in either direction.

A Persian line reads right to left in the order it is written. A score is two
numbers with a word between them («۷ بر ۵», ``score_pair``); a name with what goes with it (a
card played, a bid, a score) reads name first whatever the name's script (``named``, ``play``),
the card alone left to right; a piece the presenter made of isolated pieces reads right to
left (``isolate``); a command, an English phrase and a hand of cards are left-to-right runs
(``ltr``, and ``t`` isolates a sentence's own code spans and English words).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from string import Formatter
from typing import Final

from engine import Suit

from .catalog import CATALOG as CATALOG
from .catalog import LANGUAGES as LANGUAGES
from .catalog import SUIT_NAMES as SUIT_NAMES
from .catalog import Language as Language

_FSI, _PDI, _RLM = "\u2068", "\u2069", "\u200f"
_LRI, _RLI = "\u2066", "\u2067"

MINUS: Final = "\u2212"
"""A negative number's sign (U+2212 MINUS SIGN): a hyphen beside a dash reads as one mark."""

LIST_SEPARATOR: Final = " · "
"""Between the items of a list parameter (one per team: ``Team 1: 3 · Team 2: 5``)."""


def t(lang: str, key: str, **params: object) -> str:
    """The sentence ``key`` in ``lang`` (English if missing), with ``params`` filled in.

    A list (or tuple) parameter is its strings joined by ``LIST_SEPARATOR``, each item treated
    as a string parameter of its own (in Persian each is isolated), so a sentence can name as
    many items (teams) as there are.
    """
    entry = CATALOG[key]
    text = entry.get(lang) or entry["en"]
    if lang == "fa":
        params = {k: _fa_param(v) for k, v in params.items()}
        text = _runs_isolated(text).format(**params)
        # A line that opens with a mention, a number or markdown would be laid out left to
        # right; a right-to-left mark in front keeps the Persian sentence reading correctly.
        return text if _starts_persian(text) else _RLM + text
    # An English line isolates nothing, but a piece still may not turn the rest of it around.
    params = {k: _en_param(v) for k, v in params.items()}
    return text.format(**params)


def word(lang: str, key: str) -> str:
    """A catalog fragment as it is (a joiner, a label inside a sentence): nothing filled in,
    no mark in front; the sentence it goes into is localized by ``t``."""
    entry = CATALOG[key]
    return entry.get(lang) or entry["en"]


def _fa_param(value: object) -> object:
    if isinstance(value, list | tuple):
        return LIST_SEPARATOR.join(isolate(str(item)) for item in value)
    if isinstance(value, int) and not isinstance(value, bool):
        return number("fa", value)
    return isolate(value) if isinstance(value, str) else _fa_digits(value)


def _en_param(value: object) -> object:
    if isinstance(value, list | tuple):
        return LIST_SEPARATOR.join(balanced(str(item)) for item in value)
    if isinstance(value, int) and not isinstance(value, bool) and value < 0:
        return number("en", value)
    return balanced(value) if isinstance(value, str) else value


def _starts_persian(text: str) -> bool:
    return bool(text) and "\u0600" <= text[0] <= "\u06ff"


_LTR_RUN: Final = re.compile(
    r"`[^`]*`|[A-Za-z\u0370-\u03ff](?:[A-Za-z0-9\u0370-\u03ff _.:/+\-−]*[A-Za-z0-9\u0370-\u03ff])?"
)
"""A code span (a command: ``/hokm new``), or an English word or phrase (``Manage Server``,
``μ − 3σ``) in a Persian sentence."""


@lru_cache(maxsize=1024)
def _runs_isolated(template: str) -> str:
    """A Persian sentence with each of its own left-to-right runs (``_LTR_RUN``, outside its
    ``{fields}``) in a left-to-right isolate, so ``/hokm new`` does not read ``hokm new/``
    and two English phrases keep the sentence's order."""
    out = []
    for literal, field, spec, conversion in Formatter().parse(template):
        out.append(_LTR_RUN.sub(lambda m: f"{_LRI}{m.group(0)}{_PDI}", _braces(literal)))
        if field is not None:
            out.append("{" + field + (f"!{conversion}" if conversion else ""))
            out.append(f":{spec}}}" if spec else "}")
    return "".join(out)


def _braces(literal: str) -> str:
    return literal.replace("{", "{{").replace("}", "}}")


def suit_name(lang: str, suit: Suit | int) -> str:
    return SUIT_NAMES.get(lang, SUIT_NAMES["en"])[int(suit)]


def suit_label(lang: str, suit: Suit | int) -> str:
    """``♠ Spades`` / ``♠ پیک``: symbol first so buttons line up in both directions."""
    return f"{Suit(int(suit)).symbol} {suit_name(lang, suit)}"


def isolate(text: str) -> str:
    """Keep a Latin run (a name, ``10♦``) in its own direction inside Persian text.

    The run is ``balanced`` first: a stray U+2069 in it would otherwise close this isolate
    early and let the rest of the run reorder the sentence around it. A piece made of
    isolated pieces and marks alone (a team with its score, a list of plays) is the
    presenter's own Persian structure: it reads right to left (RLI), where an isolate that
    takes its direction from its first letter (FSI) would find none and lay it out left to
    right, its last piece read first.
    """
    text = balanced(text)
    if _isolated(text):  # one isolate already (a play, a score pair): nothing to add
        return text
    return f"{_RLI if _composite(text) else _FSI}{text}{_PDI}"


def _isolated(text: str) -> bool:
    """``text`` is one isolate, opened at its first character and closed at its last."""
    if len(text) < 2 or text[0] not in _ISOLATES:
        return False
    depth = 0
    for i, ch in enumerate(text):
        depth += ch in _ISOLATES
        depth -= ch == _PDI
        if depth == 0:
            return i == len(text) - 1
    return False


def _composite(text: str) -> bool:
    """Isolated pieces, with no letter of its own outside them to take a direction from."""
    depth, nested = 0, False
    for ch in text:
        if ch in _ISOLATES:
            depth, nested = depth + 1, True
        elif ch == _PDI:
            depth -= 1
        elif depth == 0 and unicodedata.bidirectional(ch) in ("L", "R", "AL"):
            return False
    return nested


def rtl(lang: str, text: str) -> str:
    """``text`` as one right-to-left piece of a Persian line (as is in English)."""
    return f"{_RLI}{balanced(text)}{_PDI}" if lang == "fa" else text


def ltr(lang: str, text: str) -> str:
    """``text`` as one left-to-right piece of a Persian line (a card, a hand of cards, a
    signed number; as is in English)."""
    return f"{_LRI}{balanced(text)}{_PDI}" if lang == "fa" else text


def named(lang: str, name: str, what: str) -> str:
    """``amir 105``, ``amir & cyrus 3``: a name (a player's, a team's) and what goes with it.
    In Persian the name is isolated and the pair reads right to left, the name first
    whatever its script."""
    return rtl(lang, f"{isolate(name) if lang == 'fa' else name} {what}")


def play(lang: str, name: str, card: str) -> str:
    """``amir 6♠``: a card and the player who played it; in Persian the name first, read
    from the right, and the card alone left to right (one rule for every
    play, in the channel and in a DM alike)."""
    return named(lang, name, ltr(lang, card))


_ISOLATES: Final = frozenset("\u2066\u2067\u2068")  # LRI RLI FSI, closed by PDI
_EMBEDDINGS: Final = frozenset("\u202a\u202b\u202d\u202e")  # LRE RLE LRO RLO, closed by PDF
_PDF: Final = "\u202c"
_BIDI_CONTROL: Final = re.compile("[\u202a-\u202e\u2066-\u2069]")


def balanced(text: str) -> str:
    """``text`` with every bidi isolate and embedding it opens closed at its end, and every
    closer that matches nothing in it dropped, so it cannot change the text around it.

    Nested pieces this module built (isolated numbers inside a line) are kept as they are.
    """
    if not _BIDI_CONTROL.search(text):
        return text
    out: list[str] = []
    stack: list[str] = []
    for ch in text:
        if ch in _ISOLATES or ch in _EMBEDDINGS:
            stack.append(ch)
        elif ch == _PDI:
            if not _ISOLATES.intersection(stack):
                continue
            while stack and stack.pop() not in _ISOLATES:
                pass  # a PDI also closes the embeddings opened inside its isolate
        elif ch == _PDF:
            if not stack or stack[-1] not in _EMBEDDINGS:
                continue
            stack.pop()
        out.append(ch)
    out.extend(_PDI if opener in _ISOLATES else _PDF for opener in reversed(stack))
    return "".join(out)


_FA_DIGITS = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")


def _fa_digits(value: object) -> str:
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int | float):
        return str(value).translate(_FA_DIGITS)
    return str(value)


def number(lang: str, value: int) -> str:
    """``value`` in the language's digits; a negative one with a real minus sign (``−35``,
    never a hyphen), which in Persian is a left-to-right isolate of its own, so a right-to-left
    line neither puts the sign on the far side of its digits nor mixes it with a dash beside
    it ("215–-35")."""
    digits = str(abs(value))
    if lang == "fa":
        digits = digits.translate(_FA_DIGITS)
    return digits if value >= 0 else ltr(lang, MINUS + digits)


def signed(lang: str, value: int) -> str:
    """A change of score, always with its sign (``+35``, ``−120``), kept whole as ``number``
    keeps a negative number."""
    return ltr(lang, ("+" if value >= 0 else MINUS) + number(lang, abs(value)))


def score_pair(lang: str, scores: Sequence[int]) -> str:
    """Scores side by side, the first the winner's: ``7–5``, ``7–5–3``; a negative one among
    them spaced from the dash (``215 – −35``) so the dash and the minus do not run together.
    Persian writes a score with a word between its numbers, «۷ بر ۵», «۲۱۵ بر −۳۵»: read
    right to left, the first score first, the minus on its own digits. Every
    score pair of a sentence is written here."""
    if lang == "fa":
        return rtl(lang, " بر ".join(number(lang, s) for s in scores))
    dash = "–" if all(s >= 0 for s in scores) else " – "
    return dash.join(number(lang, s) for s in scores)
