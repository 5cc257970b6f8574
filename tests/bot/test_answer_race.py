"""The answer to a player's click is rendered before it is sent; a move
committed while it is on its way (a computer's card) may have its edit shown first and then be
covered by the older answer. What the answer showed is what counts as shown, so the newest
state goes out through the new token at once (it used to be taken as shown: the player's turn
never came, a 15 s time-out in the e2e tests when the double answered slowly). The answer and
the edits render committed snapshots, as the publisher hands them on."""

from __future__ import annotations

import asyncio
from typing import Any, cast

from bot.discord.hand_dms import HandDms
from bot.present import render
from engine import PLAY

from .test_deferred_edits import (
    BlockingInteraction,
    NoOutbox,
    QuietFeedback,
    committed,
    play_one,
)
from .test_hand_story import play_until, playing_table


async def test_a_move_committed_while_the_answer_went_is_shown_through_the_new_token() -> None:
    hands = HandDms(cast(Any, object()), cast(Any, NoOutbox()), cast(Any, QuietFeedback()))
    table = playing_table()
    match = table.match
    assert match is not None
    play_until(table, lambda m: m.phase == PLAY and m.to_act == 3)
    play_one(table)  # seat 3 plays: seat 0's turn
    play_one(table)  # seat 0 clicks a card: its answer is rendered now ...
    answer = committed(hands, table)
    rendered = render.hand_signatures(answer, 0)
    play_one(table)  # ... and the others play while it is on its way, up to seat 0's turn
    play_until(table, lambda m: m.to_act == 0)
    assert match.phase == PLAY
    committed(hands, table)
    opened = asyncio.Event()
    opened.set()
    click = BlockingInteraction(5, opened)
    hands.answered(answer, 0, rendered)
    hands.clicked(answer, 0, cast(Any, click), rendered=rendered)
    await asyncio.gather(*hands._token_tasks)
    assert len(click.edits) == 1, "the newer state was taken as shown"
    view = click.edits[0]["view"]
    assert any(not item.disabled for item in view.children)  # cards to play: their turn


async def test_an_answer_that_shows_the_newest_state_needs_no_edit() -> None:
    hands = HandDms(cast(Any, object()), cast(Any, NoOutbox()), cast(Any, QuietFeedback()))
    table = playing_table()
    play_until(table, lambda m: m.phase == PLAY and m.to_act == 1)
    opened = asyncio.Event()
    opened.set()
    click = BlockingInteraction(6, opened)
    rendered = render.hand_signatures(table, 0)
    hands.answered(table, 0, rendered)
    hands.clicked(table, 0, cast(Any, click), rendered=rendered)
    await asyncio.gather(*hands._token_tasks)
    assert click.edits == []
