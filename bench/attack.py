"""The load bench's attack mode: idle tables that keep the computer workers busy while victims
play (fair sharing)::

    python bench/bot_load.py --attack-tables 110 --tables 20 --computers 2 --difficulty hard

Before the ``--tables`` victim tables start (in their own server, played as in ``bench/bot_load.py``), attackers
open ``--attack-tables`` tables at ``--difficulty`` with ``turn_seconds`` 10 and target 13,
fill each with three computers and never play: after two missed turns the computer plays their
seat too, so every attack table asks the computer workers for a decision about once a second.
A member sits at one table at a time and a server opens at most ``max_open_tables`` (default
25), so the attack is modelled as far as those limits allow: one attacker account per table,
``--attack-per-server`` tables in each attack server (``ceil(110 / 25)`` = 5 servers). The
victims start ``--attack-warmup`` seconds later (by then the attack tables are all-computer) and
play for ``--seconds``. Extra keys:

``victim_computer_move_ms_p50/_p99/_max`` and ``victim_computer_moves``: for every card a
computer seat plays at a victim table, from the moment the computer's turn began (the bot's log
line committing the previous move at that table: the move before is saved, the computer's pause
starts) to the log line committing the computer's card (saved and handed to the outbox; the
next player's turn marker goes out with it). So it includes the ``--computer-delay`` pause (1 s)
and the thinking, the waiting for a worker and the table's store write. Trump choices are not
counted (they are not searched). ``attack_tables_open``, ``attack_seats_autoplayed`` (the
attackers' seats the computer took over) and ``attack_servers`` describe the attack.

``--attack-hints RATE`` is the other attack: one member pressing Hint RATE times a
second, ``bench/hint_attack.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bench.bot_text import OPENED, custom_ids, join_table_id
from bench.harness import Args, Bench
from bench.member import message_text
from bench.metrics import percentile, rounded
from bench.table_driver import TableDriver
from bot.service import commits as commits_module
from bot.service import persistence as persistence_module
from bot.service import service as service_module
from tests.double.models import Channel, StoredMessage, User
from tests.double.server import DiscordDouble

if TYPE_CHECKING:
    from bench.hint_attack import HintAttack

ATTACK_OPTIONS: dict[str, Any] = {"turn_seconds": 10, "target_score": 13}
"""The attackers' tables: the shortest turns (they go to the computer soonest), the longest match."""
SERVICE_LOGGERS = (service_module.log.name, commits_module.log.name, persistence_module.log.name)
"""The loggers of a table's lines, read from the bot: the service logs a table's opening, the
commit path each move's events, now from the table keeper's module (they moved three times, and
the bench silently counted nothing)."""
EVENTS_LINE_RE = re.compile(
    r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3}) INFO "
    + "(?:"
    + "|".join(re.escape(name) for name in SERVICE_LOGGERS)
    + r"): table (\w+): (.*)$"
)
OPENED_LINE_RE = re.compile(r"^opened in channel (\d+)")
EVENT_KINDS = frozenset(
    [
        "opened",
        "joined",
        "left",
        "computer_added",
        "started",
        "hand_dealt",
        "trump_named",
        "card_played",
        "trick",
        "hand_result",
        "match_over",
        "cancelled",
        "expired",
        "abandoned",
        "timeout",
        "timeout_trump",
        "replaced",
        "back",
        "resumed",
    ]
)
"""The first word of a committed change's log line (``TableService._commit``)."""


class AttackDriver(TableDriver):
    """An attacker: opens a table, fills it with computers and never plays a card."""

    async def run(self, start_delay: float) -> None:
        bench = self.bench
        await bench.sleep(start_delay)
        for _ in range(3):
            if await self.open_idle({"difficulty": bench.args.difficulty, **ATTACK_OPTIONS}):
                bench.stats["attack_tables_open"] += 1
                return
            await bench.sleep(1.0 + self.rng.random())

    async def open_idle(self, options: dict[str, Any]) -> bool:
        """Open a table with ``options`` and fill it with three computers (the match starts)."""
        bench, host = self.bench, self.members[0]
        record = await bench.answer(
            lambda: self.double.slash(host.user, self.channel, "hokm new", options, wait=False),
            "/hokm new (attack)",
        )
        text = message_text(record.original if record else None)
        if record is None or not OPENED(text):
            bench.rejections[f"attack /hokm new: {text[:60]}"] += 1
            return False
        found: list[StoredMessage] = []

        def posted() -> bool:
            msg = self._find_table_message(record.id)
            if msg is not None:
                found.append(msg)
            return msg is not None

        if not await bench.poller.until(posted, 60.0):
            return False
        table_id = self.table_id = join_table_id(found[0].components) or ""
        self.table_message = found[0]
        for _ in range(3):
            await bench.answer(
                lambda: self.double.click(
                    host.user,
                    found[0],
                    custom_id=custom_ids.lobby_id(table_id, "add_computer"),
                    wait=False,
                ),
                "Add computer (attack)",
            )
        return True


@dataclass
class Attack:
    """The attack servers, their channels and one attacker account per table."""

    args: Args
    guild_ids: list[int]
    channels: list[Channel]
    users: list[User]

    def patch_env(self, env: dict[str, str], victim_guild_ids: list[int]) -> None:
        """Commands are synced to the attack servers too (they are dev guilds of the run)."""
        env["HOKM_DEV_GUILD_IDS"] = json.dumps([*victim_guild_ids, *self.guild_ids])

    async def start(self, bench: Bench) -> None:
        """Open the attack tables, then wait ``--attack-warmup`` for them to go all-computer."""
        drivers = [
            AttackDriver(bench, 100_000 + i, channel, [user])
            for i, (channel, user) in enumerate(zip(self.channels, self.users, strict=True))
        ]
        ramp = min(self.args.ramp or 5.0, self.args.attack_warmup / 3)
        tasks = [
            asyncio.create_task(d.run(ramp * i / max(1, len(drivers))))
            for i, d in enumerate(drivers)
        ]
        print(f"attack: opening {len(drivers)} tables", file=sys.stderr)
        await asyncio.wait(tasks, timeout=self.args.attack_warmup)
        await asyncio.sleep(max(0.0, self.args.attack_warmup - ramp))
        print(
            f"attack: {bench.stats['attack_tables_open']} tables open; victims start",
            file=sys.stderr,
        )

    def report(
        self, log_text: str, victim_channels: Sequence[Channel], since: float, until: float
    ) -> dict[str, Any]:
        victims = {c.id for c in victim_channels}
        attackers = {c.id for c in self.channels}
        moves, autoplayed, open_ = victim_computer_moves(log_text, victims, attackers, since, until)
        return {
            "victim_computer_move_ms_p50": rounded(percentile(moves, 50)),
            "victim_computer_move_ms_p99": rounded(percentile(moves, 99)),
            "victim_computer_move_ms_max": rounded(max(moves, default=math.nan)),
            "victim_computer_moves": len(moves),
            "attack_tables_open": open_,
            "attack_seats_autoplayed": autoplayed,
            "attack_servers": len(self.guild_ids),
        }


def plan_attack(double: DiscordDouble, args: Args) -> Attack | HintAttack | None:
    """Attack servers of ``--attack-per-server`` tables, one attacker per table; or the one
    member pressing Hint (``--attack-hints``)."""
    if args.attack_hints > 0:
        from bench.hint_attack import plan_hint_attack

        return plan_hint_attack(double, args)
    if args.attack_tables <= 0:
        return None
    guild_ids: list[int] = []
    channels: list[Channel] = []
    users: list[User] = []
    servers = math.ceil(args.attack_tables / args.attack_per_server)
    for g in range(servers):
        guild = double.create_guild(f"Attack {g}")
        guild_ids.append(guild.id)
        count = min(args.attack_per_server, args.attack_tables - g * args.attack_per_server)
        for i in range(count):
            channels.append(double.add_text_channel(guild, f"attack-{g}-{i:03d}"))
            users.append(double.add_member(guild, f"x{g}{i:03d}"))
    return Attack(args, guild_ids, channels, users)


def victim_computer_moves(
    log_text: str, victims: set[int], attackers: set[int], since: float, until: float
) -> tuple[list[float], int, int]:
    """(ms per computer card at victim tables, attack seats taken over, attack tables opened),
    read from the bot's log: see the module docstring for what a move's time covers."""
    channel_of: dict[str, int] = {}
    computers: dict[str, set[int]] = {}
    last: dict[str, float] = {}
    moves: list[float] = []
    autoplayed = 0
    for line in log_text.splitlines():
        found = EVENTS_LINE_RE.match(line)
        if found is None:
            continue
        stamp, millis, table_id, rest = found.groups()
        at = time.mktime(time.strptime(stamp, "%Y-%m-%d %H:%M:%S")) + int(millis) / 1000
        opened = OPENED_LINE_RE.match(rest)
        if opened:
            channel_of[table_id] = int(opened.group(1))
        if rest.split(" ", 1)[0] not in EVENT_KINDS and not opened:
            continue
        events = [e.split() for e in rest.split(", ")]
        seat_of = {
            kind: int(w[5:]) for kind, *words in events for w in words if w.startswith("seat=")
        }
        channel = channel_of.get(table_id)
        if channel in attackers:
            autoplayed += sum(1 for kind, *_ in events if kind == "replaced")
        if "computer_added" in seat_of:
            for kind, *words in events:
                if kind == "computer_added":
                    computers.setdefault(table_id, set()).update(
                        int(w[5:]) for w in words if w.startswith("seat=")
                    )
        if (
            channel in victims
            and "card_played" in seat_of
            and seat_of["card_played"] in computers.get(table_id, ())
            and table_id in last
            and since <= at <= until
        ):
            moves.append((at - last[table_id]) * 1000)
        last[table_id] = at
    return moves, autoplayed, sum(1 for c in channel_of.values() if c in attackers)


def add_attack_args(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("attack mode (fair sharing; see bench/attack.py)")
    group.add_argument(
        "--attack-tables",
        type=int,
        default=0,
        help="tables opened by idle attackers before the victims start (0: no attack); one "
        "attacker account per table, as a member may sit at one table at a time",
    )
    group.add_argument(
        "--attack-per-server",
        type=int,
        default=25,
        help="attack tables per attack server (the default max_open_tables is 25)",
    )
    group.add_argument(
        "--attack-warmup",
        type=float,
        default=45.0,
        help="seconds from the attack to the victims: two missed 10 s turns (or a 30 s trump "
        "choice and a turn) hand the attackers' seats to the computer",
    )
    group.add_argument(
        "--attack-hints",
        type=float,
        default=0.0,
        metavar="RATE",
        help="one member at a table of their own presses Hint RATE times a second while the "
        "victims play (see bench/hint_attack.py); not with --attack-tables",
    )
