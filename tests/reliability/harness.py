"""``python -m bot`` as a real process on one SQLite file: start, SIGKILL, restart; members
who play the scripted match by clicking what the bot sent them; the committed state read
straight from the database file, as a restarted bot reads it.
"""

# Waiting helpers take a timeout so a failure can say what it waited for.
# ruff: noqa: ASYNC109, RUF100

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.present import render
from bot.service.table import Table
from engine import Match
from tests.double.interactions import InteractionRecord
from tests.double.models import StoredMessage, User
from tests.double.process import BotProcess
from tests.double.server import DiscordDouble

from .script import SEED, button_id, member_choice
from .warm import Zygote, start_bot

RESUMED = "The bot restarted; this table carries on where it was."


# --------------------------------------------------------------------------- the database


@dataclass(frozen=True)
class Stored:
    """One committed row of ``game_tables``."""

    table_id: str
    status: str
    version: int
    state: dict[str, Any]

    @property
    def match(self) -> Match | None:
        data = self.state.get("match")
        return None if data is None else Match.from_dict(data)

    @property
    def actions(self) -> int:
        data = self.state.get("match")
        return 0 if data is None else len(data["actions"])

    @property
    def table(self) -> Table:
        return Table.from_dict(self.state)

    def seat(self, index: int) -> dict[str, Any]:
        seat = self.state["seats"][index]
        assert seat is not None, f"seat {index} is empty"
        return dict(seat)

    def member_to_act(self) -> int | None:
        """The user id whose click the table waits for, if a member (not the computer) acts."""
        match = self.match
        if self.status != "playing" or match is None:
            return None
        seat = self.seat(match.to_act)
        if seat["user_id"] is None or seat["autoplay"]:
            return None
        return int(seat["user_id"])


def _connect(db: Path) -> sqlite3.Connection:
    # Read-only: the test must not be the one that recovers the WAL after a kill.
    return sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)


def read_tables(db: Path) -> list[Stored]:
    with closing(_connect(db)) as conn:
        rows = conn.execute(
            "SELECT table_id, status, version, state FROM game_tables ORDER BY created_at"
        ).fetchall()
        return [_stored(conn, r) for r in rows]


def read_table(db: Path, table_id: str) -> Stored | None:
    with closing(_connect(db)) as conn:
        row = conn.execute(
            "SELECT table_id, status, version, state FROM game_tables WHERE table_id = ?",
            (table_id,),
        ).fetchone()
        return None if row is None else _stored(conn, row)


def _stored(conn: sqlite3.Connection, row: tuple[Any, ...]) -> Stored:
    """A table as the store holds it; its message's id, kept in a row of its own
    (``table_deliveries``, seat -1: not part of the game's state), as ``message_id``."""
    found = conn.execute(
        "SELECT message_id FROM table_deliveries WHERE table_id = ? AND seat = -1", (row[0],)
    ).fetchone()
    state = json.loads(row[3]) | {"message_id": None if found is None else found[0]}
    return Stored(row[0], row[1], row[2], state)


def read_matches(db: Path) -> list[dict[str, Any]]:
    with closing(_connect(db)) as conn:
        conn.row_factory = sqlite3.Row
        rows = conn.execute("SELECT * FROM matches ORDER BY finished_at").fetchall()
        players = conn.execute("SELECT match_id, seat FROM match_players").fetchall()
    found = []
    for row in rows:
        item = dict(row)
        item["hands"] = json.loads(item["hands"])
        item["seats"] = sorted(p["seat"] for p in players if p["match_id"] == item["match_id"])
        found.append(item)
    return found


def read_standings(db: Path, guild_id: int) -> dict[int, tuple[int, int]]:
    """user id -> (matches played, matches won)."""
    with closing(_connect(db)) as conn:
        rows = conn.execute(
            "SELECT user_id, matches_played, matches_won FROM standings WHERE guild_id = ?",
            (guild_id,),
        ).fetchall()
    return {r[0]: (r[1], r[2]) for r in rows}


async def wait_stored(
    db: Path,
    table_id: str,
    predicate: Callable[[Stored], bool],
    *,
    what: str,
    timeout: float = 20.0,
) -> Stored:
    """Poll the database file until the committed row satisfies ``predicate``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    last: Stored | None = None
    while True:
        last = read_table(db, table_id)
        if last is not None and predicate(last):
            return last
        if loop.time() > deadline:
            shown = None if last is None else (last.status, last.actions, last.version)
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}; {shown}")
        await asyncio.sleep(0.02)


# --------------------------------------------------------------------------- the bot process


class BotRun:
    """Successive lifetimes of ``python -m bot`` on one database, against one double.

    ``warm``: each lifetime is forked from a zygote that has imported the bot already
    (``warm.py``), instead of a new interpreter: the crash tests restart it a dozen times."""

    def __init__(
        self, double: DiscordDouble, workdir: Path, *, seed: int = SEED, warm: bool = False
    ) -> None:
        self.double = double
        self.warm = warm
        self.zygote: Zygote | None = None
        self.db = workdir / "hokm.sqlite3"
        self.workdir = workdir
        self.seed = seed
        self.proc: BotProcess | None = None
        self.starts = 0
        self.logs: list[str] = []

    def env(self, computer_delay: float) -> dict[str, str]:
        assert self.double.guild is not None
        return {
            "HOKM_DATABASE_URL": f"sqlite+aiosqlite:///{self.db}",
            "HOKM_DEV_GUILD_IDS": json.dumps([g for g in self.double.world.guilds]),
            "HOKM_COMMAND_SYNC_FILE": str(self.workdir / "command-sync.sha256"),
            "HOKM_COMPUTER_DELAY_SECONDS": str(computer_delay),
            "HOKM_GUILD_READY_TIMEOUT": "0.05",
            "HOKM_MATCH_SEED_BASE": str(self.seed),
            "HOKM_LOG_LEVEL": "INFO",
        }

    async def start(
        self,
        *,
        computer_delay: float = 0.05,
        argv: list[str] | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        """``python -m bot`` (or ``argv``, with ``env`` added), ready once it has identified at
        the gateway."""
        assert self.proc is None, "the previous bot process is still running"
        if not self.warm:
            self.proc = await BotProcess.start(
                self.double,
                argv,
                env=self.env(computer_delay) | (env or {}),
                ready="identify",
                timeout=60,
            )
        else:
            if self.zygote is None:
                self.zygote = await Zygote.start(self.double)
            self.proc = await start_bot(
                self.zygote, self.double, argv, self.env(computer_delay) | (env or {}), timeout=60
            )
        self.starts += 1

    async def died(self) -> int:
        """Wait for the process to end by itself; its exit status."""
        assert self.proc is not None
        code = await self.proc.wait(timeout=20)
        self.logs.append(self.proc.output(tail=200_000))
        self.proc.close_log()
        self.proc = None
        return code

    async def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as when the host dies."""
        assert self.proc is not None
        await self.proc.kill()
        self.logs.append(self.proc.output(tail=200_000))
        self.proc.close_log()
        self.proc = None

    async def close(self) -> None:
        if self.proc is not None:
            await self.kill()
        if self.zygote is not None:
            await self.zygote.close()

    def tracebacks(self) -> list[str]:
        """Log excerpts of every traceback any lifetime printed."""
        logs = [*self.logs, self.proc.output(tail=200_000) if self.proc else ""]
        return [
            log[max(0, log.find("Traceback") - 300) :][:3000] for log in logs if "Traceback" in log
        ]


# --------------------------------------------------------------------------- the members


def choice_id(stored: Stored) -> str:
    """The custom_id of the button the member to act clicks in the scripted match."""
    match = stored.match
    assert match is not None
    return button_id(stored.table_id, match.hand_number, member_choice(match, match.to_act))


def holding(messages: list[StoredMessage], custom_id: str) -> StoredMessage | None:
    """The newest message that shows an enabled button with ``custom_id``."""
    for message in reversed(messages):
        if any(b.custom_id == custom_id and not b.disabled for b in message.buttons()):
            return message
    return None


class Members:
    """The simulated members: they see only what the double shows them."""

    def __init__(self, double: DiscordDouble) -> None:
        self.double = double
        self.by_id = {u.id: u for u in double.world.users.values()}

    def user(self, user_id: int) -> User:
        return self.by_id[user_id]

    def private_messages(self, user: User) -> list[StoredMessage]:
        """The user's DMs and ephemerals, oldest first."""
        found = self.double.dms(user) + self.double.ephemerals(user)
        return sorted(found, key=lambda m: m.id)

    async def button(self, user: User, custom_id: str, timeout: float = 20.0) -> StoredMessage:
        found: list[StoredMessage] = []

        def check() -> bool:
            message = holding(self.private_messages(user), custom_id)
            found[:] = [message] if message else []
            return bool(found)

        await self.double.wait_until(
            check, timeout=timeout, what=f"a DM to {user.username} with {custom_id}"
        )
        return found[0]

    async def play(self, stored: Stored, *, wait: bool = True) -> InteractionRecord:
        """The member to act clicks their scripted choice in the newest DM showing it."""
        user_id = stored.member_to_act()
        assert user_id is not None, "not a member's turn"
        user = self.user(user_id)
        custom_id = choice_id(stored)
        message = await self.button(user, custom_id)
        return await self.double.click(user, message, custom_id=custom_id, wait=wait, timeout=10)


def hand_text(stored: Stored, seat: int) -> str:
    """What the seat's DM must show for this committed state."""
    return render.hand_message(stored.table, seat).content


def table_text(stored: Stored) -> str:
    """The description of the public table message for this committed state."""
    spec = render.table_message(stored.table)
    assert spec.embed is not None
    return spec.embed.description


def embed_description(message: StoredMessage) -> str:
    return str(message.embeds[0].get("description", "")) if message.embeds else ""
