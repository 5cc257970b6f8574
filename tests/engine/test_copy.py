"""``Match.copy`` and ``ShelemMatch.copy``: an exact copy of any position, of every format, that
no later move of the original changes, and that plays on exactly as the original would (the
state ``to_dict`` leaves out, the running trick winner and the deal still hidden, included)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

import pytest

from engine import Match, Rules
from engine.cards import SUIT_TABLES
from engine.rules import FORMATS, hokm_formats
from engine.shelem import ShelemMatch, ShelemOptions

from . import helpers, shelem_helpers

RULES = (Rules(), Rules(bam=True, redeal_without_court=True, hakem_selection="random"))
SHELEM_OPTIONS = (
    ShelemOptions(),
    ShelemOptions(joker=True),
    ShelemOptions(nars=True, ace_nars=True, sars=True),
)


def _check_copies(
    match: Match | ShelemMatch, move: Callable[[random.Random], object], rng: random.Random
) -> int:
    """Copy the match at random positions until it ends; how many copies were checked."""
    copies = 0
    while not match.is_over:
        if rng.random() < 0.3:
            copies += 1
            before = match.to_dict()
            twin = match.copy()
            assert type(twin) is type(match)
            assert twin.to_dict() == before
            # read back from its stored form (a restart), it copies the same: no slot unset
            assert type(match).from_dict(before).copy().to_dict() == before
            steps = rng.randrange(1, 12)
            state = rng.getstate()
            for _ in range(steps):  # the original moves on: the copy stays where it was
                if match.is_over:
                    break
                move(rng)
            assert twin.to_dict() == before
            rng.setstate(state)  # the copy makes the same moves: it ends where the original is
            replay = _mover(twin)
            for _ in range(steps):
                if twin.is_over:
                    break
                replay(rng)
            assert twin.to_dict() == match.to_dict()
        else:
            move(rng)
    return copies


def _mover(match: Match | ShelemMatch) -> Callable[[random.Random], object]:
    if isinstance(match, ShelemMatch):
        return lambda rng: shelem_helpers.random_move(match, rng)
    return lambda rng: helpers.random_move(match, rng)


@pytest.mark.parametrize("name", sorted(hokm_formats()))
@pytest.mark.parametrize("rules", RULES)
def test_a_copy_of_every_format_is_exact_and_apart(name: str, rules: Rules) -> None:
    checked = 0
    for seed in range(3):
        match = Match(seed, dataclasses.replace(rules, target_score=3), FORMATS[name])
        fresh = match.copy()  # before any move: the hakem's five only, the deal held back
        assert fresh.to_dict() == match.to_dict()
        checked += _check_copies(match, _mover(match), random.Random(seed))
    assert checked > 10


@pytest.mark.parametrize("options", SHELEM_OPTIONS)
def test_a_copy_of_a_shelem_match_is_exact_and_apart(options: ShelemOptions) -> None:
    checked = 0
    for seed in range(2):
        match = ShelemMatch(seed, options)
        checked += _check_copies(match, _mover(match), random.Random(seed))
    assert checked > 10


def test_a_copy_shares_no_list_with_its_original() -> None:
    """Every list reachable from the copy's slots is its own (a list shared with the live
    match would change under a snapshot being shown), but the engine's constant tables."""
    for match in (Match(1, fmt=FORMATS["joker_six"]), Match(2), ShelemMatch(3)):
        twin = match.copy()
        for name in _slots(type(match)):
            mine, theirs = getattr(twin, name), getattr(match, name)
            if isinstance(mine, list) and not any(mine is t for t in SUIT_TABLES):
                assert mine is not theirs, name
                for a, b in zip(mine, theirs, strict=True):
                    assert not isinstance(a, list) or a is not b, name


def _slots(cls: type) -> list[str]:
    return [n for c in cls.__mro__ for n in getattr(c, "__slots__", ())]


@pytest.mark.parametrize("name", sorted(hokm_formats()))
def test_a_restored_match_copies_between_tricks(name: str) -> None:
    """A match read back from its stored form (a restart) with no trick led is copied like a
    live one: V5 joker six's restore left the led suit's table unset, and the copy of a resumed
    table failed."""
    match = Match(4, fmt=FORMATS[name])
    restored = Match.from_dict(match.to_dict())
    assert restored.copy().to_dict() == match.to_dict()
