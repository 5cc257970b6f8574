"""The server's puzzle of the day on its web page: a position of a finished match with every
seat's cards drawn, what the seat to play can keep at best, and the answer with the line that
follows behind a ``<details>`` (no script: the page's policy allows none for it).

The same sentences as ``/hokm puzzle`` (``puzzles``); every piece escaped as it enters the HTML,
each one that reads in its own direction in a ``<bdi>``, and no Unicode isolate in the page
(the markup isolates, as ``web_html.sentence`` does).
"""

from __future__ import annotations

import re
from typing import Final

from engine import ANY_CARDS

from ..service.puzzles import PuzzleOffer
from .i18n import number, suit_label, t
from .puzzles import line_tricks, outcome_text, seat_name
from .web_html import card_chip, cards_row, esc, sentence

_BIDI: Final = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _bdi(text: str) -> str:
    """A piece of a sentence as HTML: escaped, in its own ``<bdi>``, the isolates ``t`` put
    in it dropped (the markup isolates it)."""
    return f"<bdi>{esc(_BIDI.sub('', text))}</bdi>"


def _plays(lang: str, plays: list[tuple[int, int]]) -> str:
    return " · ".join(
        f"{_bdi(seat_name(lang, seat))} {card_chip(ANY_CARDS[card], lang)}" for seat, card in plays
    )


def puzzle_section(lang: str, offer: PuzzleOffer) -> list[str]:
    """The puzzle of the day: its position, every seat's cards, the answer folded away."""
    puzzle = offer.puzzle
    p = puzzle.position
    fmt = p.fmt
    tricks = " · ".join(
        _bdi(
            t(lang, "table.team_count", team=t(lang, "table.team", n=number(lang, i + 1)), count=n)
        )
        for i, n in enumerate(p.tricks)
    )
    lines = [
        sentence(lang, "puzzle.intro", seat=_bdi(seat_name(lang, p.to_play))),
        sentence(lang, "puzzle.goal", outcome=_bdi(outcome_text(lang, fmt, puzzle.best))),
        sentence(
            lang,
            "puzzle.state",
            suit=_bdi(suit_label(lang, p.trump)),
            hakem=_bdi(seat_name(lang, p.hakem)),
            tricks=tricks,
        ),
    ]
    if p.trick:
        plays = [((p.leader + k) % fmt.seats, c) for k, c in enumerate(p.trick)]
        lines.append(sentence(lang, "puzzle.on_table", plays=_plays(lang, plays)))
    else:
        lines.append(sentence(lang, "puzzle.leads", seat=_bdi(seat_name(lang, p.leader))))
    out = [
        '<section id="puzzle" aria-labelledby="puzzle-h">',
        f'<h2 id="puzzle-h">{esc(t(lang, "web.puzzle"))}</h2>',
        '<div class="match">',
        *(f"<p>{line}</p>" for line in lines),
        '<ul class="teams">',
    ]
    for seat, hand in enumerate(p.hands):
        team = t(lang, "table.team", n=number(lang, fmt.team_of[seat] + 1))
        label = f"{seat_name(lang, seat)} ({team})"
        if seat == p.to_play:
            label = t(lang, "puzzle.to_play", seat=label)
        cards = [ANY_CARDS[c] for c in range(len(ANY_CARDS)) if hand >> c & 1]
        row = cards_row(cards, lang=lang).replace(
            '<div class="hand">', '<div class="hand" dir="ltr">'
        )
        out.append(f'<li class="seat">{_bdi(label)}{row}</li>')
    out.append("</ul>")
    answer = card_chip(ANY_CARDS[puzzle.answer], lang)
    out += [
        "<details>",
        f"<summary>{esc(t(lang, 'web.puzzle_answer'))}</summary>",
        f"<p>{sentence(lang, 'web.puzzle_solution', card=answer)}</p>",
        f"<p>{esc(t(lang, 'puzzle.line'))}</p>",
        "<ol>",
    ]
    for n, plays in line_tricks(puzzle):
        text = sentence(
            lang, "puzzle.line_trick", n=esc(number(lang, n)), plays=_plays(lang, plays)
        )
        out.append(f"<li>{text}</li>")
    out += ["</ol>", "</details>", "</div>", "</section>"]
    return out
