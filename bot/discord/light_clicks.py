"""A button click's gateway event, parsed without what the bot never reads.

discord.py turns every INTERACTION_CREATE into an ``Interaction`` and, for a click, builds a
``Message`` of the clicked message with every one of its buttons (``ActionRow``, ``Button``) and
embeds. A card click's message is a hand of up to 17 card buttons: building them was about a
third of the click's parse, and nothing reads them. The bot reads the clicked message's id and
flags (``router``, ``hand_dms``), and its buttons only where a click edits the message it is on
(a standings page, a history page, a replay step: ``router._has_buttons``). So before
discord.py parses a click of a kind that reads neither (``LIGHT``: the moves, the lobby, My
hand), the message's components and embeds are left out of what it parses (a copy; the payload
itself is not changed). Any other kind, a new one too, is parsed whole.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ..present import custom_ids

COMPONENT = 3
"""INTERACTION_CREATE ``type`` of a message component (a button click)."""
LIGHT: Final = frozenset(
    {"card", "trump", "redeal", "decide", "bid", "shelem_bid", "lay_down", "mode", "kitty"}
    | {"lobby", "my_hand", "hint", "rematch"}
)
"""Kinds of click whose handling reads the clicked message's id and flags only."""
LIGHT_TAGS: Final = frozenset(tag for k in custom_ids.KINDS if k.name in LIGHT for tag in k.tags)
UNREAD: Final = ("components", "embeds")


def lighter(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` for discord.py's parser: a click's message without its buttons and embeds,
    unless the click is one whose handler reads them; anything else unchanged."""
    message = data.get("message")
    if data.get("type") != COMPONENT or not isinstance(message, dict):
        return data
    inner = data.get("data")
    custom_id = inner.get("custom_id") if isinstance(inner, dict) else None
    if not isinstance(custom_id, str) or not custom_id.startswith(custom_ids.PREFIX):
        return data
    if custom_id[len(custom_ids.PREFIX) :].partition(":")[0] not in LIGHT_TAGS:
        return data
    if not any(message.get(key) for key in UNREAD):
        return data
    light = dict(message)
    for key in UNREAD:
        light[key] = []
    return {**data, "message": light}


def install(parsers: dict[str, Callable[[Any], None]]) -> None:
    """Put ``lighter`` in front of discord.py's INTERACTION_CREATE parser (``parsers`` is the
    connection state's table, which every gateway connection reads its parsers from)."""
    parse = parsers["INTERACTION_CREATE"]

    def parse_interaction_create(data: Any) -> None:
        parse(lighter(data))

    parsers["INTERACTION_CREATE"] = parse_interaction_create
