"""The click router is a table: every kind of id maps to one route, and a move is one service
call and one publisher call (the answer and its bookkeeping are the publisher's)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from bot.discord import router
from bot.present import custom_ids
from engine import Card, Suit


def test_every_kind_of_id_has_exactly_one_route() -> None:
    """V5: a joker six's bid id parses as a ``decide`` click, the route that answers it."""
    kinds = {kind.name for kind in custom_ids.KINDS} - {"bid"}
    assert sorted(router.ROUTES) == sorted(kinds)
    assert "decide" in router.ROUTES


def test_the_moves_are_the_play_clicks() -> None:
    assert set(router.PLAY_CLICKS) == set(router.MOVES)
    assert all(router.ROUTES[kind] is router._play_click for kind in router.MOVES)


class _Recorder:
    """Stands for the service (and its Shelem part) and the publisher: records each call."""

    def __init__(self, calls: list[tuple[Any, ...]]) -> None:
        self.calls = calls

    def __getattr__(self, name: str) -> Any:
        async def call(*args: Any) -> Any:
            self.calls.append((name, *args))
            return f"update of {name}"

        return call


@pytest.mark.parametrize(
    ("made", "service_call", "hand"),
    [
        (custom_ids.card_id("0123456789ab", 3, Card.parse("10H")), "play_card", 3),
        (custom_ids.trump_id("0123456789ab", 1, Suit.CLUBS), "choose_trump", 1),
        (custom_ids.mode_id("0123456789ab", 2, "nars"), "announce", None),
    ],
)
async def test_a_move_is_one_service_call_and_one_publisher_call(
    made: str, service_call: str, hand: int | None
) -> None:
    """V6.7: a Shelem decision's button names the deal, so its answer is told no hand."""
    calls: list[tuple[Any, ...]] = []
    service = _Recorder(calls)
    service.shelem = _Recorder(calls)  # type: ignore[attr-defined]
    bot = SimpleNamespace(service=service, publisher=_Recorder(calls))
    interaction = SimpleNamespace(user=SimpleNamespace(id=42))
    click = custom_ids.parse(made)
    await router.ROUTES[click.kind](bot, interaction, click, "en")  # type: ignore[arg-type]
    assert [c[0] for c in calls] == [service_call, "answer_move"]
    assert calls[0][1:3] == ("0123456789ab", 42)
    assert calls[1][1:] == (interaction, f"update of {service_call}", hand)
