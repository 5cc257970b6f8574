"""The web page's links between its pages: a member's page, a match's page, its
replay and its file, and a name as a link to its member's page.

Links are relative, as every link of the page is, so it works under any address a proxy gives
it: ``root`` is the way from the page that links up to the server's home (``""`` from the
home page, ``"../"`` from a replay, ``"../../"`` from a member's or a match's page). Every
piece of text goes through ``esc``; a name is set in ``<bdi>`` so a right-to-left one keeps
its direction in a left-to-right page and the other way round.
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import quote, urlencode

from engine.rules import STANDARD

from ..store import MatchPlayer
from .formats import format_is_named
from .web_html import esc
from .web_parts import seat_markup


def _query(lang: str, **more: object) -> str:
    return urlencode({"lang": lang, **more})


def member_href(root: str, user_id: int, lang: str, game_format: str = STANDARD.name) -> str:
    """A member's page (``p/<id>/``), in ``game_format`` (the standard game's is the default)."""
    fmt = {"format": game_format} if format_is_named(game_format) else {}
    return f"{root}p/{user_id}/?{_query(lang, **fmt)}"


def match_href(root: str, match_id: str, lang: str) -> str:
    """A finished match's page (``m/<id>/``)."""
    return f"{root}m/{quote(match_id, safe='')}/?{_query(lang)}"


def replay_href(root: str, match_id: str, lang: str, hand: int | None = None) -> str:
    """A finished match's replay (``m/<id>``), at the deal of hand index ``hand`` if given."""
    at = {} if hand is None else {"h": hand, "t": 0}
    return f"{root}m/{quote(match_id, safe='')}?{_query(lang, **at)}"


def file_href(root: str, match_id: str) -> str:
    """A finished match's file (``m/<id>.json``, ``docs/match-format.md``)."""
    return f"{root}m/{quote(match_id, safe='')}.json"


def seat_links(
    players: Sequence[MatchPlayer], seats: int, root: str, lang: str, game_format: str
) -> list[str]:
    """Each seat's name as HTML (``web_parts.seat_markup``), a member's a link to their page
    in ``game_format``; a computer's, in code style, links nowhere."""
    names = seat_markup(players, seats)
    for p in players:
        if p.seat < seats and not p.is_computer and p.user_id is not None:
            href = member_href(root, p.user_id, lang, game_format)
            names[p.seat] = f'<a class="member" href="{esc(href)}">{names[p.seat]}</a>'
    return names


def name_link(name: str, href: str) -> str:
    """A member's name (plain text, as the page shows it) as a link to their page."""
    return f'<a class="member" href="{esc(href)}"><bdi>{esc(name)}</bdi></a>'
