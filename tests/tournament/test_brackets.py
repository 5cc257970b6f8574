"""Knockout (docs/rules.md T7) and round robin (T8): the bracket's shape and seeding, the
byes to the top seeds, every pair of a round robin meeting exactly once."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from bot.tournament import advance, drop, forfeit, record_result, standings, start, winners
from bot.tournament.knockout import bracket_order, first_slots
from bot.tournament.round_robin import circle

from .helpers import CLOSES, config, entered, first_member, play_round, rounds_of


def test_the_standard_bracket_order() -> None:
    assert bracket_order(2) == [1, 2]
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket_order(16)[:4] == [1, 16, 8, 9]


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64])
def test_seeds_meet_as_late_as_their_rank_allows(size: int) -> None:
    """In every round of a bracket where the better seed always wins, the seeds left are
    1…k and each table's seeds sum to k + 1 (1 v k, 2 v k-1, …)."""
    slots = bracket_order(size)
    while len(slots) > 1:
        k = len(slots)
        pairs = list(zip(slots[::2], slots[1::2], strict=True))
        assert sorted(slots) == list(range(1, k + 1))
        assert all(a + b == k + 1 for a, b in pairs)
        slots = [min(a, b) for a, b in pairs]


@pytest.mark.parametrize("entries", [2, 3, 5, 6, 7, 9, 12, 17])
def test_byes_go_to_the_top_seeds(entries: int) -> None:
    ratings = [float(entries - i) for i in range(entries)]  # entrant i is seed i + 1
    t = start(entered(config(system="knockout"), entries, ratings), now=CLOSES)
    size = len(first_slots(t))
    assert size >= entries > size // 2
    first = t.rounds[0]
    assert sorted(first.byes) == list(range(size - entries))
    assert len(first.tables) == (entries - (size - entries)) // 2
    assert t.total_rounds == size.bit_length() - 1


@pytest.mark.parametrize("entries", [2, 3, 4, 5, 8, 11, 16])
def test_a_knockout_ends_with_one_champion_who_never_lost(entries: int) -> None:
    rng = random.Random(entries)
    t = entered(config(system="knockout"), entries, [float(-i) for i in range(entries)])
    states = list(rounds_of(t, rng))
    final = states[-1]
    assert final.status == "finished"
    champion = standings(final)[0]
    assert champion.reached == len(final.rounds) + 1
    assert all(g.kind in ("win", "bye") for g in champion.games)
    assert winners(final) == champion.members
    for state in states[:-1]:
        losers = {
            table.sides[1 - table.result.winner][0]
            for r in state.rounds[:-1]
            for table in r.tables
            if table.result is not None and table.result.winner is not None
        }
        assert not losers & set(
            state.rounds[-1].byes + tuple(e for x in state.rounds[-1].tables for e in x.entrants)
        )


def test_a_dropped_entry_leaves_its_slot_to_its_opponent_on_a_bye() -> None:
    t = start(entered(config(system="knockout"), 4, [4.0, 3.0, 2.0, 1.0]), now=CLOSES)
    # seeds: 1 v 4 and 2 v 3; seed 1 and seed 2 win
    t = record_result(t, 1, 0, [7, 2], 0)
    t = record_result(t, 1, 1, [7, 5], 0)
    t = drop(t, first_member(t, 1), expected_round=1)  # entry 1, seed 2
    t = advance(t, 1)
    assert t.status == "finished"
    assert winners(t) == t.entrants[0].members


def test_a_double_forfeit_in_a_knockout_sends_nobody_through() -> None:
    t = start(entered(config(system="knockout"), 4, [4.0, 3.0, 2.0, 1.0]), now=CLOSES)
    t = forfeit(t, 1, 0, [first_member(t, 0), first_member(t, 3)])
    t = record_result(t, 1, 1, [3, 7], 1)
    t = advance(t, 1)
    assert t.status == "finished" and winners(t) == t.entrants[2].members


@pytest.mark.parametrize("entries", range(2, 9))
def test_round_robin_every_pair_meets_exactly_once(entries: int) -> None:
    rng = random.Random(entries)
    final = list(rounds_of(entered(config(system="round_robin"), entries), rng))[-1]
    assert final.status == "finished"
    met = [tuple(sorted(table.entrants)) for r in final.rounds for table in r.tables]
    assert sorted(met) == sorted(combinations(range(entries), 2))
    byes = [e for r in final.rounds for e in r.byes]
    assert sorted(byes) == (list(range(entries)) if entries % 2 else [])
    assert len(final.rounds) == (entries - 1 if entries % 2 == 0 else entries)


def test_the_circle_turns_around_a_fixed_place() -> None:
    rounds = [circle([0, 1, 2, 3], i) for i in range(3)]
    assert rounds == [[(0, 3), (1, 2)], [(0, 2), (3, 1)], [(0, 1), (2, 3)]]


def test_a_round_robin_opponent_of_a_dropped_entry_wins_by_forfeit() -> None:
    t = start(entered(config(system="round_robin"), 4), now=CLOSES)
    t = play_round(t, random.Random(1))
    t = drop(t, first_member(t, 3), expected_round=1)
    t = advance(t, 1)
    table = next(x for x in t.rounds[-1].tables if 3 in x.entrants)
    assert table.result is not None and not table.result.played
    other = next(e for e in table.entrants if e != 3)
    game = next(s for s in standings(t) if s.entrant == other).games[-1]
    assert game.kind == "walkover" and game.points == 2


def test_round_robin_takes_eight_entries_at_most() -> None:
    from bot.tournament.errors import TournamentFull

    with pytest.raises(TournamentFull):
        entered(config(system="round_robin"), 9)
