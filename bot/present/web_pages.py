"""A server's web page, as HTML: its leaderboard and finished matches; one
finished match's replay is ``web_replay``'s, the pieces both share ``web_parts``'.

The same data and sentences as ``/standings`` and ``/hokm history``: the store's pages, the
catalog. Names come as stored, through ``plain_name`` (nothing invisible, no robot marks;
computers marked 🤖 and set in code style), and every piece of text is escaped by ``esc`` as
it enters the HTML. Links are relative (``?lang=fa&format=shelem``, ``m/<match>``, ``../``),
so the page works under any address a proxy gives it. Laid out for a phone first:
the finished matches are a list, each team's score set apart from its names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final
from urllib.parse import quote, urlencode

from engine.rules import STANDARD

from ..service.puzzles import PuzzleOffer
from ..service.tournament_state import TournamentState
from ..store import HistoryEntry, HistoryPage, MatchPlayer, StandingsPage
from ..store.guild_settings import hosted_formats
from .dates import shown_time
from .history import listed_format, short_format
from .i18n import LIST_SEPARATOR, number, score_pair, t, word
from .standings import decimal
from .web_html import document, esc
from .web_links import match_href, member_href, name_link, seat_links
from .web_parts import LANGS, header, pager, seat_names, teams_list, web_name
from .web_puzzle import puzzle_section
from .web_replay import replay_page
from .web_tournament import tournaments_section

__all__ = ["BOARD_PER_PAGE", "LANGS", "Home", "home_page", "refusal_page", "replay_page"]
__all__ += ["web_name"]

BOARD_PER_PAGE: Final = 20
"""Leaderboard rows a page (the matches come ten a page, as ``MatchHistory`` pages them)."""


@dataclass(frozen=True, slots=True)
class Home:
    """Which home page is asked for: the language, the leaderboard's format and page, and the
    page of finished matches (the query string, validated by the web layer)."""

    lang: str
    board: int = 1
    page: int = 1
    game_format: str = STANDARD.name

    def href(self, **changes: object) -> str:
        """This page's address with ``changes``, relative to it (only what differs from the
        defaults is in the query)."""
        values = {
            "lang": self.lang,
            "format": self.game_format,
            "board": self.board,
            "page": self.page,
            **changes,
        }
        defaults = {"format": STANDARD.name, "board": 1, "page": 1}
        return "?" + urlencode({k: v for k, v in values.items() if defaults.get(k) != v})


def _names(players: Sequence[MatchPlayer], seats: int) -> list[str]:
    """Each seat's name as text, isolated (``web_parts.seat_names``)."""
    return seat_names(players, seats)


# ---------------------------------------------------------------------- the home page


def home_page(
    home: Home,
    guild: str | None,
    board: StandingsPage,
    matches: HistoryPage,
    tournaments: Sequence[TournamentState] = (),
    puzzle: PuzzleOffer | None = None,
) -> str:
    """The leaderboard of one format, the server's tournaments (each a link to its page),
    then the server's finished matches with their replays, then the server's puzzle of the
    day (when it has one)."""
    lang = home.lang
    body = [
        header(lang, guild, "", lambda other: home.href(lang=other)),
        "<main>",
        *_leaderboard(home, board),
        *tournaments_section(lang, tournaments),
        *_matches(home, matches),
        *(puzzle_section(lang, puzzle) if puzzle is not None else ()),
        "</main>",
    ]
    return document(lang, t(lang, "web.title", guild=guild or t(lang, "web.this_server")), body)


def _leaderboard(home: Home, board: StandingsPage) -> list[str]:
    lang = home.lang
    formats = []
    for name in hosted_formats():  # every leaderboard /standings offers, Shelem's too
        label = esc(short_format(lang, name))
        if name == home.game_format:
            formats.append(f'<strong aria-current="page">{label}</strong>')
        else:
            formats.append(f'<a href="{esc(home.href(format=name, board=1))}">{label}</a>')
    formats_label = esc(word(lang, "web.formats"))
    out = [
        '<section id="leaderboard" aria-labelledby="leaderboard-h">',
        f'<h2 id="leaderboard-h">{esc(t(lang, "web.leaderboard"))}</h2>',
        f'<nav class="formats" aria-label="{formats_label}">{"".join(formats)}</nav>',
    ]
    if not board.rows:
        out += [f'<p class="empty">{esc(t(lang, "standings.empty"))}</p>', "</section>"]
        return out
    heads = ("rank", "player", "rating", "won", "played", "rate")
    cells = "".join(
        f'<th scope="col"{"" if h == "player" else " class=num"}>'
        f"{esc(t(lang, f'web.col_{h}'))}</th>"
        for h in heads
    )
    out += ["<table>", f"<thead><tr>{cells}</tr></thead>", "<tbody>"]

    def mine(user_id: int) -> str:  # the member's page, in this leaderboard's format
        return member_href("", user_id, lang, home.game_format)

    for r in board.rows:
        rate = t(lang, "web.percent", n=number(lang, round(r.win_rate * 100)))
        out.append(
            "<tr>"
            f'<td class="num">{esc(number(lang, r.rank))}</td>'
            f'<td class="player">{name_link(web_name(r.display_name), mine(r.user_id))}</td>'
            f'<td class="num">{esc(decimal(lang, r.rating))}</td>'
            f'<td class="num">{esc(number(lang, r.matches_won))}</td>'
            f'<td class="num">{esc(number(lang, r.matches_played))}</td>'
            f'<td class="num">{esc(rate)}</td>'
            "</tr>"
        )
    out += ["</tbody>", "</table>"]
    out.append(f'<p class="note">{esc(t(lang, "standings.rating_note"))}</p>')
    label = word(lang, "web.board_pages")
    out.append(pager(lang, board.page, board.pages, lambda n: home.href(board=n), label))
    out.append("</section>")
    return out


def _matches(home: Home, matches: HistoryPage) -> list[str]:
    """The finished matches as a list (a table of five columns overflowed a phone): each its
    number, date and format, its teams with their scores, and its replay."""
    lang = home.lang
    out = [
        '<section id="matches" aria-labelledby="matches-h">',
        f'<h2 id="matches-h">{esc(t(lang, "web.matches"))}</h2>',
    ]
    if not matches.rows:
        out += [f'<p class="empty">{esc(t(lang, "history.empty"))}</p>', "</section>"]
        return out
    first = (matches.page - 1) * matches.per_page
    out.append(f'<ol class="matches" start="{first + 1}">')
    for i, entry in enumerate(matches.rows):
        replay = f"m/{quote(entry.match_id, safe='')}?{urlencode({'lang': lang})}"
        about = [number(lang, first + i + 1), short_format(lang, entry.game_format)]
        if entry.hints:
            about.append(word(lang, "table.hints_on"))
        meta = esc(about[0] + ".") + " " + _when(lang, entry) + esc(LIST_SEPARATOR)
        meta += esc(LIST_SEPARATOR.join(about[1:]))
        link = f'<a class="replay" href="{esc(replay)}">{esc(t(lang, "web.replay"))}</a>'
        page = match_href("", entry.match_id, lang)  # the match's own page
        link += f' <a class="match-page" href="{esc(page)}">{esc(t(lang, "web.match_link"))}</a>'
        out.append(
            f'<li class="match"><div class="meta"><span>{meta}</span>{link}</div>'
            f"{_teams(lang, entry)}</li>"
        )
    out.append("</ol>")
    label = word(lang, "web.match_pages")
    out.append(pager(lang, matches.page, matches.pages, lambda n: home.href(page=n), label))
    out.append("</section>")
    return out


def _when(lang: str, entry: HistoryEntry) -> str:
    """When a match ended: UTC in English, the Solar Hijri calendar in Tehran time in Persian."""
    at = entry.finished_at
    return f'<time datetime="{esc(at.isoformat())}">{esc(shown_time(lang, at))}</time>'


def _teams(lang: str, entry: HistoryEntry) -> str:
    """Every team by its players, its final score set apart, the winners' in bold."""
    fmt = listed_format(entry.game_format)
    if fmt is None or len(entry.scores) != len(fmt.teams):
        return f"<p>{esc(score_pair(lang, entry.scores))}</p>"
    names = seat_links(entry.players, fmt.seats, "", lang, entry.game_format)
    return teams_list(lang, fmt, names, entry.scores, entry.winner_team)


# ---------------------------------------------------------------------- refusals


def refusal_page(lang: str, guild: str | None, text: str) -> str:
    """A page of this server that cannot be shown (a match still being played, one this server
    never finished, a position a match does not have), saying why, with the way back."""
    back = f"../?{urlencode({'lang': lang})}"
    body = [
        header(lang, guild, "", lambda other: "?" + urlencode({"lang": other})),
        f'<main><p class="refusal">{esc(text)}</p>',
        f'<p><a class="back" href="{esc(back)}">{esc(t(lang, "web.back"))}</a></p></main>',
    ]
    return document(lang, t(lang, "web.title", guild=guild or t(lang, "web.this_server")), body)
