"""The reliability guarantees on the three-player format (V3: 17 cards each, everyone
alone): no card of a hand shows anywhere but its player's own views (guarantee 5, the
``leaks`` checker), and ``kill -9`` at any point of the match loses nothing (guarantee 1: the
real ``python -m bot`` killed and restarted, ending card for card with the engine alone)."""

from __future__ import annotations

import sys
from itertools import pairwise
from pathlib import Path

import pytest

from bot.discord.client import HokmBot
from bot.discord.cogs.hokm import FORMAT_CHOICES
from bot.service.table import Table
from bot.store.guild_settings import GuildSettings
from engine import BID, MATCH_OVER, TRUMP, GameFormat, Match, Rules
from tests.double.models import User
from tests.double.server import DiscordDouble
from tests.e2e.conftest import BotFactory
from tests.e2e.helpers import table_message
from tests.formats import JOKER_SHORT, format_of, joker_short

from .harness import BotRun, Stored, read_matches, read_standings, read_tables, wait_stored
from .inproc import open_table, until
from .leaks import HandWatcher, leaks
from .script import apply, button_id, computer_choice, member_choice
from .test_crash_safety import TRUMP_SECONDS, TURN_SECONDS, Script
from .test_hidden_hands import click_scripted, plant_leaks

WRAPPER = [sys.executable, "-m", "tests.reliability.with_formats"]
FIRST_SEED = 8
TARGET = 1
COMPUTERS = frozenset({2})
"""The host and one member sit at seats 0 and 1; "Start" gives seat 2 to an easy computer."""


async def test_no_hand_leaks_in_a_three_player_match_with_a_closed_dm_player(
    discord_double: DiscordDouble, make_bot: BotFactory
) -> None:
    double = discord_double
    assert double.channel is not None and double.guild is not None
    with format_of(3, 1) as fmt:
        bot: HokmBot = await make_bot(match_seed_base=3)
        watcher = HandWatcher.install(bot)
        host, closed, third, _ = double.members
        double.close_dms(closed)
        options: dict[str, object] = {"target_score": 2, "turn_seconds": 60}
        if fmt.name in [c.value for c in FORMAT_CHOICES]:
            options["format"] = fmt.name
        else:
            settings = GuildSettings(game_format=fmt.name)
            await bot.store.set_guild_settings(double.guild.id, settings)
        table = await open_table(double, bot, host, options)
        for user in (closed, third):
            await double.click(user, table_message(double, table), label="Join")
        assert table.status == "playing" and len(table.seats) == 3
        users = {u.id: u for u in double.members}
        match = table.match
        assert match is not None and match.fmt is fmt
        planted: set[int] = set()
        for _ in range(600):
            if table.status != "playing":
                break
            if table.seat(match.to_act).user_id == closed.id:
                await click_in_my_hand(double, table, closed)
            else:
                await click_scripted(double, bot, table, users)
            if len(match.actions) == 20 and not planted:
                planted = plant_leaks(double, bot, table)
        assert table.status == "finished" and len(match.hand_results) >= 2  # a new deal too
        assert double.dms(closed) == []  # they played through "My hand" alone
        await until(lambda: bot.outbox.backlog == 0, what="the outbox to drain")
        await double.wait_for_message(
            double.channel, lambda m: "wins the match" in m.text, timeout=15
        )
        found = leaks(double, watcher)
        assert {leak.message_id for leak in found} == planted, [
            (leak.message_id, leak.viewer, leak.cards, leak.text) for leak in found
        ]
        versions = sum(len(m.history) + 1 for m in double.world.messages.values())
        assert versions > 150  # the checker really walked the match


JOKER_START = 119
"""Both teams' score as the joker six hidden-hands match starts: the seed's target is a fixed
124 (no table setting), and from 119 the first hand played decides the match rather than a
dozen (after any deals everyone passed)."""


async def test_v5_no_hand_leaks_in_a_joker_six_match_with_a_closed_dm_player(
    discord_double: DiscordDouble, make_bot: BotFactory
) -> None:
    """The hidden-hands checker on the joker six: nine cards each from the deal, bids, jokers;
    three members (one with DMs closed, who bids and plays from "My hand") and three easy
    computers; only the planted leaks are found."""
    double = discord_double
    assert double.channel is not None and double.guild is not None
    bot: HokmBot = await make_bot(match_seed_base=5)
    watcher = HandWatcher.install(bot)
    host, closed, third, _ = double.members
    double.close_dms(closed)
    options = {"format": "joker_six", "turn_seconds": 60, "difficulty": "easy"}
    table = await open_table(double, bot, host, options)
    for user in (closed, third):
        await double.click(user, table_message(double, table), label="Join")
    await double.click(host, table_message(double, table), label="Start")
    assert table.status == "playing" and len(table.seats) == 6
    users = {u.id: u for u in double.members}
    match = table.match
    assert match is not None and match.fmt.name == "joker_six"
    match.scores[:] = [JOKER_START, JOKER_START]
    planted: set[int] = set()
    for _ in range(1000):
        if table.status != "playing":
            break
        user_id = table.seat(match.to_act).user_id
        if user_id is None:  # a computer's move
            done = len(match.actions)
            await double.wait_until(
                lambda: len(match.actions) > done or table.status != "playing",  # noqa: B023
                timeout=5.0,
                what="the computer to move",
            )
        elif user_id == closed.id:
            await click_in_my_hand(double, table, closed)
        else:
            await click_scripted(double, bot, table, users)
        if len(match.actions) >= 20 and not planted and match.phase == "play":
            planted = plant_leaks(double, bot, table)
    assert table.status == "finished"
    assert any(a[0] == "bid" and a[2] for a in match.actions if isinstance(a, tuple))
    assert double.dms(closed) == []  # they played through "My hand" alone
    await until(lambda: bot.outbox.backlog == 0, what="the outbox to drain")
    await double.wait_for_message(double.channel, lambda m: "win the match" in m.text, timeout=15)
    found = leaks(double, watcher)
    assert {leak.message_id for leak in found} == planted, [
        (leak.message_id, leak.viewer, leak.cards, leak.text) for leak in found
    ]


async def click_in_my_hand(double: DiscordDouble, table: Table, user: User) -> None:
    """A member with DMs closed plays their scripted choice from "My hand" (whether or not
    the bot has tried to DM them yet: a member's first turn may come before that)."""
    match = table.match
    assert match is not None
    cid = button_id(table.table_id, match.hand_number, member_choice(match, match.to_act))
    view = await double.click(user, table_message(double, table), label="My hand")
    assert view.ephemeral and view.message is not None
    rec = await double.click(user, view.message, custom_id=cid)
    assert rec.response_type == 7, rec.response_name


# --------------------------------------------------------------------------- kill -9


def simulate(fmt: GameFormat, seed: int, computers: frozenset[int] = COMPUTERS) -> Match:
    """The engine alone: the match every run of the script must end with."""
    match = Match(seed, Rules(target_score=TARGET), fmt)
    while match.phase != MATCH_OVER:
        seat = match.to_act
        chooser = computer_choice if seat in computers else member_choice
        apply(match, seat, chooser(match, seat))
    return match


def scripted(
    fmt: GameFormat, computers: frozenset[int] = COMPUTERS, *, short: bool = False
) -> tuple[int, dict[int, str]]:
    """The first seed from ``FIRST_SEED`` whose match has every kill point, and its plan."""
    for seed in range(FIRST_SEED, FIRST_SEED + 200):
        try:
            return seed, kill_plan(fmt, seed, computers, short=short)
        except StopIteration:
            continue
    raise AssertionError("no seed has every kill point")


def kill_plan(
    fmt: GameFormat, seed: int, computers: frozenset[int] = COMPUTERS, *, short: bool = False
) -> dict[int, str]:
    """Where to kill: before trump (V5 joker six: during the bidding), mid-trick (idle and
    with a click in flight), with a computer's move pending, and late in the match; each at a
    member's turn. ``short``: only the first two.

    :raises StopIteration: the match of ``seed`` lacks one of them.
    """
    final = simulate(fmt, seed, computers)
    match = Match(seed, Rules(target_score=TARGET), fmt)
    turns: list[tuple[int, int, int, str]] = []  # (actions, seat to act, cards down, phase)
    for action in final.actions:
        turns.append((len(match.actions), match.to_act, len(match.current_trick()), match.phase))
        match.apply(action)
    member = [t for t in turns if t[1] not in computers]
    plan: dict[int, str] = {}

    def pick(kind: str, ok: object) -> None:
        k = next(t[0] for t in member if t[0] not in plan and ok(t))  # type: ignore[operator]
        plan[k] = kind

    first = BID if fmt.bids else TRUMP
    pick("idle", lambda t: t[3] == first)
    pick("inflight", lambda t: t[2] == 1)
    if short:
        return plan
    nexts = dict(pairwise(turns))
    pick("computer", lambda t: nexts.get(t, t)[1] in computers and t[0] > 3)
    pick("idle", lambda t: t[2] == 2 and t[0] > 10)
    pick("inflight", lambda t: t[0] > len(final.actions) // 2)
    return plan


class ThreePlayerScript(Script):
    """The scripted match at a three-seat table: two members and an easy computer."""

    def __init__(self, double: DiscordDouble, run: BotRun, fmt: GameFormat) -> None:
        super().__init__(double, run)
        self.fmt = fmt

    async def restart(self, *, computer_delay: float = 0.05, argv: list[str] | None = None) -> None:
        await super().restart(computer_delay=computer_delay, argv=argv or WRAPPER)

    async def open_table(self, *, kill_in_lobby: bool) -> None:
        host, second, *_ = self.double.members
        # the server's target: a format with its own (the joker six) refuses a table's
        settings = {"trump_seconds": TRUMP_SECONDS, "target_score": TARGET}
        await self.double.slash(host, self.channel, "hokm settings", settings)
        options = {"turn_seconds": TURN_SECONDS, "difficulty": "easy", "format": self.fmt.name}
        rec = await self.double.slash(host, self.channel, "hokm new", options)
        assert rec.ephemeral and "opened" in (rec.message.text if rec.message else "")
        (stored,) = read_tables(self.run.db)
        self.table_id = stored.table_id
        stored = await wait_stored(
            self.run.db,
            self.table_id,
            lambda s: s.state.get("message_id") is not None,
            what="the table message id stored",
        )
        assert len(stored.state["seats"]) == self.fmt.seats
        message = self.double.message(int(stored.state["message_id"]))
        await self.double.wait_until(lambda: bool(message.buttons()), what="the lobby buttons")
        if kill_in_lobby:
            await self.kill()
            await self.restart()
            self.old_buttons += 2
        rec = await self.double.click(second, message, label="Join", timeout=10)
        assert rec.response_type == 7, rec.response_name
        rec = await self.double.click(host, message, label="Start", timeout=10)
        assert rec.response_type == 7, rec.response_name


@pytest.mark.discord_double(ratelimits=False)
async def test_a_three_player_match_killed_and_restarted_ends_as_the_engine_plays_it(
    discord_double: DiscordDouble, tmp_path: Path
) -> None:
    with format_of(3, 1) as fmt:  # the same format the bot process has (with_formats)
        await play_three(discord_double, tmp_path, fmt)


@pytest.mark.discord_double(ratelimits=False)
async def test_v5_a_joker_six_match_killed_and_restarted_ends_as_the_engine_plays_it(
    discord_double: DiscordDouble, tmp_path: Path
) -> None:
    """The three-player test's first kill points on the joker six (idle at a member's bid, a
    click in flight mid-trick), two members and four easy computers,
    through the real ``python -m bot``: to ``JOKER_SHORT``'s target of 5 (the seed's 124
    would be hundreds of moves; the rules are ``JokerMatch``'s). Two points, not five and the
    lobby: each kill is a process restart, and the lobby, a computer's pending move and the
    late points are the three-player test's, whatever the format."""
    with joker_short() as fmt:  # the bot process registers it too (with_formats)
        assert fmt is JOKER_SHORT
        await play_three(discord_double, tmp_path, fmt, frozenset({2, 3, 4, 5}), short=True)


async def play_three(
    double: DiscordDouble,
    tmp_path: Path,
    fmt: GameFormat,
    computers: frozenset[int] = COMPUTERS,
    *,
    short: bool = False,
) -> None:
    """Kill at every point of ``kill_plan`` and compare the end with the engine's match
    (``short``: not in the lobby, and only the plan's first two points)."""
    seed, plan = scripted(fmt, computers, short=short)
    kinds = ["idle", "inflight"] if short else ["computer", "idle", "idle", "inflight", "inflight"]
    assert sorted(plan.values()) == kinds
    run = BotRun(double, tmp_path, seed=seed)
    script = ThreePlayerScript(double, run, fmt)
    try:
        await run.start(argv=WRAPPER)
        await script.open_table(kill_in_lobby=not short)
        final: Stored = await script.play(plan)
        assert final.status == "finished"
        expected = simulate(fmt, seed, computers)
        assert final.state["match"] == expected.to_dict(), "the match differs from the script"
        # the lobby, five points, the computer's twice; short: two points
        assert script.kills == (2 if short else 7)
        assert script.resumed_notes() == script.resumes
        (row,) = read_matches(run.db)
        assert row["match_id"] == script.table_id and row["seats"] == list(range(fmt.seats))
        assert row["game_format"] == fmt.name and row["winner_team"] == expected.winner_team
        guild = double.guild
        assert guild is not None
        host, second = double.members[:2]
        assert read_standings(run.db, guild.id) == {
            host.id: (1, int(expected.winner_team == 0)),
            second.id: (1, int(expected.winner_team == 1)),
        }, "standings count the match exactly once"
        await double.wait_for_message(
            script.channel, lambda m: "the match" in m.text and bool(m.buttons()), timeout=15
        )
        assert run.tracebacks() == []
    finally:
        await run.close()
