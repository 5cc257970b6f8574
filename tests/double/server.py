"""``DiscordDouble``: a local stand-in for Discord that the real discord.py runs against.

It serves REST under ``/api/v10`` and the gateway websocket under ``/gateway`` on 127.0.0.1,
and gives tests a member's hands (slash commands, clicks, modal submits) and eyes (every
message, edit, DM and ephemeral the bot produced, plus request counters).
"""

# Waiting helpers take a timeout so a failure can say what it waited for.
# ruff: noqa: ASYNC109, RUF100

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable, Mapping
from types import TracebackType
from typing import Any, Self

from aiohttp import web

from .counters import Counters
from .faults import Fault, Faults
from .gateway import (
    DIRECT_MESSAGES,
    GUILD_MEMBERS,
    GUILD_MESSAGES,
    GUILDS,
    MESSAGE_CONTENT,
    PRIVILEGED_INTENTS,
    Gateway,
)
from .interactions import (
    APPLICATION_COMMAND,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    InteractionRecord,
    InteractionTimeout,
    command_data,
    component_data,
    modal_submit_data,
    new_record,
)
from .models import AppCommand, Channel, Guild, Role, StoredMessage, User
from .ratelimit import RateLimitConfig, RateLimiter
from .rest import RequestRecord, RestApi
from .state import World

DEFAULT_TOKEN = "double-bot-token"


class DiscordDouble:
    """One fake Discord: start it, point discord.py at ``api_base``/``gateway_url``, then act."""

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        host: str = "127.0.0.1",
        port: int = 0,
        ratelimits: RateLimitConfig | bool = True,
        shard_count: int = 1,
        interaction_timeout: float = 3.0,
        response_timeout: float = 3.0,
        allowed_intents: int = PRIVILEGED_INTENTS,
        backlog: int = 2048,
        bot_name: str = "HokmBot",
    ) -> None:
        if isinstance(ratelimits, bool):
            ratelimits = RateLimitConfig(enabled=ratelimits)
        else:
            ratelimits = dataclasses.replace(ratelimits)  # a test may change its own copy
        self.host = host
        self.port = port
        self.backlog = backlog
        self.interaction_timeout = interaction_timeout
        self.response_timeout = response_timeout
        self.world = World(token=token, bot_name=bot_name)
        self.ratelimits = ratelimits
        self.counters = Counters()
        self.faults = Faults()
        self.limiter = RateLimiter(ratelimits)
        self.gateway = Gateway(
            self.world,
            url=lambda: self.gateway_url,
            shard_count=shard_count,
            allowed_intents=allowed_intents,
        )
        self.rest = RestApi(
            self.world,
            self.gateway,
            self.counters,
            self.faults,
            self.limiter,
            gateway_url=lambda: self.gateway_url,
            interaction_timeout=lambda: self.interaction_timeout,
        )
        self._runner: web.AppRunner | None = None
        self.guild: Guild | None = None
        self.channel: Channel | None = None
        self.members: list[User] = []
        self.manager: User | None = None

    # --- lifecycle -----------------------------------------------------------------------

    async def start(self) -> Self:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/gateway/", self.gateway.handle)
        app.router.add_route("*", "/api/v10/{tail:.*}", self.rest.handle)
        runner = web.AppRunner(
            app, access_log=None, shutdown_timeout=0.5, handler_cancellation=True
        )
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port, backlog=self.backlog, reuse_address=True)
        await site.start()
        self._runner = runner
        address = runner.addresses[0]
        self.port = int(address[1])
        return self

    async def stop(self) -> None:
        if self._runner is None:
            return
        await self.gateway.close_all()
        await self._runner.cleanup()
        self._runner = None

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    # --- where discord.py should connect -------------------------------------------------

    @property
    def api_base(self) -> str:
        """The value for ``discord.http.Route.BASE``."""
        return f"http://{self.host}:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        """The value for ``DiscordWebSocket.DEFAULT_GATEWAY`` (and what READY resumes to)."""
        return f"ws://{self.host}:{self.port}/gateway"

    @property
    def token(self) -> str:
        return self.world.token

    @property
    def bot(self) -> User:
        return self.world.bot

    @property
    def application_id(self) -> int:
        return self.world.application_id

    def env(self) -> dict[str, str]:
        """Environment variables that point the Hokm bot process at this double."""
        return {
            "HOKM_DISCORD_API_BASE": self.api_base,
            "HOKM_DISCORD_GATEWAY_URL": self.gateway_url,
            "HOKM_DISCORD_TOKEN": self.token,
        }

    # --- building the world --------------------------------------------------------------

    def seed_default_world(self) -> None:
        """One guild "Hokm Club" with #hokm and four members; ``arash`` has Manage Server.

        arash's permission comes from the "Server Manager" role only: the guild's owner is a
        user outside the guild, so no member gets the owner's implicit rights.
        """
        guild = self.create_guild("Hokm Club")
        self.guild = guild
        self.channel = self.add_text_channel(guild, "hokm")
        self.manager = self.add_member(guild, "arash", manage_guild=True)
        self.members = [self.manager] + [
            self.add_member(guild, name) for name in ("bahar", "cyrus", "darya")
        ]

    def add_user(self, username: str, *, dms_open: bool = True, locale: str = "en-US") -> User:
        """A Discord account that is not (yet) a member of any guild."""
        return self.world.add_user(username, dms_open=dms_open, locale=locale)

    def create_guild(
        self,
        name: str,
        *,
        owner: User | None = None,
        preferred_locale: str = "en-US",
        shard: tuple[int, int] | None = None,
    ) -> Guild:
        """A guild the bot is in; announced with GUILD_CREATE to the connection of the shard
        that owns it, if one is connected. ``shard=(shard_id, shard_count)`` picks an id that
        shard owns (``(guild_id >> 22) % shard_count == shard_id``)."""
        guild = self.world.create_guild(
            name, owner=owner, preferred_locale=preferred_locale, shard=shard
        )
        for session in self.gateway.sessions_for(guild.id):
            session.dispatch("GUILD_CREATE", self.gateway.guild_create(guild.id, session))
        return guild

    def add_text_channel(self, guild: Guild, name: str) -> Channel:
        channel = self.world.add_text_channel(guild, name)
        self.gateway.dispatch(
            "CHANNEL_CREATE", self.world.channel_payload(channel), guild_id=guild.id, intent=GUILDS
        )
        return channel

    def add_member(
        self,
        guild: Guild,
        user: User | str,
        *,
        manage_guild: bool = False,
        roles: list[Role] | None = None,
        dms_open: bool = True,
        locale: str = "en-US",
    ) -> User:
        """Add a user (made from a name if a string) to a guild; returns the user."""
        if isinstance(user, str):
            user = self.add_user(user, dms_open=dms_open, locale=locale)
        member = self.world.add_member(guild, user, manage_guild=manage_guild, roles=roles)
        data = member.payload()
        data["guild_id"] = str(guild.id)
        self.gateway.dispatch("GUILD_MEMBER_ADD", data, guild_id=guild.id, intent=GUILD_MEMBERS)
        return user

    def add_role(self, guild: Guild, name: str, permissions: int) -> Role:
        return self.world.add_role(guild, name, permissions)

    def close_dms(self, user: User) -> None:
        """From now on DMs to ``user`` fail with 403 / 50007, as when they block server DMs."""
        user.dms_open = False

    def open_dms(self, user: User) -> None:
        user.dms_open = True

    def delete_channel(self, channel: Channel) -> None:
        """Delete a guild channel (CHANNEL_DELETE): its REST routes then answer 404 Unknown
        Channel (10003); its messages stay readable here for assertions."""
        self.world.delete_channel(channel)
        self.gateway.dispatch(
            "CHANNEL_DELETE",
            self.world.channel_payload(channel),
            guild_id=channel.guild_id,
            intent=GUILDS,
        )

    def deny_send(self, channel: Channel, denied: bool = True) -> None:
        """Take Send Messages from the bot in a channel (creates answer 403 / 50013, and
        interactions there carry ``app_permissions`` without it)."""
        channel.bot_can_send = not denied

    def set_bot_permissions(self, channel: Channel, permissions: int | None) -> None:
        """The bot's permissions in ``channel`` from now on, as interactions there report them
        in ``app_permissions`` (None: its server permissions again)."""
        channel.bot_permissions = permissions

    # --- acting as a member --------------------------------------------------------------

    def _dispatch(self, record: InteractionRecord) -> None:
        record.dispatched_at = asyncio.get_running_loop().time()
        session = self.gateway.dispatch(
            "INTERACTION_CREATE", record.payload, guild_id=record.guild_id
        )
        record.delivered = session is not None
        self.world.notify()

    async def _finish(
        self, record: InteractionRecord, wait: bool, timeout: float | None
    ) -> InteractionRecord:
        if wait:
            await record.wait_response(self.response_timeout if timeout is None else timeout)
        return record

    async def slash(
        self,
        user: User,
        channel: Channel | None = None,
        command: str = "",
        options: Mapping[str, Any] | None = None,
        *,
        wait: bool = True,
        timeout: float | None = None,
        strict: bool = True,
    ) -> InteractionRecord:
        """Run ``/command`` (e.g. ``"hokm new"``) as ``user`` in ``channel`` (a DM if None).

        Option types come from the registered command, so the bot must have synced it (pass
        ``strict=False`` to infer types from the Python values instead). Returns the record
        once the bot answered (or at once with ``wait=False``).
        """
        target = channel or self.world.open_dm(user)
        guild = self.world.guild_of(target)
        data = command_data(
            self.world, command=command, options=options, guild=guild, strict=strict
        )
        record = new_record(
            self.world,
            itype=APPLICATION_COMMAND,
            user=user,
            channel=target,
            data=data,
            description=f"/{command.strip().lstrip('/')} by {user.username} in {target.label()}",
        )
        self._dispatch(record)
        return await self._finish(record, wait, timeout)

    def _clickable(self, user: User, message: StoredMessage | int) -> tuple[StoredMessage, Channel]:
        msg = message if isinstance(message, StoredMessage) else self.world.messages[message]
        if msg.deleted:
            raise ValueError(f"message {msg.id} was deleted; nobody can click it")
        if not msg.visible_to(user.id):
            raise ValueError(
                f"message {msg.id} is ephemeral for someone else; {user.username} cannot see it"
            )
        channel = self.world.channels[msg.channel_id]
        if channel.is_dm and channel.recipient_id != user.id:
            raise ValueError(f"message {msg.id} is in another user's DMs")
        return msg, channel

    async def click(
        self,
        user: User,
        message: StoredMessage | int,
        *,
        custom_id: str | None = None,
        label: str | None = None,
        stale: bool = False,
        wait: bool = True,
        timeout: float | None = None,
    ) -> InteractionRecord:
        """Click a button (by ``custom_id`` or ``label``) on a channel, DM or ephemeral message.

        ``stale=True`` clicks ``custom_id`` even if the message no longer has it enabled, like a
        member whose client has not shown the bot's latest edit yet.
        """
        msg, channel = self._clickable(user, message)
        data = component_data(msg, custom_id=custom_id, label=label, values=None, stale=stale)
        record = new_record(
            self.world,
            itype=MESSAGE_COMPONENT,
            user=user,
            channel=channel,
            data=data,
            description=f"click on {label or custom_id!r} by {user.username} in {channel.label()}",
            source_message=msg,
        )
        self._dispatch(record)
        return await self._finish(record, wait, timeout)

    async def select(
        self,
        user: User,
        message: StoredMessage | int,
        values: list[str],
        *,
        custom_id: str | None = None,
        label: str | None = None,
        stale: bool = False,
        wait: bool = True,
        timeout: float | None = None,
    ) -> InteractionRecord:
        """Choose ``values`` in a select menu (``label`` matches its placeholder)."""
        msg, channel = self._clickable(user, message)
        data = component_data(msg, custom_id=custom_id, label=label, values=values, stale=stale)
        record = new_record(
            self.world,
            itype=MESSAGE_COMPONENT,
            user=user,
            channel=channel,
            data=data,
            description=f"select {values} by {user.username} in {channel.label()}",
            source_message=msg,
        )
        self._dispatch(record)
        return await self._finish(record, wait, timeout)

    async def submit_modal(
        self,
        user: User,
        opened_by: InteractionRecord,
        values: Mapping[str, str],
        *,
        wait: bool = True,
        timeout: float | None = None,
    ) -> InteractionRecord:
        """Fill in and submit the modal the bot opened in answer to ``opened_by``."""
        if opened_by.modal is None:
            raise ValueError(f"the bot answered {opened_by.description} without a modal")
        data = modal_submit_data(opened_by.modal, values)
        record = new_record(
            self.world,
            itype=MODAL_SUBMIT,
            user=user,
            channel=opened_by.channel,
            data=data,
            description=f"modal {data['custom_id']!r} submitted by {user.username}",
            source_message=opened_by.source_message,
        )
        self._dispatch(record)
        return await self._finish(record, wait, timeout)

    def redeliver(self, record: InteractionRecord) -> None:
        """Dispatch ``record``'s INTERACTION_CREATE again, same id and token: a duplicate
        delivery. Discord takes one callback per interaction, so if the bot answers the copy too
        that answer is refused (400, 40060) and listed in ``record.refused``."""
        session = self.gateway.dispatch(
            "INTERACTION_CREATE", record.payload, guild_id=record.guild_id
        )
        if session is None:
            raise InteractionTimeout(f"no gateway session to redeliver {record.description} to")
        self.world.notify()

    def say(self, user: User, channel: Channel, content: str) -> StoredMessage:
        """Post a plain message as ``user`` (MESSAGE_CREATE; content needs the intent)."""
        msg = self.world.create_message(channel, {"content": content}, author=user, source="user")
        data = self.world.message_payload(msg)
        guild = self.world.guild_of(channel)
        if guild is not None and user.id in guild.members:
            data["member"] = guild.members[user.id].payload(with_user=False)
        intent = DIRECT_MESSAGES if channel.is_dm else GUILD_MESSAGES
        mentioned = self.bot.mention in content
        for session in self.gateway.sessions_for(channel.guild_id):
            if session.intents & intent:
                event = dict(data)
                if not session.intents & MESSAGE_CONTENT and not channel.is_dm and not mentioned:
                    event["content"] = ""
                session.dispatch("MESSAGE_CREATE", event)
        return msg

    # --- reading what the bot did --------------------------------------------------------

    def message(self, message_id: int) -> StoredMessage:
        return self.world.messages[message_id]

    def messages_in(
        self, channel: Channel, *, include_deleted: bool = False
    ) -> list[StoredMessage]:
        """Public messages of a channel, oldest first (no ephemerals, no loading placeholders)."""
        msgs = (self.world.messages[i] for i in channel.message_ids)
        return [
            m
            for m in msgs
            if m.ephemeral_to is None and (include_deleted or not m.deleted) and not m.loading
        ]

    def visible_to(self, user: User, channel: Channel) -> list[StoredMessage]:
        """What ``user`` sees in ``channel``: public messages plus their own ephemerals."""
        msgs = (self.world.messages[i] for i in channel.message_ids)
        return [m for m in msgs if m.visible_to(user.id)]

    def dm_channel_of(self, user: User) -> Channel | None:
        channel_id = self.world.dm_by_user.get(user.id)
        return None if channel_id is None else self.world.channels[channel_id]

    def dms(self, user: User, *, include_deleted: bool = False) -> list[StoredMessage]:
        """Messages in the bot's DM channel with ``user``, oldest first."""
        channel = self.dm_channel_of(user)
        return [] if channel is None else self.messages_in(channel, include_deleted=include_deleted)

    def ephemerals(self, user: User, *, include_deleted: bool = False) -> list[StoredMessage]:
        """Every ephemeral message shown to ``user``, anywhere, oldest first."""
        return [
            m
            for m in self.world.messages.values()
            if m.ephemeral_to == user.id and (include_deleted or not m.deleted)
        ]

    def last_message(self, channel: Channel) -> StoredMessage | None:
        msgs = self.messages_in(channel)
        return msgs[-1] if msgs else None

    def commands(self, guild: Guild | None = None) -> list[AppCommand]:
        """Registered commands: global ones, or one guild's."""
        gid = None if guild is None else guild.id
        return [c for c in self.world.commands.values() if c.guild_id == gid]

    @property
    def internal_errors(self) -> list[str]:
        """Exceptions inside the double itself (the fixture fails a test that caused any)."""
        return self.rest.internal_errors + self.gateway.internal_errors

    @property
    def interactions(self) -> list[InteractionRecord]:
        return list(self.world.interactions.values())

    @property
    def requests(self) -> list[RequestRecord]:
        return list(self.rest.requests)

    # --- waiting -------------------------------------------------------------------------

    async def wait_until(
        self, predicate: Callable[[], bool], *, timeout: float = 3.0, what: str = "condition"
    ) -> None:
        """Re-check ``predicate`` after every change the double sees; fail after ``timeout``."""
        await self.world.wait_until(predicate, timeout=timeout, what=what)

    async def wait_for_message(
        self,
        channel: Channel,
        predicate: Callable[[StoredMessage], bool] = lambda m: True,
        *,
        timeout: float = 3.0,
    ) -> StoredMessage:
        """The first public message in ``channel`` matching ``predicate`` (waiting for it)."""
        found: list[StoredMessage] = []

        def check() -> bool:
            found[:] = [m for m in self.messages_in(channel) if predicate(m)]
            return bool(found)

        await self.wait_until(
            check, timeout=timeout, what=f"a matching message in {channel.label()}"
        )
        return found[0]

    async def wait_for_dm(
        self,
        user: User,
        predicate: Callable[[StoredMessage], bool] = lambda m: True,
        *,
        timeout: float = 3.0,
    ) -> StoredMessage:
        """The first DM to ``user`` matching ``predicate`` (waiting for it)."""
        found: list[StoredMessage] = []

        def check() -> bool:
            found[:] = [m for m in self.dms(user) if predicate(m)]
            return bool(found)

        await self.wait_until(check, timeout=timeout, what=f"a matching DM to {user.username}")
        return found[0]

    async def wait_identified(self, count: int = 1, *, timeout: float = 5.0) -> None:
        """Wait until the gateway has seen ``count`` IDENTIFYs (READY went out for each)."""
        await self.wait_until(
            lambda: self.gateway.stats.identifies >= count,
            timeout=timeout,
            what=f"{count} IDENTIFY(s)",
        )

    # --- faults --------------------------------------------------------------------------

    def fail_next(self, method: str, pattern: str, *, status: int = 500, times: int = 1) -> Fault:
        """The next ``times`` matching requests answer ``status`` (e.g. 500, 502, 503)."""
        return self.faults.add(method, pattern, status=status, times=times)

    def rate_limit_next(
        self,
        method: str,
        pattern: str,
        *,
        retry_after: float,
        is_global: bool = False,
        times: int = 1,
    ) -> Fault:
        """The next ``times`` matching requests answer 429 with ``retry_after``."""
        return self.faults.add(
            method, pattern, status=429, retry_after=retry_after, is_global=is_global, times=times
        )

    def hang_next(
        self,
        method: str,
        pattern: str,
        *,
        seconds: float,
        times: int = 1,
        status: int | None = None,
    ) -> Fault:
        """The next matching requests stall ``seconds``, then answer normally (or ``status``)."""
        return self.faults.add(method, pattern, hang=seconds, times=times, status=status)

    def drop_next(self, method: str, pattern: str, *, times: int = 1) -> Fault:
        """The next matching requests get their connection cut with no answer."""
        return self.faults.add(method, pattern, drop=True, times=times)

    # --- gateway controls ----------------------------------------------------------------

    async def drop_gateway(self, shard_id: int | None = None, *, code: int | None = None) -> int:
        """Cut the bot's gateway connection(s); they can RESUME. Returns how many were cut."""
        return await self.gateway.drop(shard_id, code=code)

    async def send_reconnect(self, shard_id: int | None = None) -> int:
        """Ask the bot to reconnect (op 7); it should RESUME."""
        return await self.gateway.send_reconnect(shard_id)

    async def invalidate_session(
        self, shard_id: int | None = None, *, resumable: bool = False
    ) -> int:
        return await self.gateway.invalidate(shard_id, resumable=resumable)
