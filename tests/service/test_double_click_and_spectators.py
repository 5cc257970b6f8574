"""A second card from a seat that already played to
this trick is refused as such (R8: one card per seat per trick), and a member without a seat
at a match is a spectator, told so rather than refused as an error."""

from __future__ import annotations

import pytest

from bot.service.errors import ActionError
from bot.service.service import TableService
from engine import PLAY, seat_view

from .fakes import FakeStore
from .helpers import click_greedy, four_people, match_of, open_lobby, user_at


async def test_r8_a_second_card_in_the_same_trick_is_refused_as_already_played(
    service: TableService, store: FakeStore
) -> None:
    table = await four_people(service)
    match = match_of(table)
    while match.phase != PLAY:
        await click_greedy(service, table)
    leader = match.to_act
    await click_greedy(service, table)  # the leader's card
    played = match.current_trick()[0][1]
    before, writes = table.to_dict(), store.writes
    again = seat_view(match, leader).hand[0]
    with pytest.raises(ActionError) as refused:
        await service.play_card(table.table_id, user_at(table, leader), 1, again)
    assert refused.value.code == "error.already_played"
    assert dict(refused.value.params) == {"card": played.label}
    assert table.to_dict() == before and store.writes == writes
    # a seat that has not played yet and is not to act still hears whose turn it is
    waiting = (leader + 2) % 4
    card = seat_view(match, waiting).hand[0]
    with pytest.raises(ActionError) as refused:
        await service.play_card(table.table_id, user_at(table, waiting), 1, card)
    assert refused.value.code == "error.not_your_turn"
    # once the trick is complete, a new one starts: a seat other than the winner is not to
    # play, and has not played to it either
    while len(match.tricks) < 1:
        await click_greedy(service, table)
    other = next(s for s in range(4) if s != match.to_act)
    card = seat_view(match, other).hand[0]
    with pytest.raises(ActionError) as refused:
        await service.play_card(table.table_id, user_at(table, other), 1, card)
    assert refused.value.code == "error.not_your_turn"


async def test_a_member_without_a_seat_at_a_match_is_a_spectator(service: TableService) -> None:
    lobby = await open_lobby(service, channel=200, host=555)
    with pytest.raises(ActionError) as refused:
        service.hand_view(lobby.table_id, 999)
    assert refused.value.code == "error.not_started"  # a lobby has no hand to show anyone
    table = await four_people(service)
    with pytest.raises(ActionError) as refused:
        service.hand_view(table.table_id, 999)
    assert refused.value.code == "error.spectator"
    assert service.hand_view(table.table_id, user_at(table, 2)) == (table, 2)
