"""The Hokm family for the bot's tests: the engine's format of a given shape, and
until the engine has one, a stand-in of that shape registered for the test only.

A test asks for a shape (seats and team size), never a format's name: the tests then run on
the engine's own V3/V4/V5 as soon as it has them. The stand-ins follow docs/rules.md (V3: 51
cards, 17 each; V4: 50 cards, 10 each; V5: 48 cards, 8 each) with a trick count that always
ends a hand.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager

from engine import GameFormat, JokerMatch
from engine.match import _VARIANT_CLASSES
from engine.rules import FORMATS, JOKER_SIX, hokm_formats

TWOS = (0, 13, 26, 39)  # card numbers of the four 2s (suit-major, rank 2 first)


def _teams(seats: int, size: int) -> tuple[tuple[int, ...], ...]:
    """Partners spread round the table, as in R2: seat s plays for team s % (seats // size)."""
    count = seats // size
    return tuple(tuple(range(team, seats, count)) for team in range(count))


def _stand_in(seats: int, size: int) -> GameFormat:
    drop = {3: 1, 4: 0, 5: 2, 6: 4}[seats]
    deck = tuple(c for c in range(52) if c not in TWOS[:drop])
    hand = len(deck) // seats
    teams = _teams(seats, size)
    tricks = -(-hand // len(teams))  # some team always gets there (pigeonhole)
    return GameFormat(
        name=f"test-{seats}x{size}",
        seats=seats,
        teams=teams,
        deck=deck,
        first_deal=5,
        hand_size=hand,
        tricks_to_win=tricks,
        points_win=1,
        points_kot=2,
        points_hakem_kot=3,
    )


def engine_format(seats: int, size: int) -> GameFormat | None:
    """The engine's format with this shape (no jokers, no draw phase), if it has one."""
    for fmt in hokm_formats().values():
        shaped = fmt.seats == seats and all(len(t) == size for t in fmt.teams)
        if shaped and len(fmt.deck) <= 52 and not fmt.discards:
            return fmt
    return None


@contextmanager
def format_of(seats: int, size: int) -> Iterator[GameFormat]:
    """The engine's format of this shape, or a stand-in registered while the block runs."""
    fmt = engine_format(seats, size)
    if fmt is not None:
        yield fmt
        return
    fmt = _stand_in(seats, size)
    FORMATS[fmt.name] = fmt
    try:
        yield fmt
    finally:
        FORMATS.pop(fmt.name, None)


JOKER_TARGET = 5
"""The short joker six's target: one hand (a made bid scores 5–9, 18 or 36, a failed
one 10–18 to the others) where the seed's 124 takes about a dozen."""

JOKER_SHORT: GameFormat = dataclasses.replace(
    JOKER_SIX, name="test-joker-six", target_score=JOKER_TARGET
)
"""V5 joker six exactly as the engine plays it (``JokerMatch``), but to ``JOKER_TARGET``: for
the tests that must play whole matches through a bot process (kill and restart), where the
seed's fixed 124 would take hundreds of moves."""


def _register_joker_short() -> None:
    FORMATS[JOKER_SHORT.name] = JOKER_SHORT
    _VARIANT_CLASSES[JOKER_SHORT.name] = JokerMatch


@contextmanager
def joker_short() -> Iterator[GameFormat]:
    """``JOKER_SHORT``, registered with the engine while the block runs."""
    _register_joker_short()
    try:
        yield JOKER_SHORT
    finally:
        FORMATS.pop(JOKER_SHORT.name, None)
        _VARIANT_CLASSES.pop(JOKER_SHORT.name, None)


def register_stand_ins() -> None:
    """A stand-in for every shape the engine has no format of (for a bot process of its own),
    and the short joker six (``JOKER_SHORT``)."""
    for seats, size in SHAPES:
        if engine_format(seats, size) is None:
            fmt = _stand_in(seats, size)
            FORMATS[fmt.name] = fmt
    _register_joker_short()


def shape_format(seats: int, size: int) -> GameFormat:
    """The format a process that ran ``register_stand_ins`` has for this shape."""
    fmt = engine_format(seats, size)
    return fmt if fmt is not None else _stand_in(seats, size)


SHAPES = ((4, 2), (3, 1), (5, 1), (6, 3), (6, 2))
"""Every table the bot must host: the standard one, V3, V4, V5 in both teamings."""
