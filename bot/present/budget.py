"""Discord's limits on a message, and the one way every message kind keeps within them: names
shortened first, then the oldest lines dropped, and only then a cut, which
never splits an escape from what it escapes nor leaves a direction isolate open.

A message is rendered with full names; when it breaks a limit (``overflows``), again with
every name shortened (``NAME_STEPS``: a table's seats through ``with_names``, a finished
match's stored names by their limit); a list that grows with the match (a hand's tricks, a
match's hands) gives way oldest first (``keep_newest``); what still does not fit is cut
(``within``). Lengths are code points, as Discord counts them.
"""

from __future__ import annotations

import copy
import dataclasses
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from typing import Final

from ..names import NAME_LIMIT, clip, plain_name
from ..service.table import Seat, Table
from .i18n import balanced
from .specs import ButtonSpec, EmbedSpec, MessageSpec

CONTENT: Final = 2000
TITLE: Final = 256
DESCRIPTION: Final = 4096
FIELD_NAME: Final = 256
FIELD_VALUE: Final = 1024
FOOTER: Final = 2048
EMBED_TOTAL: Final = 6000
FIELDS: Final = 25
LABEL: Final = 80
NAME_STEPS: Final = (NAME_LIMIT, 12, 6)
"""The caps a message's names are tried at, longest first: a name of 12 shows at most 24
characters once escaped, and six of them leave a hand message half its room."""
ELLIPSIS: Final = "…"


def overflows(spec: MessageSpec) -> bool:
    """Whether ``spec`` breaks one of Discord's limits on text (its buttons are built within
    theirs: ``formats.pack_rows``, ``custom_ids``)."""
    if len(spec.content) > CONTENT:
        return True
    if any(len(b.label) > LABEL for row in spec.rows for b in row):
        return True
    e = spec.embed
    if e is None:
        return False
    if len(e.title) > TITLE or len(e.description) > DESCRIPTION or len(e.footer) > FOOTER:
        return True
    if len(e.fields) > FIELDS:
        return True
    if any(len(n) > FIELD_NAME or len(v) > FIELD_VALUE for n, v, _ in e.fields):
        return True
    return _embed_size(e) > EMBED_TOTAL


def _embed_size(e: EmbedSpec) -> int:
    return len(e.title) + len(e.description) + len(e.footer) + _fields_size(e.fields)


def _fields_size(fields: Sequence[tuple[str, str, bool]]) -> int:
    return sum(len(n) + len(v) for n, v, _ in fields)


def by_names(render: Callable[[int], MessageSpec]) -> MessageSpec:
    """``render(limit)`` for each of ``NAME_STEPS`` until it fits; the shortest, trimmed."""
    for limit in NAME_STEPS:
        spec = render(limit)
        if not overflows(spec):
            return spec
    return within(spec)


def fitted(render: Callable[[Table], MessageSpec], table: Table) -> MessageSpec:
    """``render`` of ``table``, then of the table with shorter names (``shortened``), until
    it fits; the shortest, trimmed."""
    for named in shortened(table):
        spec = render(named)
        if not overflows(spec):
            return spec
    return within(spec)


def shortened(table: Table) -> Iterator[Table]:
    """``table``, then a copy of it at each shorter cap of ``NAME_STEPS`` (``with_names``):
    what a message of the table is rendered from until it fits (``fitted``)."""
    for limit in NAME_STEPS:
        yield table if limit >= NAME_LIMIT else with_names(table, limit)


def first_fit(make: Callable[[int], str], limit: int) -> str:
    """``make(name limit)`` for each of ``NAME_STEPS`` until it is ``limit`` characters at most
    (a title naming every team, whose last score must stay); the shortest, cut (``cut``)."""
    text = ""
    for step in NAME_STEPS:
        text = make(step)
        if len(text) <= limit:
            return text
    return cut(text, limit)


def with_names(table: Table, limit: int) -> Table:
    """A copy of ``table`` to render from, every seat's name (and every seat a rematch keeps)
    at most ``limit`` characters: a member's without the bot's marks, as shown anyway."""
    short = copy.copy(table)
    short.seats = [None if s is None else _renamed(s, limit) for s in table.seats]
    short.reserved = {i: _renamed(s, limit) for i, s in table.reserved.items()}
    return short


def _renamed(seat: Seat, limit: int) -> Seat:
    name = clip(seat.name, limit) if seat.is_computer else plain_name(seat.name, limit=limit)
    return dataclasses.replace(seat, name=name)


def size(lines: Sequence[str]) -> int:
    """Characters of ``lines`` joined by newlines."""
    return sum(map(len, lines)) + max(len(lines) - 1, 0)


def keep_newest(lines: Sequence[str], budget: int, earlier: Callable[[int], str]) -> list[str]:
    """``lines`` (oldest first) in ``budget`` characters: all if they fit, else the newest
    that fit after one ``earlier(n)`` line saying ``n`` were left out; that line alone when
    none fits (the message around it is fitted as a whole)."""
    if size(lines) <= budget:
        return list(lines)
    rest = size(lines)
    for dropped in range(1, len(lines) + 1):
        rest -= len(lines[dropped - 1]) + (1 if dropped < len(lines) else 0)
        more = earlier(dropped)
        if len(more) + (1 + rest if dropped < len(lines) else 0) <= budget:
            return [more, *lines[dropped:]]
    return [earlier(len(lines))]


# ---------------------------------------------------------------------- the last resort


def within(spec: MessageSpec) -> MessageSpec:
    """``spec`` cut to Discord's limits: whole lines kept from the top of each text (the
    rest said by one "…" line), a line too long for its place cut (``cut``); of the embed's
    6,000 the title takes its share first, then the description, the fields (25 at most, as
    many as are left room for) and the footer."""
    rows = tuple(tuple(_labelled(b) for b in row) for row in spec.rows)
    e = spec.embed
    if e is not None:
        title = cut(e.title, TITLE)
        room = EMBED_TOTAL - len(title)
        description = cut_lines(e.description, min(DESCRIPTION, room))
        room -= len(description)
        fields = []
        for n, v, inline in e.fields[:FIELDS]:
            field = (cut(n, FIELD_NAME), cut_lines(v, FIELD_VALUE), inline)
            if len(field[0]) + len(field[1]) > room:
                break
            fields.append(field)
            room -= len(field[0]) + len(field[1])
        footer = cut(e.footer, min(FOOTER, room))
        e = dataclasses.replace(
            e, title=title, description=description, fields=tuple(fields), footer=footer
        )
    return MessageSpec(content=cut_lines(spec.content, CONTENT), embed=e, rows=rows)


def _labelled(button: ButtonSpec) -> ButtonSpec:
    return dataclasses.replace(button, label=cut(button.label, LABEL))


def cut_lines(text: str, limit: int) -> str:
    """``text`` in ``limit`` characters: its first lines whole, then "…" on a line of its own;
    a first line longer than that, cut (``cut``)."""
    if len(text) <= limit:
        return text
    lines = text.split("\n")
    kept: list[str] = []
    for line in lines:
        if size([*kept, line, ELLIPSIS]) > limit:
            break
        kept.append(line)
    if not kept:
        return cut(lines[0], limit)
    return "\n".join([*kept, ELLIPSIS])


_OPENERS: Final = frozenset("\u2066\u2067\u2068\u202a\u202b\u202d\u202e")
_CLOSERS: Final = frozenset("\u2069\u202c")
_HOLD_ON: Final = frozenset("\u200b\u200c\u200d\ufe0e\ufe0f")
"""A zero-width space (after the ``@`` or ``<`` it disarms), joiners and variation selectors:
they belong with the character before them."""


def cut(text: str, limit: int) -> str:
    """``text`` in ``limit`` characters, ending in "…" when cut: cut where no direction isolate
    (or embedding) is open, never between an escaping backslash and what it escapes, nor
    before a mark, joiner or selector that belongs to the character before it. Only text
    that is one isolate from its start is cut inside it, and that isolate is closed."""
    if len(text) <= limit:
        return text
    if limit <= len(ELLIPSIS):
        return ELLIPSIS[:limit]
    room = limit - len(ELLIPSIS)
    best, depth, escaped = 0, 0, False
    for i, ch in enumerate(text):
        if i > room:
            break
        if i and depth == 0 and not escaped and _may_cut_before(text, i):
            best = i
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch in _OPENERS:
            depth += 1
        elif ch in _CLOSERS:
            depth = max(0, depth - 1)
    if best:
        return text[:best].rstrip() + ELLIPSIS
    return _cut_inside(text, room) + ELLIPSIS


def _may_cut_before(text: str, i: int) -> bool:
    ch, before = text[i], text[i - 1]
    return not (ch in _HOLD_ON or before == "\u200d" or unicodedata.category(ch) in ("Mn", "Me"))


def _cut_inside(text: str, room: int) -> str:
    """The text cut inside the isolate it opens with, the isolate (and whatever opened in it)
    closed after the cut, all in ``room``."""
    end = room
    while end > 0:
        head = text[:end]
        if _half_escape(head):
            end -= 1
            continue
        closed = balanced(head.rstrip())
        if len(closed) <= room:
            return closed
        end -= 1
    return ""


def _half_escape(text: str) -> bool:
    """``text`` ends in a backslash that escapes the character cut away after it (names are
    escaped, so a backslash of theirs comes as a pair)."""
    return (len(text) - len(text.rstrip("\\"))) % 2 == 1
