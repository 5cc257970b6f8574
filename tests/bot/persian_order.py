"""How a Persian line reads, through python-bidi's Unicode bidirectional algorithm.

A Persian line is laid out right to left, so its reader starts at the right end of what
``bidi.get_display`` shows. ``reading_faults`` splits a line (as Discord shows it: Markdown
marks, escapes and ``<…>`` markup replaced by what the reader sees) into the units a reader
takes one by one, and says where the display puts one before the unit written before it:

- a left-to-right atom, shown as written, left to right, in one piece: a card (``10♠``), a
  number with its sign (``−۳۵``, ``+۱``, ``۱۲٫۵``), a command (``/hokm new``), a member's name
  (in its own direction), a countdown or date as Discord writes it, and a run the line itself
  declares left to right (an LRI isolate: a hand of cards, a formula);
- a Persian word, and any other Latin word.

Every unit must stand to the left of the unit before it: so a score «۷ بر ۵» shows 7 on the
right, a play «name card» its name on the right of its card, a fraction «۳ از ۵» 3 on the right.
Marks between units (spaces, ``·``, ``—``, arrows, brackets, emoji) are not units.

python-bidi 0.6 wraps the Rust crate ``unicode-bidi``, which implements the isolates (LRI, RLI,
FSI, PDI, Unicode 6.3); ``get_display(debug=True)`` gives its resolved level of every byte,
from which ``visual_order`` reorders the line (rules L1, L2) and checks the result against
``get_display`` itself, so a fault is the library's layout, not this module's.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from bidi import get_display

LRI, RLI, FSI, PDI = "\u2066", "\u2067", "\u2068", "\u2069"
CONTROLS: Final = frozenset("\u2066\u2067\u2068\u2069\u200e\u200f\u202a\u202b\u202c\u202d\u202e")

_LEVEL = re.compile(r"Level\(\s*(\d+),?\s*\)")
_CLASS = re.compile(r"\b([A-Z]{1,3})\b,")


def _levels(line: str) -> tuple[list[int], list[str]]:
    """The resolved level and original class of each character of ``line`` (one paragraph,
    right to left), from python-bidi's debug output (given per UTF-8 byte)."""
    info = str(get_display(line, base_dir="R", debug=True))
    classes_part, rest = info.split("original_classes: [", 1)[1].split("levels: [", 1)
    levels_part = rest.split("paragraphs:", 1)[0]
    by_byte = [int(n) for n in _LEVEL.findall(levels_part)]
    class_by_byte = _CLASS.findall(classes_part)
    levels, classes, offset = [], [], 0
    for ch in line:
        levels.append(by_byte[offset])
        classes.append(class_by_byte[offset])
        offset += len(ch.encode("utf-8"))
    assert offset == len(by_byte) == len(class_by_byte), info
    return levels, classes


def visual_order(line: str) -> list[int]:
    """The logical index of each character of ``line`` as displayed, left to right, in a
    right-to-left paragraph: python-bidi's levels, then L1 (whitespace and isolate marks at
    the line's end back to the paragraph's level) and L2 (reverse every run at each level
    from the highest down to 1). Checked against ``get_display`` (mirrored marks aside)."""
    levels, classes = _levels(line)
    i = len(line)
    while i and classes[i - 1] in ("WS", "LRI", "RLI", "FSI", "PDI"):
        i -= 1
        levels[i] = 1
    order = list(range(len(line)))
    for level in range(max(levels, default=1), 0, -1):
        k = 0
        while k < len(order):
            if levels[order[k]] < level:
                k += 1
                continue
            end = k
            while end < len(order) and levels[order[end]] >= level:
                end += 1
            order[k:end] = reversed(order[k:end])
            k = end
    shown = str(get_display(line, base_dir="R"))
    mine = "".join(line[j] for j in order)
    assert len(shown) == len(mine), (line, shown, mine)
    for a, b in zip(shown, mine, strict=True):
        assert a == b or unicodedata.mirrored(a), (line, shown, mine)
    return order


# ---------------------------------------------------------------------- as Discord shows it


@dataclass(frozen=True)
class Shown:
    """Discord's rendering of a line's markup: who a mention names, what a countdown and a
    date read in an English client (Discord has no Persian), a channel's name."""

    members: dict[int, str]
    countdown: str = "in 30 seconds"
    date: str = "December 1, 2025 3:45 PM"
    channel: str = "#hokm"


_MARKUP = re.compile(r"<@!?(\d+)>|<#\d+>|<t:-?\d+:R>|<t:-?\d+(?::[tTdDfF])?>")
_ESCAPE = re.compile(r"\\([^\w\s])")


def as_shown(line: str, shown: Shown) -> str:
    """``line`` as Discord draws it: bold and italic marks and code ticks gone, escapes undone,
    ``-#`` small text plain, mentions, channels and times replaced by their text."""

    def markup(m: re.Match[str]) -> str:
        text = m.group(0)
        if m.group(1):  # a pill around the member's name, drawn by Discord, not the bot
            return shown.members.get(int(m.group(1)), "member")
        if text.startswith("<#"):
            return shown.channel
        return shown.countdown if text.endswith(":R>") else shown.date

    line = _MARKUP.sub(markup, line)
    line = re.sub(r"^(\u200f?)-# ", r"\1", line)
    line = line.replace("**", "").replace("`", "")
    return _ESCAPE.sub(r"\1", line)


# ---------------------------------------------------------------------- units


@dataclass(frozen=True)
class Unit:
    """A piece of a line its reader takes as one: ``start``–``end`` in the line, ``kind``."""

    start: int
    end: int
    kind: str


_CARD = re.compile(r"(?:10|[2-9JQKA])[♠♥♦♣]|🔴🃏|⚫🃏")
_NUMBER = re.compile(r"[+\-−]?[\u2066-\u2069]*[0-9۰-۹]+(?:[٫.][0-9۰-۹]+)?[%٪]?")
_COMMAND = re.compile(r"/[a-z]+(?: [a-z_]+(?::\S+)?)*")


def _word_kind(ch: str) -> str | None:
    """A Persian word's letters (and its joiners and marks), or a Latin word's."""
    kind = unicodedata.bidirectional(ch)
    if kind in ("AL", "R", "NSM") or ch == "\u200c":
        return "word"
    return "latin" if kind == "L" else None


_LATIN = re.compile(
    r"[^\W\d_\u0600-\u06ff](?:(?:[^\W\u0600-\u06ff]|[ .\-−+/])*[^\W\d_\u0600-\u06ff])?"
)
"""An English phrase (``Manage Server``, ``target_score``, ``μ − 3σ``): read left to right,
as a Persian reader reads any foreign phrase in a sentence."""
KINDS: Final = (
    ("card", _CARD),
    ("command", _COMMAND),
    ("latin", _LATIN),
    ("number", _NUMBER),
)


def units(line: str, atoms: Iterable[str]) -> list[Unit]:
    """The units of ``line`` in logical order. ``atoms``: texts known to be one left-to-right
    piece each (names, the server's name, a countdown as shown), found first; then runs the
    line declares left to right (its outermost LRI isolates), cards, commands, numbers, and
    the remaining Persian and Latin words."""
    taken = [False] * len(line)
    found: list[Unit] = []

    def claim(start: int, end: int, kind: str) -> None:
        if start < end and not any(taken[start:end]):
            taken[start:end] = [True] * (end - start)
            found.append(Unit(start, end, kind))

    for atom in sorted(set(atoms), key=len, reverse=True):
        for m in re.finditer(re.escape(atom), line):
            claim(m.start(), m.end(), "name")
    depth, opened = 0, 0
    for i, ch in enumerate(line):
        if ch in (LRI, RLI, FSI):
            if depth == 0 and ch == LRI:
                opened = i + 1
            depth += 1 if depth or ch == LRI else 0
        elif ch == PDI and depth:
            depth -= 1
            if depth == 0:
                claim(opened, i, "ltr")
    for kind, pattern in KINDS:
        free = "".join("\0" if taken[i] else ch for i, ch in enumerate(line))
        for m in pattern.finditer(free):
            claim(m.start(), m.end(), kind)
    start = 0
    while start < len(line):
        kind = None if taken[start] else _word_kind(line[start])
        end = start + 1
        while kind and end < len(line) and not taken[end] and _word_kind(line[end]) == kind:
            end += 1
        if kind:
            claim(start, end, kind)
        start = end
    return sorted(found, key=lambda u: u.start)


LTR_KINDS: Final = frozenset({"card", "command", "number", "ltr", "latin"})


def reading_faults(line: str, atoms: Sequence[str] = ()) -> list[str]:
    """Where ``line``, displayed right to left, does not read in the order it is written: a
    unit not to the left of the one before it, a left-to-right atom not shown whole and left
    to right, a name not in one piece. Empty when the line reads as written."""
    order = visual_order(line)
    where = {logical: x for x, logical in enumerate(order)}
    faults = []
    previous: tuple[Unit, int] | None = None
    for unit in units(line, atoms):
        xs = [where[i] for i in range(unit.start, unit.end) if line[i] not in CONTROLS]
        if not xs:
            continue
        text = _plain(line[unit.start : unit.end])
        shown = _plain("".join(line[order[x]] for x in range(min(xs), max(xs) + 1)))
        if max(xs) - min(xs) + 1 != len(xs) + _controls_between(line, order, xs):
            faults.append(f"{text!r} is not shown in one piece")
        elif unit.kind == "ltr" and any(_word_kind(ch) == "word" for ch in text):
            faults.append(f"{text!r} is declared left to right but holds Persian")
        elif unit.kind in LTR_KINDS and shown != text:
            faults.append(f"{text!r} is shown as {shown!r}")
        elif unit.kind == "name" and shown != _plain(str(get_display(text))):
            faults.append(f"the name {text!r} is shown as {shown!r}")
        if previous is not None and max(xs) >= previous[1]:
            before = _plain(line[previous[0].start : previous[0].end])
            faults.append(f"{text!r} is read before {before!r}")
        previous = (unit, min(xs))
    return faults


def _plain(text: str) -> str:
    return "".join(ch for ch in text if ch not in CONTROLS)


def _controls_between(line: str, order: list[int], xs: list[int]) -> int:
    return sum(1 for x in range(min(xs), max(xs) + 1) if line[order[x]] in CONTROLS)


def display(line: str) -> str:
    """What the reader sees, left to right, direction marks dropped (for a failure's message)."""
    return _plain(str(get_display(line, base_dir="R")))
