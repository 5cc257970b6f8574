"""The Discord edge: a slash command and its button run one action and fail one way."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.discord import actions
from bot.discord.client import HokmBot
from bot.present import custom_ids
from bot.present.i18n import t
from tests.double.server import DiscordDouble

from .helpers import open_table, table_message


async def test_hand_command_and_my_hand_button_run_one_action(
    discord_double: DiscordDouble, hokm_bot: HokmBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    double, bot = discord_double, hokm_bot
    table = await open_table(double, bot, double.members[0])
    calls: list[str] = []
    real = actions.hand

    async def spy(bot_: Any, interaction: Any, table_id: str) -> None:
        calls.append(table_id)
        await real(bot_, interaction, table_id)

    monkeypatch.setattr(actions, "hand", spy)
    guest = double.members[1]
    by_command = await double.slash(guest, double.channel, "hokm hand")
    # the lobby shows no My hand button yet: click the id it would carry
    my_hand = custom_ids.my_hand_id(table.table_id)
    by_button = await double.click(
        guest, table_message(double, table), custom_id=my_hand, stale=True
    )
    assert calls == [table.table_id, table.table_id]
    assert by_command.ephemeral and by_button.ephemeral
    assert by_command.message.text == by_button.message.text  # type: ignore[union-attr]


async def test_join_command_and_join_button_run_one_action(
    discord_double: DiscordDouble, hokm_bot: HokmBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    double, bot = discord_double, hokm_bot
    table = await open_table(double, bot, double.members[0])
    calls: list[int] = []
    real = actions.join

    async def spy(bot_: Any, interaction: Any, table_id: str, answer: actions.Answer) -> None:
        calls.append(interaction.user.id)
        await real(bot_, interaction, table_id, answer)

    monkeypatch.setattr(actions, "join", spy)
    monkeypatch.setitem(actions.LOBBY, "join", spy)
    by_command = await double.slash(double.members[1], double.channel, "hokm join")
    by_button = await double.click(double.members[2], table_message(double, table), label="Join")
    assert calls == [double.members[1].id, double.members[2].id]
    # the same action, answered two ways: a private line, or the table message edited
    assert by_command.ephemeral and "seat 2" in by_command.message.text.lower()  # type: ignore[union-attr]
    assert by_button.response_type == 7, by_button.response_name
    assert table.seat_of(double.members[2].id) == 2


@pytest.mark.parametrize("how", ["command", "button"])
async def test_an_unknown_failure_is_logged_once_and_answered_without_a_traceback(
    discord_double: DiscordDouble,
    hokm_bot: HokmBot,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    how: str,
) -> None:
    double, bot = discord_double, hokm_bot
    table = await open_table(double, bot, double.members[0])

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom-secret-detail")

    monkeypatch.setattr(bot.service, "join", broken)
    caplog.set_level(logging.INFO)
    caplog.clear()
    if how == "command":
        rec = await double.slash(double.members[1], double.channel, "hokm join")
    else:
        rec = await double.click(double.members[1], table_message(double, table), label="Join")
    assert rec.ephemeral
    assert rec.message.text == t("en", "error.internal")  # type: ignore[union-attr]
    failures = [r for r in caplog.records if r.exc_info is not None]
    assert len(failures) == 1, [r.getMessage() for r in failures]
    assert failures[0].name == "bot.discord.replies"  # the one error path, for commands and buttons
    named = "/hokm join" if how == "command" else f"hokm:j:{table.table_id}"
    assert named in failures[0].getMessage()
    assert isinstance(failures[0].exc_info[1], RuntimeError)  # type: ignore[index]


async def test_a_refused_command_is_answered_by_the_tree_hook_and_not_logged(
    discord_double: DiscordDouble, hokm_bot: HokmBot, caplog: pytest.LogCaptureFixture
) -> None:
    double = discord_double
    caplog.set_level(logging.INFO)
    rec = await double.slash(double.members[1], double.channel, "hokm leave")
    assert rec.ephemeral and rec.message.text == t("en", "error.no_table")  # type: ignore[union-attr]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
