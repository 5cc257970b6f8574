"""The Discord edge keeps its shape: thin cogs, the click router apart from the wiring."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

BOT = Path(__file__).resolve().parents[2] / "bot" / "discord"
EDGE = ["client.py", "router.py", "actions.py", "replies.py", "cogs/hokm.py", "cogs/standings.py"]
ROUTER = {"handle_click", "_play_click", "_has_page_buttons", "_custom_id"}


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
