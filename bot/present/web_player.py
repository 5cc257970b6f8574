"""A member's page on a server's web page, as HTML: their rating in one
format and its history as a chart, their matches, wins and win rate, their best partner, and
their latest finished matches with links to each match's page and replay.

The chart is SVG drawn here, inline in the page: markup, not script or style, so the page's
policy (``default-src 'none'``) holds; its lines and labels take the text's colour
(``currentColor``), and a ``<title>`` and ``<desc>`` say what it shows to a screen reader.
Every name goes through ``web_name`` and ``esc``; every other member's name links to their
page. The address is ``p/<member id>/``, so the way home is ``../../``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final
from urllib.parse import urlencode

from ..service.member_profile import MemberProfile
from ..store import HistoryEntry
from ..store.guild_settings import hosted_formats
from ..store.rating_ops import RatingPoint
from .dates import shown_day
from .formats import format_is_named
from .history import listed_format, short_format
from .i18n import LIST_SEPARATOR, number, score_pair, t, word
from .standings import decimal
from .web_html import document, esc
from .web_links import match_href, member_href, name_link, replay_href, seat_links
from .web_pages import _when
from .web_parts import header, teams_list, web_name

ROOT: Final = "../../"
"""From ``p/<id>/`` up to the server's home."""
WIDTH, HEIGHT = 480, 200
LEFT, RIGHT, TOP, BOTTOM = 52, 12, 12, 30
"""The chart's size and margins, in its own units (``viewBox``): it scales to the page."""


def member_page(lang: str, guild: str | None, profile: MemberProfile) -> str:
    """The member's page in ``profile.game_format``."""
    name = web_name(profile.name)
    heading = t(lang, "web.member_heading", name=name)

    def here(**changes: str) -> str:
        values = {"lang": lang, "format": profile.game_format, **changes}
        if not format_is_named(values["format"]):
            del values["format"]
        return "?" + urlencode(values)

    back = f"{ROOT}?{urlencode({'lang': lang})}"
    body = [
        header(lang, guild, heading, lambda other: here(lang=other)),
        "<main>",
        f'<p><a class="back" href="{esc(back)}">{esc(t(lang, "web.back"))}</a></p>',
        _formats(lang, profile.game_format, here),
        *_summary(lang, profile),
        *_chart_section(lang, profile.points),
        *_recent(lang, profile),
        "</main>",
    ]
    return document(lang, f"{name} · {short_format(lang, profile.game_format)}", body)


def _formats(lang: str, current: str, here: Callable[..., str]) -> str:
    """This member's page in each format the bot hosts (this one not a link)."""
    links = []
    for name in hosted_formats():
        label = esc(short_format(lang, name))
        if name == current:
            links.append(f'<strong aria-current="page">{label}</strong>')
        else:
            links.append(f'<a href="{esc(here(format=name))}">{label}</a>')
    return (
        f'<nav class="formats" aria-label="{esc(word(lang, "web.formats"))}">{"".join(links)}</nav>'
    )


def _summary(lang: str, profile: MemberProfile) -> list[str]:
    """Rating and rank, matches, wins and win rate, and the best partner, in this format."""
    out = [
        '<section id="member" aria-labelledby="member-h">',
        f'<h2 id="member-h">{esc(short_format(lang, profile.game_format))}</h2>',
    ]
    record = profile.record
    if record is None:
        out += [f'<p class="empty">{esc(t(lang, "web.no_format_matches"))}</p>', "</section>"]
        return out
    rating = profile.rating
    rows = [
        (
            "web.col_rating",
            esc(decimal(lang, rating.ordinal) if rating else t(lang, "web.not_rated")),
        ),
        ("web.member_rank", esc(number(lang, record.rank))),
        ("web.col_played", esc(number(lang, record.matches_played))),
        ("web.col_won", esc(number(lang, record.matches_won))),
        ("web.col_rate", esc(t(lang, "web.percent", n=number(lang, round(record.win_rate * 100))))),
    ]
    partner = profile.partner
    if partner is None:
        rows.append(("web.best_partner", esc(t(lang, "web.no_partner"))))
    else:
        href = member_href(ROOT, partner.user_id, lang, profile.game_format)
        together = t(
            lang,
            "web.partner_record",
            won=number(lang, partner.won),
            played=number(lang, partner.played),
        )
        rows.append(
            ("web.best_partner", f"{name_link(web_name(partner.name), href)} — {esc(together)}")
        )
    out.append('<table class="facts"><tbody>')
    for key, value in rows:
        out.append(f'<tr><th scope="row">{esc(t(lang, key))}</th><td>{value}</td></tr>')
    out += ["</tbody></table>", "</section>"]
    return out


# ---------------------------------------------------------------------- the chart


def _chart_section(lang: str, points: Sequence[RatingPoint]) -> list[str]:
    out = [
        '<section id="rating" aria-labelledby="rating-h">',
        f'<h2 id="rating-h">{esc(t(lang, "web.rating_chart"))}</h2>',
    ]
    if not points:
        out.append(f'<p class="empty">{esc(t(lang, "web.no_rated_matches"))}</p>')
    else:
        out.append(rating_chart(lang, points))
    out.append("</section>")
    return out


def rating_chart(lang: str, points: Sequence[RatingPoint]) -> str:
    """The rating before the first of ``points`` and after each, as an inline SVG line chart
    (oldest on the left), with its lowest and highest values and first and last dates marked,
    each point's date, rating and change in its own ``<title>``, and the whole said in words
    (``<title>``, ``<desc>``). ``points`` is not empty."""
    values = [points[0].before, *(p.after for p in points)]
    low, high = min(values), max(values)
    top, bottom = (high, low) if high - low > 1e-9 else (high + 1, low - 1)
    span_x = (WIDTH - LEFT - RIGHT) / max(1, len(values) - 1)
    span_y = (HEIGHT - TOP - BOTTOM) / (top - bottom)

    def x(i: int) -> str:
        return f"{LEFT + i * span_x:.1f}"

    def y(v: float) -> str:
        return f"{TOP + (top - v) * span_y:.1f}"

    say = {"low": decimal(lang, low), "high": decimal(lang, high)}
    title = t(lang, "web.chart_title", n=number(lang, len(points)))
    desc = t(
        lang,
        "web.chart_desc",
        first=decimal(lang, values[0]),
        last=decimal(lang, values[-1]),
        **say,
    )
    line = " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values))
    base, edge = HEIGHT - BOTTOM, WIDTH - RIGHT
    out = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" role="img" '
        'aria-labelledby="chart-title chart-desc" dir="ltr" font-size="13" '
        'fill="currentColor">',
        f'<title id="chart-title">{esc(title)}</title>',
        f'<desc id="chart-desc">{esc(desc)}</desc>',
        f'<g stroke="currentColor" stroke-opacity="0.35">'
        f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{base}"/>'
        f'<line x1="{LEFT}" y1="{base}" x2="{edge}" y2="{base}"/></g>',
    ]
    if bottom < 0 < top:
        out.append(
            f'<line class="zero" x1="{LEFT}" y1="{y(0)}" x2="{edge}" y2="{y(0)}" '
            'stroke="currentColor" stroke-opacity="0.25" stroke-dasharray="4 4"/>'
        )
    out += [
        f'<text x="{LEFT - 6}" y="{y(high)}" text-anchor="end" dominant-baseline="middle">'
        f"{esc(say['high'])}</text>",
        f'<text x="{LEFT - 6}" y="{y(low)}" text-anchor="end" dominant-baseline="middle">'
        f"{esc(say['low'])}</text>",
        f'<text x="{LEFT}" y="{HEIGHT - 8}">{esc(_day(lang, points[0]))}</text>',
        f'<text x="{edge}" y="{HEIGHT - 8}" text-anchor="end">{esc(_day(lang, points[-1]))}</text>',
        f'<polyline points="{line}" fill="none" stroke="currentColor" stroke-width="2" '
        'stroke-linejoin="round"/>',
    ]
    for i, p in enumerate(points, start=1):
        said = t(
            lang,
            "web.chart_point",
            when=_day(lang, p),
            rating=decimal(lang, p.after),
            change=decimal(lang, p.after - p.before, signed=True),
        )
        out.append(
            f'<circle cx="{x(i)}" cy="{y(p.after)}" r="3"><title>{esc(said)}</title></circle>'
        )
    out.append("</svg>")
    return "".join(out)


def _day(lang: str, point: RatingPoint) -> str:
    return shown_day(lang, point.finished_at)  # in Persian the Solar Hijri day, Tehran time


# ---------------------------------------------------------------------- the matches


def _recent(lang: str, profile: MemberProfile) -> list[str]:
    """Their latest matches here, of every format, as the home page lists matches (a list,
    not a wide table, for a phone): when, the format, won or lost, links to the match's page
    and its replay, and the teams (every member's name a link to their page)."""
    out = [
        '<section id="member-matches" aria-labelledby="member-matches-h">',
        f'<h2 id="member-matches-h">{esc(t(lang, "web.recent_matches"))}</h2>',
        '<ol class="matches">',
    ]
    for entry in profile.recent.rows:
        mine = next((p for p in entry.players if p.user_id == profile.user_id), None)
        won = mine is not None and mine.team == entry.winner_team
        about = [short_format(lang, entry.game_format)]
        if entry.hints:
            about.append(word(lang, "table.hints_on"))
        about.append(t(lang, "web.outcome_won" if won else "web.outcome_lost"))
        meta = _when(lang, entry) + esc(LIST_SEPARATOR + LIST_SEPARATOR.join(about))
        links = (
            f'<a class="match-page" href="{esc(match_href(ROOT, entry.match_id, lang))}">'
            f"{esc(t(lang, 'web.match_link'))}</a> "
            f'<a class="replay" href="{esc(replay_href(ROOT, entry.match_id, lang))}">'
            f"{esc(t(lang, 'web.replay'))}</a>"
        )
        cls = "match won" if won else "match lost"
        out.append(
            f'<li class="{cls}"><div class="meta"><span>{meta}</span><span>{links}</span></div>'
            f"{_teams(lang, entry)}</li>"
        )
    out += ["</ol>", "</section>"]
    return out


def _teams(lang: str, entry: HistoryEntry) -> str:
    fmt = listed_format(entry.game_format)
    if fmt is None or len(entry.scores) != len(fmt.teams):
        return esc(score_pair(lang, entry.scores))
    names = seat_links(entry.players, fmt.seats, ROOT, lang, entry.game_format)
    return teams_list(lang, fmt, names, entry.scores, entry.winner_team)
