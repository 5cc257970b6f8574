"""``should_stop``: the host's time budget can only cut a search short, never change it.

The engine reads no clock; the bot's worker passes a deadline check. These tests drive the
check by counting calls, so they are exact and never depend on the machine's speed.
"""

from __future__ import annotations

import pytest

from engine import GreedyPlayer, SearchPlayer, make_player, seat_view
from engine.players import forced_card
from engine.search import LEVELS, SearchSettings

from .test_search import random_position

SMALL = SearchSettings(card_budget=4_000, min_deals=4, max_deals=40)


class Countdown:
    """``should_stop`` that says stop from its ``after``-th call on, and counts calls."""

    def __init__(self, after: int) -> None:
        self.after = after
        self.calls = 0

    def __call__(self) -> bool:
        self.calls += 1
        return self.calls > self.after


def positions() -> list[tuple[int, int]]:
    """(seed, plays) of positions where the player really searches (several candidates)."""
    out = []
    for seed in range(200):
        m = random_position(seed, seed % 30)
        view = seat_view(m, m.turn)
        probe = Countdown(10**9)
        SearchPlayer(seed, SMALL, probe).choose_card(view)
        if probe.calls > 10:  # at least two candidates, and rounds of deals to cut
            out.append((seed, seed % 30))
        if len(out) == 12:
            break
    return out


@pytest.mark.parametrize(("seed", "plays"), positions())
def test_a_check_that_never_stops_changes_nothing(seed: int, plays: int) -> None:
    m = random_position(seed, plays)
    view = seat_view(m, m.turn)
    plain = SearchPlayer(seed, SMALL).choose_card(view)
    never = Countdown(10**9)
    checked = SearchPlayer(seed, SMALL, never).choose_card(view)
    assert checked == plain
    assert never.calls > 0, "the search never asked whether to stop"


@pytest.mark.parametrize(("seed", "plays"), positions())
def test_stopped_before_any_deal_the_greedy_card_is_played(seed: int, plays: int) -> None:
    m = random_position(seed, plays)
    view = seat_view(m, m.turn)
    stop = Countdown(0)
    assert SearchPlayer(seed, LEVELS["hard"], stop).choose_card(view) == GreedyPlayer().choose_card(
        view
    )
    assert stop.calls == 1


@pytest.mark.parametrize(("seed", "plays"), positions())
@pytest.mark.parametrize("after", [1, 3, 10])
def test_stopped_midway_a_legal_card_is_played_at_once(seed: int, plays: int, after: int) -> None:
    m = random_position(seed, plays)
    view = seat_view(m, m.turn)
    stop = Countdown(after)
    card = make_player("hard", seed, stop).choose_card(view)
    assert card in view.legal
    assert stop.calls == after + 1, "the search went on after it was told to stop"


def test_make_player_passes_the_check_to_searching_levels_only() -> None:
    stop = Countdown(0)
    assert isinstance(make_player("easy", 1, stop), GreedyPlayer)
    player = make_player("normal", 1, stop)
    assert isinstance(player, SearchPlayer)
    m = random_position(3, 5)
    view = seat_view(m, m.turn)
    if forced_card(view) is None:
        player.choose_card(view)
        assert stop.calls >= 1
