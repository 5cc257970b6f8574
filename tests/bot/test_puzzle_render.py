"""A double-dummy puzzle as Discord shows it, in every format the solver covers, en and fa:
within Discord's limits, every seat's cards in a field of its own (seats by number, no names),
the seat to play's legal cards and nothing else on buttons whose ids parse back, and the answer
(right or wrong) with the line that follows, the played card and the member's count."""

from __future__ import annotations

import random

import pytest

from bot.present import budget, custom_ids
from bot.present.puzzles import answer_message, line_tricks, puzzle_message
from bot.present.specs import EmbedSpec
from bot.service.puzzles import PuzzleAnswer, PuzzleOffer
from bot.store.puzzle_ops import PuzzleCounts
from engine import ANY_CARDS
from engine.dd_analysis import analyse_hand
from engine.dd_position import COVERED
from engine.dd_puzzles import MAX_CARDS, Puzzle, candidates
from engine.rules import FORMATS
from tests.bot.persian_order import reading_faults
from tests.engine.dd_helpers import late_deal
from tests.engine.test_dd_analysis import random_play


def a_puzzle(name: str) -> Puzzle:
    """A puzzle of ``name`` with the most cards a puzzle may have, some of a trick played."""
    fmt = FORMATS[name]
    rng = random.Random(f"puzzle-render-{name}")
    for _ in range(100):
        start = late_deal(rng, fmt, min(MAX_CARDS, fmt.hand_size))
        found = candidates(analyse_hand(start, random_play(rng, start)))
        if found:
            return max(found, key=lambda p: p.position.hands[p.position.to_play].bit_count())
    raise AssertionError(f"no {name} puzzle in 100 random hands")


def within_limits(embed: EmbedSpec | None) -> None:
    assert embed is not None
    assert len(embed.title) <= budget.TITLE
    assert len(embed.description) <= budget.DESCRIPTION
    assert len(embed.fields) <= budget.FIELDS
    total = len(embed.title) + len(embed.description) + len(embed.footer)
    for name, value, _ in embed.fields:
        assert len(name) <= budget.FIELD_NAME and len(value) <= budget.FIELD_VALUE
        total += len(name) + len(value)
    assert total <= budget.EMBED_TOTAL


@pytest.mark.parametrize("lang", ["en", "fa"])
@pytest.mark.parametrize("name", COVERED)
def test_a_puzzle_and_its_answers_fit_discord_in_every_covered_format(name: str, lang: str) -> None:
    puzzle = a_puzzle(name)
    offer = PuzzleOffer(2**31 - 1, name, puzzle)  # the longest id a button carries
    shown = puzzle_message(lang, offer)
    within_limits(shown.embed)
    assert shown.embed is not None
    p = puzzle.position
    assert len(shown.embed.fields) == p.fmt.seats
    assert len(shown.rows) <= 5 and all(len(row) <= 5 for row in shown.rows)
    clicks = [custom_ids.parse(b.custom_id) for row in shown.rows for b in row]
    assert sorted(int(c.card) for c in clicks if c.card is not None) == sorted(puzzle.values)
    assert {c.puzzle for c in clicks} == {offer.puzzle_id}
    for row in shown.rows:
        for button in row:
            assert len(button.custom_id) <= custom_ids.MAX_LENGTH
            assert len(button.label) <= budget.LABEL
    assert "<@" not in shown.embed.description
    wrong = next(c for c in puzzle.values if c != puzzle.answer)
    for card, solved in ((puzzle.answer, True), (wrong, False)):
        answer = PuzzleAnswer(offer, card, solved, solved, PuzzleCounts(9999, 99999))
        told = answer_message(lang, answer)
        within_limits(told.embed)
        assert told.embed is not None and not told.rows  # answered: no buttons left
        text = told.embed.description
        assert ("✅" in text) == solved and ("❌" in text) == (not solved)
        assert ANY_CARDS[puzzle.answer].label in text and ANY_CARDS[puzzle.played].label in text
        for _, plays in line_tricks(puzzle):
            for _, c in plays:
                assert ANY_CARDS[c].label in text


def test_the_line_is_the_rest_of_the_hand_trick_by_trick() -> None:
    puzzle = a_puzzle("standard")
    tricks = line_tricks(puzzle)
    p = puzzle.position
    assert tricks[0][0] == sum(p.tricks) + 1
    assert [c for _, c in tricks[0][1][: len(p.trick)]] == list(p.trick)
    assert tricks[0][1][len(p.trick)] == (p.to_play, puzzle.answer)
    played = [c for _, plays in tricks for _, c in plays]
    assert played == [*p.trick, puzzle.answer, *puzzle.line]
    assert all(len(plays) == p.fmt.seats for _, plays in tricks)


@pytest.mark.parametrize("name", ["standard", "joker_six"])
def test_every_persian_line_of_a_puzzle_reads_in_the_order_it_is_written(name: str) -> None:
    """Each line of the puzzle and of both answers, laid out right to left by the bidi
    algorithm: scores «۷ بر ۳», a seat then its card, the cards of a hand left to right."""
    puzzle = a_puzzle(name)
    offer = PuzzleOffer(7, name, puzzle)
    wrong = next(c for c in puzzle.values if c != puzzle.answer)
    messages = [
        puzzle_message("fa", offer),
        answer_message("fa", PuzzleAnswer(offer, puzzle.answer, True, True, PuzzleCounts(3, 12))),
        answer_message("fa", PuzzleAnswer(offer, wrong, False, False, PuzzleCounts(3, 12))),
    ]
    faults = []
    for spec in messages:
        assert spec.embed is not None
        lines = spec.embed.description.splitlines()
        lines += [f"{n}: {v}" for n, v, _ in spec.embed.fields]
        for line in lines:
            found = reading_faults(line)
            if found:
                faults.append(f"{line!r}: {found}")
    assert not faults, "\n".join(faults)
