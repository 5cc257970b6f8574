"""The double's registry: who exists, what was posted, and how it looks as JSON.

One ``World`` per double. REST handlers, the gateway and the test API all read and change it on
the same event loop, so no locks are needed; every change calls ``notify`` so tests can wait for
a condition instead of sleeping.
"""

# Waiting helpers take a timeout so a failure can say what it waited for.
# ruff: noqa: ASYNC109, RUF100

from __future__ import annotations

import asyncio
import copy
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .models import (
    BOT_ROLE_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
    DM,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    GUILD_TEXT,
    MANAGE_GUILD,
    PUBLIC_THREAD,
    AppCommand,
    Channel,
    Guild,
    Member,
    Role,
    StoredMessage,
    User,
)
from .snowflake import SnowflakeGenerator, iso_timestamp, utcnow

if TYPE_CHECKING:
    from .interactions import InteractionRecord


class World:
    """Users, guilds, channels, messages, commands and interactions of one double."""

    def __init__(self, *, token: str, bot_name: str = "HokmBot") -> None:
        self.ids = SnowflakeGenerator()
        self.token = token
        self.bot = User(id=self.ids.next(), username=bot_name, bot=True)
        self.application_id = self.bot.id
        self.users: dict[int, User] = {self.bot.id: self.bot}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.dm_by_user: dict[int, int] = {}
        self.messages: dict[int, StoredMessage] = {}
        self.commands: dict[int, AppCommand] = {}
        self.command_puts = 0
        self.interactions: dict[int, InteractionRecord] = {}
        self.interactions_by_token: dict[str, InteractionRecord] = {}
        self._changed = asyncio.Event()
        self.observers: list[Callable[[StoredMessage], None]] = []
        """Called with every message the bot (or a user) creates or edits, as it is stored:
        the load bench times when a member's hand showed their turn."""

    # --- change notification -------------------------------------------------------------

    def notify(self) -> None:
        """Wake every ``wait_until`` so it re-checks its condition."""
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_until(
        self, predicate: Callable[[], bool], *, timeout: float = 3.0, what: str = "condition"
    ) -> None:
        """Return once ``predicate()`` holds; after ``timeout`` fail, naming ``what``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate():
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
            event = self._changed
            try:
                await asyncio.wait_for(event.wait(), timeout=remaining)
            except TimeoutError:
                continue

    # --- users, guilds, channels ---------------------------------------------------------

    def add_user(
        self,
        username: str,
        *,
        bot: bool = False,
        dms_open: bool = True,
        locale: str = "en-US",
        global_name: str | None = None,
    ) -> User:
        user = User(
            id=self.ids.next(),
            username=username,
            global_name=global_name,
            bot=bot,
            dms_open=dms_open,
            locale=locale,
        )
        self.users[user.id] = user
        self.notify()
        return user

    def create_guild(
        self,
        name: str,
        *,
        owner: User | None = None,
        preferred_locale: str = "en-US",
        shard: tuple[int, int] | None = None,
    ) -> Guild:
        """A guild with @everyone, a "Server Manager" role (Manage Server) and the bot as member.

        Without ``owner`` the guild belongs to a user who is not a member, so nobody gets the
        owner's implicit permissions by accident. ``shard=(shard_id, shard_count)`` gives it an
        id that shard owns.
        """
        guild_id = self.ids.next(shard=shard)
        if owner is None:
            owner_id = self.ids.next()
            self.users[owner_id] = User(id=owner_id, username=f"owner-of-{name}")
        else:
            owner_id = owner.id
        guild = Guild(
            id=guild_id,
            name=name,
            owner_id=owner_id,
            preferred_locale=preferred_locale,
        )
        guild.roles[guild_id] = Role(
            id=guild_id,
            guild_id=guild_id,
            name="@everyone",
            permissions=DEFAULT_EVERYONE_PERMISSIONS,
        )
        manager = Role(
            id=self.ids.next(),
            guild_id=guild_id,
            name="Server Manager",
            permissions=DEFAULT_EVERYONE_PERMISSIONS | MANAGE_GUILD,
            position=2,
        )
        bot_role = Role(
            id=self.ids.next(),
            guild_id=guild_id,
            name=self.bot.username,
            permissions=BOT_ROLE_PERMISSIONS,
            position=1,
            managed=True,
        )
        guild.roles[manager.id] = manager
        guild.roles[bot_role.id] = bot_role
        guild.members[self.bot.id] = Member(
            user=self.bot, guild_id=guild_id, role_ids=[bot_role.id]
        )
        if owner is not None:
            guild.members.setdefault(owner.id, Member(user=owner, guild_id=guild_id))
        self.guilds[guild_id] = guild
        self.notify()
        return guild

    def manager_role(self, guild: Guild) -> Role:
        return next(r for r in guild.roles.values() if r.permissions & MANAGE_GUILD)

    def add_role(self, guild: Guild, name: str, permissions: int) -> Role:
        role = Role(
            id=self.ids.next(),
            guild_id=guild.id,
            name=name,
            permissions=permissions,
            position=len(guild.roles),
        )
        guild.roles[role.id] = role
        self.notify()
        return role

    def add_member(
        self,
        guild: Guild,
        user: User,
        *,
        manage_guild: bool = False,
        roles: list[Role] | None = None,
    ) -> Member:
        role_ids = [r.id for r in roles or []]
        if manage_guild:
            role_ids.append(self.manager_role(guild).id)
        member = Member(user=user, guild_id=guild.id, role_ids=role_ids)
        guild.members[user.id] = member
        self.notify()
        return member

    def add_text_channel(self, guild: Guild, name: str) -> Channel:
        channel = Channel(
            id=self.ids.next(),
            type=GUILD_TEXT,
            name=name,
            guild_id=guild.id,
            position=len(guild.channels),
        )
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        self.notify()
        return channel

    def delete_channel(self, channel: Channel) -> None:
        """Forget a guild channel for REST (404 from now on); its messages are kept."""
        guild = self.guild_of(channel)
        if guild is not None:
            guild.channels.pop(channel.id, None)
        self.channels.pop(channel.id, None)
        self.notify()

    def open_dm(self, user: User) -> Channel:
        """The DM channel between the bot and ``user`` (the same one every time, as on Discord)."""
        channel_id = self.dm_by_user.get(user.id)
        if channel_id is not None:
            return self.channels[channel_id]
        channel = Channel(id=self.ids.next(), type=DM, recipient_id=user.id)
        self.channels[channel.id] = channel
        self.dm_by_user[user.id] = channel.id
        self.notify()
        return channel

    def guild_of(self, channel: Channel) -> Guild | None:
        return None if channel.guild_id is None else self.guilds.get(channel.guild_id)

    # --- messages ------------------------------------------------------------------------

    def create_message(
        self,
        channel: Channel,
        body: dict[str, Any],
        *,
        author: User | None = None,
        source: str = "channel",
        ephemeral_to: int | None = None,
        interaction: InteractionRecord | None = None,
        message_type: int = 0,
        flags: int | None = None,
    ) -> StoredMessage:
        """Store a message made from a create body (content, embeds, components, flags...)."""
        msg_flags = int(body.get("flags") or 0) if flags is None else flags
        if ephemeral_to is not None:
            msg_flags |= FLAG_EPHEMERAL
        embeds = list(body.get("embeds") or [])
        if body.get("embed"):
            embeds.append(body["embed"])
        msg = StoredMessage(
            id=self.ids.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author or self.bot,
            content=str(body.get("content") or ""),
            embeds=[_embed_with_type(e) for e in embeds],
            components=copy.deepcopy(list(body.get("components") or [])),
            attachments=copy.deepcopy(list(body.get("attachments") or [])),
            flags=msg_flags,
            type=message_type,
            ephemeral_to=ephemeral_to,
            in_dm=channel.is_dm,
            source=source,
        )
        if interaction is not None:
            msg.interaction_id = interaction.id
            msg.interaction_user_id = interaction.user.id
            msg.interaction_type = interaction.type
            msg.webhook_id = self.application_id
        self.messages[msg.id] = msg
        channel.message_ids.append(msg.id)
        for observe in self.observers:
            observe(msg)
        self.notify()
        return msg

    def edit_message(self, msg: StoredMessage, body: dict[str, Any]) -> StoredMessage:
        """Apply a PATCH body: only the keys present change; ``None`` clears a field."""
        msg.history.append(msg.snapshot())
        if "content" in body:
            msg.content = str(body["content"] or "")
        if "embeds" in body or "embed" in body:
            embeds = body.get("embeds")
            if embeds is None and body.get("embed") is not None:
                embeds = [body["embed"]]
            msg.embeds = [_embed_with_type(e) for e in embeds or []]
        if "components" in body:
            msg.components = copy.deepcopy(list(body["components"] or []))
        if "attachments" in body:
            msg.attachments = copy.deepcopy(list(body["attachments"] or []))
        if "flags" in body and body["flags"] is not None:
            keep = msg.flags & (FLAG_EPHEMERAL | FLAG_LOADING)
            msg.flags = int(body["flags"]) | keep
        if any(k in body for k in ("content", "embeds", "embed", "components", "attachments")):
            msg.flags &= ~FLAG_LOADING
        msg.edited_at = utcnow()
        for observe in self.observers:
            observe(msg)
        self.notify()
        return msg

    def delete_message(self, msg: StoredMessage) -> None:
        msg.deleted = True
        self.notify()

    # --- JSON payloads -------------------------------------------------------------------

    def message_payload(self, msg: StoredMessage) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(msg.id),
            "channel_id": str(msg.channel_id),
            "type": msg.type,
            "content": msg.content,
            "author": msg.author.payload(),
            "timestamp": iso_timestamp(msg.created_at),
            "edited_timestamp": iso_timestamp(msg.edited_at) if msg.edited_at else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": copy.deepcopy(msg.attachments),
            "embeds": copy.deepcopy(msg.embeds),
            "components": copy.deepcopy(msg.components),
            "pinned": False,
            "flags": msg.flags,
        }
        if msg.guild_id is not None:
            data["guild_id"] = str(msg.guild_id)
        if msg.webhook_id is not None:
            data["webhook_id"] = str(msg.webhook_id)
            data["application_id"] = str(self.application_id)
        if msg.interaction_id is not None and msg.interaction_user_id is not None:
            user = self.users[msg.interaction_user_id]
            data["interaction_metadata"] = {
                "id": str(msg.interaction_id),
                "type": msg.interaction_type or 2,
                "user": user.payload(),
                "authorizing_integration_owners": {},
            }
        return data

    def channel_payload(self, channel: Channel) -> dict[str, Any]:
        if channel.is_dm:
            recipient = self.users[channel.recipient_id or 0]
            last = channel.message_ids[-1] if channel.message_ids else None
            return {
                "id": str(channel.id),
                "type": DM,
                "last_message_id": str(last) if last else None,
                "recipients": [recipient.payload()],
                "flags": 0,
            }
        last = channel.message_ids[-1] if channel.message_ids else None
        if channel.is_thread:
            return self.thread_payload(channel)
        return {
            "id": str(channel.id),
            "type": channel.type,
            "guild_id": str(channel.guild_id),
            "name": channel.name,
            "position": channel.position,
            "permission_overwrites": [],
            "parent_id": None,
            "topic": None,
            "nsfw": False,
            "rate_limit_per_user": 0,
            "last_message_id": str(last) if last else None,
            "flags": 0,
        }

    def add_thread(
        self,
        parent: Channel,
        name: str,
        *,
        owner_id: int,
        thread_id: int | None = None,
        auto_archive_duration: int = 1440,
    ) -> Channel:
        """A public thread of ``parent`` (``thread_id``: a message's, for a thread started
        from that message, which Discord gives the message's id)."""
        guild = self.guild_of(parent)
        assert guild is not None and parent.guild_id is not None
        thread = Channel(
            id=thread_id or self.ids.next(),
            type=PUBLIC_THREAD,
            name=name,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=owner_id,
            auto_archive_duration=auto_archive_duration,
            bot_can_send=parent.bot_can_send,
            bot_permissions=parent.bot_permissions,
        )
        guild.threads[thread.id] = thread
        self.channels[thread.id] = thread
        self.notify()
        return thread

    def thread_payload(self, thread: Channel) -> dict[str, Any]:
        """A thread channel as discord.py's ``Thread`` reads it."""
        last = thread.message_ids[-1] if thread.message_ids else None
        return {
            "id": str(thread.id),
            "type": thread.type,
            "guild_id": str(thread.guild_id),
            "parent_id": str(thread.parent_id),
            "owner_id": str(thread.owner_id),
            "name": thread.name,
            "last_message_id": str(last) if last else None,
            "rate_limit_per_user": 0,
            "message_count": len(thread.message_ids),
            "member_count": 1,
            "flags": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": thread.auto_archive_duration,
                "archive_timestamp": iso_timestamp(utcnow()),
                "locked": False,
            },
        }

    def guild_payload(self, guild: Guild, *, with_members: bool) -> dict[str, Any]:
        """The GUILD_CREATE shape (REST GET /guilds/{id} drops the gateway-only keys)."""
        members = guild.members.values() if with_members else [guild.members[self.bot.id]]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(guild.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "preferred_locale": guild.preferred_locale,
            "features": [],
            "roles": [r.payload() for r in guild.roles.values()],
            "emojis": [],
            "stickers": [],
            "channels": [
                {k: v for k, v in self.channel_payload(c).items() if k != "guild_id"}
                for c in guild.channels.values()
            ],
            "members": [m.payload() for m in members],
            "member_count": len(guild.members),
            "joined_at": iso_timestamp(guild.created_at),
            "large": False,
            "unavailable": False,
            "voice_states": [],
            "presences": [],
            "threads": [self.thread_payload(t) for t in guild.threads.values()],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def new_token(self) -> str:
        return "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48)


def _embed_with_type(embed: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(embed)
    out.setdefault("type", "rich")
    return out
