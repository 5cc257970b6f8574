"""A hand message's public lines (tricks, score, the last trick, the trick on the table) are
made once per state of the table and shared by every seat's render of it
(``hand_status.status_lines``); any change to what they are made from makes them anew."""

from __future__ import annotations

import dataclasses

import pytest

from bot.present import hand_status, render
from bot.service.table import Table
from engine import PLAY, Match, seat_view
from tests.bot.test_formats_render import play_on, seated, start


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many times the lines were made (not taken from those kept)."""
    calls: list[int] = []
    make = hand_status._status_lines

    def counted(*args: object, **kwargs: bool) -> list[str]:
        calls.append(1)
        return make(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(hand_status, "_status_lines", counted)
    hand_status._shared.clear()
    return calls


def mid_trick(seed: int = 3) -> tuple[Table, Match]:
    table = seated("standard")
    match = start(table, seed)
    play_on(match, lambda: match.phase == PLAY and len(match.tricks) == 2 and match.trick)
    return table, match


def renders(table: Table) -> list[str]:
    return [render.hand_message(table, seat).content for seat in range(4)]


def test_every_seats_render_of_one_state_makes_the_lines_once(made: list[int]) -> None:
    table, _ = mid_trick()
    first = renders(table)
    assert len(made) == 1
    hand_status._shared.clear()
    assert renders(table) == first  # the same messages as made afresh
    assert len(made) == 2


def test_the_lines_follow_a_card_a_name_and_the_language(made: list[int]) -> None:
    table, match = mid_trick()
    seat = match.to_act
    before = render.hand_message(table, seat).content
    view = seat_view(match, seat)
    match.play(seat, view.legal[0])
    after_card = render.hand_message(table, (seat + 1) % 4).content
    assert len(made) == 2 and after_card != before
    other = (seat + 2) % 4
    old = table.seats[other]
    assert old is not None
    shown = render.hand_message(table, other).content
    assert len(made) == 2  # the same state as the card's: the lines kept
    table.seats[other] = dataclasses.replace(old, name="zelda")
    renamed = render.hand_message(table, other).content
    assert "zelda" in renamed and "zelda" not in shown and len(made) == 3
    table.settings = dataclasses.replace(table.settings, language="fa")
    persian = render.hand_message(table, other).content
    assert persian != renamed and len(made) == 4


def test_a_score_change_is_shown_though_the_trick_looks_the_same(made: list[int]) -> None:
    table, match = mid_trick()
    seat = (match.to_act + 1) % 4
    before = render.hand_message(table, seat).content
    match.scores[0] += 1  # what a finished hand does, at the same trick count
    assert render.hand_message(table, seat).content != before
    assert len(made) == 2


def test_the_kept_lines_are_bounded(made: list[int]) -> None:
    table, _ = mid_trick()
    for n in range(hand_status.SHARED_LINES + 50):
        table.table_id = f"{n:012x}"
        render.hand_message(table, 0)
    assert len(hand_status._shared) == hand_status.SHARED_LINES
