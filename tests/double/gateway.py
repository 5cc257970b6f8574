"""The gateway websocket: HELLO, IDENTIFY/READY, GUILD_CREATE, heartbeats, RESUME, RECONNECT.

Each IDENTIFY opens a session with its own sequence numbers and a replay buffer, so a client
that lost its connection can RESUME and get every event it missed, as on Discord. Frames go out
as plain JSON text even when the client asked for zlib-stream: discord.py accepts both.
Sharding follows Discord's rule: a guild belongs to shard ``(guild_id >> 22) % shard_count``
and events without a guild (DMs) arrive on shard 0. ``shard_count`` only routes: sessions of
one token may use different counts, and each receives its own share (docs/discord_double.md,
"Sharding", with Discord's wording).
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .state import World

HEARTBEAT_INTERVAL_MS = 41_250
REPLAY_BUFFER = 50_000

# Gateway opcodes.
DISPATCH = 0
HEARTBEAT = 1
IDENTIFY = 2
PRESENCE_UPDATE = 3
VOICE_STATE_UPDATE = 4
RESUME = 6
RECONNECT = 7
REQUEST_GUILD_MEMBERS = 8
INVALID_SESSION = 9
HELLO = 10
HEARTBEAT_ACK = 11

# Intent bits that decide which events a session receives.
GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_PRESENCES = 1 << 8
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT


# Close codes.
AUTHENTICATION_FAILED = 4004
INVALID_SHARD = 4010
DISALLOWED_INTENTS = 4014


def _frame(payload: dict[str, Any]) -> str:
    return json.dumps(payload, separators=(",", ":"))


def parse_shard(value: object) -> tuple[int, int] | None:
    """IDENTIFY's ``shard``: ``[shard_id, num_shards]``, two integers with
    ``0 <= shard_id < num_shards``; absent (or null) is ``[0, 1]``, one connection for all.
    ``None`` for anything else, which Discord closes with 4010 Invalid shard."""
    if value is None:
        return 0, 1
    if not isinstance(value, list) or len(value) != 2:
        return None
    shard_id, count = value
    if type(shard_id) is not int or type(count) is not int:  # bool is an int: not here
        return None
    if count < 1 or not 0 <= shard_id < count:
        return None
    return shard_id, count


class GatewayConnection:
    """One websocket; a writer task sends queued frames in order."""

    def __init__(self, ws: web.WebSocketResponse, request: web.Request) -> None:
        self.ws = ws
        self.request = request
        self.session: GatewaySession | None = None
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._writer = asyncio.create_task(self._write_loop(), name="double-gateway-writer")

    def send(self, frame: str) -> None:
        self._queue.put_nowait(frame)

    async def _write_loop(self) -> None:
        while True:
            frame = await self._queue.get()
            if frame is None or self.ws.closed:
                return
            try:
                await self.ws.send_str(frame)
            except (ConnectionError, RuntimeError):
                return

    async def close(self, code: int) -> None:
        self._queue.put_nowait(None)
        await self.ws.close(code=code)

    def abort(self) -> None:
        """Cut the TCP connection with no close frame, like a network failure."""
        self._queue.put_nowait(None)
        transport = self.request.transport
        if transport is not None:
            transport.abort()

    async def finish(self) -> None:
        self._queue.put_nowait(None)
        try:
            await asyncio.wait_for(self._writer, timeout=1.0)
        except (TimeoutError, asyncio.CancelledError):
            self._writer.cancel()


@dataclass(eq=False)
class GatewaySession:
    """What IDENTIFY created: sequence numbers and the events sent, for RESUME."""

    id: str
    shard_id: int
    shard_count: int
    intents: int
    seq: int = 0
    buffer: deque[tuple[int, str]] = field(default_factory=lambda: deque(maxlen=REPLAY_BUFFER))
    connection: GatewayConnection | None = None

    def dispatch(self, event: str, data: dict[str, Any]) -> int:
        """Number, buffer and (if connected) send one event; return its sequence number."""
        self.seq += 1
        frame = _frame({"op": DISPATCH, "t": event, "s": self.seq, "d": data})
        self.buffer.append((self.seq, frame))
        if self.connection is not None:
            self.connection.send(frame)
        return self.seq

    @property
    def shard(self) -> tuple[int, int]:
        return self.shard_id, self.shard_count

    def owns_guild(self, guild_id: int | None) -> bool:
        """Whether this session receives the guild's events (``None``: a DM, shard 0)."""
        if guild_id is None:
            return self.shard_id == 0
        return (guild_id >> 22) % self.shard_count == self.shard_id


@dataclass
class GatewayStats:
    """What the gateway saw, for tests that check reconnect behaviour."""

    connections: int = 0
    identifies: int = 0
    resumes: int = 0
    failed_resumes: int = 0
    invalid_shards: int = 0
    heartbeats: int = 0
    ops_received: list[int] = field(default_factory=list)


class Gateway:
    """All gateway sessions of one double."""

    def __init__(
        self,
        world: World,
        *,
        url: Callable[[], str],
        shard_count: int = 1,
        allowed_intents: int = PRIVILEGED_INTENTS,
    ) -> None:
        self.world = world
        self._url = url
        self.shard_count = shard_count
        self.allowed_intents = allowed_intents
        self.sessions: dict[str, GatewaySession] = {}
        self.live: dict[tuple[int, int], GatewaySession] = {}
        """The session receiving events for each ``(shard_id, shard_count)``, oldest
        IDENTIFY first. Discord would also send to an older session of the same pair that is
        still open; here the newest IDENTIFY of a pair takes its events over (a restarted
        process), and a dropped session keeps buffering them for its RESUME."""
        self.connections: set[GatewayConnection] = set()
        self.stats = GatewayStats()
        self.internal_errors: list[str] = []

    # --- websocket handling --------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoclose=True)
        await ws.prepare(request)
        conn = GatewayConnection(ws, request)
        self.connections.add(conn)
        self.stats.connections += 1
        conn.send(_frame({"op": HELLO, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}}))
        try:
            async for msg in ws:
                if msg.type is WSMsgType.TEXT:
                    await self._on_frame(conn, json.loads(msg.data))
        except (ConnectionError, asyncio.CancelledError):
            pass
        except Exception as exc:
            self.internal_errors.append(f"gateway: {exc!r}")
            logging.getLogger(__name__).exception("Discord double gateway failed")
        finally:
            session = conn.session
            if session is not None and session.connection is conn:
                session.connection = None
            self.connections.discard(conn)
            await conn.finish()
            self.world.notify()
        return ws

    async def _on_frame(self, conn: GatewayConnection, payload: dict[str, Any]) -> None:
        op = payload.get("op")
        data = payload.get("d")
        self.stats.ops_received.append(int(op) if isinstance(op, int) else -1)
        if op == HEARTBEAT:
            self.stats.heartbeats += 1
            conn.send(_frame({"op": HEARTBEAT_ACK}))
        elif op == IDENTIFY:
            await self._identify(conn, data or {})
        elif op == RESUME:
            await self._resume(conn, data or {})
        elif op == REQUEST_GUILD_MEMBERS:
            self._request_members(conn, data or {})
        elif op in (PRESENCE_UPDATE, VOICE_STATE_UPDATE):
            return
        else:
            await conn.close(4001)  # unknown opcode, as Discord answers

    async def _identify(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        if data.get("token") not in (self.world.token, f"Bot {self.world.token}"):
            await conn.close(AUTHENTICATION_FAILED)
            return
        intents = int(data.get("intents", 0))
        if intents & PRIVILEGED_INTENTS & ~self.allowed_intents:
            await conn.close(DISALLOWED_INTENTS)
            return
        shard = parse_shard(data.get("shard"))
        if shard is None:
            self.stats.invalid_shards += 1
            await conn.close(INVALID_SHARD)
            return
        session = GatewaySession(
            id=secrets.token_hex(16), shard_id=shard[0], shard_count=shard[1], intents=intents
        )
        self.sessions[session.id] = session
        self.live.pop(session.shard, None)  # re-inserted last: the newest of its pair
        self.live[session.shard] = session
        session.connection = conn
        conn.session = session
        self.stats.identifies += 1
        guilds = [g for g in self.world.guilds.values() if session.owns_guild(g.id)]
        session.dispatch("READY", self._ready_payload(session, [g.id for g in guilds]))
        for guild in guilds:
            session.dispatch("GUILD_CREATE", self.guild_create(guild.id, session))
        self.world.notify()

    def _ready_payload(self, session: GatewaySession, guild_ids: list[int]) -> dict[str, Any]:
        user = self.world.bot.payload()
        user.update({"verified": True, "mfa_enabled": False, "flags": 0, "bot": True})
        return {
            "v": 10,
            "user": user,
            "guilds": [{"id": str(gid), "unavailable": True} for gid in guild_ids],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self._url(),
            "shard": [session.shard_id, session.shard_count],
            "application": {"id": str(self.world.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": ["local"],
            "auth": {},
        }

    def guild_create(self, guild_id: int, session: GatewaySession) -> dict[str, Any]:
        guild = self.world.guilds[guild_id]
        return self.world.guild_payload(guild, with_members=bool(session.intents & GUILD_MEMBERS))

    async def _resume(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        seq = data.get("seq")
        token_ok = data.get("token") in (self.world.token, f"Bot {self.world.token}")
        oldest = session.buffer[0][0] if session is not None and session.buffer else 1
        client_seq = int(seq) if isinstance(seq, int) else 0
        if session is None or not token_ok or client_seq + 1 < oldest or client_seq > session.seq:
            self.stats.failed_resumes += 1
            conn.send(_frame({"op": INVALID_SESSION, "d": False}))
            return
        old = session.connection
        if old is not None and old is not conn:
            old.session = None
            old.abort()
        session.connection = conn
        conn.session = session
        for number, frame in session.buffer:
            if number > client_seq:
                conn.send(frame)
        self.stats.resumes += 1
        session.dispatch("RESUMED", {})
        self.world.notify()

    def _request_members(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        session = conn.session
        guild = self.world.guilds.get(int(data.get("guild_id", 0)))
        if session is None or guild is None:
            return
        wanted = {int(u) for u in data.get("user_ids") or []}
        query = str(data.get("query") or "").lower()
        limit = int(data.get("limit") or 0) or len(guild.members)
        members = [
            m
            for m in guild.members.values()
            if (not wanted or m.user.id in wanted) and m.user.username.lower().startswith(query)
        ][:limit]
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": [m.payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        session.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    # --- sending events ------------------------------------------------------------------

    def sessions_for(self, guild_id: int | None) -> list[GatewaySession]:
        """Every session that receives events of this guild (or DMs), newest IDENTIFY first:
        one per ``(shard_id, shard_count)`` whose shard owns it."""
        return [s for s in reversed(list(self.live.values())) if s.owns_guild(guild_id)]

    def session_for(self, guild_id: int | None) -> GatewaySession | None:
        """The most recently identified session that receives events of this guild (or DMs)."""
        sessions = self.sessions_for(guild_id)
        return sessions[0] if sessions else None

    def dispatch(
        self, event: str, data: dict[str, Any], *, guild_id: int | None, intent: int | None = None
    ) -> GatewaySession | None:
        """Send an event to every session owning ``guild_id`` whose intents ask for it; the
        newest of them, or None when none received it."""
        received = None
        for session in self.sessions_for(guild_id):
            if intent is not None and not session.intents & intent:
                continue
            session.dispatch(event, data)
            received = received or session
        return received

    # --- test controls -------------------------------------------------------------------

    def _targets(self, shard_id: int | None) -> list[GatewaySession]:
        sessions = [s for s in self.live.values() if shard_id is None or s.shard_id == shard_id]
        return [s for s in sessions if s.connection is not None]

    async def drop(self, shard_id: int | None = None, *, code: int | None = None) -> int:
        """Cut live connections (all shards by default); the sessions stay resumable.

        Without ``code`` the TCP connection is aborted with no close frame (a network failure);
        with one, a close frame with that code is sent first. Events dispatched from now until
        the client resumes are buffered and replayed on RESUME.
        """
        sessions = self._targets(shard_id)
        for session in sessions:
            conn = session.connection
            session.connection = None
            if conn is None:
                continue
            conn.session = None
            if code is None:
                conn.abort()
            else:
                await conn.close(code)
        self.world.notify()
        return len(sessions)

    async def send_reconnect(self, shard_id: int | None = None) -> int:
        """Send op 7 RECONNECT; discord.py closes the socket and RESUMEs."""
        sessions = self._targets(shard_id)
        for session in sessions:
            assert session.connection is not None
            session.connection.send(_frame({"op": RECONNECT, "d": None}))
        return len(sessions)

    async def invalidate(self, shard_id: int | None = None, *, resumable: bool = False) -> int:
        """Send op 9 INVALID_SESSION; with ``resumable=False`` the client must IDENTIFY again."""
        sessions = self._targets(shard_id)
        for session in sessions:
            assert session.connection is not None
            session.connection.send(_frame({"op": INVALID_SESSION, "d": resumable}))
            if not resumable:
                self.sessions.pop(session.id, None)
        return len(sessions)

    async def close_all(self) -> None:
        for conn in list(self.connections):
            try:
                await asyncio.wait_for(conn.close(1001), timeout=1.0)
            except (TimeoutError, ConnectionError, RuntimeError):
                conn.abort()
