"""The store's reads for the web page's member and match pages: a member's rating
over their last rated matches (oldest first, this server's and this format's only, at most the
limit asked) and when a finished match of this server began."""

from __future__ import annotations

import itertools

import pytest

from bot.ratings import INITIAL
from bot.store import Store

from .conftest import MatchMaker


async def test_a_members_rating_history_oldest_first_this_server_and_format_only(
    store: Store, make_match: MatchMaker
) -> None:
    assert await store.rating_history(1, 1) == []
    played = [make_match(team0=(1, 2), team1=(3, 4), winner=n % 2) for n in range(5)]
    for match in played:
        await store.finish_match(match)
    await store.finish_match(make_match(guild_id=2, team0=(1, 2), team1=(3, 4)))
    await store.finish_match(make_match(team0=(1, None), team1=(3, 4)))  # not rated
    points = await store.rating_history(1, 1)
    assert [p.match_id for p in points] == [m.match_id for m in played]
    assert [p.finished_at for p in points] == [m.finished_at for m in played]
    assert points[0].before == pytest.approx(INITIAL.ordinal)
    for a, b in itertools.pairwise(points):
        assert b.before == pytest.approx(a.after)  # each match starts where the last ended
    now = (await store.ratings_of(1, [1]))[1]
    assert points[-1].after == pytest.approx(now.ordinal)
    last_two = await store.rating_history(1, 1, limit=2)
    assert last_two == points[-2:]
    assert await store.rating_history(1, 1, "six_pairs") == []
    assert await store.rating_history(3, 1) == []  # a server where they never played


async def test_when_a_match_began_is_read_for_its_own_server_only(
    store: Store, make_match: MatchMaker
) -> None:
    match = make_match()
    await store.finish_match(match)
    assert await store.match_started_at(1, match.match_id) == match.started_at
    assert await store.match_started_at(2, match.match_id) is None
    assert await store.match_started_at(1, "nosuchmatch0") is None
