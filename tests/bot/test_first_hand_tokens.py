"""What decides that a first hand goes through a lobby click.

``Outbox.wait_estimate`` says how long a job submitted now would wait for the global budget;
``LobbyTokens`` keeps each member's last lobby click per channel while its token may be used.
"""

from __future__ import annotations

from typing import Any, cast

import discord
import pytest

from bot.discord.outbox import MARKER, REPORT, TABLE, URGENT, Outbox
from bot.discord.tokens import TOKEN_LIFETIME, LobbyTokens


async def _job() -> None:
    return None


def test_the_wait_counts_the_jobs_ahead_of_it_and_the_budget_left() -> None:
    now = [0.0]
    outbox = Outbox(clock=lambda: now[0], rate=40.0, burst=5.0)
    assert outbox.wait_estimate(URGENT, cost=2) == 0.0  # the burst pays for it at once
    for i in range(38):
        outbox.submit(("hand", i), URGENT, i, _job, cost=1)
    # 38 ahead + 2 of its own, 5 in the bucket: 35 calls at 40 a second
    assert outbox.wait_estimate(URGENT, cost=2) == 35 / 40
    for i in range(100):  # less urgent jobs do not go before it
        outbox.submit(("table", i), TABLE, 1000 + i, _job)
    assert outbox.wait_estimate(URGENT, cost=2) == 35 / 40
    assert outbox.wait_estimate(TABLE) == (38 + 100 + 1 - 5) / 40  # a table edit waits for all
    outbox.submit(("marker", 0), MARKER, 2000, _job, cost=3)
    assert outbox.wait_estimate(REPORT) + 3 / 40 == pytest.approx(outbox.wait_estimate(MARKER))
    now[0] = 0.5  # the bucket refills (up to its burst) as time passes
    assert outbox.wait_estimate(URGENT, cost=2) == 35 / 40


def _interaction() -> discord.Interaction:
    return cast(discord.Interaction, cast(Any, object()))


def test_a_lobby_click_is_kept_per_channel_and_member_used_once_and_expires() -> None:
    now = [0.0]
    tokens = LobbyTokens(clock=lambda: now[0])
    first, second, elsewhere = _interaction(), _interaction(), _interaction()
    tokens.note(10, 1, first)
    tokens.note(10, 1, second)  # the newer click in the channel replaces the older
    tokens.note(20, 1, elsewhere)  # another channel's click does not
    tokens.note(None, 2, first)  # a click outside a channel is not kept
    assert len(tokens) == 2
    assert tokens.usable(10, 1) and not tokens.usable(10, 2)
    assert tokens.take(10, 1) == (second, 0.0)
    assert tokens.take(10, 1) is None  # used once
    now[0] = TOKEN_LIFETIME + 1
    assert not tokens.usable(20, 1) and tokens.take(20, 1) is None  # too old to be used
    tokens.note(30, 5, first)
    tokens.note(30, 6, second)
    now[0] += TOKEN_LIFETIME + 1
    tokens.note(30, 7, elsewhere)  # a new click drops the expired ones
    assert len(tokens) == 1
    tokens.forget(30, [7, 8])
    assert len(tokens) == 0
