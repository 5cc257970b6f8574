"""Churn benchmark: does the bot's memory stay flat while tables come and go?

``python bench/bot_load.py --churn 2000`` runs the bot exactly as in production (its own
process, SQLite store) against the local Discord double with its rate limits on, and in
``--churn-lanes`` channels at once (a host each) repeats ``/hokm new`` → Start (three computers
take the free seats) → ``/hokm cancel`` until 2000 tables were opened. Every
``--churn-finish-every``-th table of a lane is played to the end instead (target 1) by its host
through "My hand", so the bot also keeps (and must let go of) the interactions of played cards.
The same members and channels come back again and again, as in a real server: what grows is
what the bot keeps per table.

The bot's RSS is read after a warm-up (``--churn-warmup`` tables: caches, the command tree, the
first computer players) and again once everything ran and the bot sent its last message;
``rss_growth_mb`` is the difference (target: < 10 MB for 2000 tables). ``--computer-delay``
(at most 0.05 here) and ``--keep-log FILE`` work as in the load mode. The last line printed is
one JSON object; progress goes to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from bench.bot_text import (  # noqa: E402
    CHANNEL_BUSY,
    STALE,
    click_of,
    custom_ids,
)
from bench.member import read_hand  # noqa: E402
from bench.metrics import rss_mb  # noqa: E402
from tests.double.interactions import InteractionRecord  # noqa: E402
from tests.double.models import Channel, StoredMessage, User  # noqa: E402
from tests.double.process import BotProcess  # noqa: E402
from tests.double.ratelimit import RateLimitConfig  # noqa: E402
from tests.double.server import DiscordDouble  # noqa: E402

POLL = 0.02
QUIET_SECONDS = 3.0
"""The bot is done when the double has seen no request for this long."""


@dataclass
class ChurnArgs:
    churn: int
    lanes: int
    warmup: int
    finish_every: int
    computer_delay: float
    keep_log: str | None


def parse_churn(argv: Sequence[str] | None) -> ChurnArgs | None:
    """The churn options, if ``--churn N`` is among ``argv`` (other options are left alone)."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument(
        "--churn",
        type=int,
        default=0,
        metavar="N",
        help="churn mode: open → start → cancel N tables and report the bot's RSS growth",
    )
    parser.add_argument("--churn-lanes", type=int, default=20, help="churn: channels at once")
    parser.add_argument(
        "--churn-warmup", type=int, default=200, help="churn: tables before the first RSS reading"
    )
    parser.add_argument(
        "--churn-finish-every",
        type=int,
        default=50,
        help="churn: every Nth table of a lane is played to the end instead (0: never)",
    )
    parser.add_argument("--computer-delay", type=float, default=0.05)
    parser.add_argument("--keep-log")
    ns, _ = parser.parse_known_args(argv)
    if ns.churn <= 0:
        return None
    return ChurnArgs(
        churn=ns.churn,
        lanes=max(1, ns.churn_lanes),
        warmup=max(0, ns.churn_warmup),
        finish_every=max(0, ns.churn_finish_every),
        computer_delay=min(ns.computer_delay, 0.05),
        keep_log=ns.keep_log,
    )


# --------------------------------------------------------------------------- one lane


class Lane:
    """One channel and its host, opening tables one after another."""

    def __init__(self, double: DiscordDouble, channel: Channel, host: User) -> None:
        self.double = double
        self.channel = channel
        self.host = host
        self.seen = 0
        """Messages of the channel already looked at (a new table message comes after)."""
        self.opened = 0
        self.finished = 0
        self.cards = 0
        self.last_reply = ""
        self.retries = 0
        """What the bot last answered this lane's host (shown if a table does not open)."""

    async def table_message(self) -> tuple[StoredMessage, str]:
        """The next table message the bot posts in this channel (it has a Start button), and
        its table id."""
        world = self.double.world
        ids = world.channels[self.channel.id].message_ids
        deadline = time.monotonic() + 60.0
        while True:
            for index in range(self.seen, len(ids)):
                message = world.messages[ids[index]]
                for button in message.buttons():
                    click = click_of(button.custom_id)
                    if click is not None and click.kind == "lobby" and click.action == "start":
                        self.seen = index + 1
                        return message, click.table_id
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"no table message in {self.channel.label()}; the bot said: {self.last_reply}"
                )
            await asyncio.sleep(POLL)

    async def cycle(self, finish: bool) -> None:
        double, host = self.double, self.host
        options = {"target_score": 1, "difficulty": "easy"}
        for _ in range(3):
            record = await answered(
                double.slash(host, self.channel, "hokm new", options, wait=False)
            )
            self.last_reply = record.message.text if record and record.message else repr(record)
            if not CHANNEL_BUSY(self.last_reply):
                break
            # the last table is still live (its cancel was not answered in time): close it
            self.retries += 1
            await answered(double.slash(host, self.channel, "hokm cancel", wait=False))
        message, table_id = await self.table_message()
        self.opened += 1
        start = custom_ids.lobby_id(table_id, "start")
        await answered(double.click(host, message, custom_id=start, wait=False))
        if finish:
            await self.play_out(message, table_id)
            self.finished += 1
        else:
            await answered(double.slash(host, self.channel, "hokm cancel", wait=False))

    async def play_out(self, table: StoredMessage, table_id: str, limit: float = 300.0) -> None:
        """The host plays from "My hand" until the match is over (the computers play fast)."""
        my_hand = custom_ids.my_hand_id(table_id)
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            record = await answered(
                self.double.click(self.host, table.id, custom_id=my_hand, wait=False)
            )
            shown = record.message if record is not None else None
            if shown is None or STALE(shown.text):
                return  # the match is over: the table is gone
            view = read_hand(shown)
            choices = view.trump_ids or view.green_ids
            if not choices:
                await asyncio.sleep(0.05)  # not the host's turn (or trump not named) yet
                continue
            await answered(self.double.click(self.host, shown, custom_id=choices[0]))
            self.cards += 1
        raise RuntimeError(f"the match in {self.channel.label()} did not end")


async def answered(start: Any) -> InteractionRecord | None:
    """Send one interaction and wait (polling, not on every change) for the bot's answer."""
    try:
        record: InteractionRecord = await start
    except (ValueError, LookupError):  # a button that moved on (the table just ended)
        return None
    deadline = time.monotonic() + 10.0
    while not (record.responded or record.expired or not record.delivered):
        if time.monotonic() > deadline:
            return None
        await asyncio.sleep(POLL)
    return record if record.responded else None


# --------------------------------------------------------------------------- the run


def churn_env(double: DiscordDouble, tmp: Path, guild_id: int, args: ChurnArgs) -> dict[str, str]:
    env = dict(double.env())
    env.update(
        {
            "HOKM_DATABASE_URL": f"sqlite+aiosqlite:///{tmp / 'hokm.sqlite3'}",
            "HOKM_DEV_GUILD_IDS": json.dumps([guild_id]),
            "HOKM_COMMAND_SYNC_FILE": str(tmp / "command-sync.sha256"),
            "HOKM_GUILD_READY_TIMEOUT": "0.2",
            "HOKM_COMPUTER_DELAY_SECONDS": str(args.computer_delay),
            "HOKM_LOG_LEVEL": "INFO",
        }
    )
    return env


async def quiet(double: DiscordDouble, within: float = 300.0) -> None:
    """Wait until the bot has sent its last message (no request for ``QUIET_SECONDS``)."""
    deadline = time.monotonic() + within
    last, since = -1, time.monotonic()
    while time.monotonic() < deadline:
        count = double.counters.total
        if count != last:
            last, since = count, time.monotonic()
        elif time.monotonic() - since >= QUIET_SECONDS:
            return
        await asyncio.sleep(0.2)


async def run_lanes(lanes: list[Lane], start: int, stop: int, finish_every: int) -> None:
    """Tables ``start``..``stop`` (counted over all lanes), spread round robin."""

    async def drive(k: int, lane: Lane) -> None:
        for n in range(start + k, stop, len(lanes)):
            turn = n // len(lanes) + 1
            await lane.cycle(finish=bool(finish_every) and turn % finish_every == 0)

    await asyncio.gather(*(drive(k, lane) for k, lane in enumerate(lanes)))


async def run_churn(args: ChurnArgs) -> dict[str, Any]:
    double = DiscordDouble(ratelimits=RateLimitConfig(enabled=True))
    await double.start()
    tmp = Path(tempfile.mkdtemp(prefix="hokm-churn-"))
    bot: BotProcess | None = None
    try:
        guild = double.create_guild("Hokm Churn")
        lanes = [
            Lane(
                double,
                double.add_text_channel(guild, f"churn-{i:02d}"),
                double.add_member(guild, f"host{i:02d}"),
            )
            for i in range(args.lanes)
        ]
        env = churn_env(double, tmp, guild.id, args)
        bot = await BotProcess.start(double, env=env, ready="commands", timeout=60.0)
        await asyncio.sleep(1.0)  # guild_ready_timeout, then on_ready
        t0 = time.monotonic()
        warm = min(args.warmup, args.churn)
        await run_lanes(lanes, 0, warm, args.finish_every)
        await quiet(double)
        rss_warm = rss_mb(bot.pid)
        print(f"warm-up: {warm} tables, bot RSS {rss_warm:.1f} MB", file=sys.stderr)
        await run_lanes(lanes, warm, args.churn, args.finish_every)
        await quiet(double)
        rss_end = rss_mb(bot.pid)
        elapsed = time.monotonic() - t0
        log = bot.output(tail=10**9)
        return {
            "churn_tables": sum(lane.opened for lane in lanes),
            "finished_matches": sum(lane.finished for lane in lanes),
            "host_cards_played": sum(lane.cards for lane in lanes),
            "rss_after_warmup_mb": round(rss_warm, 1),
            "rss_end_mb": round(rss_end, 1),
            "rss_growth_mb": round(rss_end - rss_warm, 1),
            "tables_after_warmup": args.churn - warm,
            "seconds": round(elapsed, 1),
            "busy_retries": sum(lane.retries for lane in lanes),
            "http_429": double.counters.http_429,
            "error_lines": sum(1 for ln in log.splitlines() if " ERROR " in ln),
            "tracebacks": log.count("Traceback"),
        }
    finally:
        if bot is not None:
            if args.keep_log:
                await asyncio.to_thread(Path(args.keep_log).write_text, bot.output(tail=10**9))
            await bot.kill()
            bot.close_log()
        await double.stop()
        shutil.rmtree(tmp, ignore_errors=True)


def churn_main(argv: Sequence[str] | None) -> bool:
    """Run the churn mode if asked for (``--churn N``); False leaves the run to the caller."""
    args = parse_churn(sys.argv[1:] if argv is None else argv)
    if args is None:
        return False
    result = asyncio.run(run_churn(args))
    print(json.dumps(result, ensure_ascii=False))
    return True
