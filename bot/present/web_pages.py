"""A server's web page (issue 16), as HTML: its leaderboard and finished matches, and one
finished match's replay, a frame per trick with every seat's cards drawn as card faces.

The same data and sentences as ``/standings``, ``/hokm history`` and its Replay: the store's
pages, the service's ``MatchReplay``, the catalog (``history.py``'s team, count and result
lines, given plain names). Names come as stored, through ``plain_name`` (nothing invisible,
no robot marks; computers marked 🤖 and set in code style), and every piece of text is
escaped by ``esc`` as it enters the HTML. Links are relative (``?lang=fa&h=1&t=3``,
``m/<match>``, ``../``), so the page works under any address a proxy gives it, and stepping
through a replay is plain links: the page has no script.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final
from urllib.parse import quote, urlencode

from engine import GameFormat
from engine.rules import STANDARD

from ..names import ROBOT, plain_name
from ..service.match_history import MatchReplay
from ..store import HistoryEntry, HistoryPage, MatchPlayer, StandingsPage
from ..store.guild_settings import hosted_formats
from .history import listed_format, replay_about, replay_counts, replay_steps, short_format
from .history_parts import in_suit_order, team_label
from .i18n import LIST_SEPARATOR, isolate, number, t, word
from .standings import decimal
from .web_html import card_face, cards_row, document, esc

BOARD_PER_PAGE: Final = 20
"""Leaderboard rows a page (the matches come ten a page, as ``MatchHistory`` pages them)."""
LANGS: Final = ("en", "fa")


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


def _player_name(player: MatchPlayer) -> str:
    return web_name(player.display_name, computer=player.is_computer)


def web_name(name: str, *, computer: bool = False) -> str:
    """A name as the page shows it: a computer's with 🤖 in front (a member's never has one)."""
    shown = plain_name(name, computer=computer)
    return shown if not computer or shown.startswith(ROBOT) else f"{ROBOT} {shown}"


def _names(players: Sequence[MatchPlayer], seats: int) -> list[str]:
    """Each seat's name, isolated (U+2068…U+2069) in both languages: a Persian name in an
    English sentence, or a Latin one in a Persian sentence, keeps its own direction and
    leaves the sentence's alone."""
    names = ["?"] * seats
    for p in players:
        if p.seat < seats:
            names[p.seat] = isolate(_player_name(p))
    return names


def _header(lang: str, guild: str | None, heading: str, switch: Callable[[str], str]) -> str:
    """The page's title and the language switch: ``switch(lang)`` is this page in ``lang``
    (the other language a link, this one not)."""
    links = []
    for other in LANGS:
        label = esc(t(other, f"web.lang_{other}"))
        if other == lang:
            links.append(f"<strong>{label}</strong>")
        else:
            href = switch(other)
            links.append(f'<a href="{esc(href)}" hreflang="{other}" lang="{other}">{label}</a>')
    where = guild if guild else t(lang, "web.this_server")
    return (
        f"<header><div><h1>{esc(t(lang, 'web.title', guild=where))}</h1>"
        f"<p>{esc(heading)}</p></div>"
        f'<nav class="lang">{"".join(links)}</nav></header>'
    )


# ---------------------------------------------------------------------- the home page


def home_page(home: Home, guild: str | None, board: StandingsPage, matches: HistoryPage) -> str:
    """The leaderboard of one format, then the server's finished matches with their replays."""
    lang = home.lang
    body = [
        _header(lang, guild, "", lambda other: home.href(lang=other)),
        "<main>",
        *_leaderboard(home, board),
        *_matches(home, matches),
        "</main>",
    ]
    return document(lang, t(lang, "web.title", guild=guild or t(lang, "web.this_server")), body)


def _leaderboard(home: Home, board: StandingsPage) -> list[str]:
    lang = home.lang
    formats = []
    for name in hosted_formats():  # every leaderboard /standings offers, Shelem's too
        label = esc(short_format(lang, name))
        if name == home.game_format:
            formats.append(f"<strong>{label}</strong>")
        else:
            formats.append(f'<a href="{esc(home.href(format=name, board=1))}">{label}</a>')
    out = [
        '<section id="leaderboard">',
        f"<h2>{esc(t(lang, 'web.leaderboard'))}</h2>",
        f'<nav class="formats">{"".join(formats)}</nav>',
    ]
    if not board.rows:
        out += [f'<p class="empty">{esc(t(lang, "standings.empty"))}</p>', "</section>"]
        return out
    heads = ("rank", "player", "rating", "won", "played", "rate")
    cells = "".join(
        f"<th{'' if h == 'player' else ' class=num'}>{esc(t(lang, f'web.col_{h}'))}</th>"
        for h in heads
    )
    out += ["<table>", f"<thead><tr>{cells}</tr></thead>", "<tbody>"]
    for r in board.rows:
        rate = t(lang, "web.percent", n=number(lang, round(r.win_rate * 100)))
        out.append(
            "<tr>"
            f'<td class="num">{esc(number(lang, r.rank))}</td>'
            f'<td class="player"><bdi>{esc(web_name(r.display_name))}</bdi></td>'
            f'<td class="num">{esc(decimal(lang, r.rating))}</td>'
            f'<td class="num">{esc(number(lang, r.matches_won))}</td>'
            f'<td class="num">{esc(number(lang, r.matches_played))}</td>'
            f'<td class="num">{esc(rate)}</td>'
            "</tr>"
        )
    out += ["</tbody>", "</table>"]
    out.append(f'<p class="note">{esc(t(lang, "standings.rating_note"))}</p>')
    out.append(_pager(lang, board.page, board.pages, lambda n: home.href(board=n)))
    out.append("</section>")
    return out


def _matches(home: Home, matches: HistoryPage) -> list[str]:
    lang = home.lang
    out = ['<section id="matches">', f"<h2>{esc(t(lang, 'web.matches'))}</h2>"]
    if not matches.rows:
        out += [f'<p class="empty">{esc(t(lang, "history.empty"))}</p>', "</section>"]
        return out
    heads = "".join(
        f"<th>{esc(t(lang, f'web.col_{h}'))}</th>" for h in ("when", "format", "result")
    )
    out += ["<table>", f"<thead><tr><th></th>{heads}<th></th></tr></thead>", "<tbody>"]
    first = (matches.page - 1) * matches.per_page
    for i, entry in enumerate(matches.rows):
        replay = f"m/{quote(entry.match_id, safe='')}?{urlencode({'lang': lang})}"
        format_cell = esc(short_format(lang, entry.game_format))
        if entry.hints:
            format_cell += esc(LIST_SEPARATOR + word(lang, "table.hints_on"))
        out.append(
            "<tr>"
            f'<td class="num">{esc(number(lang, first + i + 1))}</td>'
            f"<td>{_when(lang, entry)}</td>"
            f"<td>{format_cell}</td>"
            f'<td class="result">{_teams(lang, entry)}</td>'
            f'<td><a class="replay" href="{esc(replay)}">{esc(t(lang, "web.replay"))}</a></td>'
            "</tr>"
        )
    out += ["</tbody>", "</table>"]
    out.append(_pager(lang, matches.page, matches.pages, lambda n: home.href(page=n)))
    out.append("</section>")
    return out


def _when(lang: str, entry: HistoryEntry) -> str:
    at = entry.finished_at
    shown = at.strftime("%Y-%m-%d %H:%M UTC")
    if lang == "fa":
        shown = shown.translate(str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹"))
    return f'<time datetime="{esc(at.isoformat())}">{esc(shown)}</time>'


def _teams(lang: str, entry: HistoryEntry) -> str:
    """Every team by its players with its final score, the winners' in bold."""
    fmt = listed_format(entry.game_format)
    if fmt is None or len(entry.scores) != len(fmt.teams):
        return esc(" — ".join(number(lang, s) for s in entry.scores))
    names = _names(entry.players, fmt.seats)
    parts = []
    for team, score in enumerate(entry.scores):
        text = f"{team_label(fmt, names, lang, team)} {number(lang, score)}"
        cls = "team win" if team == entry.winner_team else "team"
        title = f' title="{esc(t(lang, "web.winners"))}"' if team == entry.winner_team else ""
        parts.append(f'<span class="{cls}"{title}>{esc(text)}</span>')
    return " — ".join(parts)


def _pager(lang: str, page: int, pages: int, href: Callable[[int], str]) -> str:
    """Previous and Next (greyed text where there is none) around "page n of m"."""
    back = (
        f'<a rel="prev" href="{esc(href(page - 1))}">{esc(t(lang, "button.previous"))}</a>'
        if page > 1
        else f'<span class="off">{esc(t(lang, "button.previous"))}</span>'
    )
    forward = (
        f'<a rel="next" href="{esc(href(page + 1))}">{esc(t(lang, "button.next"))}</a>'
        if page < pages
        else f'<span class="off">{esc(t(lang, "button.next"))}</span>'
    )
    where = t(lang, "web.page", page=number(lang, page), pages=number(lang, pages))
    return f'<nav class="pager">{back}<span>{esc(where)}</span>{forward}</nav>'


# ---------------------------------------------------------------------- the replay


def replay_page(lang: str, guild: str | None, replay: MatchReplay, hand: int, trick: int) -> str:
    """Hand index ``hand`` after its trick ``trick`` (0: the deal), every seat's cards shown;
    ⏮ ◀ ▶ ⏭ are links to the frames ``replay_steps`` names (a step with nowhere to go is
    greyed text)."""
    story, entry = replay.story, replay.entry
    fmt, told = story.fmt, story.hands[hand]
    names = _names(entry.players, fmt.seats)
    here = {"h": hand, "t": trick}
    scores = " — ".join(
        f"{team_label(fmt, names, lang, i)} {number(lang, s)}" for i, s in enumerate(entry.scores)
    )
    title = t(lang, "replay.title", scores=scores)
    if fmt.name != STANDARD.name:
        title += LIST_SEPARATOR + short_format(lang, fmt.name)
    back = f"../?{urlencode({'lang': lang})}"
    body = [
        _header(lang, guild, title, lambda other: "?" + urlencode({"lang": other, **here})),
        "<main>",
        f'<p><a class="back" href="{esc(back)}">{esc(t(lang, "web.back"))}</a></p>',
        *_position(lang, replay, names, hand, trick),
        _steps(lang, replay, hand, trick),
        '<div class="felt">',
        *_on_table(lang, fmt, names, replay, hand, trick),
    ]
    for seat, held in enumerate(told.held(trick)):
        hakem = (
            f' <span title="{esc(t(lang, "web.hakem_mark"))}">👑</span>'
            if seat == told.hakem
            else ""
        )
        cls = "seat computer" if _is_computer(entry, seat) else "seat"
        body += [
            f'<div class="{cls}" data-seat="{seat}">',
            f"<h3><bdi>{esc(names[seat])}</bdi>{hakem}</h3>",
            cards_row(in_suit_order(held)),
            "</div>",
        ]
    body += ["</div>", *_counts(lang, names, replay, hand, trick), "</main>"]
    return document(lang, title, body)


def _is_computer(entry: HistoryEntry, seat: int) -> bool:
    return any(p.seat == seat and p.is_computer for p in entry.players)


def _position(
    lang: str, replay: MatchReplay, names: Sequence[str], hand: int, trick: int
) -> list[str]:
    """Where the frame is, then the hand's contract as the Discord Replay says it
    (``replay_about``: Hokm's hakem and trump, Shelem's bidding, mode and kitty)."""
    story = replay.story
    told = story.hands[hand]
    where = (
        t(lang, "replay.trick", n=number(lang, trick), of=number(lang, len(told.tricks)))
        if trick
        else word(lang, "replay.deal")
    )
    position = t(
        lang,
        "web.position",
        hand=number(lang, told.number),
        hands=number(lang, story.hands[-1].number),
    )
    about = [f"<p>{esc(line)}</p>" for line in replay_about(lang, replay, names, hand)]
    return [f'<h2 class="position">{esc(position + LIST_SEPARATOR + where)}</h2>', *about]


def _steps(lang: str, replay: MatchReplay, hand: int, trick: int) -> str:
    links = []
    for step, symbol, to in replay_steps(replay, hand, trick):
        name = esc(t(lang, f"web.step_{step}"))
        if to is None:
            links.append(f'<span class="off" title="{name}" aria-disabled="true">{symbol}</span>')
            continue
        href = "?" + urlencode({"lang": lang, "h": to[0], "t": to[1]})
        links.append(
            f'<a class="step" data-step="{step}" href="{esc(href)}" title="{name}" '
            f'aria-label="{name}">{symbol}</a>'
        )
    # left to right in both languages, as media controls are: ⏮ ◀ back, ▶ ⏭ on
    return f'<nav class="steps" dir="ltr">{"".join(links)}</nav>'


def _on_table(
    lang: str,
    fmt: GameFormat,
    names: Sequence[str],
    replay: MatchReplay,
    hand: int,
    trick: int,
) -> list[str]:
    """The trick just played, each card under its player's name, the winner's ringed; at the
    deal, who leads."""
    told = replay.story.hands[hand]
    if not trick:
        leads = t(lang, "replay.leads", name=names[told.tricks[0].leader])
        return [f'<p class="leads">{esc(leads)}</p>']
    played = told.tricks[trick - 1]
    plays = []
    for seat, card in played.plays(fmt.seats):
        cls = "play took" if seat == played.winner else "play"
        plays.append(
            f'<div class="{cls}">{card_face(card)}<div><bdi>{esc(names[seat])}</bdi></div></div>'
        )
    took = t(lang, "web.took", name=names[played.winner])
    return [f'<div class="trick">{"".join(plays)}</div>', f'<p class="took">{esc(took)}</p>']


def _counts(
    lang: str,
    names: Sequence[str],
    replay: MatchReplay,
    hand: int,
    trick: int,
) -> list[str]:
    """Tricks (Shelem: points) and score so far, and after the hand's last trick its result
    (``replay_counts``, as on Discord)."""
    lines = replay_counts(lang, replay, names, hand, trick)
    return [f'<p class="counts">{esc(line)}</p>' for line in lines]


# ---------------------------------------------------------------------- refusals


def refusal_page(lang: str, guild: str | None, text: str) -> str:
    """A page of this server that cannot be shown (a match still being played, one this server
    never finished, a position a match does not have), saying why, with the way back."""
    back = f"../?{urlencode({'lang': lang})}"
    body = [
        _header(lang, guild, "", lambda other: "?" + urlencode({"lang": other})),
        f'<main><p class="refusal">{esc(text)}</p>',
        f'<p><a class="back" href="{esc(back)}">{esc(t(lang, "web.back"))}</a></p></main>',
    ]
    return document(lang, t(lang, "web.title", guild=guild or t(lang, "web.this_server")), body)
