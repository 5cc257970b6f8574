"""``/tournament``'s registration fits Discord's limit, and a tournament's messages
(the tournament message, the standings, a ping) keep within Discord's limits in both
languages, show hostile names as text, and say what they must."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.discord.cogs.tournament import TournamentCog
from bot.present import custom_ids
from bot.present.budget import overflows
from bot.present.tournament import (
    ping_text,
    standings_message,
    thread_name,
    tournament_message,
)
from bot.service import tournament_steps as steps
from bot.service.tournament_state import TournamentState
from bot.tournament import TournamentConfig
from bot.tournament.state import Tournament
from tests.double.validation import command_problems, command_size

HOSTILE = "@everyone **boss** <@123> https://x.y\n# big"


def registered() -> dict[str, Any]:
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    (command,) = TournamentCog.__cog_app_commands__
    return command.to_dict(tree)


def test_the_command_fits_its_registration_budget() -> None:
    command = registered()
    assert command["name"] == "tournament"
    assert command_size(command) <= 3600, command_size(command)
    assert command_problems([command]) == []
    names = {o["name"] for o in command["options"]}
    assert names == {"new", "join", "leave", "start", "drop", "cancel", "standings"}


def tournament(lang: str, players: int, name: str = "Spring cup") -> TournamentState:
    config = TournamentConfig(
        name=name,
        format="standard",
        system="swiss",
        partners="individual",
        registration_closes=2_000_000_000,
        rounds=3,
        target_score=1,
    )
    state = TournamentState("0123456789ab", 1, 2, 3, lang, 0.0, Tournament(config))
    for member in range(10**17, 10**17 + players):
        state, _ = steps.join(state, member, {member: HOSTILE}, (), 0.0, {})
    return state


def played(state: TournamentState) -> TournamentState:
    """Round 1 played: every table won by its first side, 1–0."""
    state, _ = steps.start(state, 2_000_000_001.0, early=False)
    for k in range(len(state.core.rounds[0].tables)):
        state, _ = steps.result(state, 1, k, (1, 0), 0)
    state, _ = steps.advance(state)
    return state


@pytest.mark.parametrize("lang", ["en", "fa"])
@pytest.mark.parametrize("players", [4, 512])
def test_every_message_fits_discords_limits(lang: str, players: int) -> None:
    registering = tournament(lang, players, name=(HOSTILE * 2)[:80])
    running = played(registering)
    specs = [
        tournament_message(registering),
        tournament_message(running),
        standings_message(running),
    ]
    for spec in specs:
        assert not overflows(spec)
        text = spec.all_text()
        assert "@everyone" not in text and "<@123>" not in text  # names are text, not pings
        assert "\n# big" not in text
    buttons = [b.custom_id for row in specs[0].rows for b in row]
    assert buttons == [
        custom_ids.tournament_id("0123456789ab", "join"),
        custom_ids.tournament_id("0123456789ab", "leave"),
    ]
    assert all(custom_ids.parse(b).tournament_id == "0123456789ab" for b in buttons)
    assert specs[1].rows == ()  # no Join once it runs
    assert len(thread_name(running, 2, 0)) <= 100


def test_the_standings_say_each_result_and_the_winners() -> None:
    state = played(tournament("en", 4))
    text = standings_message(state).all_text()
    assert "after round 1" in text and " W" in text and " L" in text
    for k in range(len(state.core.rounds[1].tables)):
        state, _ = steps.forfeit(state, 2, k, [state.table_members(2, k)[1][0]])
    state, _ = steps.advance(state)
    for k in range(len(state.core.rounds[2].tables)):
        state, _ = steps.result(state, 3, k, (0, 1), 1)
    state, _ = steps.advance(state)
    final = standings_message(state).all_text()
    assert "Final standings" in final and "🏆" in final and " F" in final and " WO" in final
    assert "🏆" in tournament_message(state).all_text()


def test_a_ping_names_its_players_and_the_time_left() -> None:
    state = tournament("en", 4)
    text = ping_text(state, 2, (11, 12), 1_700_000_100.0)
    assert text.startswith("<@11> <@12> — ") and "<t:1700000100:R>" in text


def test_a_cancelled_tournament_says_why() -> None:
    state = replace(tournament("fa", 4), cancelled=True, cancel_reason="too_few")
    assert "لغو شد" in tournament_message(state).all_text()
