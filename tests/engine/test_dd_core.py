"""The double-dummy search's pieces (``engine.dd_core``): the relative form of a
suit, the runs of equivalent cards, the small-card rule, and which search module runs."""

from __future__ import annotations

import importlib
import types

import pytest

from engine import dd_core, dd_search
from engine.dd_core import MARK, compress, raise_floor, run_below, run_heads, same_run


def owners(*pairs: tuple[int, int]) -> int:
    """An owner code: ``(rank, seat)`` pairs, 3 bits a rank holding the seat + 1."""
    code = 0
    for rank, seat in pairs:
        code |= (seat + 1) << 3 * rank
    return code


@pytest.mark.parametrize("width", [2, 3])
def test_compress_squeezes_out_the_cards_played(width: int) -> None:
    """The 2 and the 5 left (3 and 4 gone) read as the 2 and the 3 left: relative ranks, the
    top card first."""
    assert compress(owners((0, 1), (3, 2)), width) == compress(owners((0, 1), (1, 2)), width)
    assert compress(owners((0, 1), (3, 2)), width) != compress(owners((0, 2), (3, 1)), width)
    assert compress(owners((12, 2)), width) == (2 if width == 2 else 3)  # the top card


def test_compress_marks_both_jokers_left() -> None:
    """Both jokers are not an ace and a king (the red burns if led first); one joker alone is
    the top trump, as an ace would be."""
    both = compress(owners((13, 0), (14, 1)), 3)
    assert both & MARK
    assert both != compress(owners((11, 0), (12, 1)), 3)
    assert compress(owners((14, 1), (5, 0)), 3) == compress(owners((12, 1), (5, 0)), 3)


def test_run_heads_tries_one_card_of_each_run() -> None:
    """Q J and 9 of one hand with the 10 out elsewhere: two runs; the 10 gone: one run."""
    q, j, ten, nine = 1 << 10, 1 << 9, 1 << 8, 1 << 7
    assert run_heads(q | j | nine, ten) == [9, 7]
    assert run_heads(q | j | nine, 0) == [7]
    assert run_heads(1 << 13 | 1 << 14 | 1 << 12, 0) == [14, 13, 12]  # jokers alone
    assert same_run(q | j | nine, q | j | nine, 10, 7)
    assert not same_run(q | j | nine, q | j | nine | ten, 10, 7)


def test_small_card_rule() -> None:
    """A card below every named card of its suit stands for the hand's other such cards; a
    named card stands for none."""
    named_jack = 1 << (1 + 15 * 2 + 9)  # bit 0 the answer, then lane 2's jack named
    assert raise_floor(0, named_jack, 2, 4) == 9
    assert raise_floor(0, named_jack, 2, 9) == 0
    assert raise_floor(0, named_jack, 2, 11) == 0
    assert raise_floor(0, 0, 2, 4) == 13  # nothing of the suit named: every plain card small
    assert raise_floor(10, named_jack, 2, 4) == 10


def test_a_compiled_copy_from_other_code_is_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    """``engine.dd_search`` uses a compiled ``dd_core`` only when its digest is this code's."""
    stale = types.ModuleType("engine.dd_core_native")
    stale.DIGEST = "0" * 64  # type: ignore[attr-defined]
    fresh = types.ModuleType("engine.dd_core_native")
    fresh.DIGEST = dd_core.digest()  # type: ignore[attr-defined]
    for module, used in ((stale, False), (fresh, True)):
        monkeypatch.setattr(importlib, "import_module", lambda name, m=module: m)
        assert (dd_search._compiled() is module) == used
    assert dd_core.digest() == dd_core.digest()


def test_native_on_demand_needs_a_build(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dd_search, "NATIVE", None)
    with pytest.raises(RuntimeError):
        dd_search.Search(4, (0, 1, 0, 1), 0, native=True)
    assert not dd_search.Search(4, (0, 1, 0, 1), 0).native


def ranks(text: str) -> int:
    """A lane's rank mask from e.g. ``"KJ9"`` (``T`` the ten)."""
    return sum(1 << "23456789TJQKA".index(c) for c in text)


def test_run_below_names_a_run_the_names_cut_in_two() -> None:
    """A run with a named card and one below the names: its lowest card is named too; a run
    wholly below or above the names, or cut by another seat's card, adds nothing."""
    assert run_below(ranks("KQ"), ranks("AJT853"), ranks("K")) == ranks("Q")
    assert run_below(ranks("KQJ4"), ranks("AT853"), ranks("K")) == ranks("J")
    assert run_below(ranks("AKQ"), ranks("J"), ranks("K")) == ranks("Q")
    assert run_below(ranks("K9"), ranks("AJT853"), ranks("K")) == 0  # the jack parts them
    assert run_below(ranks("AK"), ranks("J"), ranks("K")) == 0  # nothing below the names
    assert run_below(ranks("Q4"), ranks("AKJ"), ranks("K")) == 0  # nothing named in h
    assert run_below(ranks("KQ"), ranks("AJ"), 0) == 0  # no names: any card is one of many


def parse_hand(text: str) -> list[int]:
    """Four lanes from e.g. ``"KJ973 - J6 -"``."""
    return [0 if part == "-" else ranks(part) for part in text.split()]


def test_a_table_entry_never_answers_for_a_run_it_tried_as_one_card() -> None:
    """Found by ``bench/dd_check.py`` (deal 96 of seed 1, ``quick`` off): with the king and
    queen of trumps (lane 2) seat 2 cannot take 2 of the next 6 tricks; with the king and the
    nine it can (the nine ducks under its partner's jack and keeps the king). The first
    search tried the king and queen as one card, and its entry named the trumps down to the
    king only: it answered for the second position too, wrongly, until the names took in the
    run's queen (``run_below``). Searched on one table, the second answer stays right."""
    flags = dd_search.ALL.without("quick").flags
    first = ["KJ973 J6 J6 T", "T AT3 AT8 AKQ", "- K9754 KQ 986", "865 Q82 53 43"]
    second = [*first[:2], "- K9754 K9 986", first[3]]
    fresh = dd_core.Core(4, [0, 1, 0, 1], 2, False, flags)
    fresh.load([parse_hand(h) for h in second])
    assert fresh.race(2, [], [], 2, 5) & 1 == 1  # the nine's duck: team 0 takes 2 of 6
    core = dd_core.Core(4, [0, 1, 0, 1], 2, False, flags)
    core.load([parse_hand(h) for h in first])
    assert core.race(2, [], [], 2, 5) & 1 == 0
    core.load([parse_hand(h) for h in second])
    assert core.race(2, [], [], 2, 5) & 1 == 1
