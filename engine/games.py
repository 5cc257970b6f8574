"""The engine's two games by a table's stored format name: the Hokm family (every format of
``rules.FORMATS``, played by ``Match``) and V6 Shelem (``SHELEM_FORMAT``, ``ShelemMatch``).

A caller that holds a format name or a stored match asks here rather than comparing names
itself, so a game the engine gains is added in one place. ``FORMATS`` stays the Hokm family's
(what ``Match`` plays); ``every_format`` adds Shelem's shape to it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .match import Match
from .rules import FORMATS, SHELEM_FORMAT, GameFormat
from .shelem.match import ShelemMatch
from .shelem.options import ShelemOptions


def is_known(name: str) -> bool:
    """Whether a table may be opened (or restored) with the format ``name``."""
    return name == SHELEM_FORMAT or name in FORMATS


def is_hokm(name: str) -> bool:
    """The format ``name`` is one of the Hokm family's, played by ``Match`` (R1, V2–V5)."""
    return name in FORMATS


def table_format(name: str, shelem: Callable[[], ShelemOptions]) -> GameFormat:
    """The shape of a table of ``name`` before its match exists: a Hokm format as it is, a
    Shelem table's from its options (V6.2, V6.13, V6.14: deck, kitty and target vary).

    :raises KeyError: an unknown format name.
    """
    if name == SHELEM_FORMAT:
        return shelem().fmt
    return FORMATS[name]


def every_format() -> dict[str, GameFormat]:
    """Every format a table can have, by stored name: Hokm's (``FORMATS``, read now, so a
    format added to it is seen) and Shelem's with its default options (V6)."""
    return {**FORMATS, SHELEM_FORMAT: ShelemOptions().fmt}


def load_match(data: dict[str, Any]) -> Match | ShelemMatch:
    """A stored match of either game: a Shelem match names its format (``ShelemMatch.to_dict``).

    :raises InvalidState: data that is not a stored match.
    """
    if data.get("format") == SHELEM_FORMAT:
        return ShelemMatch.from_dict(data)
    return Match.from_dict(data)
