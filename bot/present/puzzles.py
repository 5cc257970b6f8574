"""A double-dummy puzzle as the member sees it: every seat's cards (it is a problem with every
hand known, from a finished match), the trick so far, trump, the tricks each side has, the best
result the seat to play can keep, and its legal cards as buttons; after a click, whether the
card was the only one, what it leads to, and the line of best play after the right card.

Seats are named by number, never by the players of the match the position came from. Always
said as "every player's cards known", never as what a player should have known.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import ANY_CARDS, Card, GameFormat
from engine.dd_position import Position
from engine.dd_puzzles import Puzzle
from engine.dd_rules import step
from engine.dd_value import Outcome

from ..service.puzzles import PuzzleAnswer, PuzzleOffer
from ..store.puzzle_ops import PuzzleCounts
from . import custom_ids
from .formats import format_label, pack_rows
from .hand_cards import by_suit
from .history_parts import cards_line
from .i18n import ltr, number, play, score_pair, suit_label, t
from .specs import COLOR_DONE, COLOR_LOBBY, ButtonSpec, EmbedSpec, MessageSpec

PLAY_SEPARATOR = " · "


def seat_name(lang: str, seat: int) -> str:
    return t(lang, "table.seat", n=number(lang, seat + 1))


def outcome_text(lang: str, fmt: GameFormat, out: Outcome) -> str:
    """``Team 1 takes the hand 7–4 (1 point)`` (the winner's tricks first), with a kot or a
    bid's fate named."""
    points = t(lang, "puzzle.point") if out.points == 1 else t(lang, "puzzle.points", n=out.points)
    tricks = score_pair(lang, (out.tricks[out.winner], out.tricks[1 - out.winner]))
    team = t(lang, "table.team", n=number(lang, out.winner + 1))
    text = t(lang, "puzzle.outcome", team=team, tricks=tricks, points=points)
    if out.kind in ("kot", "hakem_kot", "made", "set"):
        text = t(lang, f"puzzle.{out.kind}", outcome=text)
    return text


def _card(lang: str, card: int) -> str:
    return ltr(lang, ANY_CARDS[card].label)


def _plays(lang: str, plays: Sequence[tuple[int, int]]) -> str:
    return PLAY_SEPARATOR.join(play(lang, seat_name(lang, s), ANY_CARDS[c].label) for s, c in plays)


def _position_lines(lang: str, p: Position) -> list[str]:
    fmt = p.fmt
    tricks = PLAY_SEPARATOR.join(
        t(lang, "table.team_count", team=t(lang, "table.team", n=number(lang, i + 1)), count=n)
        for i, n in enumerate(p.tricks)
    )
    lines = [
        t(
            lang,
            "puzzle.state",
            suit=suit_label(lang, p.trump),
            hakem=seat_name(lang, p.hakem),
            tricks=tricks,
        )
    ]
    if p.trick:
        plays = [((p.leader + k) % fmt.seats, c) for k, c in enumerate(p.trick)]
        lines.append(t(lang, "puzzle.on_table", plays=_plays(lang, plays)))
    else:
        lines.append(t(lang, "puzzle.leads", seat=seat_name(lang, p.leader)))
    return lines


def _fields(lang: str, p: Position) -> tuple[tuple[str, str, bool], ...]:
    fields = []
    for seat, hand in enumerate(p.hands):
        name = seat_name(lang, seat)
        team = t(lang, "table.team", n=number(lang, p.fmt.team_of[seat] + 1))
        label = f"{name} ({team})"
        if seat == p.to_play:
            label = t(lang, "puzzle.to_play", seat=label)
        cards = [ANY_CARDS[c] for c in range(len(ANY_CARDS)) if hand >> c & 1]
        fields.append((label, cards_line(lang, cards), True))
    return tuple(fields)


def _buttons(puzzle_id: int, puzzle: Puzzle) -> tuple[tuple[ButtonSpec, ...], ...]:
    legal: tuple[Card, ...] = tuple(ANY_CARDS[c] for c in sorted(puzzle.values))
    return tuple(
        tuple(ButtonSpec(custom_ids.puzzle_card_id(puzzle_id, c), c.label) for c in row)
        for row in pack_rows(by_suit(legal))
    )


def _embed(lang: str, offer: PuzzleOffer, lines: list[str], color: int) -> EmbedSpec:
    p = offer.puzzle.position
    return EmbedSpec(
        title=t(lang, "puzzle.title", f=format_label(lang, offer.game_format)),
        description="\n".join(lines),
        color=color,
        fields=_fields(lang, p),
    )


def puzzle_message(lang: str, offer: PuzzleOffer) -> MessageSpec:
    """The puzzle, its seat to play's legal cards on buttons (the member's own view)."""
    puzzle = offer.puzzle
    p = puzzle.position
    lines = [
        t(lang, "puzzle.intro", seat=seat_name(lang, p.to_play)),
        t(lang, "puzzle.goal", outcome=outcome_text(lang, p.fmt, puzzle.best)),
        *_position_lines(lang, p),
    ]
    return MessageSpec(
        embed=_embed(lang, offer, lines, COLOR_LOBBY), rows=_buttons(offer.puzzle_id, puzzle)
    )


def line_tricks(puzzle: Puzzle) -> list[tuple[int, list[tuple[int, int]]]]:
    """The rest of the hand after the right card, trick by trick: (trick number, the trick's
    plays as (seat, card)), the trick in progress with its cards already on the table."""
    p = puzzle.position
    seats = p.fmt.seats
    at: Position | Outcome = p
    trick_no = sum(p.tricks) + 1
    current = [((p.leader + k) % seats, c) for k, c in enumerate(p.trick)]
    out: list[tuple[int, list[tuple[int, int]]]] = []
    for card in (puzzle.answer, *puzzle.line):
        assert isinstance(at, Position)
        current.append((at.to_play, card))
        at = step(at, card)
        if len(current) == seats:
            out.append((trick_no, current))
            trick_no, current = trick_no + 1, []
    return out


def answer_message(lang: str, answer: PuzzleAnswer) -> MessageSpec:
    """The answer in place of the puzzle: right or not, what the card leads to, the line after
    the one card, and the member's count; no buttons (answered)."""
    offer = answer.offer
    puzzle = offer.puzzle
    fmt = puzzle.position.fmt
    card = _card(lang, answer.card)
    if answer.solved:
        lines = [t(lang, "puzzle.right", card=card)]
    else:
        lines = [
            t(
                lang,
                "puzzle.wrong",
                card=card,
                outcome=outcome_text(lang, fmt, puzzle.values[answer.card]),
                answer=_card(lang, puzzle.answer),
            )
        ]
    lines.append(t(lang, "puzzle.goal", outcome=outcome_text(lang, fmt, puzzle.best)))
    lines += _position_lines(lang, puzzle.position)
    lines.append(t(lang, "puzzle.line"))
    for n, plays in line_tricks(puzzle):
        lines.append(t(lang, "puzzle.line_trick", n=number(lang, n), plays=_plays(lang, plays)))
    lines.append(t(lang, "puzzle.played", card=_card(lang, puzzle.played)))
    lines.append(counts_line(lang, answer.counts))
    if not answer.first:
        lines.append(t(lang, "puzzle.again"))
    return MessageSpec(embed=_embed(lang, offer, lines, COLOR_DONE))


def counts_line(lang: str, counts: PuzzleCounts) -> str:
    return t(
        lang, "puzzle.counts", solved=number(lang, counts.solved), tried=number(lang, counts.tried)
    )
