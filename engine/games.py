"""The engine's two games by a table's stored format name: the Hokm family (the formats of
``rules.FORMATS`` whose ``family`` is ``hokm``, played by ``Match``) and V6 Shelem (family
``shelem``, ``ShelemMatch``).

A caller that holds a format name or a stored match asks here (or the format's ``family``)
rather than comparing names itself, so a game the engine gains is added in one place.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import InvalidSetting
from .match import Match
from .rules import FORMATS, GameFormat, Rules
from .shelem.match import ShelemMatch
from .shelem.options import ShelemOptions


def is_known(name: str) -> bool:
    """Whether a table may be opened (or restored) with the format ``name``."""
    return name in FORMATS


def table_format(name: str, shelem: Callable[[], ShelemOptions]) -> GameFormat:
    """The shape of a table of ``name`` before its match exists: a Hokm format as it is, a
    Shelem table's from its options (V6.2, V6.13, V6.14: deck, kitty and target vary).

    :raises KeyError: an unknown format name.
    """
    fmt = FORMATS[name]
    return shelem().fmt if fmt.family == "shelem" else fmt


def check_target(name: str, target: int) -> None:
    """Whether a match of the format ``name`` may be set to play to ``target`` (0: the
    format's own): Shelem's by its options (V6.14), a Hokm format that fixes its target (the
    joker six's 124, V5) only 0, any other by ``Rules`` (R12).

    :raises InvalidSetting: a target the table would refuse.
    :raises KeyError: an unknown format name.
    """
    fmt = FORMATS[name]
    if fmt.family == "shelem":
        ShelemOptions(target_score=target)
    elif fmt.target_score:
        if target != 0:
            raise InvalidSetting("target_score", target, "0: this format fixes its target")
    elif target != 0:
        Rules(target_score=target)


def load_match(data: dict[str, Any]) -> Match | ShelemMatch:
    """A stored match of either game: a Shelem match names its format (``ShelemMatch.to_dict``).

    :raises InvalidState: data that is not a stored match.
    """
    fmt = FORMATS.get(str(data.get("format")))
    if fmt is not None and fmt.family == "shelem":
        return ShelemMatch.from_dict(data)
    return Match.from_dict(data)
