"""The pieces every page of a server's web page shares: the names as the
page shows them, the header with the language switch, a team by its players with its score
set apart, and the pager.

Every piece is HTML built from ``esc``-aped text; a name sits in ``<bdi>``, so a Persian
name in an English page, or a Latin one in a Persian page, keeps its own direction and
leaves the sentence's alone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from engine import GameFormat

from ..names import ROBOT, plain_name
from ..store import MatchPlayer
from .i18n import isolate, number, t, word
from .web_html import esc, sentence

LANGS: Final = ("en", "fa")


def web_name(name: str, *, computer: bool = False) -> str:
    """A name as the page shows it: a computer's with 🤖 in front (a member's never has one)."""
    shown = plain_name(name, computer=computer)
    return shown if not computer or shown.startswith(ROBOT) else f"{ROBOT} {shown}"


def player_name(player: MatchPlayer) -> str:
    return web_name(player.display_name, computer=player.is_computer)


def seat_names(players: Sequence[MatchPlayer], seats: int) -> list[str]:
    """Each seat's name as text, isolated (U+2068…U+2069) in both languages, for the
    sentences that name a seat ("… takes the trick")."""
    names = ["?"] * seats
    for p in players:
        if p.seat < seats:
            names[p.seat] = isolate(player_name(p))
    return names


def seat_markup(players: Sequence[MatchPlayer], seats: int) -> list[str]:
    """Each seat's name as HTML: in ``<bdi>``, a computer's in code style."""
    names = ["<bdi>?</bdi>"] * seats
    for p in players:
        if p.seat < seats:
            cls = ' class="computer"' if p.is_computer else ""
            names[p.seat] = f"<bdi{cls}>{esc(player_name(p))}</bdi>"
    return names


def header(lang: str, guild: str | None, heading: str, switch: Callable[[str], str]) -> str:
    """The page's title and the language switch: ``switch(lang)`` is this page in ``lang``
    (the other language a link, this one not)."""
    links = []
    for other in LANGS:
        label = esc(t(other, f"web.lang_{other}"))
        if other == lang:
            links.append(f'<strong aria-current="page">{label}</strong>')
        else:
            href = switch(other)
            links.append(f'<a href="{esc(href)}" hreflang="{other}" lang="{other}">{label}</a>')
    where = f"<bdi>{esc(guild)}</bdi>" if guild else esc(t(lang, "web.this_server"))
    said = f"<p>{esc(heading)}</p>" if heading else ""
    switch_label = esc(word(lang, "web.language"))
    return (
        f"<header><div><h1>{sentence(lang, 'web.title', guild=where)}</h1>{said}</div>"
        f'<nav class="lang" aria-label="{switch_label}">{"".join(links)}</nav></header>'
    )


def team_item(
    lang: str,
    fmt: GameFormat,
    names: Sequence[str],
    team: int,
    score: int,
    *,
    won: bool = False,
) -> str:
    """One team as a list item: its colour, its players (``names``, HTML), and its score in a
    ring of its own, set apart from the names; the winners' in bold, said in words too."""
    joined = esc(word(lang, "team.join")).join(names[seat] for seat in fmt.seats_of(team))
    cls = f"team t{team % 6}" + (" win" if won else "")
    mark = f'<span class="sr"> ({esc(t(lang, "web.winners"))})</span>' if won else ""
    score_label = esc(word(lang, "web.score"))
    return (
        f'<li class="{cls}"><span class="swatch" aria-hidden="true"></span>'
        f'<span class="names">{joined}</span>{mark}'
        f'<span class="score"><span class="sr">{score_label}: </span>'
        f"{esc(number(lang, score))}</span></li>"
    )


def teams_list(
    lang: str,
    fmt: GameFormat,
    names: Sequence[str],
    scores: Sequence[int],
    winner: int | None,
) -> str:
    """Every team of ``fmt`` with its score (``team_item``), as a list."""
    items = [
        team_item(lang, fmt, names, team, score, won=team == winner)
        for team, score in enumerate(scores)
    ]
    return f'<ul class="teams">{"".join(items)}</ul>'


def pager(
    lang: str, page: int, pages: int, href: Callable[[int], str], label: str | None = None
) -> str:
    """Previous and Next (greyed text where there is none) around "page n of m"; ``label``
    names the pager for screen readers (a page with two says which is which)."""
    previous, following = esc(t(lang, "button.previous")), esc(t(lang, "button.next"))
    back = (
        f'<a rel="prev" href="{esc(href(page - 1))}">{previous}</a>'
        if page > 1
        else f'<span class="off" aria-disabled="true">{previous}</span>'
    )
    forward = (
        f'<a rel="next" href="{esc(href(page + 1))}">{following}</a>'
        if page < pages
        else f'<span class="off" aria-disabled="true">{following}</span>'
    )
    where = t(lang, "web.page", page=number(lang, page), pages=number(lang, pages))
    named = esc(label or word(lang, "web.pages"))
    return f'<nav class="pager" aria-label="{named}">{back}<span>{esc(where)}</span>{forward}</nav>'
