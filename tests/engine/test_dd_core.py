"""The double-dummy search's pieces (``engine.dd_core``): the relative form of a
suit, the runs of equivalent cards, the small-card rule, and which search module runs."""

from __future__ import annotations

import importlib
import types

import pytest

from engine import dd_core, dd_search
from engine.dd_core import MARK, compress, raise_floor, run_heads, same_run


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
