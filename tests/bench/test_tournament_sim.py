"""``bench/tournament_sim.py``: its numbers mean what its docstring says."""

from __future__ import annotations

import random
import re

import pytest

from bench import tournament_sim as sim


def test_kendall_tau_of_known_orders() -> None:
    strength = {0: 3.0, 1: 2.0, 2: 1.0, 3: 0.0}
    assert sim.kendall_tau([0, 1, 2, 3], strength) == 1.0
    assert sim.kendall_tau([3, 2, 1, 0], strength) == -1.0
    assert sim.kendall_tau([1, 0, 2, 3], strength) == pytest.approx(4 / 6)


def test_the_strength_model_favours_the_stronger_side() -> None:
    rng = random.Random(1)
    wins = sum(sim.strength_match([1.5, -1.5], rng)[1] == 0 for _ in range(200))
    assert wins > 180
    scores, winner = sim.strength_match([0.0, 0.0, 0.0], rng)
    assert scores[winner] == sim.HANDS_TO_WIN and sorted(scores)[-2] < sim.HANDS_TO_WIN


def test_the_engine_model_plays_a_whole_match() -> None:
    scores, winner = sim.engine_match([[1.0, 1.0], [0.0, 0.0]], random.Random(3))
    assert scores[winner] >= 7 and len(scores) == 2


def test_a_small_run_prints_its_four_lines() -> None:
    lines = sim.main(
        [
            "--players",
            "16",
            "--tournaments",
            "2",
            "--timing-players",
            "20",
            "--timing-tournaments",
            "1",
            "--rounds",
            "3",
        ]
    )
    text = " ".join(lines)
    assert re.search(r"pairing_ms_p95=\d+\.\d pairing_ms_max=\S+ pairing_players=20", text)
    assert re.search(r"rematches=\d+ rematches_avoidable=0", text)
    assert "byes_per_player_max=0" in text
    assert re.search(r"kendall_tau=-?\d\.\d{3} kendall_tau_random_pairing=-?\d\.\d{3}", text)


def test_an_avoidable_rematch_is_counted() -> None:
    """A pairing that repeats a meeting a fresh matching avoided is reported as avoidable."""
    args = sim.argparse.Namespace(format="standard", system="swiss", partners="fixed")
    t, _ = sim.entered(sim.config(args, 3), 8, random.Random(1), "strength")
    t = sim.start(t, now=1)
    first = t.rounds[0]
    t = sim.play_round(t, {m: 0.0 for m in range(8)}, "strength", random.Random(2))
    repeat = sim.replace(
        first, number=2, tables=tuple(sim.replace(x, result=None) for x in first.tables)
    )
    t = sim.replace(t, rounds=(*t.rounds, repeat))
    assert sim.meetings(t) == (2, 2)  # 8 players, 4 teams, both tables again
