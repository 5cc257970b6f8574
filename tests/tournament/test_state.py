"""A tournament survives the store: JSON and back at every step, damaged data refused."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament import Tournament, advance, forfeit
from bot.tournament.errors import InvalidTournament

from .helpers import config, entered, first_member, play_round, rounds_of

SYSTEMS = [
    ("swiss", "fixed", "standard"),
    ("swiss", "individual", "standard"),
    ("swiss", "individual", "six_pairs"),
    ("swiss", "fixed", "five"),
    ("knockout", "fixed", "shelem"),
    ("round_robin", "fixed", "six_teams"),
]


def through_json(t: Tournament) -> Tournament:
    return Tournament.from_dict(json.loads(json.dumps(t.to_dict())))


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(SYSTEMS), st.integers(2, 14), st.integers(0, 10**6))
def test_every_state_round_trips_through_json(
    kind: tuple[str, str, str], entries: int, seed: int
) -> None:
    system, partners, fmt = kind
    cfg = config(system=system, partners=partners, fmt=fmt, rounds=3)
    entries = max(min(entries, cfg.max_entries), cfg.min_entries)
    rng = random.Random(seed)
    t = entered(cfg, entries, [rng.random() for _ in range(entries)])
    assert through_json(t) == t
    for state in rounds_of(t, rng):
        assert through_json(state) == state
        if state.status == "running":
            half = play_round(state, rng)
            assert through_json(half) == half


def test_a_restart_mid_round_resumes_where_it_stood() -> None:
    """Saved after one result and one forfeit, loaded elsewhere: the same round goes on."""
    rng = random.Random(9)
    t = next(iter(rounds_of(entered(config(), 7), rng)))
    t = forfeit(t, 1, 0, [first_member(t, t.rounds[0].tables[0].sides[0][0])])
    resumed = through_json(t)
    assert resumed == t
    assert advance(play_round(resumed, random.Random(1)), 1) == advance(
        play_round(t, random.Random(1)), 1
    )


def _damaged(data: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for change in (
        lambda d: d.update(version=2),
        lambda d: d.pop("status"),
        lambda d: d.update(status="paused"),
        lambda d: d["config"].update(format="chess"),
        lambda d: d["entrants"][1].update(members=d["entrants"][0]["members"]),
        lambda d: d["entrants"][0].update(members=[1]),
        lambda d: d["entrants"][0].update(dropped=9),
        lambda d: d["rounds"][0]["tables"][0].update(sides=[[0], [0]]),
        lambda d: d["rounds"][0]["tables"][0].update(sides=[[0]]),
        lambda d: d["rounds"][0]["tables"][0].update(
            result={"scores": [1, 2], "winner": None, "forfeits": []}
        ),
        lambda d: d["rounds"][0]["tables"][0].update(
            result={"scores": [7, 2], "winner": 5, "forfeits": []}
        ),
        lambda d: d["rounds"][0]["tables"][0].update(
            result={"scores": [7, 2], "winner": True, "forfeits": []}
        ),
        lambda d: d["rounds"][0].update(byes=["0"]),
        lambda d: d["rounds"][0].update(number=2),
        lambda d: d.update(total_rounds=0),
        lambda d: d.update(rounds=[*d["rounds"], d["rounds"][0]]),
        lambda d: d.update(status="finished"),
    ):
        damaged = copy.deepcopy(data)
        change(damaged)
        out.append(damaged)
    return out


def test_damaged_data_is_refused() -> None:
    t = next(iter(rounds_of(entered(config(), 5), random.Random(3))))
    for data in _damaged(t.to_dict()):
        with pytest.raises(InvalidTournament):
            Tournament.from_dict(data)
