"""The stored form both match classes share (``engine/serial.py``): the joker six's
``JokerMatch`` and V6's ``ShelemMatch`` write cards, hands and tricks the same way, and read
back what they wrote; a malformed record is ``InvalidState``, never a crash."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from engine import InvalidState, Match
from engine.rules import JOKER_SIX
from engine.serial import codes, mask, trick_rows, tricks_of
from engine.shelem import GreedyShelemPlayer, ShelemMatch, act

from .helpers import random_move


def test_codes_and_masks_round_trip_jokers_included() -> None:
    rng = random.Random(3)
    for _ in range(50):
        cards = rng.sample(range(54), 12)
        m = sum(1 << c for c in cards)
        assert mask(codes(m)) == m and mask(codes(m), unique=True) == m
    with pytest.raises(InvalidState):
        mask(["AS", "AS"], unique=True)
    assert mask(["AS", "AS"]) == mask(["AS"])  # a Hokm hand merges, as it always read


def _joker_six_mid_hand() -> Match:
    match = Match(5, fmt=JOKER_SIX)
    rng = random.Random(5)
    while len(match.tricks) < 3 and not match.is_over:
        random_move(match, rng)
    return match


def _shelem_mid_hand() -> ShelemMatch:
    match = ShelemMatch(7)
    player = GreedyShelemPlayer()
    while len(match.tricks) < 3:
        act(match, player)
    return match


@pytest.mark.parametrize("make", [_joker_six_mid_hand, _shelem_mid_hand])
def test_v5_v6_both_classes_store_tricks_through_one_serializer(
    make: Callable[[], Match | ShelemMatch],
) -> None:
    match = make()
    data = match.to_dict()
    assert data["tricks"] == trick_rows(match.tricks)
    assert tricks_of(data["tricks"]) == match.tricks
    assert type(match).from_dict(data) == match
    broken = dict(data, tricks=[[0, ["AS", "ZZ"], 1]])
    with pytest.raises(InvalidState):
        type(match).from_dict(broken)
