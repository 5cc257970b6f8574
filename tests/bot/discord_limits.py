"""Discord's limits on a message, checked on what the presenter made.

Written from Discord's documentation (the numbers below), not from the presenter's own budget,
so a wrong budget fails here. Lengths are counted in code points, as Discord counts them. A
part must also come out whole: every direction isolate it opens is closed, and no line ends
in half an escape (a backslash whose character was cut away).
"""

from __future__ import annotations

import re
from typing import Final

import discord

from bot.discord.ui import embed_of, message_kwargs, view_of
from bot.present.specs import MessageSpec

CONTENT: Final = 2000
TITLE: Final = 256
DESCRIPTION: Final = 4096
FIELD_NAME: Final = 256
FIELD_VALUE: Final = 1024
FOOTER: Final = 2048
EMBED_TOTAL: Final = 6000
FIELDS: Final = 25
ROWS: Final = 5
PER_ROW: Final = 5
CUSTOM_ID: Final = 100
LABEL: Final = 80

_HALF_ESCAPE = re.compile(r"(?<!\\)(?:\\\\)*\\$")


def whole(text: str, where: str) -> None:
    """Every isolate (LRI, RLI, FSI) closed by its PDI, none closed twice; no line ending in a
    lone backslash."""
    depth = 0
    for ch in text:
        if ch in "\u2066\u2067\u2068":
            depth += 1
        elif ch == "\u2069":
            depth -= 1
            assert depth >= 0, f"{where}: a PDI closes nothing: {text!r}"
    assert depth == 0, f"{where}: {depth} isolate(s) left open: {text!r}"
    for line in text.splitlines():
        assert not _HALF_ESCAPE.search(line), f"{where}: half an escape: {line!r}"


def assert_fits_discord(spec: MessageSpec) -> None:
    """``spec`` is a message Discord accepts: content 2,000; an embed's title 256, description
    4,096, fields 25 (name 256, value 1,024), footer 2,048 and 6,000 in all; 5 rows of 5
    buttons with ids of 100 and labels of 80 (ids unique); and discord.py builds it."""
    assert spec.content or spec.embed is not None, "an empty message"
    assert len(spec.content) <= CONTENT, f"content of {len(spec.content)}"
    whole(spec.content, "content")
    e = spec.embed
    if e is not None:
        assert 0 < len(e.title) <= TITLE, f"title of {len(e.title)}: {e.title!r}"
        assert len(e.description) <= DESCRIPTION, f"description of {len(e.description)}"
        assert len(e.fields) <= FIELDS, f"{len(e.fields)} fields"
        assert len(e.footer) <= FOOTER, f"footer of {len(e.footer)}"
        total = len(e.title) + len(e.description) + len(e.footer)
        for name, value, _ in e.fields:
            assert 0 < len(name) <= FIELD_NAME, f"field name of {len(name)}"
            assert len(value) <= FIELD_VALUE, f"field value of {len(value)}"
            total += len(name) + len(value)
            whole(name, "field name")
            whole(value, "field value")
        assert total <= EMBED_TOTAL, f"embed of {total}"
        for part, text in (("title", e.title), ("description", e.description)):
            whole(text, part)
        whole(e.footer, "footer")
        built = embed_of(spec)
        assert built is not None and len(built) <= EMBED_TOTAL
        assert built.description == e.description  # nothing left for the edge to cut
    assert len(spec.rows) <= ROWS, f"{len(spec.rows)} rows"
    ids = []
    for row in spec.rows:
        assert 0 < len(row) <= PER_ROW, f"a row of {len(row)}"
        for button in row:
            assert 0 < len(button.label) <= LABEL, f"label {button.label!r}"
            assert len(button.custom_id) <= CUSTOM_ID, f"id {button.custom_id!r}"
            ids.append(button.custom_id)
    assert len(set(ids)) == len(ids), "two buttons with one id"
    components = view_of(spec).to_components()
    assert len(components) == len(spec.rows)
    kwargs = message_kwargs(spec)
    assert isinstance(kwargs["allowed_mentions"], discord.AllowedMentions)


def assert_text_fits(text: str, limit: int = CONTENT) -> None:
    """A plain text answer (a refusal, the rules, a report line) within ``limit``, whole."""
    assert 0 < len(text) <= limit, f"text of {len(text)}"
    whole(text, "text")
