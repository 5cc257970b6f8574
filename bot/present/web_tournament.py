"""A tournament's page on a server's web page, as HTML (docs/rules.md T5, T10): its
settings, the standings (rank, entry, match points, the tie-breaks, every round's result) and
each round's pairings with their results, every played match a link to its page; and the
list of the server's tournaments on the home page.

The address is ``t/<tournament id>/``: the way home is ``../../``, a match ``../../m/<id>/``.
Members are named as the tournament stored them (as Discord gave them when they joined),
through ``web_name`` and ``esc``; the tournament's name, chosen by its host, through
``plain_name``. A tournament holds no cards, so a live one is shown as it stands.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final
from urllib.parse import urlencode

from ..names import plain_name
from ..service.tournament_state import TournamentState
from ..tournament.standings import standings as ranked
from ..tournament.standings import winners
from ..tournament.state import Result, Round
from .history import short_format
from .i18n import LIST_SEPARATOR, number, score_pair, signed, t, word
from .web_html import document, esc, sentence
from .web_links import match_href, member_href, name_link
from .web_parts import header, web_name

ROOT: Final = "../../"
"""From ``t/<id>/`` up to the server's home."""
NAME_LIMIT: Final = 80
RESULTS: Final = {
    "win": "tstandings.win",
    "loss": "tstandings.loss",
    "forfeit": "tstandings.forfeit",
    "walkover": "tstandings.walkover",
    "bye": "tstandings.bye",
}


def tournament_href(root: str, tournament_id: str, lang: str) -> str:
    return f"{root}t/{tournament_id}/?{urlencode({'lang': lang})}"


def tournament_title(state: TournamentState) -> str:
    return plain_name(state.core.config.name, limit=NAME_LIMIT)


def status_text(lang: str, state: TournamentState) -> str:
    """Registering, the round being played, finished or cancelled."""
    if state.status == "running" and state.core.rounds:
        total = number(lang, state.core.total_rounds)
        return t(lang, "tournament.round", n=number(lang, state.core.current_round), total=total)
    return t(lang, f"web.t_{state.status}")


def tournaments_section(lang: str, found: Sequence[TournamentState]) -> list[str]:
    """The home page's list of the server's tournaments, newest first (none: no section)."""
    if not found:
        return []
    out = [
        '<section id="tournaments" aria-labelledby="tournaments-h">',
        f'<h2 id="tournaments-h">{esc(t(lang, "web.tournaments"))}</h2>',
        '<ul class="tournaments">',
    ]
    for state in found:
        href = tournament_href("", state.tournament_id, lang)
        about = LIST_SEPARATOR.join(
            [short_format(lang, state.core.config.format), status_text(lang, state)]
        )
        out.append(
            f'<li><a href="{esc(href)}"><bdi>{esc(tournament_title(state))}</bdi></a>'
            f' <span class="note">{esc(about)}</span></li>'
        )
    out += ["</ul>", "</section>"]
    return out


def _member(state: TournamentState, lang: str, member: int) -> str:
    name = web_name(state.names.get(member, str(member)))
    return name_link(name, member_href(ROOT, member, lang, state.core.config.format))


def _members(state: TournamentState, lang: str, ids: Sequence[int]) -> str:
    return esc(word(lang, "tournament.and")).join(_member(state, lang, m) for m in ids)


def tournament_page(lang: str, guild: str | None, state: TournamentState) -> str:
    """The tournament's settings and state, its standings, then its rounds, newest first."""
    name = tournament_title(state)
    back = f"{ROOT}?{urlencode({'lang': lang})}"
    body = [
        header(lang, guild, "", lambda other: "?" + urlencode({"lang": other})),
        "<main>",
        f'<p><a class="back" href="{esc(back)}">{esc(t(lang, "web.back"))}</a></p>',
        '<section id="tournament" aria-labelledby="tournament-h">',
        f'<h2 id="tournament-h"><bdi>{esc(name)}</bdi></h2>',
        *_about(lang, state),
        "</section>",
        *_standings(lang, state),
        *(line for r in reversed(state.core.rounds) for line in _round(lang, state, r)),
        "</main>",
    ]
    return document(lang, t(lang, "web.t_title", name=name), body)


def _about(lang: str, state: TournamentState) -> list[str]:
    config = state.core.config
    if config.system == "swiss":
        system = t(lang, "tournament.swiss", rounds=number(lang, config.rounds))
    else:
        system = t(lang, f"tournament.{config.system}")
    parts = [short_format(lang, config.format), system, t(lang, f"tournament.{config.partners}")]
    out = [f"<p>{esc(LIST_SEPARATOR.join(parts))}</p>", f"<p>{esc(status_text(lang, state))}</p>"]
    if not config.rated:
        out.append(f'<p class="note">{esc(t(lang, "tournament.unrated"))}</p>')
    won = winners(state.core) if state.status == "finished" else ()
    if won:
        out.append(
            f"<p><strong>{sentence(lang, 'web.t_winners', names=_members(state, lang, won))}</strong></p>"
        )
    if state.status == "registration":
        entries = [_members(state, lang, e.members) for e in state.core.entrants]
        items = "".join(f"<li>{e}</li>" for e in entries)
        out.append(f"<h3>{esc(t(lang, 'tournament.entries'))}</h3>")
        out.append(
            f"<ol>{items}</ol>" if items else f"<p>{esc(t(lang, 'tournament.no_entries'))}</p>"
        )
    return out


def _standings(lang: str, state: TournamentState) -> list[str]:
    """Rank, entry (its results under it), match points, Buchholz, Sonneborn-Berger and
    points difference: six columns, as the leaderboard's, so it fits a phone."""
    if not state.core.rounds:
        return []
    done = [r.number for r in state.core.rounds if not r.pending]
    last = done[-1] if done else 0
    heads = ("rank", "entry", "points", "bh", "sb", "diff")
    cells = "".join(
        f'<th scope="col"{"" if h == "entry" else " class=num"}>{esc(t(lang, f"web.col_{h}"))}</th>'
        for h in heads
    )
    out = [
        '<section id="standings" aria-labelledby="standings-h">',
        f'<h2 id="standings-h">{esc(t(lang, "web.t_standings"))}</h2>',
        "<table>",
        f"<thead><tr>{cells}</tr></thead>",
        "<tbody>",
    ]
    for row in ranked(state.core):
        results = " ".join(t(lang, RESULTS[g.kind]) for g in row.games if g.round <= last)
        if row.dropped:
            results += " " + t(lang, "tstandings.dropped")
        out.append(
            "<tr>"
            f'<td class="num">{esc(number(lang, row.rank))}</td>'
            f'<td class="player">{_members(state, lang, row.members)}'
            f'<br><span class="note">{esc(results)}</span></td>'
            f'<td class="num">{esc(number(lang, row.match_points))}</td>'
            f'<td class="num">{esc(number(lang, row.buchholz))}</td>'
            f'<td class="num">{esc(number(lang, row.sonneborn_berger))}</td>'
            f'<td class="num">{esc(signed(lang, row.hand_diff))}</td>'
            "</tr>"
        )
    out += ["</tbody>", "</table>"]
    out.append(f'<p class="note">{esc(t(lang, "tstandings.legend"))}</p>')
    out.append("</section>")
    return out


def _round(lang: str, state: TournamentState, r: Round) -> list[str]:
    """A round's tables: each its sides and its result (a played match a link to its page),
    then who sat it out."""
    total = number(lang, state.core.total_rounds)
    heading = t(lang, "tournament.round", n=number(lang, r.number), total=total)
    out = [
        f'<section id="round-{r.number}" aria-labelledby="round-{r.number}-h">',
        f'<h2 id="round-{r.number}-h">{esc(heading)}</h2>',
        '<ol class="pairings">',
    ]
    for k, table in enumerate(r.tables):
        sides = [_members(state, lang, side) for side in state.table_members(r.number, k)]
        vs = esc(word(lang, "tournament.vs")).join(sides)
        outcome = _outcome(lang, state, sides, table.result, r.number, k)
        out.append(f'<li class="pairing">{vs}<br><span class="outcome">{outcome}</span></li>')
    out.append("</ol>")
    if r.byes:
        entrants = state.core.entrants
        names = ", ".join(_members(state, lang, entrants[e].members) for e in r.byes)
        out.append(f"<p>{sentence(lang, 'tournament.byes', names=names)}</p>")
    out.append("</section>")
    return out


def _outcome(
    lang: str,
    state: TournamentState,
    sides: list[str],
    result: Result | None,
    round_no: int,
    table_no: int,
) -> str:
    if result is None:
        return esc(t(lang, "tournament.waiting"))
    if result.winner is None:
        lost = esc(word(lang, "tournament.and")).join(sides[i] for i in result.forfeits)
        return sentence(lang, "tournament.forfeited", sides=lost)
    said = sentence(
        lang,
        "tournament.won",
        side=sides[result.winner],
        score=esc(score_pair(lang, result.scores)),
    )
    slot = state.slots.get((round_no, table_no))
    if slot is None:
        return said
    href = match_href(ROOT, slot.table_id, lang)
    return f'{said} <a class="match-page" href="{esc(href)}">{esc(t(lang, "web.match_link"))}</a>'
