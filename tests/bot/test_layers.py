"""The folders of `bot/` are its layers, and imports go one way only.

Discord edge (``bot.discord``, and beside it the web page, ``bot.web``) → service (``bot.service``) → engine and store
(``engine``, ``bot.store``); the presenter (``bot.present``) reads what the service made and
knows no Discord. ``bot.names`` (how a name may appear in text) sits below them all. A lower
layer importing a higher one is how a one-way design quietly becomes two-way, so every
import counts here, type-only and function-local ones too (the walk of
``test_import_cycles``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .test_import_cycles import ROOT, import_graph, imports_of, module_files

EDGES = ("bot.discord", "bot.web")
"""The two edges: Discord, and the servers' web pages, which the Discord client
starts and whose address it shows; the web page knows nothing of Discord."""
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "bot.names": ("bot.store", "bot.service", "bot.present", *EDGES),
    "bot.ratings": ("bot.store", "bot.service", "bot.present", *EDGES),
    # How a URL may be printed: the store, the limiter and the process all use it.
    "bot.url_redaction": ("bot.store", "bot.service", "bot.present", "bot.limits", *EDGES),
    # The token's rate budget: Discord-free, below the edge that wires it to discord.py.
    "bot.limits": ("bot.store", "bot.service", "bot.present", *EDGES),
    # Tournaments' pure core: pairing, standings, steps; the service stores it.
    "bot.tournament": ("bot.store", "bot.service", "bot.present", *EDGES),
    "bot.store": ("bot.service", "bot.present", *EDGES),
    "bot.service": ("bot.present", *EDGES),
    "bot.present": EDGES,
    "bot.web": ("bot.discord",),
}
"""A layer -> the layers above it, which it must not import."""
MODULE_LINES = 420
"""No module of bot/ much over 400 lines (migrations aside): one job a module."""


def _layer(module: str) -> str | None:
    return next(
        (layer for layer in FORBIDDEN if module == layer or module.startswith(layer + ".")), None
    )


def _violations() -> list[str]:
    found = []
    for module, targets in import_graph().items():
        layer = _layer(module)
        if layer is None:
            continue
        for target in sorted(targets):
            if any(target == up or target.startswith(up + ".") for up in FORBIDDEN[layer]):
                found.append(f"{module} imports {target}")
    return found


def test_no_layer_imports_a_layer_above_it() -> None:
    assert _violations() == []


def test_the_check_sees_an_upward_import(tmp_path: Path) -> None:
    """The walk is real: an upward import planted in a copy of a service module is found."""
    graph = import_graph()
    assert "bot.service.service" in graph and "bot.present.render" in graph
    path = tmp_path / "service.py"
    path.write_text("from ..present import render\n", encoding="utf-8")
    assert "bot.present.render" in imports_of("bot.service.service", path, module_files())


@pytest.mark.parametrize(
    "module",
    sorted(m for m in module_files() if ".migrations." not in m),
)
def test_no_module_of_bot_is_much_over_400_lines(module: str) -> None:
    path = module_files()[module]
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MODULE_LINES, f"{path.relative_to(ROOT)}: {lines} lines"
