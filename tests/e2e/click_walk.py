"""A trace of one click through the bot, as a tree of the ``bot/`` and ``engine/`` functions it
entered, and the walk it takes to what it must do (``docs/architecture.md``, "One card click").

``sys.setprofile`` sees every function entered on the event loop's thread. A function of
``bot/`` or ``engine/`` entered while tracing is a *node*; its parent is the nearest function
of theirs it was called from (``f_back``, which for a coroutine is whoever awaited it). Where
that chain ends (the top of a task), the parent is found across the hand-off that started it:

- a task: the function that created it (the loop's task factory notes it);
- the outbox's queue: ``Outbox._send`` runs the job that ``Outbox.submit`` was handed last
  for its key, so ``_send``'s parent is that ``submit`` (not the worker that picked it).

The *walk* to a set of targets is every node on the way from the root (the click's gateway
parser) to any of them: the smallest tree joining them, so a check or a lookup that returned
before the next step is no stop of it. Its *hops* are its edges, one fewer than its stops.
"""

from __future__ import annotations

import asyncio
import sys
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import bot
import engine

BOT = Path(bot.__file__).resolve().parent
ENGINE = Path(engine.__file__).resolve().parent
ROOT = BOT.parent


@dataclass(eq=False)
class Node:
    """One function entered: where, in what order, and who called it (``None``: nobody the
    trace knows, i.e. not the traced click)."""

    frame: types.FrameType
    seq: int
    parent: Node | None
    handoff: str = ""
    """How it was reached from its parent when not by a plain call: ``task``, ``queue``."""
    route: str = ""
    """A REST call's method and URL (the gate's ``request``)."""
    children: list[Node] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.frame.f_code.co_qualname

    @property
    def path(self) -> Path:
        return Path(self.frame.f_code.co_filename).resolve()

    @property
    def file(self) -> str:
        """Relative to ``bot/``, or ``engine/…``."""
        path = self.path
        if path.is_relative_to(BOT):
            return str(path.relative_to(BOT))
        return str(path.relative_to(ROOT))

    @property
    def module(self) -> str:
        return ".".join(self.path.relative_to(ROOT).with_suffix("").parts)

    def is_(self, module: str, name: str) -> bool:
        return self.module == module and self.name == name

    def ancestors(self) -> Iterator[Node]:
        """From its parent up to the root."""
        node = self.parent
        while node is not None:
            yield node
            node = node.parent

    def depth(self) -> int:
        return sum(1 for _ in self.ancestors())


class Tracer:
    """Traces the event loop's thread between ``start`` and ``stop``."""

    def __init__(self) -> None:
        self.nodes: dict[int, Node] = {}
        """By ``id(frame)``: the frames are held here, so an id is never reused meanwhile."""
        self.order: list[Node] = []
        self._ours: dict[types.CodeType, bool] = {}
        self._creators: dict[asyncio.Task[Any], Node | None] = {}
        self._submitted: dict[int, tuple[object, Node]] = {}
        self._factory: Any = None

    # ------------------------------------------------------------------ tracing

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._factory = loop.get_task_factory()
        loop.set_task_factory(self._new_task)
        sys.setprofile(self._profile)

    def stop(self) -> None:
        sys.setprofile(None)
        asyncio.get_running_loop().set_task_factory(self._factory)

    def _new_task(self, loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> Any:
        task = asyncio.Task(coro, loop=loop, **kwargs)
        self._creators[task] = self._nearest(sys._getframe(1))
        return task

    def _is_ours(self, code: types.CodeType) -> bool:
        ours = self._ours.get(code)
        if ours is None:
            path = Path(code.co_filename).resolve()
            ours = self._ours[code] = path.is_relative_to(BOT) or path.is_relative_to(ENGINE)
        return ours

    def _nearest(self, frame: types.FrameType | None) -> Node | None:
        """The node of the nearest frame of ours from ``frame`` up, if the trace knows it."""
        while frame is not None:
            if self._is_ours(frame.f_code):
                return self.nodes.get(id(frame))
            frame = frame.f_back
        return None

    def _profile(self, frame: types.FrameType, event: str, arg: object) -> None:
        if event != "call" or id(frame) in self.nodes or not self._is_ours(frame.f_code):
            return
        handoff = ""
        parent = self._nearest(frame.f_back)
        if self._is_ours_above(frame.f_back):
            pass  # called by a function of ours (known, or entered before the trace)
        elif (queued := self._queued(frame)) is not None:
            parent, handoff = queued, "queue"
        else:
            task = asyncio.current_task()
            parent = self._creators.get(task) if task is not None else None
            handoff = "task" if parent is not None else ""
        node = Node(frame, len(self.order), parent, handoff)
        self.nodes[id(frame)] = node
        self.order.append(node)
        if parent is not None:
            parent.children.append(node)
        if node.is_("bot.discord.outbox", "Outbox.submit"):
            job = frame.f_locals["job"]
            self._submitted[id(job)] = (job, node)  # the job held, so its id stays its own
        elif node.is_("bot.discord.rest_gate", "gate_rest_calls.<locals>.request"):
            route = frame.f_locals["route"]
            node.route = f"{route.method} {route.url}"

    def _is_ours_above(self, frame: types.FrameType | None) -> bool:
        while frame is not None:
            if self._is_ours(frame.f_code):
                return True
            frame = frame.f_back
        return False

    def _queued(self, frame: types.FrameType) -> Node | None:
        """``Outbox._send``'s job's ``submit``."""
        if frame.f_code.co_qualname != "Outbox._send":
            return None
        entry = frame.f_locals.get("entry")
        found = self._submitted.get(id(getattr(entry, "job", None)))
        return None if found is None else found[1]

    # ------------------------------------------------------------------ reading

    def find(self, module: str, name: str) -> list[Node]:
        return [n for n in self.order if n.is_(module, name)]


def under(node: Node, root: Node) -> bool:
    return node is root or any(a is root for a in node.ancestors())


def walk(root: Node, targets: list[Node]) -> list[Node]:
    """The stops from ``root`` to every target, depth first, each node's children in the order
    they were entered: the smallest tree that joins them."""
    keep: set[int] = set()
    for target in targets:
        assert under(target, root), f"{target.name} is not reached from {root.name}"
        node: Node | None = target
        while node is not None and id(node) not in keep:
            keep.add(id(node))
            if node is root:
                break
            node = node.parent
    stops: list[Node] = []

    def visit(node: Node) -> None:
        stops.append(node)
        for child in sorted(node.children, key=lambda n: n.seq):
            if id(child) in keep:
                visit(child)

    visit(root)
    return stops


def path(root: Node, target: Node) -> list[Node]:
    """``target``'s path from ``root``, root first."""
    found = [target]
    for node in target.ancestors():
        found.append(node)
        if node is root:
            break
    return found[::-1]


def markdown(stops: list[Node], notes: Callable[[Node], str] = lambda n: "") -> str:
    """The walk as the table of ``docs/architecture.md``."""
    lines = ["| # | function | file | from its parent |", "| --- | --- | --- | --- |"]
    for i, node in enumerate(stops, 1):
        how = node.handoff or ("" if i == 1 else "call")
        via = f"{how} from {stops.index(node.parent) + 1}" if node.parent in stops else ""
        lines.append(f"| {i} | `{node.name}` | `{node.file}` | {via}{notes(node)} |")
    return "\n".join(lines)
