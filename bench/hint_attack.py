"""The load bench's hint attack: one member pressing Hint while the victims play::

    python bench/bot_load.py --attack-hints 5 --tables 20 --computers 2 --difficulty hard

Before the ``--tables`` victim tables start, the attacker opens a table of their own in a server
of its own: hints on, 60 s turns, three *easy* computers (they never ask the worker, so what
this table costs the worker is its hints alone). From then until the run ends they send
``/hokm hint`` in its channel RATE times a second, whether it is their turn or not (a refusal
costs the worker nothing), and on a turn to play a card they hold it ``HOLD_SECONDS`` before
playing, so that most of the run is spent pressing on their turn; trump and a forced card are
played at once (their hints are never searched: R5 names the longest suit).

The figure to watch is ``victim_computer_think_ms_p50`` (``bench.metrics.thinking_report``:
every run reports it), the median think time of a computer's decision at the victims' tables
(what was left of its 1.1 s when the worker started it), against the same run without
``--attack-hints``. Extra keys:
``attack_hint_presses`` (sent), ``attack_hint_answered`` (the bot answered the interaction),
``attack_hint_turns`` (turns the attacker held), ``attack_hint_searches`` (hint searches the
worker logged during the run: the presses that cost a search).
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bench.attack import AttackDriver
from bench.bot_text import custom_ids
from bench.harness import Args, Bench
from bench.member import read_hand
from bench.metrics import thinking_report
from bench.table_driver import UPDATE_MESSAGE
from tests.double.interactions import InteractionRecord
from tests.double.models import Channel, StoredMessage, User
from tests.double.server import DiscordDouble

HINT_TABLE_OPTIONS: dict[str, Any] = {"difficulty": "easy", "hints": True, "turn_seconds": 60}
"""The attacker's table: hints on, the longest turns, computers that never search."""
HOLD_SECONDS = 40.0
"""How long the attacker keeps a turn to play a card (well inside the 60 s turn)."""
LOOK_SECONDS = 0.5
"""How often the attacker presses "My hand" to see whether it is their turn."""


class HintAttacker(AttackDriver):
    """Opens the hint table, then presses Hint RATE times a second and plays slowly."""

    async def open_table(self) -> bool:
        for _ in range(3):
            if await self.open_idle(dict(HINT_TABLE_OPTIONS)):
                return True
            await self.bench.sleep(1.0 + self.rng.random())
        return False

    async def press(self) -> None:
        bench, member = self.bench, self.members[0]
        bench.stats["attack_hint_presses"] += 1
        record = await bench.answer(
            lambda: self.double.slash(member.user, self.channel, "hokm hint", wait=False),
            "/hokm hint (attack)",
        )
        if record is not None:
            bench.stats["attack_hint_answered"] += 1

    async def spam(self, rate: float, tasks: set[asyncio.Task[None]]) -> None:
        """``/hokm hint`` every ``1 / rate`` seconds, without waiting for the answers."""
        loop = asyncio.get_running_loop()
        next_at = loop.time()
        while not self.bench.stopping:
            task = asyncio.create_task(self.press())
            tasks.add(task)
            task.add_done_callback(tasks.discard)
            next_at += 1.0 / rate
            await asyncio.sleep(max(0.0, next_at - loop.time()))

    async def play_slowly(self) -> None:
        """Look at the hand; hold a turn with a choice of cards ``HOLD_SECONDS``."""
        bench, member, msg = self.bench, self.members[0], self.table_message
        assert msg is not None
        while not bench.stopping:
            record = await bench.answer(
                lambda: self.double.click(
                    member.user,
                    msg,
                    custom_id=custom_ids.my_hand_id(self.table_id),
                    stale=True,
                    wait=False,
                ),
                "My hand (attack)",
            )
            eph = record.original if record is not None else None
            view = read_hand(eph) if eph is not None else None
            if eph is None or view is None or not view.actionable:
                await bench.sleep(LOOK_SECONDS)
                continue
            if len(view.green_ids) > 1:  # a forced card is never searched: played at once
                bench.stats["attack_hint_turns"] += 1
                await bench.sleep(HOLD_SECONDS)
                if bench.stopping:
                    return
            played = await self.click(eph, self.rng.choice(view.trump_ids or view.green_ids))
            if played is None or played.response_type != UPDATE_MESSAGE:
                await bench.sleep(LOOK_SECONDS)

    async def click(self, msg: StoredMessage, custom_id: str) -> InteractionRecord | None:
        user = self.members[0].user
        return await self.bench.answer(
            lambda: self.double.click(user, msg, custom_id=custom_id, wait=False), "play (attack)"
        )


@dataclass
class HintAttack:
    """The attacker's server, channel and account, and what they did."""

    args: Args
    guild_ids: list[int]
    channel: Channel
    user: User
    bench: Bench | None = None
    tasks: set[asyncio.Task[None]] = field(default_factory=set)

    def patch_env(self, env: dict[str, str], victim_guild_ids: list[int]) -> None:
        """Commands are synced to the attacker's server too (a dev guild of the run)."""
        env["HOKM_DEV_GUILD_IDS"] = json.dumps([*victim_guild_ids, *self.guild_ids])

    async def start(self, bench: Bench) -> None:
        """Open the attacker's table; the pressing and playing go on until the run ends."""
        self.bench = bench
        attacker = HintAttacker(bench, 200_000, self.channel, [self.user])
        if not await attacker.open_table():
            print("hint attack: the attacker's table did not open", file=sys.stderr)
            return
        for work in (attacker.spam(self.args.attack_hints, self.tasks), attacker.play_slowly()):
            task = asyncio.create_task(work)
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        print(
            f"hint attack: {self.args.attack_hints:g} presses a second; victims start",
            file=sys.stderr,
        )

    def report(
        self, log_text: str, victim_channels: Sequence[Channel], since: float, until: float
    ) -> dict[str, Any]:
        stats = self.bench.stats if self.bench is not None else {}
        searched = thinking_report(log_text, {c.id for c in victim_channels}, since, until)
        return {
            "attack_hints_rate": self.args.attack_hints,
            "attack_hint_presses": stats.get("attack_hint_presses", 0),
            "attack_hint_answered": stats.get("attack_hint_answered", 0),
            "attack_hint_turns": stats.get("attack_hint_turns", 0),
            "attack_hint_searches": searched["hint_searches"],
        }


def plan_hint_attack(double: DiscordDouble, args: Args) -> HintAttack:
    """A server of its own with one channel and one member: the attacker."""
    if args.attack_tables > 0:
        raise SystemExit("--attack-hints and --attack-tables are two attacks: choose one")
    guild = double.create_guild("Hint Attack")
    channel = double.add_text_channel(guild, "hint-attack")
    user = double.add_member(guild, "hinter")
    return HintAttack(args, [guild.id], channel, user)
