"""The text ``/hokm rules`` shows for a format: the standard game's, a variant's own opening
lines with the play and scoring every Hokm format shares, or Shelem's (V6)."""

from __future__ import annotations

from engine.rules import FORMATS

from .formats import is_solo
from .i18n import t

OWN_TEXT = frozenset({"two", "joker_six", "shelem"})
"""Formats whose rules are a text of their own (a draw, a bid, another game), not a deal's
lines over the shared play and scoring."""


def rules_text(lang: str, format_name: str, target: int) -> str:
    """The rules of ``format_name`` to ``target`` points (the server's setting for the format;
    the joker six always plays to 124); an unknown name gets the standard game's."""
    points = t(lang, "rules.points_one" if target == 1 else "rules.points", n=target)
    if format_name in OWN_TEXT:
        return t(lang, f"rules.{format_name}", target=target, points=points)
    fmt = FORMATS.get(format_name)
    if fmt is None or fmt.is_default:
        return t(lang, "rules.text", points=points)
    scoring = "rules.solo_scoring" if is_solo(fmt) else "rules.team_scoring"
    return "\n".join(
        [t(lang, f"rules.{format_name}"), t(lang, "rules.play"), t(lang, scoring, points=points)]
    )
