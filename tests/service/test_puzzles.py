"""Double-dummy puzzles in the service: harvested from a finished match's analysis only, never
offered to a player of that match, re-checked by the solver before they are shown (a stored
puzzle the solver does not confirm is dropped), answered right and wrong, the first answer
counted; forged answers refused."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import sqlalchemy as sa

from bot.service.errors import ActionError
from bot.service.puzzles import TRIES, PuzzleBook, find_puzzles
from bot.store import FinishedMatch, Store
from bot.store.puzzle_ops import PuzzleCounts
from bot.store.schema_puzzles import puzzles
from engine.dd_puzzles import Puzzle, best_line, check, from_dict
from tests.matches import played
from tests.puzzle_matches import analysed

NOW = datetime(2026, 12, 6, 9, 0, tzinfo=UTC)
GUILD = 9
PLAYERS = (101, 102, 103, None)
SEED = 101
"""A match whose late tricks hold puzzles (10 of them)."""


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(f"sqlite:///{tmp_path / 'hokm.sqlite3'}")
    yield s
    await s.close()


async def finished(store: Store) -> FinishedMatch:
    match = played(SEED, PLAYERS, GUILD, 1)
    assert await store.finish_match(match)
    book = PuzzleBook(store)
    assert await book.harvest(match.match_id, analysed(match.replay)) > 0
    return match


async def test_harvest_keeps_puzzles_of_finished_matches_only(store: Store) -> None:
    match = played(SEED, PLAYERS, GUILD, 1)
    book = PuzzleBook(store)
    # not in ``matches``: a live table's id, or a match not yet recorded: nothing is kept
    assert await book.harvest(match.match_id, analysed(match.replay)) == 0
    assert await store.next_puzzle(GUILD, 555) is None
    assert await store.finish_match(match)
    found = find_puzzles(analysed(match.replay))
    assert await book.harvest(match.match_id, analysed(match.replay)) == len(found) > 0
    assert await book.harvest(match.match_id, analysed(match.replay)) == 0  # once each


@pytest.mark.parametrize("member", [101, 102, 103])
async def test_a_player_of_the_match_is_never_offered_its_positions(
    store: Store, member: int
) -> None:
    await finished(store)
    with pytest.raises(ActionError) as refused:
        await PuzzleBook(store).offer(GUILD, member)
    assert refused.value.code == "error.puzzle_none"


async def test_an_offer_is_checked_then_answered_right(store: Store) -> None:
    await finished(store)
    book = PuzzleBook(store)
    offer = await book.offer(GUILD, 555)
    assert check(offer.puzzle)
    answer = await book.answer(GUILD, 555, offer.puzzle_id, offer.puzzle.answer, NOW)
    assert answer.solved and answer.first
    assert answer.counts == PuzzleCounts(solved=1, tried=1)
    wrong = next(c for c in offer.puzzle.values if c != offer.puzzle.answer)
    again = await book.answer(GUILD, 555, offer.puzzle_id, wrong, NOW)
    assert not again.solved and not again.first  # the first answer is the one counted
    assert again.counts == PuzzleCounts(solved=1, tried=1)
    nxt = await book.offer(GUILD, 555)
    assert nxt.puzzle_id != offer.puzzle_id  # an answered puzzle is not offered again


async def test_a_wrong_card_is_told_with_the_one_card_and_its_line(store: Store) -> None:
    await finished(store)
    book = PuzzleBook(store)
    offer = await book.offer(GUILD, 556)
    wrong = next(c for c in offer.puzzle.values if c != offer.puzzle.answer)
    answer = await book.answer(GUILD, 556, offer.puzzle_id, wrong, NOW)
    assert not answer.solved and answer.first
    assert answer.counts == PuzzleCounts(solved=0, tried=1)
    assert answer.offer.puzzle.line  # the line after the one card, to the hand's end
    assert await book.counts(GUILD, 556) == PuzzleCounts(solved=0, tried=1)


async def test_forged_answers_are_refused_and_change_nothing(store: Store) -> None:
    await finished(store)
    book = PuzzleBook(store)
    offer = await book.offer(GUILD, 555)
    p = offer.puzzle.position
    not_legal = next(c for c in range(52) if c not in offer.puzzle.values)
    cases = [
        (GUILD, 555, offer.puzzle_id, not_legal, "error.bad_button"),
        (GUILD, 101, offer.puzzle_id, offer.puzzle.answer, "error.bad_button"),  # own match
        (GUILD + 1, 555, offer.puzzle_id, offer.puzzle.answer, "error.puzzle_gone"),
        (GUILD, 555, 10**9, offer.puzzle.answer, "error.puzzle_gone"),
    ]
    for guild, user, pid, card, code in cases:
        with pytest.raises(ActionError) as refused:
            await book.answer(guild, user, pid, card, NOW)
        assert refused.value.code == code
    assert await book.counts(GUILD, 555) == PuzzleCounts(0, 0)
    assert await book.counts(GUILD, 101) == PuzzleCounts(0, 0)
    assert p.hands[p.to_play] >> offer.puzzle.answer & 1


async def test_a_stored_puzzle_the_solver_does_not_confirm_is_dropped(
    store: Store, tmp_path: Path
) -> None:
    """Stored data that reads back but that the solver contradicts (an answer swapped with
    another card's outcome) is never shown: the offer solves it again and drops it."""
    await finished(store)
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'hokm.sqlite3'}")
    with engine.begin() as conn:
        rows = conn.execute(sa.select(puzzles.c.puzzle_id, puzzles.c.puzzle)).all()
        for pid, data in rows:
            puzzle = from_dict(data)
            other = next(c for c in puzzle.values if c != puzzle.answer)
            values = dict(puzzle.values)
            values[other], values[puzzle.answer] = values[puzzle.answer], values[other]
            forged = Puzzle(
                puzzle.position, other, puzzle.played, values, best_line(puzzle.position, other)
            )
            from_dict(forged.to_dict())  # it reads back: only the solver can tell
            stmt = sa.update(puzzles).where(puzzles.c.puzzle_id == pid)
            conn.execute(stmt, {"puzzle": forged.to_dict()})
    engine.dispose()
    book = PuzzleBook(store)
    for _ in range(len(rows) // TRIES + 1):
        with pytest.raises(ActionError) as refused:
            await book.offer(GUILD, 555)
        assert refused.value.code == "error.puzzle_none"
    assert await store.next_puzzle(GUILD, 555) is None  # every one was dropped
    assert await book.of_the_day(GUILD, 1) is None
