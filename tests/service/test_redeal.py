"""R6 through the service: at a table with the redeal house rule, a hakem whose first five
cards hold no J, Q, K or A may throw them in for five new ones; nobody else may, nor anyone
at a table without the rule, nor once trump is named."""

from __future__ import annotations

from functools import cache

import pytest

from bot.service.errors import ActionError
from bot.service.events import Redealt
from bot.service.service import TableService
from bot.service.table import LogLine
from engine import TRUMP, Match, Rules, Suit

from .conftest import MakeService
from .fakes import FakePublisher, FakeStore
from .helpers import HUMANS, four_people, match_of


@cache
def seed_without_court() -> int:
    """A seed whose first hakem is seat 0 with no court card among the five (R6)."""
    for seed in range(5000):
        match = Match(seed, Rules(redeal_without_court=True))
        if match.hakem == 0 and match.can_redeal(0):
            return seed
    raise AssertionError("no such seed")


async def four_at(service: TableService, *, redeal: bool) -> int:
    await four_people(service, host_name="host", redeal=redeal)
    return 0


async def test_r6_the_hakem_without_a_court_card_may_ask_for_a_redeal(
    make_service: MakeService, store: FakeStore, publisher: FakePublisher
) -> None:
    service = make_service(seed_source=seed_without_court)
    await four_at(service, redeal=True)
    (table,) = service.tables.values()
    match = match_of(table)
    assert table.settings.redeal_without_court and match.rules.redeal_without_court
    five = match.hand_of(0)
    with pytest.raises(ActionError, match="not_hakem"):  # only the hakem (R6)
        await service.redeal(table.table_id, HUMANS[1], 1)
    update = await service.redeal(table.table_id, HUMANS[0], 1)
    assert Redealt(0, 1) in update.events
    assert match.phase == TRUMP and match.hand_number == 1 and match.hand_of(0) != five
    assert len(match.hand_of(0)) == 5 and match.deal_number == 2
    assert table.log[-1] == LogLine.of("report.redealt", name="host")
    assert store.state(table.table_id)["match"]["actions"] == [["redeal", 0]]
    assert table.deadline is not None  # a fresh trump deadline (R14)
    if match.can_redeal(0):  # the new five may again hold no court card
        await service.redeal(table.table_id, HUMANS[0], 1)
    else:
        with pytest.raises(ActionError, match="redeal_not_allowed"):
            await service.redeal(table.table_id, HUMANS[0], 1)
    await service.choose_trump(table.table_id, HUMANS[0], 1, Suit.HEARTS)
    with pytest.raises(ActionError, match=r"wrong_phase|not_your_turn"):  # trump is named
        await service.redeal(table.table_id, HUMANS[0], 1)


async def test_r6_no_redeal_at_a_table_without_the_house_rule(make_service: MakeService) -> None:
    service = make_service(seed_source=seed_without_court)
    await four_at(service, redeal=False)
    (table,) = service.tables.values()
    assert not table.settings.redeal_without_court
    before = match_of(table).to_dict()
    with pytest.raises(ActionError, match="redeal_not_allowed"):
        await service.redeal(table.table_id, HUMANS[0], 1)
    assert match_of(table).to_dict() == before
