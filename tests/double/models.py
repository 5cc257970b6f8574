"""The double's world: users, guilds, roles, channels, messages and interactions.

Everything the bot did is kept here as it arrived (raw component and embed dicts), so a test can
read exactly what a Discord member would see, and the payload builders turn these records into
the JSON shapes discord.py parses.
"""

from __future__ import annotations

import copy
import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .snowflake import iso_timestamp, utcnow

# Permission bits the double cares about (https://discord.com/developers/docs/topics/permissions).
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 51) - 1
# What a fresh server's @everyone role has: view, send, history, reactions, embeds, files,
# external emojis, application commands, voice basics.
DEFAULT_EVERYONE_PERMISSIONS = (
    (1 << 0)  # create instant invite
    | (1 << 6)  # add reactions
    | (1 << 10)  # view channel
    | (1 << 11)  # send messages
    | (1 << 14)  # embed links
    | (1 << 15)  # attach files
    | (1 << 16)  # read message history
    | (1 << 18)  # use external emojis
    | (1 << 20)  # connect
    | (1 << 21)  # speak
    | (1 << 26)  # change nickname
    | (1 << 31)  # use application commands
)
BOT_ROLE_PERMISSIONS = DEFAULT_EVERYONE_PERMISSIONS | (1 << 13)  # + manage messages

# Message flags.
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7

# Channel types.
GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11

# Component types.
ACTION_ROW = 1
BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4


@dataclass(eq=False)
class User:
    """A Discord account: a member the test acts as, or the bot itself."""

    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    dms_open: bool = True
    locale: str = "en-US"

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "public_flags": 0,
        }
        if self.bot:
            data["bot"] = True
        return data


@dataclass(eq=False)
class Role:
    """A guild role; permissions decide who counts as a server manager."""

    id: int
    guild_id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }


@dataclass(eq=False)
class Channel:
    """A guild text channel or a DM channel with one recipient."""

    id: int
    type: int
    name: str | None = None
    guild_id: int | None = None
    recipient_id: int | None = None
    position: int = 0
    bot_can_send: bool = True
    bot_permissions: int | None = None
    """The bot's permissions in this channel when overwrites change them (None: its server
    permissions); sent as the interaction's ``app_permissions``."""
    message_ids: list[int] = field(default_factory=list)
    parent_id: int | None = None
    """A thread's channel (type ``PUBLIC_THREAD``); None for any other channel."""
    owner_id: int | None = None
    """Who started a thread."""
    auto_archive_duration: int = 1440

    @property
    def is_thread(self) -> bool:
        return self.type == PUBLIC_THREAD

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def label(self) -> str:
        """How error messages name the channel."""
        return f"#{self.name}" if self.name else f"DM {self.id}"


@dataclass(eq=False)
class Member:
    """A user's membership of one guild."""

    user: User
    guild_id: int
    role_ids: list[int] = field(default_factory=list)
    joined_at: dt.datetime = field(default_factory=utcnow)
    nick: str | None = None

    def payload(self, *, with_user: bool = True, permissions: int | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roles": [str(r) for r in self.role_ids],
            "joined_at": iso_timestamp(self.joined_at),
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass(eq=False)
class Guild:
    """A server with its roles, text channels and members."""

    id: int
    name: str
    owner_id: int
    preferred_locale: str = "en-US"
    roles: dict[int, Role] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    threads: dict[int, Channel] = field(default_factory=dict)
    """Active threads, apart from ``channels`` as Discord keeps them (GUILD_CREATE's
    ``threads``)."""
    created_at: dt.datetime = field(default_factory=utcnow)

    def permissions_of(self, user_id: int) -> int:
        """Guild-level permissions, computed the way Discord does (owner, admin, role union)."""
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        member = self.members.get(user_id)
        if member is None:
            return 0
        value = self.roles[self.id].permissions if self.id in self.roles else 0
        for role_id in member.role_ids:
            role = self.roles.get(role_id)
            if role is not None:
                value |= role.permissions
        if value & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return value


@dataclass(frozen=True)
class Button:
    """A button (or select) as the bot sent it, flattened for assertions."""

    custom_id: str | None
    label: str | None
    style: int | None
    disabled: bool
    emoji: dict[str, Any] | None
    url: str | None
    row: int
    type: int
    raw: dict[str, Any]

    @property
    def emoji_name(self) -> str | None:
        return None if self.emoji is None else self.emoji.get("name")


def _walk_components(components: list[dict[str, Any]]) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield (top-level row index, component) for every interactive component, depth first.

    Works for classic action rows and for components-v2 layouts (containers, sections with an
    accessory), because both nest under ``components``/``component``/``accessory``.
    """

    def walk(node: dict[str, Any], row: int) -> Iterator[tuple[int, dict[str, Any]]]:
        if node.get("type") in (BUTTON, STRING_SELECT, 5, 6, 7, 8):
            yield row, node
        for child in node.get("components", []) or []:
            yield from walk(child, row)
        for key in ("component", "accessory"):
            child = node.get(key)
            if isinstance(child, dict):
                yield from walk(child, row)

    for index, top in enumerate(components):
        yield from walk(top, index)


@dataclass(eq=False)
class StoredMessage:
    """A message as the bot made it, with every earlier version kept in ``history``."""

    id: int
    channel_id: int
    guild_id: int | None
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    created_at: dt.datetime = field(default_factory=utcnow)
    edited_at: dt.datetime | None = None
    deleted: bool = False
    ephemeral_to: int | None = None
    in_dm: bool = False
    interaction_id: int | None = None
    interaction_user_id: int | None = None
    interaction_type: int | None = None
    webhook_id: int | None = None
    source: str = "channel"
    history: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while a deferred ("thinking") response has not been filled in yet."""
        return bool(self.flags & FLAG_LOADING)

    @property
    def edit_count(self) -> int:
        return len(self.history)

    def visible_to(self, user_id: int) -> bool:
        """Whether a member looking at the channel would see this message now."""
        if self.deleted:
            return False
        return self.ephemeral_to is None or self.ephemeral_to == user_id

    def buttons(self) -> list[Button]:
        """Every interactive component, in display order."""
        result = []
        for row, comp in _walk_components(self.components):
            emoji = comp.get("emoji")
            result.append(
                Button(
                    custom_id=comp.get("custom_id"),
                    label=comp.get("label")
                    if comp.get("type") == BUTTON
                    else comp.get("placeholder"),
                    style=comp.get("style"),
                    disabled=bool(comp.get("disabled", False)),
                    emoji=emoji if isinstance(emoji, dict) else None,
                    url=comp.get("url"),
                    row=row,
                    type=int(comp.get("type", BUTTON)),
                    raw=comp,
                )
            )
        return result

    def button(self, *, label: str | None = None, custom_id: str | None = None) -> Button:
        """The one component with this label or custom_id; a clear error if absent or ambiguous."""
        if (label is None) == (custom_id is None):
            raise ValueError("give exactly one of label= or custom_id=")
        found = [
            b
            for b in self.buttons()
            if (custom_id is not None and b.custom_id == custom_id)
            or (label is not None and b.label == label)
        ]
        what = f"label {label!r}" if label is not None else f"custom_id {custom_id!r}"
        if not found:
            available = [(b.label, b.custom_id) for b in self.buttons()]
            raise LookupError(f"message {self.id} has no component with {what}; it has {available}")
        if len(found) > 1:
            raise LookupError(f"message {self.id} has {len(found)} components with {what}")
        return found[0]

    @property
    def text(self) -> str:
        """Content plus every embed's title, description and fields, for loose assertions."""
        parts = [self.content]
        for embed in self.embeds:
            parts.extend(str(embed.get(k, "")) for k in ("title", "description"))
            for fld in embed.get("fields", []) or []:
                parts.append(f"{fld.get('name', '')}\n{fld.get('value', '')}")
            footer = embed.get("footer") or {}
            parts.append(str(footer.get("text", "")))
        return "\n".join(p for p in parts if p)

    def snapshot(self) -> dict[str, Any]:
        """The editable part of the message, deep-copied (what ``history`` holds)."""
        return {
            "content": self.content,
            "embeds": copy.deepcopy(self.embeds),
            "components": copy.deepcopy(self.components),
            "attachments": copy.deepcopy(self.attachments),
            "flags": self.flags,
            "edited_at": self.edited_at,
        }


@dataclass(eq=False)
class AppCommand:
    """An application command the bot registered (global when guild_id is None)."""

    id: int
    application_id: int
    guild_id: int | None
    data: dict[str, Any]
    version: int

    @property
    def name(self) -> str:
        return str(self.data["name"])

    @property
    def type(self) -> int:
        return int(self.data.get("type", 1))

    def payload(self) -> dict[str, Any]:
        body = copy.deepcopy(self.data)
        body.setdefault("type", 1)
        body.setdefault("description", "")
        body.setdefault("options", [])
        body.setdefault("default_member_permissions", None)
        body.setdefault("nsfw", False)
        body.update(
            {
                "id": str(self.id),
                "application_id": str(self.application_id),
                "version": str(self.version),
            }
        )
        if self.guild_id is not None:
            body["guild_id"] = str(self.guild_id)
        else:
            body.setdefault("dm_permission", True)
        return body
