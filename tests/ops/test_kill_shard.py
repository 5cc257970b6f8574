"""``kill -9`` of one of two bot processes in the middle of a hand (docs/scaling.md
"When a process dies"): the match goes on from the other process and ends exactly as it ends
when nobody is killed.

Two ``python -m bot`` processes of one token share one PostgreSQL database: A holds shard 0,
B shard 1. The table is in a server of shard 1, so B opens it, deals it and times it; every
DM click goes to shard 0, so A applies the members' cards from the first one on. The members
play the scripted match (``tests/reliability/script.py``: seed 5, target 2, three members
and an easy computer, two hands, 82 actions; each member's choice is a function of the
stored match alone). First the match is played with both processes up; then again at a new
table, with B SIGKILLed in the middle of hand 1, at a member's turn whose card hands the turn
to the computer. From then on A plays it alone: the members' clicks reach it as before, its
timers play the computer (the first move 3 s late, then it adopts the table), it deals hand 2.
B is started again in the middle of hand 2 and serves the table alongside A to the end. Both
runs must store the match the engine alone plays (every action once, in order) and the same
finished match, hand by hand; B, started again after the end, replays nothing.
"""

# ruff: noqa: ASYNC109, RUF100

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from engine.story import record
from tests.double.fixtures import BotProcessFactory
from tests.double.models import Channel, Guild, StoredMessage, User
from tests.double.process import BotProcess
from tests.double.server import DiscordDouble
from tests.reliability.harness import Members, Stored
from tests.reliability.script import COMPUTER_SEATS, SEED, TARGET, points, simulate

from .helpers import wait_for_output

SHARDS = 2
SERVING = 1
"""The shard of the table's server: process B's."""
TRUMP_SECONDS = 60
TURN_SECONDS = 60  # members click at once; nobody times out by accident on a slow machine
COMPUTER_DELAY = 0.05
KILL_AT = 19
"""Actions stored when B is killed: hand 1, mid-trick, a member's card about to hand the turn
to the computer (checked by ``test_the_kill_point_is_mid_hand_before_a_computer_turn``)."""
RESTART_AT = 51
"""Actions stored when B is started again: hand 2, mid-trick; it resumes the table and serves
it again, alongside A, to the end."""


def test_the_kill_point_is_mid_hand_before_a_computer_turn() -> None:
    pts = {p.actions: p for p in points()}
    at = pts[KILL_AT]
    assert at.hand == 1 and at.phase == "play" and 0 < at.trick_cards < 3
    assert at.to_act not in COMPUTER_SEATS and pts[KILL_AT + 1].to_act in COMPUTER_SEATS
    assert pts[45].hand == 2 and pts[45].phase == "trump"  # a new deal after the kill
    back = pts[RESTART_AT]
    assert back.hand == 2 and back.phase == "play" and back.trick_cards > 0
    assert back.to_act not in COMPUTER_SEATS


class Database:
    """The committed rows, read as a restarted bot reads them."""

    def __init__(self, url: str) -> None:
        self.engine = create_async_engine(url)

    async def close(self) -> None:
        await self.engine.dispose()

    async def rows(self, query: str, **params: Any) -> list[dict[str, Any]]:
        async with self.engine.connect() as conn:
            result = await conn.execute(sa.text(query), params)
            return [dict(r) for r in result.mappings()]

    async def table(self, table_id: str) -> Stored:
        (row,) = await self.rows(
            "SELECT table_id, status, version, state FROM game_tables WHERE table_id = :t",
            t=table_id,
        )
        return Stored(row["table_id"], row["status"], row["version"], json.loads(row["state"]))

    async def table_in(self, channel_id: int) -> Stored | None:
        rows = await self.rows(
            "SELECT table_id FROM game_tables WHERE channel_id = :c", c=channel_id
        )
        return await self.table(rows[0]["table_id"]) if rows else None

    async def wait(
        self, table_id: str, predicate: Callable[[Stored], bool], *, what: str, timeout: float
    ) -> Stored:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate(stored := await self.table(table_id)):
            assert loop.time() < deadline, (
                f"no {what} within {timeout:g} s: {stored.status}, {stored.actions} actions"
            )
            await asyncio.sleep(0.02)
        return stored

    async def finished_match(self, match_id: str) -> dict[str, Any]:
        """The recorded match without what differs from table to table (ids, times)."""
        (row,) = await self.rows("SELECT * FROM matches WHERE match_id = :m", m=match_id)
        for key in ("match_id", "channel_id", "started_at", "finished_at"):
            del row[key]
        row["hands"] = json.loads(row["hands"])
        row["team_results"] = json.loads(row["team_results"] or "null")
        row["players"] = await self.rows(
            "SELECT seat, team, user_id, is_computer, display_name FROM match_players"
            " WHERE match_id = :m ORDER BY seat",
            m=match_id,
        )
        (replay,) = await self.rows(
            "SELECT replay FROM match_replays WHERE match_id = :m", m=match_id
        )
        row["replay"] = json.loads(replay["replay"])
        return row


class Cluster:
    """Processes A (shard 0) and B (shard 1) of one token on one database."""

    def __init__(self, start: BotProcessFactory, env: dict[str, str], tmp: Path) -> None:
        self._start = start
        self.env = env
        self.tmp = tmp
        self.procs: dict[int, BotProcess] = {}
        self.logs: list[str] = []

    async def start(self, shard: int) -> BotProcess:
        argv = [sys.executable, "-m", "bot", "--shards", str(shard), "--shard-count", str(SHARDS)]
        env = self.env | {"HOKM_COMMAND_SYNC_FILE": str(self.tmp / f"sync-{shard}.sha256")}
        proc = await self._start(argv, env=env, ready=None)
        await wait_for_output(proc, "ready to serve", timeout=60)
        self.procs[shard] = proc
        return proc

    async def kill(self, shard: int) -> None:
        proc = self.procs.pop(shard)
        await proc.kill()
        self.logs.append(proc.output(tail=10**9))

    def output(self, shard: int) -> str:
        return self.procs[shard].output(tail=10**9)

    def tracebacks(self) -> list[str]:
        logs = [*self.logs, *(p.output(tail=10**9) for p in self.procs.values())]
        return [log[log.find("Traceback") - 300 :][:3000] for log in logs if "Traceback" in log]


class Game:
    """One table in its own channel of the shard-1 server, played by the scripted members."""

    def __init__(self, double: DiscordDouble, db: Database, guild: Guild, name: str) -> None:
        self.double = double
        self.db = db
        self.channel: Channel = double.add_text_channel(guild, name)
        self.members = Members(double)
        self.table_id = ""
        self.clicks = 0

    def lobby(self) -> StoredMessage | None:
        for message in self.double.messages_in(self.channel):
            if any(b.label == "Join" for b in message.buttons()):
                return message
        return None

    async def open(self, host: User, others: list[User]) -> None:
        options = {"target_score": TARGET, "turn_seconds": TURN_SECONDS, "difficulty": "easy"}
        rec = await self.double.slash(host, self.channel, "hokm new", options, timeout=10)
        assert rec.message is not None and "opened" in rec.message.text, rec.refused
        await self.double.wait_until(lambda: self.lobby() is not None, timeout=10, what="lobby")
        for user in others:
            message = self.lobby()
            assert message is not None
            rec = await self.double.click(user, message, label="Join", timeout=10)
            assert rec.response_type == 7, rec.response_name
        message = self.lobby()
        assert message is not None
        rec = await self.double.click(host, message, label="Start", timeout=10)
        assert rec.response_type == 7, rec.response_name
        stored = await self.db.table_in(self.channel.id)
        assert stored is not None and stored.status == "playing"
        self.table_id = stored.table_id

    async def play(self, until: int | None = None) -> Stored:
        """The members click their scripted choices until ``until`` actions are stored (and
        a member is to act) or the match is over."""
        while True:
            stored = await self.db.wait(
                self.table_id,
                lambda s: s.status != "playing" or s.member_to_act() is not None,
                what="a member's turn or the end of the match",
                timeout=30,
            )
            if stored.status != "playing" or stored.actions == until:
                return stored
            rec = await self.members.play(stored)
            assert rec.response_type == 7, rec.response_name
            self.clicks += 1
            after = await self.db.table(self.table_id)
            assert after.actions >= stored.actions + 1, "answered before it was stored"


@pytest.mark.discord_double(shard_count=SHARDS, ratelimits=False)
async def test_a_process_killed_mid_hand_changes_nothing_of_the_match(
    discord_double: DiscordDouble, bot_process: BotProcessFactory, tmp_path: Path, pg_url: str
) -> None:
    host, second, third = discord_double.members[:3]
    guild = discord_double.create_guild("Shard 1", shard=(SERVING, SHARDS))
    discord_double.add_member(guild, host, manage_guild=True)
    for user in (second, third):
        discord_double.add_member(guild, user)
    env = {
        "HOKM_DATABASE_URL": pg_url,
        "HOKM_DEV_GUILD_IDS": str(guild.id),
        "HOKM_GUILD_READY_TIMEOUT": "0.05",
        "HOKM_COMPUTER_DELAY_SECONDS": str(COMPUTER_DELAY),
        "HOKM_MATCH_SEED_BASE": str(SEED),
        "HOKM_LOG_LEVEL": "INFO",
    }
    cluster = Cluster(bot_process, env, tmp_path)
    db = Database(pg_url)
    try:
        await asyncio.gather(cluster.start(0), cluster.start(SERVING))
        settings = {"trump_seconds": TRUMP_SECONDS}
        expected = simulate()

        # Uninterrupted: both processes up from the first card to the last.
        calm = Game(discord_double, db, guild, "calm")
        rec = await discord_double.slash(host, calm.channel, "hokm settings", settings)
        assert rec.ephemeral, rec.refused
        await calm.open(host, [second, third])
        done = await calm.play()
        assert done.status == "finished"
        assert done.state["match"] == expected.to_dict()
        uninterrupted = await db.finished_match(calm.table_id)

        # Killed: B dies mid-hand; A plays on alone, B comes back in the next hand.
        killed = Game(discord_double, db, guild, "killed")
        await killed.open(host, [second, third])
        before = await killed.play(until=KILL_AT)
        assert before.status == "playing" and before.actions == KILL_AT
        await cluster.kill(SERVING)
        alone = await killed.play(until=RESTART_AT)
        assert alone.status == "playing" and alone.actions == RESTART_AT
        a = cluster.output(0)
        assert a.count(f"table {killed.table_id}: its server did not play it") == 1, a
        b = await cluster.start(SERVING)
        assert "1 live tables resumed" in b.output(tail=10**9)
        done = await killed.play()
        assert done.status == "finished"
        assert done.state["match"] == expected.to_dict(), "an action lost, doubled or changed"
        result = await db.finished_match(killed.table_id)
        assert result == uninterrupted
        assert (result["team0_score"], result["team1_score"]) == tuple(expected.scores)
        assert [
            (h["number"], h["winner_team"], h["points"], h["scores_after"]) for h in result["hands"]
        ] == [
            (r.number, r.winner_team, r.points, list(r.scores_after)) for r in expected.hand_results
        ]
        assert result["replay"] == json.loads(json.dumps(record(expected)))
        assert "loaded from the store (served by another process)" in cluster.output(0)
        standings = await db.rows(
            "SELECT user_id, matches_played FROM standings WHERE guild_id = :g ORDER BY user_id",
            g=guild.id,
        )
        assert [(r["user_id"], r["matches_played"]) for r in standings] == sorted(
            (u.id, 2) for u in (host, second, third)
        ), "each match counted once"

        report = await discord_double.wait_for_message(
            killed.channel, lambda m: "win the match" in m.text, timeout=15
        )  # announced by whichever process made the last move
        assert report.text.startswith("🏆")
        # B's first restart told the channel; the notice queues for room in the channel's rate
        # budget, which both processes share, so on a fast machine it may follow the match's end
        # (seen 3 s after B's start): wait for it, so that it is not taken for B's second start.
        notice = await discord_double.wait_for_message(
            killed.channel, lambda m: m.text.startswith("♻️"), timeout=15
        )
        assert "carries on where it was" in notice.text

        # B back after the end: nothing live to restore, nothing replayed.
        versions = {t: (await db.table(t)).version for t in (calm.table_id, killed.table_id)}
        messages = set(discord_double.world.messages)
        assert await cluster.procs[SERVING].terminate(timeout=15) == 0
        cluster.logs.append(cluster.procs.pop(SERVING).output(tail=10**9))
        b = await cluster.start(SERVING)
        await asyncio.sleep(2)
        assert "0 live tables resumed" in b.output(tail=10**9)
        assert {t: (await db.table(t)).version for t in versions} == versions
        new = [m for i, m in discord_double.world.messages.items() if i not in messages]
        assert not new, [(m.channel_id, m.text[:200]) for m in new]
        assert len(await db.rows("SELECT match_id FROM matches")) == 2
        assert cluster.tracebacks() == []
    finally:
        await db.close()
