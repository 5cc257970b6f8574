"""One member's trick-ending card click at a table of four members, traced from the gateway
event to the request that makes the table message's last edit (``click_walk``): how many hops
it takes, and that none of them calls back up. ``docs/architecture.md`` ("One card click")
holds the walk this test prints (``pytest -s``) and says how it counts.

The walk joins the click's first function of ``bot/`` (the gateway parser) to what the click
must do, seven targets: its id read (``custom_ids.parse``), the table's lock taken
(``Attempt.__aenter__``), the engine's move (``Match.play``), the store's write of the table
(the runner's ``write``), the table message's render (its family's ``match_lines``), the
token of the rate budget (``Limiter.acquire``) and the REST call of that message's last edit
(the rate gate's ``request``; discord.py's HTTP client sends it).
"""

from __future__ import annotations

import asyncio
import itertools
import random
from dataclasses import dataclass

import pytest

from bot.discord.client import HokmBot
from bot.service.ports import TableFeedback
from bot.service.table import Table
from engine import PLAY
from tests.bot.test_layers import EDGES, FORBIDDEN
from tests.double.server import DiscordDouble

from .click_walk import Node, Tracer, markdown, path, under, walk
from .conftest import BotFactory
from .helpers import message_id
from .players import play_turn_by_dm
from .test_requests_per_card import _four_members, _quiet

MAX_HOPS = 35
"""What the issue asks of this walk at most (it took 45 before: ``docs/architecture.md``)."""
PORT = ("bot.discord.publisher", "DiscordPublisher.publish")
"""The one hop from the service to the edge: the committed update handed to the ``Publisher``
the edge registered as a watcher of ``Commits`` (events → publisher, the data's own way)."""
FEEDBACK = frozenset(n for n in vars(TableFeedback) if not n.startswith("_"))
"""What the edge may tell the service once a move is committed (``TableFeedback``): what it
learned while sending. Never a lock of the table: it renders the update's snapshot."""


def _layer(module: str) -> str:
    if module == "engine" or module.startswith("engine."):
        return "engine"
    layers = (*FORBIDDEN, *EDGES)
    return next((la for la in layers if module == la or module.startswith(la + ".")), module)


def _up(parent: Node, child: Node) -> bool:
    """A call from ``parent``'s layer to a layer above it (``test_layers``'s order)."""
    here, there = _layer(parent.module), _layer(child.module)
    if here == "engine":
        return there != "engine"
    return any(there == up or there.startswith(up + ".") for up in FORBIDDEN.get(here, ()))


def _back_into(stops: list[Node]) -> list[str]:
    """Calls back into a module the path had left: on one path (a hand-off, a task or the
    outbox's queue, starts it afresh) each module is one run of calls, never gone back to."""
    found = []
    left: set[str] = set()
    for parent, child in itertools.pairwise(stops):
        if child.handoff:
            left = set()
        elif child.module != parent.module:
            left.add(parent.module)
            if child.module in left:
                found.append(f"{parent.name} ({parent.file}) -> {child.name} ({child.file})")
    return found


def _deepest_shared(a: Node, b: Node) -> int:
    """The depth of the nearest node both come from."""
    mine = {id(n) for n in [a, *a.ancestors()]}
    return next((n.depth() for n in [b, *b.ancestors()] if id(n) in mine), -1)


async def _to_a_tricks_last_card(double: DiscordDouble, bot: HokmBot) -> Table:
    """Four members, trump named and three cards of the first trick played."""
    table = await _four_members(double, bot)
    users = {u.id: u for u in double.members}
    rng = random.Random(7)
    await play_turn_by_dm(double, bot, table, users, rng)  # the hakem names trump (R4, R5)
    for _ in range(3):
        await play_turn_by_dm(double, bot, table, users, rng)
    match = table.match
    assert match is not None and match.phase == PLAY and len(match.current_trick()) == 3
    await _quiet(bot)
    await asyncio.sleep(1.1)  # the table message's edits are a second apart (the last one due)
    return table


@dataclass
class Walk:
    """One traced click: its walk, its targets and every function it entered."""

    root: Node
    targets: list[Node]
    stops: list[Node]
    clicked: list[Node]
    save: Node


async def _traced_click(double: DiscordDouble, bot: HokmBot) -> Walk:
    """The trick's last card clicked under the tracer, until the table message's edit."""
    table = await _to_a_tricks_last_card(double, bot)
    match = table.match
    assert match is not None
    edit = f"PATCH {double.api_base}/channels/{table.channel_id}/messages/{message_id(bot, table)}"
    tracer = Tracer()
    tracer.start()
    try:
        await play_turn_by_dm(
            double, bot, table, {u.id: u for u in double.members}, random.Random(7)
        )
        assert len(match.tricks) == 1 and not match.current_trick()  # the trick's last card
        await double.wait_until(
            lambda: any(n.route == edit for n in tracer.order), what="the table message's edit"
        )
        await _quiet(bot)
    finally:
        tracer.stop()
    root = tracer.find("bot.discord.light_clicks", "install.<locals>.parse_interaction_create")[0]
    clicked = [n for n in tracer.order if under(n, root)]
    parse = next(n for n in clicked if n.is_("bot.present.custom_ids", "parse"))
    lock = next(n for n in clicked if n.is_("bot.service.commits", "Attempt.__aenter__"))
    move = next(n for n in clicked if n.is_("engine.match", "Match.play"))
    save = next(
        n
        for n in clicked
        if n.seq > move.seq and n.is_("bot.store.runner", "_ThreadedSqlite.write")
    )
    request = [n for n in clicked if n.route == edit][-1]
    renders = [n for n in clicked if n.module.endswith("_view") and n.name.endswith(".match_lines")]
    render = max(renders, key=lambda n: _deepest_shared(n, request))
    token = next(
        n
        for n in clicked
        if under(n, request) and n.module.startswith("bot.limits.") and n.name.endswith("acquire")
    )
    targets = [parse, lock, move, save, render, token, request]
    return Walk(root, targets, walk(root, targets), clicked, save)


@pytest.mark.parametrize("bot_db_url", ["sqlite"], indirect=True)
async def test_a_card_click_walks_at_most_35_hops_and_never_back_up(
    discord_double: DiscordDouble, make_bot: BotFactory
) -> None:
    found = await _traced_click(discord_double, await make_bot(match_seed_base=5))
    stops = found.stops
    hops = len(stops) - 1
    files = {n.file for n in stops}
    print(f"\n{len(stops)} stops in {len(files)} files, {hops} hops\n")
    print(markdown(stops))

    assert hops <= MAX_HOPS, f"{hops} hops"
    upward = [
        f"{n.parent.name} ({n.parent.file}) -> {n.name} ({n.file})"
        for n in stops[1:]
        if n.parent is not None and _up(n.parent, n) and not n.is_(*PORT)
    ]
    assert upward == [], upward
    assert sum(n.is_(*PORT) for n in stops) == 1  # the service hands the update on, once
    back = [b for target in found.targets for b in _back_into(path(found.root, target))]
    assert back == [], back


@pytest.mark.parametrize("bot_db_url", ["sqlite"], indirect=True)
async def test_once_the_move_is_stored_the_edge_calls_no_lock_of_the_service(
    discord_double: DiscordDouble, make_bot: BotFactory
) -> None:
    """Any function the click entered after the save, on the walk or not (the clicker's
    answer, the other members' hands): the edge calls the service's front only through the
    ``TableFeedback`` port, and its registry never."""
    found = await _traced_click(discord_double, await make_bot(match_seed_base=5))
    into_service = [
        f"{n.parent.name} -> {n.name}"
        for n in found.clicked
        if n.seq > found.save.seq
        and n.parent is not None
        and _layer(n.parent.module) == "bot.discord"
        and (
            (n.module == "bot.service.service" and n.name.split(".")[-1] not in FEEDBACK)
            or n.module == "bot.service.registry"
        )
    ]
    assert into_service == [], into_service
