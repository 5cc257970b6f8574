"""Every command's registration stays well inside Discord's 4,000 characters.

Discord counts, per command, every name, description and value of the command, its options
(subcommands and groups too) and their choices, and refuses the whole bulk registration when
one command is over: then no command appears at all. ``/hokm`` stood at 3,902; a margin of 400
leaves room for the next option without the sync failing.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord import app_commands

from bot.discord.cogs.hokm import HokmCog
from bot.discord.cogs.standings import StandingsCog
from tests.double.validation import COMMAND_SIZE_LIMIT, command_problems, command_size

MARGIN_LIMIT = 3600


def registered() -> list[dict[str, Any]]:
    """The commands as discord.py registers them (the payload of its bulk sync)."""
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    return [
        cmd.to_dict(tree) for cog in (HokmCog, StandingsCog) for cmd in cog.__cog_app_commands__
    ]


@pytest.mark.parametrize("command", registered(), ids=lambda c: c["name"])
def test_each_command_leaves_room_under_discords_4000_characters(command: dict[str, Any]) -> None:
    size = command_size(command)
    assert size <= MARGIN_LIMIT, f"/{command['name']}: {size} characters of {COMMAND_SIZE_LIMIT}"
    assert command_problems([command]) == []


def test_the_count_is_discords_names_descriptions_values_and_choices() -> None:
    command = {
        "name": "ab",  # 2
        "description": "cde",  # 3
        "description_localizations": {"fr": "cdefg"},  # longest: 5 instead of 3
        "options": [
            {
                "name": "x",  # 1
                "description": "yy",  # 2
                "choices": [{"name": "one", "value": "1"}, {"name": "two", "value": 22}],  # 4 + 5
            }
        ],
    }
    assert command_size(command) == 2 + 5 + 1 + 2 + 4 + 5


def test_the_double_refuses_a_registration_over_4000_like_discord() -> None:
    choices = [{"name": f"choice {i:02}", "value": f"v{i:02}"} for i in range(10)]
    option = {"description": "x" * 100, "type": 3, "choices": choices}
    big = {
        "name": "big",
        "description": "d",
        "options": [{"name": f"o{i:02}", **option} for i in range(25)],
    }
    small = {**big, "options": big["options"][:5]}
    assert command_size(big) > COMMAND_SIZE_LIMIT
    assert [code for _, code, _ in command_problems([big])] == ["APPLICATION_COMMAND_TOO_LARGE"]
    assert command_problems([small]) == []
