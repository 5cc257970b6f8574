"""A finished match's page on a server's web page, as HTML: when it ended,
its format and length (hands played, minutes), its teams and final score, each player with
their rating change (every member's name a link to their page), once the match is analysed
each member's accuracy with every hand known and their costliest decision (the summary's
lines, ``analysis_lines``), and each hand's contract and result as the Discord Replay says
them, each a link to that hand in the replay; and the links to the replay and to the match's
file (``docs/match-format.md``).

The address is ``m/<match id>/``: the way home is ``../../``, the replay ``../<match id>``
and the file ``../<match id>.json``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final
from urllib.parse import urlencode

from engine.shelem.story import ShelemHandStory
from engine.story import HandStory

from ..service.match_facts import MatchFacts
from .analysis_lines import grade_text
from .history import replay_about, replay_counts, short_format
from .history_parts import team_items
from .i18n import LIST_SEPARATOR, number, t, word
from .standings import decimal
from .web_html import document, esc, sentence
from .web_links import file_href, replay_href, seat_links
from .web_pages import _when
from .web_parts import header, seat_names, teams_list

ROOT: Final = "../../"
"""From ``m/<id>/`` up to the server's home."""
REPLAY_COMMAND: Final = "python -m engine.replay_file FILE"


def match_page(lang: str, guild: str | None, facts: MatchFacts) -> str:
    """The match's page: its facts, players and hands."""
    replay = facts.replay
    story, entry = replay.story, replay.entry
    fmt = story.fmt
    names = seat_names(entry.players, fmt.seats)
    links = seat_links(entry.players, fmt.seats, ROOT, lang, entry.game_format)
    scores = LIST_SEPARATOR.join(team_items(lang, fmt, names, entry.scores))
    title = t(lang, "replay.title", scores=scores) + LIST_SEPARATOR + short_format(lang, fmt.name)
    back = f"{ROOT}?{urlencode({'lang': lang})}"
    replay_link = replay_href(ROOT, entry.match_id, lang)
    command = f'<code dir="ltr">{esc(REPLAY_COMMAND)}</code>'
    body = [
        header(lang, guild, "", lambda other: "?" + urlencode({"lang": other})),
        "<main>",
        f'<p><a class="back" href="{esc(back)}">{esc(t(lang, "web.back"))}</a></p>',
        '<section id="match" aria-labelledby="match-h">',
        f'<h2 id="match-h">{esc(t(lang, "web.final_score"))}</h2>',
        teams_list(lang, fmt, links, entry.scores, entry.winner_team),
        *_facts(lang, facts),
        f'<p class="links"><a class="replay" href="{esc(replay_link)}">'
        f"{esc(t(lang, 'web.replay'))}</a> "
        f'<a class="download" href="{esc(file_href(ROOT, entry.match_id))}" download>'
        f"{esc(t(lang, 'web.download'))}</a></p>",
        f'<p class="note">{sentence(lang, "web.download_note", command=command)}</p>',
        "</section>",
        *_players(lang, facts, links),
        *_grades(lang, facts, links),
        *_hands(lang, facts, names),
        "</main>",
    ]
    return document(lang, title, body)


def _facts(lang: str, facts: MatchFacts) -> list[str]:
    """When it finished, its format (hints on or not), and its length."""
    entry = facts.replay.entry
    fmt_cell = short_format(lang, entry.game_format)
    if entry.hints:
        fmt_cell += LIST_SEPARATOR + word(lang, "table.hints_on")
    length = t(lang, "web.hands_played", n=number(lang, len(facts.replay.story.hands)))
    if facts.started_at is not None:
        minutes = max(0, round((entry.finished_at - facts.started_at).total_seconds() / 60))
        length += LIST_SEPARATOR + t(lang, "web.duration", minutes=number(lang, minutes))
    rows = [
        (t(lang, "web.col_when"), _when(lang, entry)),
        (t(lang, "web.col_format"), esc(fmt_cell)),
        (t(lang, "web.length"), esc(length)),
    ]
    cells = "".join(f'<tr><th scope="row">{esc(k)}</th><td>{v}</td></tr>' for k, v in rows)
    return [f'<table class="facts"><tbody>{cells}</tbody></table>']


def _players(lang: str, facts: MatchFacts, links: list[str]) -> list[str]:
    """Each seat: its player (a link for a member) and rating change (a member not rated in
    this match, or a computer: "not rated"); the teams are the final score's, above."""
    entry = facts.replay.entry
    fmt = facts.replay.story.fmt
    by_seat = {p.seat: p for p in entry.players}
    heads = ("seat", "player", "change")
    cells = "".join(
        f'<th scope="col"{" class=num" if h != "player" else ""}>'
        f"{esc(t(lang, f'web.col_{h}'))}</th>"
        for h in heads
    )
    out = [
        '<section id="players" aria-labelledby="players-h">',
        f'<h2 id="players-h">{esc(t(lang, "web.players"))}</h2>',
        "<table>",
        f"<thead><tr>{cells}</tr></thead>",
        "<tbody>",
    ]
    for seat in range(fmt.seats):
        p = by_seat.get(seat)
        change = None if p is None or p.user_id is None else facts.rating_changes.get(p.user_id)
        shown = (
            t(lang, "web.not_rated")
            if change is None or (p is not None and p.is_computer)
            else decimal(lang, change, signed=True)
        )
        out.append(
            "<tr>"
            f'<td class="num">{esc(number(lang, seat + 1))}</td>'
            f"<td>{links[seat]}</td>"
            f'<td class="num change">{esc(shown)}</td>'
            "</tr>"
        )
    out += ["</tbody>", "</table>", "</section>"]
    return out


def _grades(lang: str, facts: MatchFacts, links: list[str]) -> list[str]:
    """Once the match is analysed: each member's decisions that kept the best outcome with
    every hand known, of those with a choice, and their costliest (the summary's line); a
    format the solver does not value says so. Nothing before the analysis is made."""
    analysis, fmt = facts.replay.analysis, facts.replay.story.fmt
    if analysis is None:
        return []
    out = [
        '<section id="analysis" aria-labelledby="analysis-h">',
        f'<h2 id="analysis-h">{esc(t(lang, "web.analysis"))}</h2>',
    ]
    if analysis.skipped:
        out.append(f'<p class="note">{esc(t(lang, "analysis.no_format"))}</p>')
        return [*out, "</section>"]
    items = []
    for p in sorted(facts.replay.entry.players, key=lambda p: p.seat):
        grade = analysis.seat_grade(p.seat)
        if p.is_computer or p.seat >= fmt.seats or not grade.decisions:
            continue
        line = grade_text(lang, fmt, grade)
        items.append(f'<li data-seat="{p.seat}">{links[p.seat]} {esc(line)}</li>')
    out += [
        f'<ul class="grades">{"".join(items)}</ul>',
        f'<p class="note">{esc(t(lang, "web.analysis_note"))}</p>',
    ]
    return [*out, "</section>"]


def _hands(lang: str, facts: MatchFacts, names: list[str]) -> list[str]:
    """Each hand played: its number (a link to its deal in the replay), its contract and its
    result and the score after it, as the Discord Replay says them."""
    replay = facts.replay
    heads = ("hand", "contract", "hand_result")
    cells = "".join(f'<th scope="col">{esc(t(lang, f"web.col_{h}"))}</th>' for h in heads)
    out = [
        '<section id="hands" aria-labelledby="hands-h">',
        f'<h2 id="hands-h">{esc(t(lang, "web.hands"))}</h2>',
        "<table>",
        f"<thead><tr>{cells}</tr></thead>",
        "<tbody>",
    ]
    hands: Sequence[HandStory | ShelemHandStory] = replay.story.hands
    for i, told in enumerate(hands):
        href = replay_href(ROOT, replay.entry.match_id, lang, hand=i)
        about = replay_about(lang, replay, names, i)
        said = replay_counts(lang, replay, names, i, len(told.tricks))
        result = [*said[2:], said[1]]  # the result, then the score after it
        out.append(
            f'<tr data-hand="{i}">'
            f'<td class="num"><a href="{esc(href)}">{esc(number(lang, told.number))}</a></td>'
            f"<td>{'<br>'.join(esc(line) for line in about)}</td>"
            f"<td>{'<br>'.join(esc(line) for line in result)}</td>"
            "</tr>"
        )
    out += ["</tbody>", "</table>", "</section>"]
    return out


def refusal_below(lang: str, guild: str | None, text: str) -> str:
    """A page two levels under the home (a member's, a match's) that cannot be shown, saying
    why, with the way back (``web_pages.refusal_page``'s, from one level further down)."""
    back = f"{ROOT}?{urlencode({'lang': lang})}"
    body = [
        header(lang, guild, "", lambda other: "?" + urlencode({"lang": other})),
        f'<main><p class="refusal">{esc(text)}</p>',
        f'<p><a class="back" href="{esc(back)}">{esc(t(lang, "web.back"))}</a></p></main>',
    ]
    where = guild or t(lang, "web.this_server")
    return document(lang, t(lang, "web.title", guild=where), body)
