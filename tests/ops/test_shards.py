"""Two ``python -m bot`` processes of one token on one PostgreSQL, each holding one of two
shards: each gets only its own servers' events, and a ``/hokm new`` in a server is
served by the process holding that server's shard (docs/scaling.md)."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

from bot.store import Store
from tests.double.fixtures import BotProcessFactory
from tests.double.gateway import GatewaySession
from tests.double.models import Channel, Guild, StoredMessage, User
from tests.double.process import BotProcess
from tests.double.server import DiscordDouble
from tests.e2e.players import SUCCESS

from .helpers import assert_one_error_line, bot_env, free_port, wait_for_output

SHARDS = 2


def shard_of(guild_id: int) -> int:
    return (guild_id >> 22) % SHARDS


def event_guilds(session: GatewaySession, event: str) -> list[int]:
    """The guild ids of every ``event`` the session was sent (READY: the guilds it lists)."""
    found: list[int] = []
    for _, frame in session.buffer:
        payload = json.loads(frame)
        if payload["t"] != event:
            continue
        if event == "READY":
            found += [int(g["id"]) for g in payload["d"]["guilds"]]
        else:
            found.append(int(payload["d"].get("guild_id") or 0))
    return found


async def start_shard(
    bot_process: BotProcessFactory,
    double: DiscordDouble,
    tmp_path: Path,
    shard: int,
    env: dict[str, str],
) -> BotProcess:
    argv = [sys.executable, "-m", "bot", "--shards", str(shard), "--shard-count", str(SHARDS)]
    env = env | {"HOKM_COMMAND_SYNC_FILE": str(tmp_path / f"sync-{shard}.sha256")}
    proc = await bot_process(argv, env=env, ready=None)
    await wait_for_output(proc, "ready to serve", timeout=60)
    return proc


@pytest.mark.discord_double(shard_count=SHARDS)
async def test_two_processes_each_serve_the_servers_of_their_shard(
    discord_double: DiscordDouble, bot_process: BotProcessFactory, tmp_path: Path, pg_url: str
) -> None:
    hosts = discord_double.members[1:3]  # one each: a member sits at one table (every process)
    places: dict[int, tuple[Guild, Channel]] = {}
    for shard in range(SHARDS):
        guild = discord_double.create_guild(f"Shard {shard}", shard=(shard, SHARDS))
        places[shard] = (guild, discord_double.add_text_channel(guild, "hokm"))
        discord_double.add_member(guild, hosts[shard])
    ours = [guild.id for guild, _ in places.values()]
    env = {
        "HOKM_DATABASE_URL": pg_url,
        "HOKM_DEV_GUILD_IDS": ",".join(map(str, ours)),
        "HOKM_GUILD_READY_TIMEOUT": "0.05",
        "HOKM_COMPUTER_DELAY_SECONDS": "0.02",
    }
    # Started together, as a deployment does: one migrates, the other waits for its lock.
    procs = await asyncio.gather(
        *(start_shard(bot_process, discord_double, tmp_path, s, env) for s in range(SHARDS))
    )

    live = discord_double.gateway.live
    assert set(live) == {(s, SHARDS) for s in range(SHARDS)}
    every = set(discord_double.world.guilds)
    for shard, proc in enumerate(procs):
        owned = {g for g in every if shard_of(g) == shard}
        assert set(event_guilds(live[(shard, SHARDS)], "READY")) == owned
        output = proc.output(tail=10**9)
        assert f"in {len(owned)} servers (shards {shard} of {SHARDS})" in output, output
        assert "not in server" not in output  # the other shard's dev guild is not "missing"

    for shard, (guild, channel) in places.items():
        record = await discord_double.slash(hosts[shard], channel, "hokm new", timeout=10)
        assert record.response_type is not None and record.message is not None, record.refused
        opened = f"opened in channel {channel.id}"
        await wait_for_output(procs[shard], opened, timeout=10)
        assert opened not in procs[1 - shard].output(tail=10**9)
        session = live[(shard, SHARDS)]
        assert guild.id in event_guilds(session, "INTERACTION_CREATE")
        assert guild.id not in event_guilds(live[(1 - shard, SHARDS)], "INTERACTION_CREATE")

    # A member seated by one process is refused a table by the other, naming their channel.
    (guild_1, _), (_, channel_0) = places[1], places[0]
    discord_double.add_member(guild_1, hosts[0])
    elsewhere = discord_double.add_text_channel(guild_1, "more-hokm")
    record = await discord_double.slash(hosts[0], elsewhere, "hokm new", timeout=10)
    assert record.ephemeral and record.message is not None
    assert "already at a table in another server" in record.message.text
    assert f"<#{channel_0.id}>" in record.message.text

    async with await Store.open(pg_url) as store:  # the one database both write to
        assert await store.open_table_in_channel(elsewhere.id) is None
        for guild, channel in places.values():
            tables = await store.load_live_tables(guild.id)
            assert [(t.channel_id, t.status) for t in tables] == [(channel.id, "lobby")]

    for proc in procs:
        assert await proc.terminate(timeout=15) == 0
        assert "Traceback" not in proc.output(tail=10**9)


@pytest.mark.discord_double(shard_count=SHARDS)
async def test_a_shard_that_cannot_reach_the_gateway_is_one_line_per_retry_then_exit_2(
    discord_double: DiscordDouble, bot_process: BotProcessFactory, tmp_path: Path
) -> None:
    """discord.py retries a shard's connection every 5 s with a traceback each time; the
    bot logs one line per retry and gives up after ``gateway_timeout_seconds``, as with one
    connection (tests/ops/test_startup.py)."""
    gateway = f"ws://127.0.0.1:{free_port()}/gateway"
    env = bot_env(
        discord_double, tmp_path, discord_gateway_url=gateway, gateway_timeout_seconds="3"
    )
    argv = [sys.executable, "-m", "bot", "--shard-count", str(SHARDS)]
    proc = await bot_process(argv, env=env, ready=None)
    code = await proc.wait(30)
    output = proc.output()
    assert_one_error_line(output, code, gateway, "gateway_timeout_seconds")
    retries = [line for line in output.splitlines() if "Failed to connect for shard_id" in line]
    assert retries and all("Cannot connect" in line for line in retries), output


def turn_buttons(double: DiscordDouble, user: User) -> tuple[StoredMessage, list[str]] | None:
    """The newest DM of ``user`` with hand buttons and what it offers to click now: the trump
    buttons, or the cards marked playable (green); ``None`` when it is not their turn."""
    for message in reversed(double.dms(user)):
        ids = [b.custom_id or "" for b in message.buttons()]
        if not any(i.startswith(("hokm:c:", "hokm:t:")) for i in ids):
            continue
        trumps = [i for i in ids if i.startswith("hokm:t:")]
        green = [b.custom_id or "" for b in message.buttons() if b.style == SUCCESS]
        choices = trumps or green
        return (message, choices) if choices else None
    return None


async def served_by_shard_1_with_three_computers(
    double: DiscordDouble,
    bot_process: BotProcessFactory,
    tmp_path: Path,
    pg_url: str,
    *,
    target_score: int,
) -> tuple[User, Guild, Channel, list[BotProcess]]:
    """Both processes started on one PostgreSQL; a member of a server on shard 1 opens a table
    there and adds three computers, which starts the match (the shard-1 process serves it)."""
    member = double.members[1]
    guild = double.create_guild("Shard 1", shard=(1, SHARDS))
    channel = double.add_text_channel(guild, "hokm")
    double.add_member(guild, member)
    env = {
        "HOKM_DATABASE_URL": pg_url,
        "HOKM_DEV_GUILD_IDS": str(guild.id),
        "HOKM_GUILD_READY_TIMEOUT": "0.05",
        "HOKM_COMPUTER_DELAY_SECONDS": "0.02",
    }
    procs = await asyncio.gather(
        *(start_shard(bot_process, double, tmp_path, s, env) for s in range(SHARDS))
    )
    record = await double.slash(
        member, channel, "hokm new", {"target_score": target_score}, timeout=10
    )
    assert record.message is not None, record.refused

    def lobby() -> StoredMessage | None:
        for message in double.messages_in(channel):
            if any(b.label == "Add computer" for b in message.buttons()):
                return message
        return None

    await double.wait_until(lambda: lobby() is not None, timeout=10, what="the lobby")
    for _ in range(3):
        message = lobby()
        assert message is not None  # the last computer starts the match
        added = await double.click(member, message, label="Add computer")
        assert added.response_type == 7, added.response_name
    return member, guild, channel, list(procs)


@pytest.mark.discord_double(shard_count=SHARDS)
async def test_dm_clicks_reach_shard_0_and_play_another_process_s_table_to_its_end(
    discord_double: DiscordDouble, bot_process: BotProcessFactory, tmp_path: Path, pg_url: str
) -> None:
    """Every click in a DM goes to shard 0, whichever server the table is in. A member plays a
    whole match from their DM at a table the shard-1 process serves (three computers): the
    shard-0 process loads the table on the first click, applies each move with the table's
    version and answers it; the shard-1 process catches up on each save (its computers play
    on) and records the match once."""
    member, guild, _, procs = await served_by_shard_1_with_three_computers(
        discord_double, bot_process, tmp_path, pg_url, target_score=1
    )

    async with await Store.open(pg_url) as store:
        clicks = refused = 0
        while True:
            (table,) = await store.load_live_tables(guild.id) or [None]
            if table is None:
                break
            found = turn_buttons(discord_double, member)
            if found is None:
                await asyncio.sleep(0.05)
                continue
            message, choices = found
            before = table.version
            click = await discord_double.click(member, message, custom_id=choices[0], timeout=10)
            if click.response_type != 7:  # a DM not yet showing the newest state: look again
                refused += 1
                assert refused < 10, f"DM clicks refused: {click.response_name}"
                continue
            clicks += 1
            after = await store.load_table(table.table_id)
            assert after is not None and after.version > before
        assert len(await store.recent_matches(guild.id, member.id)) == 1
    assert clicks >= 7  # a card in each of the hand's 7 or more tricks, all from the DM

    dm_clicks = event_guilds(discord_double.gateway.live[(0, SHARDS)], "INTERACTION_CREATE")
    assert dm_clicks.count(0) >= clicks  # every DM click went to shard 0 …
    assert 0 not in event_guilds(discord_double.gateway.live[(1, SHARDS)], "INTERACTION_CREATE")
    zero, one = (p.output(tail=10**9) for p in procs)
    assert "loaded from the store (served by another process)" in zero  # … which loaded it
    assert "match recorded (new=True)" in zero + one
    assert (zero + one).count("match recorded (new=True)") == 1
    for proc in procs:
        assert await proc.terminate(timeout=15) == 0
        assert "Traceback" not in proc.output(tail=10**9)
