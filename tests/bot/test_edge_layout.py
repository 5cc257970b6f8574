"""The Discord edge keeps its shape: thin cogs, the click router apart from the wiring."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from discord import app_commands

BOT = Path(__file__).resolve().parents[2] / "bot" / "discord"
EDGE = ["client.py", "router.py", "actions.py", "replies.py", "cogs/hokm.py", "cogs/standings.py"]
ROUTER = {"handle_click", "_play_click", "_has_buttons", "_replay_step", "_custom_id"}


def _functions(path: Path) -> list[ast.AsyncFunctionDef | ast.FunctionDef]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]


@pytest.mark.parametrize("name", EDGE)
def test_each_edge_module_stays_well_under_400_lines(name: str) -> None:
    assert len((BOT / name).read_text(encoding="utf-8").splitlines()) < 400


@pytest.mark.parametrize("name", ["cogs/hokm.py", "cogs/standings.py"])
def test_commands_raise_refusals_instead_of_answering_them_in_closures(name: str) -> None:
    """Refusals go to the tree's one hook: no per-command ``_run(go)`` wrapper, no closures."""
    names = {f.name for f in _functions(BOT / name)}
    assert "_run" not in names and "go" not in names
    assert "reply_error" not in (BOT / name).read_text(encoding="utf-8")


def test_the_click_router_lives_in_its_own_module() -> None:
    assert not ROUTER & {f.name for f in _functions(BOT / "client.py")}
    assert {f.name for f in _functions(BOT / "router.py")} >= ROUTER


def test_settings_options_are_named_as_the_settings_they_change() -> None:
    """``/hokm settings`` passes the options given straight on as setting changes, so every
    parameter must be a setting (a stray one would be dropped silently); the two options with
    shorter names (and ``format``) keep them on Discord through
    ``app_commands.rename``."""
    from bot.discord.cogs.hokm import HokmCog
    from bot.store.guild_settings import LIMITS

    command = HokmCog.hokm.get_command("settings")
    assert isinstance(command, app_commands.Command)
    assert [p.name for p in command.parameters] == list(LIMITS)
    assert {p.name: p.display_name for p in command.parameters if p.display_name != p.name} == {
        "hakem_selection": "first_hakem",
        "allow_computer_players": "computer_players",
        "redeal_without_court": "redeal",
        "game_format": "format",
        "rate_computer_matches": "rate_computers",
    }
