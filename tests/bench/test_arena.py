"""``bench/arena.py``'s players: who is told what (issue 14).

The arena runs for an hour; these checks make a mistake in how it seats and briefs its players
fail here, in a second."""

from __future__ import annotations

import pytest

from bench import arena
from engine import GreedyPlayer, SearchPlayer


def test_a_searching_player_is_told_the_greedy_seats_only_when_asked() -> None:
    told = arena.make("hard:card_budget=300", 1, frozenset({1, 2}))
    assert isinstance(told, SearchPlayer) and told.greedy_seats == frozenset({1, 2})
    assert isinstance(arena.make("greedy", 1, frozenset({0})), GreedyPlayer)
    assert arena.is_greedy("greedy") and arena.is_greedy("easy")
    assert not arena.is_greedy("hard:eps=0.1")


@pytest.mark.parametrize("tell", [False, True])
def test_a_match_with_kinds_told_or_not_plays_to_the_end(
    tell: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    briefed: list[frozenset[int]] = []
    make = arena.make

    def spy(spec: str, seed: int, greedy_seats: frozenset[int] = frozenset()) -> object:
        if not arena.is_greedy(spec):
            briefed.append(greedy_seats)
        return make(spec, seed, greedy_seats)

    monkeypatch.setattr(arena, "make", spy)
    out = arena.play_match("hard:card_budget=200,max_deals=4", "greedy", 3, 1, "three", False, tell)
    assert out.hands >= 1 and out.times_ms
    # match 1 of three: A is seat 1 alone, the greedy players sit at 0 and 2
    assert briefed == [frozenset({0, 2}) if tell else frozenset()]
