"""Ratings are updated in the transaction that records a finished match, kept per
server and format, and rebuilt exactly from the stored matches (on every backend)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from bot.ratings import INITIAL, Rating, match_ranks, rate_match
from bot.store import StaleWrite, Store, TableRecord
from bot.store.ops import Ops
from bot.store.records import FinishedMatch

from .conftest import MatchMaker, RawSQL
from .test_store_formats import solo_match

SNAPSHOT = (
    "SELECT guild_id, game_format, user_id, mu, sigma, ordinal, matches_rated FROM ratings "
    "ORDER BY guild_id, game_format, user_id"
)
CHANGES = (
    "SELECT match_id, user_id, guild_id, game_format, mu_before, sigma_before, mu_after, "
    "sigma_after FROM rating_changes ORDER BY match_id, user_id"
)


async def test_a_finished_match_rates_its_members_in_the_same_write(
    store: Store, make_match: MatchMaker
) -> None:
    await store.finish_match(make_match(team0=(1, 2), team1=(3, 4), winner=0))
    got = await store.ratings_of(1, [1, 2, 3, 4, 99])
    expected = rate_match([[1, 2], [3, 4]], [0, 1], {})
    assert set(got) == {1, 2, 3, 4}
    for user, rating in got.items():
        assert (rating.mu, rating.sigma) == (expected[user].mu, expected[user].sigma)
        assert rating.ordinal == expected[user].ordinal and rating.matches_rated == 1
    assert got[1].ordinal > 0 > got[3].ordinal
    changes = await store.match_rating_changes("m1")
    assert changes[1] == pytest.approx(expected[1].ordinal - INITIAL.ordinal)
    assert changes[3] < 0
    # the next match starts from the stored ratings
    await store.finish_match(make_match(team0=(1, 3), team1=(2, 4), winner=1))
    current = {u: Rating(r.mu, r.sigma) for u, r in got.items()}
    second = rate_match([[1, 3], [2, 4]], [1, 0], current)
    after = await store.ratings_of(1, [1, 2, 3, 4])
    assert {u: (r.mu, r.sigma, r.matches_rated) for u, r in after.items()} == {
        u: (second[u].mu, second[u].sigma, 2) for u in second
    }


async def test_a_match_recorded_twice_is_rated_once(store: Store, make_match: MatchMaker) -> None:
    match = make_match()
    assert await store.finish_match(match) is True
    assert await store.finish_match(match) is False
    assert {r.matches_rated for r in (await store.ratings_of(1, [1, 2, 3, 4])).values()} == {1}


async def test_hints_and_computers_are_not_rated_unless_allowed(
    store: Store, make_match: MatchMaker, raw_sql: RawSQL
) -> None:
    await store.finish_match(replace(make_match(), hints=True))
    await store.finish_match(make_match(team0=(1, None), team1=(3, 4)))
    assert await store.ratings_of(1, [1, 2, 3, 4]) == {}
    assert await raw_sql.counts("rating_changes") == {"rating_changes": 0}
    allowed = replace(make_match(team0=(1, None), team1=(3, 4)), rate_computers=True)
    await store.finish_match(allowed)
    assert set(await store.ratings_of(1, [1, 2, 3, 4])) == {1, 3, 4}
    assert await raw_sql.execute("SELECT rate_computers FROM matches WHERE match_id = 'm3'") == [
        (True,)
    ]


async def test_ratings_are_kept_per_server_and_format(store: Store, make_match: MatchMaker) -> None:
    await store.finish_match(make_match(guild_id=1))
    await store.finish_match(make_match(guild_id=2, winner=1))
    await store.finish_match(solo_match("s1", (1, 3, 5), winner=2))
    assert (await store.ratings_of(1, [1]))[1].ordinal > 0
    assert (await store.ratings_of(2, [1]))[1].ordinal < 0
    solo = await store.ratings_of(1, [1, 3, 5], "test-solo")
    assert solo[5].mu > solo[3].mu > solo[1].mu  # scores 0, 1, 3: ranked by score
    assert match_ranks((0, 1, 3), 2) == [2, 1, 0]


async def _unrated_matches_keep_the_rating(store: Store, make_match: MatchMaker) -> None:
    await store.finish_match(make_match(team0=(1, 2), team1=(3, 4), winner=0))
    rated = await store.ratings_of(1, [1, 2, 3, 4])
    await store.finish_match(replace(make_match(winner=1), hints=True))
    await store.finish_match(make_match(team0=(1, None), team1=(3, 5), winner=1))
    # a batch: 2 and 4 rated by its first match, then in an unrated one
    await store.finish_matches(
        [
            make_match(team0=(2, 6), team1=(4, 7), winner=0),
            replace(make_match(team0=(2, 6), team1=(4, 7), winner=1), hints=True),
        ]
    )
    after = await store.ratings_of(1, [1, 2, 3, 4, 5, 6, 7])
    assert set(after) == {1, 2, 3, 4, 6, 7}
    assert (after[1], after[3]) == (rated[1], rated[3])
    assert after[2] != rated[2] and after[2].matches_rated == 2
    expected_played = {1: 3, 2: 4, 3: 3, 4: 4, 5: 1, 6: 2, 7: 2}
    for user, played in expected_played.items():
        row = await store.member_record(1, user)
        assert row is not None and row.matches_played == played
        assert row.rating == (after[user].ordinal if user in after else 0.0)
    assert (await store.member_record(1, 1)).rating > 0  # type: ignore[union-attr]


async def test_an_unrated_match_leaves_the_standings_rating(
    store: Store, make_match: MatchMaker
) -> None:
    """A member's standings gains and new rating are one upsert: a match that rates nobody
    (hints, or a computer seat the server does not rate) adds to the row and keeps its
    rating, a newcomer's row starts at 0, and in a batch the member's last rating counts."""
    await _unrated_matches_keep_the_rating(store, make_match)


async def test_an_unrated_match_leaves_the_standings_rating_portably(
    db_path: Path, make_match: MatchMaker
) -> None:
    """The same on the update-then-insert path (no ON CONFLICT)."""
    async with await Store.open(f"sqlite:///{db_path}") as plain:
        plain._ops = Ops("sqlite", native_upsert=False)
        await _unrated_matches_keep_the_rating(plain, make_match)


async def test_a_failed_write_keeps_no_rating(store: Store, make_match: MatchMaker) -> None:
    """The rating goes with the match's transaction: when the table's final save fails after
    the match was rated (a stale version), no rating is left behind, and a retry rates it."""
    match = make_match()
    with pytest.raises(StaleWrite):
        await store.finish_match(match, TableRecord("t1", 1, 500, "playing", 5, {}))
    assert await store.ratings_of(1, [1, 2, 3, 4]) == {}
    assert await store.match_rating_changes(match.match_id) == {}
    assert await store.finish_match(match) is True
    assert len(await store.ratings_of(1, [1, 2, 3, 4])) == 4


async def test_trend_and_best_partner(store: Store, make_match: MatchMaker) -> None:
    assert await store.rating_trend(1, 1) is None
    assert await store.best_partner(1, 1) is None
    # 1 wins twice with 2, loses once with 3; 1 and 4 play once together and win
    await store.finish_match(make_match(team0=(1, 2), team1=(3, 4), winner=0))
    await store.finish_match(make_match(team0=(1, 2), team1=(3, 4), winner=0))
    await store.finish_match(make_match(team0=(1, 3), team1=(2, 4), winner=1))
    await store.finish_match(make_match(team0=(1, 4), team1=(2, 3), winner=0))
    await store.finish_match(make_match(team0=(1, None), team1=(2, 3), winner=0))
    assert await store.best_partner(1, 1) == (2, 2, 2)
    # 3 never won: with 2 and with 4 twice each, with 1 once; more matches first, then the id
    assert await store.best_partner(1, 3) == (2, 0, 2)
    assert await store.best_partner(1, 1, "test-solo") is None
    trend = await store.rating_trend(1, 1)
    mine = (await store.ratings_of(1, [1]))[1]
    assert trend == pytest.approx(mine.ordinal - INITIAL.ordinal)  # fewer than 10 matches: all
    for _ in range(11):
        await store.finish_match(make_match(team0=(1, 2), team1=(3, 4), winner=1))
    last_ten = await store.rating_trend(1, 1)
    assert last_ten is not None and last_ten < 0
    assert last_ten != pytest.approx((await store.ratings_of(1, [1]))[1].ordinal)


async def test_recompute_reproduces_the_live_ratings_exactly(
    store: Store, make_match: MatchMaker, raw_sql: RawSQL
) -> None:
    batch: list[FinishedMatch] = []
    for i in range(12):
        team0, team1 = ((1, 2), (3, 4)) if i % 3 else ((1, 3), (2, 5))
        batch.append(make_match(team0=team0, team1=team1, winner=i % 2))
    batch.append(replace(make_match(), hints=True))
    batch.append(replace(make_match(team0=(1, None), team1=(5, 4)), rate_computers=True))
    batch.append(make_match(team0=(1, None), team1=(5, 4)))
    for match in batch[:8]:  # one at a time, as the bot records them
        await store.finish_match(match)
    await store.finish_matches(list(reversed(batch[8:])))  # a batch, in any order
    await store.finish_match(make_match(guild_id=7))
    await store.finish_match(solo_match("s1", (1, 3, 5, None), winner=1))
    live = await raw_sql.execute(SNAPSHOT)
    live_changes = await raw_sql.execute(CHANGES)
    assert len(live) == 5 + 4 and len(live_changes) > 40
    await raw_sql.execute("DELETE FROM rating_changes")
    await raw_sql.execute("UPDATE ratings SET mu = 1.0, ordinal = 0.0")
    assert await raw_sql.execute(SNAPSHOT) != live
    rated = await store.recompute_ratings()
    assert rated == 12 + 1 + 1  # hints and the computer match without the setting are not
    assert await raw_sql.execute(SNAPSHOT) == live
    assert await raw_sql.execute(CHANGES) == live_changes
    assert await store.recompute_ratings() == rated  # and again: nothing moves
    assert await raw_sql.execute(SNAPSHOT) == live
