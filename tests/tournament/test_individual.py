"""Individual partners (docs/rules.md T6): each round forms sides, then tables, avoiding a
repeated partner, then a repeated opponent, where it can — checked by brute force."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament.history import History, history, pair
from bot.tournament.repair import repair, repeats

from .helpers import config, entered, rounds_of
from .test_swiss import matchings


def partner_repeats(sides: list[tuple[int, ...]], past: History) -> int:
    return sum(past.partnered[pair(a, b)] for a, b in sides)


def opponent_repeats(tables: list[tuple[tuple[int, ...], ...]], past: History) -> int:
    return sum(past.met(x, y) for x, y in tables)


@settings(max_examples=40, deadline=None)
@given(st.integers(4, 11), st.integers(1, 8), st.integers(0, 10**6))
def test_sides_and_tables_repeat_only_what_cannot_be_avoided(
    players: int, rounds: int, seed: int
) -> None:
    rng = random.Random(seed)
    t = entered(config(partners="individual", rounds=rounds), players)
    for state in rounds_of(t, rng):
        if state.status != "running":
            continue
        r = state.rounds[-1]
        past = history(state.rounds[:-1])
        sides = [side for table in r.tables for side in table.sides]
        assert all(len(side) == 2 for side in sides)
        playing = sorted(e for side in sides for e in side)
        assert len(playing) + len(r.byes) == players and len(playing) % 4 == 0
        best_sides = min(partner_repeats(m, past) for m in matchings(playing))
        made_sides = [(side[0], side[1]) for side in sides]
        assert partner_repeats(made_sides, past) == best_sides
        index = {side: i for i, side in enumerate(sides)}
        best_tables = min(
            opponent_repeats([(sides[a], sides[b]) for a, b in m], past)
            for m in matchings(list(index.values()))
        )
        made_tables = [(table.sides[0], table.sides[1]) for table in r.tables]
        assert opponent_repeats(made_tables, past) == best_tables


def test_sixty_four_players_six_rounds_never_repeat_a_partner_or_opponent() -> None:
    rng = random.Random(37)
    t = entered(config(partners="individual", rounds=6), 64)
    states = list(rounds_of(t, rng))
    final = states[-1]
    assert final.status == "finished" and len(final.rounds) == 6
    past = history(final.rounds)
    assert max(past.partnered.values()) == 1
    assert max(past.opposed.values()) == 1


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(["six_teams", "six_pairs", "five", "three", "two"]), st.integers(0, 10**6))
def test_every_format_seats_whole_tables(fmt: str, seed: int) -> None:
    """Sides of the format's size, tables of its number of sides, everyone placed once."""
    rng = random.Random(seed)
    cfg = config(fmt=fmt, partners="individual", rounds=3)
    players = rng.randrange(cfg.min_entries, 40)
    t = entered(cfg, players)
    shape = cfg.shape
    for state in rounds_of(t, rng):
        if state.status != "running":
            continue
        r = state.rounds[-1]
        seated = [e for table in r.tables for e in table.entrants]
        assert sorted(seated + list(r.byes)) == list(range(players))
        assert len(r.byes) == players % shape.seats
        for table in r.tables:
            assert len(table.sides) == shape.sides
            assert all(len(side) == shape.side_size for side in table.sides)


def test_t6_three_sides_a_table_repeat_no_opponent_a_search_could_avoid() -> None:
    """``six_pairs`` with individual partners: sides of two, three a table. The stages alone
    left repeated opponents (the second stage keeps whole sides); player swaps remove them."""
    found = 0
    for seed in range(3):
        t = entered(config(partners="individual", fmt="six_pairs", rounds=6), 64)
        for state in rounds_of(t, random.Random(seed)):
            if state.status != "running":
                continue
            r, past = state.rounds[-1], history(state.rounds[:-1])
            tables = [[list(side) for side in table.sides] for table in r.tables]
            found += sum(repeats(table, past) for table in tables)
    assert found == 0  # 64 players, 10 tables a round, 6 rounds: the bench's field


def test_t6_a_swap_removes_a_repeat_and_keeps_points_together() -> None:
    past = history([])
    past.opposed[(1, 3)] = 1  # 1 and 3 met before: the table (1 2 | 3 4) repeats it
    tables = [[[1, 2], [3, 4]], [[5, 6], [7, 8]]]
    points = {1: 2, 2: 2, 3: 2, 4: 2, 5: 0, 6: 2, 7: 0, 8: 0}
    rank = {e: e for e in points}
    out = repair(tables, past, points, rank)
    assert sum(repeats(t, past) for t in out) == 0
    assert out[1] == [[5, 6], [7, 8]]  # fixed at its own table: equal points, nearest
    past.partnered[(1, 2)] = 1  # a partner outweighs an opponent: never traded for one
    assert repeats([[1, 2], [3, 4]], past) > repeats([[1, 3], [2, 4]], past)
