"""The store's double-dummy puzzles: written only for a finished match of the same
server, once per decision; offered to a member never from their own matches and never twice;
the first answer counts; the server's puzzle of the day in turn."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.store import Store
from bot.store.puzzle_ops import NewPuzzle, PuzzleCounts

from .conftest import MatchMaker

AT = datetime(2026, 12, 6, 8, 0, tzinfo=UTC)


def found(*moves: int) -> list[NewPuzzle]:
    return [NewPuzzle(1, move, {"v": 1, "move": move}) for move in moves]


async def test_puzzles_only_for_a_finished_match_under_its_server(
    store: Store, make_match: MatchMaker
) -> None:
    m = make_match(guild_id=1)
    assert await store.finish_match(m)
    assert await store.add_puzzles("no-such-match", found(3)) == 0  # not finished
    assert await store.add_puzzles(m.match_id, found(3, 7)) == 2
    assert await store.add_puzzles(m.match_id, found(3, 7, 9)) == 1  # again
    p = await store.next_puzzle(1, 99)
    assert p is not None and p.match_id == m.match_id and p.data == {"v": 1, "move": 9}
    assert await store.puzzle(2, p.puzzle_id) is None  # another server's id finds nothing
    assert await store.next_puzzle(2, 99) is None


async def test_a_member_is_never_offered_a_puzzle_of_their_own_match(
    store: Store, make_match: MatchMaker
) -> None:
    mine = make_match(guild_id=1, team0=(10, 11), team1=(12, None))
    other = make_match(guild_id=1, team0=(20, 21), team1=(22, 23))
    for m in (mine, other):
        assert await store.finish_match(m)
    await store.add_puzzles(other.match_id, found(1))
    await store.add_puzzles(mine.match_id, found(1, 2))  # newer ids
    offered = await store.next_puzzle(1, 10)
    assert offered is not None and offered.match_id == other.match_id
    assert await store.played_in(10, mine.match_id)
    assert not await store.played_in(10, other.match_id)
    for uid in (11, 12):
        seen = await store.next_puzzle(1, uid)
        assert seen is not None and seen.match_id == other.match_id


async def test_the_first_answer_counts_and_answered_puzzles_are_not_offered(
    store: Store, make_match: MatchMaker
) -> None:
    m = make_match(guild_id=1)
    assert await store.finish_match(m)
    await store.add_puzzles(m.match_id, found(1, 2))
    first = await store.next_puzzle(1, 50)
    assert first is not None
    assert await store.record_attempt(1, 50, first.puzzle_id, 12, True, AT)
    assert not await store.record_attempt(1, 50, first.puzzle_id, 3, False, AT)  # counted once
    second = await store.next_puzzle(1, 50)
    assert second is not None and second.puzzle_id != first.puzzle_id
    assert await store.record_attempt(1, 50, second.puzzle_id, 4, False, AT)
    assert await store.next_puzzle(1, 50) is None
    assert await store.puzzle_counts(1, 50) == PuzzleCounts(solved=1, tried=2)
    assert await store.puzzle_counts(2, 50) == PuzzleCounts(solved=0, tried=0)
    assert await store.discard_puzzle(first.puzzle_id)
    assert await store.puzzle(1, first.puzzle_id) is None
    assert await store.puzzle_counts(1, 50) == PuzzleCounts(solved=0, tried=1)


async def test_the_puzzle_of_the_day_takes_the_servers_puzzles_in_turn(
    store: Store, make_match: MatchMaker
) -> None:
    assert await store.puzzle_of_the_day(1, 20000) is None
    m = make_match(guild_id=1)
    assert await store.finish_match(m)
    await store.add_puzzles(m.match_id, found(1, 2, 3))
    days = [await store.puzzle_of_the_day(1, day) for day in range(20000, 20004)]
    ids = [p.puzzle_id for p in days if p is not None]
    assert len(ids) == 4 and len(set(ids[:3])) == 3 and ids[3] == ids[0]
    assert await store.puzzle_of_the_day(2, 20000) is None
