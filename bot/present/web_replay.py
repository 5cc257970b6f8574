"""A finished match's replay on the web page, laid out as a table: the
seats round the felt (2 to 6), each in its team's colour with its remaining cards, the hakem
marked, the trick just played in the middle, each card in front of its player; below it the
hand's tricks, each a link to its frame.

The same steps and lines as the Discord Replay (``history``: ``replay_steps``,
``replay_about``, ``replay_counts``). Stepping is plain links (⏮ ◀ ▶ ⏭, and the list of
tricks); ``web_style.SCRIPT`` only lets ← and → follow ◀ and ▶. Only finished matches reach
here (``MatchHistory``), so every seat's cards may be shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final
from urllib.parse import urlencode

from engine import GameFormat, Suit
from engine.events import Trick

from ..names import CROWN
from ..service.match_history import MatchReplay
from .history import replay_about, replay_counts, replay_marks, replay_steps, short_format
from .history_parts import in_suit_order, team_items
from .i18n import LIST_SEPARATOR, number, suit_label, t, word
from .web_html import card_chip, card_face, direction, document, esc
from .web_links import seat_links
from .web_parts import header, seat_names, teams_list

PLACES: Final[dict[int, tuple[str, ...]]] = {
    2: ("b", "t"),
    3: ("b", "tr", "tl"),
    4: ("b", "r", "t", "l"),
    5: ("b", "r", "tr", "tl", "l"),
    6: ("b", "r", "tr", "t", "tl", "l"),
}
"""Where each seat sits round the table, seat 0 at the bottom and play going round counter-
clockwise (to the right first), as the stylesheet's ``.n2``…``.n6`` areas place the seats:
its card in the middle is put on its side (``.p-b`` bottom, ``.p-tl`` top left, …)."""


def replay_page(lang: str, guild: str | None, replay: MatchReplay, hand: int, trick: int) -> str:
    """Hand index ``hand`` after its trick ``trick`` (0: the deal): the final score, where
    the frame is, the hand's contract, ⏮ ◀ ▶ ⏭, the table, the counts, the hand's tricks."""
    story, entry = replay.story, replay.entry
    fmt = story.fmt
    names = seat_names(entry.players, fmt.seats)
    marks = seat_links(entry.players, fmt.seats, "../", lang, entry.game_format)
    here = {"h": hand, "t": trick}
    title = t(
        lang, "replay.title", scores=LIST_SEPARATOR.join(team_items(lang, fmt, names, entry.scores))
    )
    if not fmt.is_default:
        title += LIST_SEPARATOR + short_format(lang, fmt.name)
    back = f"../?{urlencode({'lang': lang})}"
    body = [
        header(lang, guild, "", lambda other: "?" + urlencode({"lang": other, **here})),
        "<main>",
        f'<p><a class="back" href="{esc(back)}">{esc(t(lang, "web.back"))}</a></p>',
        '<section class="final" aria-labelledby="final-h">',
        f'<h2 id="final-h">{esc(t(lang, "web.final_score"))}</h2>',
        teams_list(lang, fmt, marks, entry.scores, entry.winner_team),
        "</section>",
        *_position(lang, replay, names, hand, trick),
        _steps(lang, replay, hand, trick),
        *_table(lang, replay, marks, names, hand, trick),
        *[
            f'<p class="said">{esc(line)}</p>'
            for line in [
                *replay_marks(lang, replay, names, hand, trick),
                *replay_counts(lang, replay, names, hand, trick),
            ]
        ],
        *_tricks(lang, replay, names, hand, trick),
        "</main>",
    ]
    return document(lang, title, body, script=True)


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
    about = [f'<p class="said">{esc(line)}</p>' for line in replay_about(lang, replay, names, hand)]
    return [f'<h2 class="position">{esc(position + LIST_SEPARATOR + where)}</h2>', *about]


def _steps(lang: str, replay: MatchReplay, hand: int, trick: int) -> str:
    """⏮ ◀ ▶ ⏭ as links (``replay_steps``); one with nowhere to go is greyed text."""
    links = []
    keys = {"back": "ArrowLeft", "forward": "ArrowRight"}
    for step, symbol, to in replay_steps(replay, hand, trick):
        name = esc(t(lang, f"web.step_{step}"))
        if to is None:
            links.append(f'<span class="off" title="{name}" aria-disabled="true">{symbol}</span>')
            continue
        href = "?" + urlencode({"lang": lang, "h": to[0], "t": to[1]})
        key = f' aria-keyshortcuts="{keys[step]}"' if step in keys else ""
        links.append(
            f'<a class="step" data-step="{step}" href="{esc(href)}" title="{name}" '
            f'aria-label="{name}"{key}>{symbol}</a>'
        )
    label = esc(word(lang, "web.steps"))
    # left to right in both languages, as media controls are: ⏮ ◀ back, ▶ ⏭ on
    return f'<nav class="steps" dir="ltr" aria-label="{label}">{"".join(links)}</nav>'


def _table(
    lang: str,
    replay: MatchReplay,
    marks: Sequence[str],
    names: Sequence[str],
    hand: int,
    trick: int,
) -> list[str]:
    """The felt: every seat in its place with its cards left (by suit), its team's colour and
    the hakem's mark, and the trick in the middle. The seats keep their places in both
    languages (a table is not turned round by the reader's script); what is in a seat reads
    in the page's direction."""
    story, entry = replay.story, replay.entry
    fmt, told = story.fmt, story.hands[hand]
    places = PLACES[fmt.seats]
    hakem = esc(word(lang, "web.hakem_mark"))
    out = [
        f'<div class="felt n{fmt.seats}" dir="ltr" role="group" '
        f'aria-label="{esc(word(lang, "web.table"))}">'
    ]
    for seat, held in enumerate(told.held(trick)):
        mark = f' <span class="hakem">{CROWN} {hakem}</span>' if seat == told.hakem else ""
        computer = any(p.seat == seat and p.is_computer for p in entry.players)
        cls = f"seat s{seat} t{fmt.team_of[seat] % 6}" + (" computer" if computer else "")
        cards = "".join(card_face(c, lang) for c in in_suit_order(held))
        out += [
            f'<div class="{cls}" data-seat="{seat}" data-place="{places[seat]}" '
            f'dir="{direction(lang)}">',
            f'<h3><span class="swatch" aria-hidden="true"></span>{marks[seat]}{mark}</h3>',
            f'<div class="hand" dir="ltr">{cards}</div>',
            "</div>",
        ]
    out.append(_middle(lang, fmt, told.trump, names, told.tricks, trick))
    out.append("</div>")
    if trick:
        said = t(lang, "web.took", name=names[told.tricks[trick - 1].winner])
    else:
        said = t(lang, "replay.leads", name=names[told.tricks[0].leader])
    out.append(f'<p class="said took">{esc(said)}</p>')
    return out


def _middle(
    lang: str,
    fmt: GameFormat,
    trump: Suit | None,
    names: Sequence[str],
    tricks: Sequence[Trick],
    trick: int,
) -> str:
    """The middle of the table: the trump's suit, and the trick just played, each card in
    front of its player with its place in the order, the winner's ringed."""
    places = PLACES[fmt.seats]
    inside = []
    if trump is not None:
        label = esc(t(lang, "table.trump", suit=suit_label(lang, trump)))
        inside.append(f'<span class="trump" role="img" aria-label="{label}">{trump.symbol}</span>')
    if trick:
        played = tricks[trick - 1]
        for order, (seat, card) in enumerate(played.plays(fmt.seats), 1):
            cls = "play took" if seat == played.winner else "play"
            inside.append(
                f'<div class="{cls} p-{places[seat]}" data-seat="{seat}">'
                f'<span class="order" aria-hidden="true">{order}</span>'
                f'<span class="sr">{esc(names[seat])}</span>{card_face(card, lang)}</div>'
            )
    return f'<div class="mid trick">{"".join(inside)}</div>'


def _tricks(
    lang: str, replay: MatchReplay, names: Sequence[str], hand: int, trick: int
) -> list[str]:
    """The hand's tricks as a list under the table, the deal first: each a link to its frame
    with its cards in the order played and who took it; the frame shown is marked."""
    told = replay.story.hands[hand]
    seats = replay.story.fmt.seats
    items = []
    for k in range(len(told.tricks) + 1):
        href = "?" + urlencode({"lang": lang, "h": hand, "t": k})
        current = ' aria-current="step"' if k == trick else ""
        if k == 0:
            text = f'<span class="n">{esc(word(lang, "replay.deal"))}</span>'
        else:
            played = told.tricks[k - 1]
            cards = " ".join(card_chip(c, lang) for _, c in played.plays(seats))
            taken = esc(t(lang, "web.trick_taken", name=names[played.winner]))
            n = esc(t(lang, "web.trick_item", n=number(lang, k)))
            text = f'<span class="n">{n}</span> <span class="cards">{cards}</span> {taken}'
        items.append(f'<li><a href="{esc(href)}"{current}>{text}</a></li>')
    heading = esc(t(lang, "web.tricks_heading", hand=number(lang, told.number)))
    return [
        '<section aria-labelledby="tricks-h">',
        f'<h3 id="tricks-h">{heading}</h3>',
        f'<ol class="tricks">{"".join(items)}</ol>',
        "</section>",
    ]
