"""``bench/arena.py``'s players: who is told and shown what.

The arena runs for an hour; these checks make a mistake in how it seats and briefs its players
fail here, in a second."""

from __future__ import annotations

import random

import pytest

from bench import arena
from engine import PLAY, GreedyPlayer, Match, SearchPlayer, seat_view
from engine.fastsim import to_rm
from engine.rules import FORMATS
from engine.sampling import Sampler
from tests.engine.test_players_formats import act


def test_a_searching_player_is_told_the_greedy_seats_only_when_asked() -> None:
    told = arena.make("hard:card_budget=300", 1, frozenset({1, 2}))
    assert isinstance(told, SearchPlayer) and told.greedy_seats == frozenset({1, 2})
    assert isinstance(arena.make("greedy", 1, frozenset({0})), GreedyPlayer)
    assert arena.is_greedy("greedy") and arena.is_greedy("easy")
    assert not arena.is_greedy("hard:eps=0.1")


def test_signals_are_read_only_from_partners_of_the_same_spec() -> None:
    """``signals=1``: a searching seat reads its partners of its own spec, no other seat."""
    fmt = FORMATS["six_pairs"]
    specs = ["hard:signals=1", "greedy", "greedy"] * 2
    assert arena.same_kind(fmt, specs, 0) == frozenset({3})
    assert arena.same_kind(fmt, specs, 1) == frozenset({4})
    assert arena.same_kind(fmt, ["hard", "greedy", "greedy", "normal", "greedy", "greedy"], 0) == (
        frozenset()
    )
    reads = arena.make("hard:signals=1", 1, frozenset(), frozenset({3}))
    plain = arena.make("hard", 1, frozenset(), frozenset({3}))
    assert isinstance(reads, SearchPlayer) and reads.signal_seats == frozenset({3})
    assert isinstance(plain, SearchPlayer) and plain.signal_seats == frozenset()


@pytest.mark.parametrize("tell", [False, True])
def test_a_match_with_kinds_told_or_not_plays_to_the_end(
    tell: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    briefed: list[frozenset[int]] = []
    make = arena.make

    def spy(
        spec: str,
        seed: int,
        greedy_seats: frozenset[int] = frozenset(),
        partners: frozenset[int] = frozenset(),
    ) -> object:
        if not arena.is_greedy(spec):
            briefed.append(greedy_seats)
        return make(spec, seed, greedy_seats, partners)

    monkeypatch.setattr(arena, "make", spy)
    out = arena.play_match("hard:card_budget=200,max_deals=4", "greedy", 3, 1, "three", False, tell)
    assert out.hands >= 1 and out.times_ms
    # match 1 of three: A is seat 1 alone, the greedy players sit at 0 and 2
    assert briefed == [frozenset({0, 2}) if tell else frozenset()]


@pytest.mark.parametrize("who", arena.REVEAL)
def test_a_seat_shown_some_hands_draws_only_deals_that_hold_them(who: str) -> None:
    """``--reveal``: every deal the shown seat draws gives the shown seats their true cards;
    shown only the partner, the opponents' hands still vary from deal to deal (shown the
    opponents, the partner's hand is what is left, so it is known too)."""
    fmt = FORMATS["six_pairs"]
    match = Match(5, fmt=fmt)
    while match.phase != PLAY or match.turn != 0:
        act(match, GreedyPlayer())
    player = arena.make("hard:card_budget=300", 1)
    assert isinstance(player, SearchPlayer)
    seeing = arena.Seeing(1, player, match, who)
    view = seat_view(match, 0)
    shown = set(seeing.shown(view))
    assert shown == {"partner": {3}, "opponents": {1, 2, 4, 5}, "all": {1, 2, 3, 4, 5}}[who]
    sampler = Sampler(seeing._knowledge(view))
    rng = random.Random(2)
    deals = [sampler.sample(rng) for _ in range(30)]
    for seat in range(1, fmt.seats):
        truth = to_rm(match.hand_of(seat))
        held = {deal[seat] for deal in deals}
        assert (held == {truth}) == (who != "partner" or seat in shown)


def test_reveal_is_named_on_the_last_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["arena", "--variant", "three", "--a", "hard:card_budget=200,max_deals=4"]
    argv += ["--matches", "1", "--quiet", "--reveal", "all"]
    monkeypatch.setattr("sys.argv", argv)
    arena.main()
    assert (
        capsys.readouterr()
        .out.splitlines()[-1]
        .endswith("variant=three fair_share=0.333 revealed=all")
    )
