"""`bot/` imports in one direction only: a static walk of its modules finds no cycle.

Every import counts, wherever it sits: at module level, inside a function, or under
``if TYPE_CHECKING:``. A deferred or type-only import only hides a cycle from the interpreter;
the two modules still know about each other, so neither can be read, tested or moved alone.
Parent packages are not implied (``bot.store.ops`` does not depend on ``bot/store/__init__``
just by living there), so a package that re-exports its children is no cycle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "bot"


def module_files(root: Path = ROOT, package: str = PACKAGE) -> dict[str, Path]:
    """Dotted module name -> file, for every module of ``package`` (migrations included)."""
    modules: dict[str, Path] = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _base(module: str, is_package: bool, level: int, target: str | None) -> str:
    """The absolute name a relative ``from`` import names (``level`` dots from ``module``)."""
    if level == 0:
        return target or ""
    parts = module.split(".")
    if not is_package:
        parts.pop()
    parts = parts[: len(parts) - (level - 1)]
    return ".".join([*parts, target] if target else parts)


def imports_of(module: str, path: Path, known: Mapping[str, Path]) -> set[str]:
    """The modules of ``known`` that ``module`` imports anywhere in its source."""
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _base(module, is_package, node.level, node.module)
            # `from . import render` names a module; `from .tables import Update` a name in one.
            names = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                for alias in node.names
            ]
        else:
            continue
        for name in names:
            # `import bot.store.ops` depends on bot.store.ops, the deepest module it names.
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name and name != module:
                found.add(name)
    return found


def import_graph(root: Path = ROOT, package: str = PACKAGE) -> dict[str, set[str]]:
    known = module_files(root, package)
    return {module: imports_of(module, path, known) for module, path in known.items()}


def tangles(graph: Mapping[str, set[str]]) -> list[set[str]]:
    """The groups of modules that each reach one another (strongly connected, two or more)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(node: str) -> None:  # Tarjan; bot/ is far too small for recursion to matter
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group: set[str] = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """One cycle (``a -> b -> ... -> a``) per tangled group of modules."""
    return [_one_cycle(graph, group) for group in tangles(graph)]


def _one_cycle(graph: Mapping[str, set[str]], group: set[str]) -> list[str]:
    """A shortest path from the group's first module back to itself, inside the group."""
    start = min(group)
    paths: dict[str, list[str]] = {start: [start]}
    frontier = [start]
    while frontier:
        following: list[str] = []
        for node in frontier:
            for nxt in sorted(graph[node] & group):
                if nxt == start:
                    return [*paths[node], start]
                if nxt not in paths:
                    paths[nxt] = [*paths[node], nxt]
                    following.append(nxt)
        frontier = following
    raise AssertionError(f"{sorted(group)} is not strongly connected")  # pragma: no cover


def _describe(graph: Mapping[str, set[str]]) -> Iterator[str]:
    """Per group, a shortest cycle and every import that has to go for the group to untangle."""
    for group in tangles(graph):
        yield "cycle: " + " -> ".join(_one_cycle(graph, group))
        for module in sorted(group):
            for imported in sorted(graph[module] & group):
                yield f"    {module} imports {imported}"


def test_bot_has_no_import_cycle() -> None:
    graph = import_graph()
    assert (
        "bot.discord.client" in graph and "bot.discord.cogs.hokm" in graph
    )  # the walk found the package
    assert not cycles(graph), "import cycles in bot/:\n" + "\n".join(_describe(graph))


def test_walk_sees_every_kind_of_import(tmp_path: Path) -> None:
    """The walk itself: relative, absolute, function-local and TYPE_CHECKING imports all
    count, so a cycle hidden behind any of them is reported with its path."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .a import A\n")
    (pkg / "a.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import B\nA = 1\n"
    )
    (pkg / "b.py").write_text("def f():\n    from .sub import c\nB = 2\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "c.py").write_text("import pkg.a\nfrom .. import b\n")
    (pkg / "d.py").write_text("from . import a\nfrom pkg.sub.c import x\n")
    graph = import_graph(tmp_path, "pkg")
    assert graph["pkg"] == {"pkg.a"}
    assert graph["pkg.a"] == {"pkg.b"}
    assert graph["pkg.b"] == {"pkg.sub.c"}
    assert graph["pkg.sub.c"] == {"pkg.a", "pkg.b"}
    assert graph["pkg.d"] == {"pkg.a", "pkg.sub.c"}
    # The cycle runs through a TYPE_CHECKING and a function-local import; the package
    # re-exporting its child (pkg -> pkg.a) is no part of it.
    assert [" -> ".join(c) for c in cycles(graph)] == ["pkg.a -> pkg.b -> pkg.sub.c -> pkg.a"]
    assert list(_describe(graph)) == [
        "cycle: pkg.a -> pkg.b -> pkg.sub.c -> pkg.a",
        "    pkg.a imports pkg.b",
        "    pkg.b imports pkg.sub.c",
        "    pkg.sub.c imports pkg.a",
        "    pkg.sub.c imports pkg.b",
    ]
