"""``bench/partner_posterior.py``: the share of a partner's cards a reading places right.

The bench's figures decide what is worth building; these checks make a mistake in how it
weighs or counts fail here, in seconds."""

from __future__ import annotations

import pytest

from bench import partner_posterior as pp


def test_share_weighs_each_deal_and_counts_the_partners_cards_together() -> None:
    truth = 0b1111  # four cards, two partners
    deals = [[0b0011, 0b1100, 0], [0b0001, 0, 0b1110]]  # deal 0: all four; deal 1: one
    assert pp.share([1.0, 1.0], deals, [0, 1], truth) == pytest.approx((4 + 1) / 2 / 4)
    assert pp.share([3.0, 1.0], deals, [0, 1], truth) == pytest.approx((3 * 4 + 1) / 4 / 4)
    assert pp.share([0.0, 1.0], deals, [0, 2], truth) == pytest.approx(1.0)


def test_a_greedy_partner_read_as_greedy_is_placed_better_than_ignored() -> None:
    """Team 0 plays greedy, so the greedy reading (all but strict) is the true model of the
    partner: its cards must land in the partner's hand more often than under no reading."""
    readings = pp.Readings(eps_partner=(0.01,), signals=False)
    pp.run("six_pairs", "greedy", matches=2, seed=1, hands=1, deals=60, readings=readings)
    ignored, read = readings.results["ignored"], readings.results["greedy=0.01"]
    assert ignored.decisions == read.decisions > 10
    assert 0 < ignored.cards_share < read.cards_share <= 1
    assert 0 < ignored.masters_share < read.masters_share <= 1


def test_the_signal_reading_appears_only_when_team_0_signals() -> None:
    readings = pp.Readings(eps_partner=(0.5,), signals=True)
    pp.run(
        "six_pairs", "hard:signals=1,card_budget=400", 1, 1, hands=1, deals=20, readings=readings
    )
    assert set(readings.results) == {"ignored", "greedy=0.5", "signal"}
