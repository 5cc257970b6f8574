"""Acting as a Discord member: slash commands, button clicks, selects and modal submits.

Builds INTERACTION_CREATE payloads the way Discord does (the pitfalls that cost hours are
covered: ``attachment_size_limit``, ``version``, ``application_id``, ``channel{id,type}``,
``guild_id`` + ``member`` with computed ``permissions`` in guilds, ``user`` in DMs, and the full
``message`` of a clicked component), and keeps one ``InteractionRecord`` per interaction so a test
can await the bot's answer.
"""

# Waiting helpers take a timeout so a failure can say what it waited for.
# ruff: noqa: ASYNC109, RUF100

from __future__ import annotations

import asyncio
import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .models import (
    BUTTON,
    SEND_MESSAGES,
    STRING_SELECT,
    TEXT_INPUT,
    AppCommand,
    Channel,
    Guild,
    Role,
    StoredMessage,
    User,
)
from .state import World

APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
MODAL_SUBMIT = 5

# Application command option types.
SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING = 3
INTEGER = 4
BOOLEAN = 5
USER = 6
CHANNEL = 7
ROLE = 8
MENTIONABLE = 9
NUMBER = 10

RESPONSE_TYPES = {
    1: "pong",
    4: "channel message",
    5: "deferred channel message",
    6: "deferred message update",
    7: "update message",
    8: "autocomplete result",
    9: "modal",
}


class InteractionTimeout(AssertionError):
    """The bot did not answer an interaction in time (an AssertionError, so pytest shows it)."""


@dataclass(eq=False)
class InteractionRecord:
    """One interaction a test started, and everything the bot did in answer to it."""

    id: int
    token: str
    type: int
    user: User
    channel: Channel
    guild_id: int | None
    description: str
    payload: dict[str, Any]
    world: World
    source_message: StoredMessage | None = None
    dispatched_at: float = 0.0
    delivered: bool = False
    responded_at: float | None = None
    response_type: int | None = None
    response_data: dict[str, Any] | None = None
    original: StoredMessage | None = None
    followups: list[StoredMessage] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    autocomplete_choices: list[dict[str, Any]] | None = None
    refused: list[str] = field(default_factory=list)
    expired: bool = False  # a callback came after the deadline; nothing can answer it now

    @property
    def responded(self) -> bool:
        return self.response_type is not None

    @property
    def response_time(self) -> float | None:
        """Seconds from dispatch over the gateway to the callback (loop clock)."""
        if self.responded_at is None:
            return None
        return self.responded_at - self.dispatched_at

    @property
    def message(self) -> StoredMessage | None:
        """The message the response created (types 4, 5) or updated (types 6, 7)."""
        return self.original

    @property
    def ephemeral(self) -> bool:
        return self.original is not None and self.original.ephemeral

    @property
    def response_name(self) -> str:
        return RESPONSE_TYPES.get(self.response_type or 0, str(self.response_type))

    async def wait_response(self, timeout: float = 3.0) -> InteractionRecord:
        """Wait for the interaction callback; fail clearly after ``timeout`` seconds (or at once
        when the bot's callback came too late for Discord to accept it, or when no gateway session
        existed to deliver the interaction)."""
        if not self.delivered:
            raise InteractionTimeout(self._timeout_message(timeout))
        try:
            await self.world.wait_until(
                lambda: self.responded or self.expired, timeout=timeout, what="response"
            )
        except AssertionError:
            raise InteractionTimeout(self._timeout_message(timeout)) from None
        if not self.responded:
            raise InteractionTimeout(self._timeout_message(timeout))
        return self

    async def wait_followups(self, count: int = 1, timeout: float = 3.0) -> list[StoredMessage]:
        """Wait until at least ``count`` followup messages exist."""
        await self.world.wait_until(
            lambda: len(self.followups) >= count,
            timeout=timeout,
            what=f"{count} followup(s) to interaction {self.id} ({self.description})",
        )
        return self.followups

    async def wait_original(self, timeout: float = 3.0) -> StoredMessage:
        """Wait until the response message exists and is no longer a loading placeholder."""
        await self.world.wait_until(
            lambda: self.original is not None and not self.original.loading,
            timeout=timeout,
            what=f"the filled-in response to interaction {self.id} ({self.description})",
        )
        assert self.original is not None
        return self.original

    def _timeout_message(self, timeout: float) -> str:
        text = (
            f"the bot did not answer interaction {self.id} ({self.description}) "
            f"within {timeout:g} s"
        )
        if not self.delivered:
            text += " (no gateway session was connected to receive it)"
        if self.refused:
            text += f"; refused callbacks: {'; '.join(self.refused)}"
        return text


def _split_command(command: str) -> list[str]:
    parts = command.strip().lstrip("/").split()
    if not parts:
        raise ValueError("empty command name")
    return parts


def find_command(world: World, name: str, guild_id: int | None) -> AppCommand | None:
    """Guild commands shadow global ones, as in the Discord client."""
    candidates = [c for c in world.commands.values() if c.name == name and c.type == 1]
    for cmd in candidates:
        if guild_id is not None and cmd.guild_id == guild_id:
            return cmd
    for cmd in candidates:
        if cmd.guild_id is None:
            return cmd
    return None


def _infer_type(value: Any) -> int:
    if isinstance(value, bool):
        return BOOLEAN
    if isinstance(value, int):
        return INTEGER
    if isinstance(value, float):
        return NUMBER
    if isinstance(value, User):
        return USER
    if isinstance(value, Channel):
        return CHANNEL
    if isinstance(value, Role):
        return ROLE
    return STRING


class _Resolved:
    """Collects the ``resolved`` section for user, channel and role options."""

    def __init__(self, world: World, guild: Guild | None) -> None:
        self.world = world
        self.guild = guild
        self.data: dict[str, dict[str, Any]] = {}

    def add_user(self, user: User) -> None:
        self.data.setdefault("users", {})[str(user.id)] = user.payload()
        if self.guild is not None and user.id in self.guild.members:
            member = self.guild.members[user.id]
            perms = self.guild.permissions_of(user.id)
            self.data.setdefault("members", {})[str(user.id)] = member.payload(
                with_user=False, permissions=perms
            )

    def add_channel(self, channel: Channel) -> None:
        payload = self.world.channel_payload(channel)
        payload["permissions"] = str(
            self.guild.permissions_of(self.world.bot.id) if self.guild else 0
        )
        self.data.setdefault("channels", {})[str(channel.id)] = payload

    def add_role(self, role: Role) -> None:
        self.data.setdefault("roles", {})[str(role.id)] = role.payload()


def _encode_option(
    world: World, resolved: _Resolved, name: str, opt_type: int, value: Any
) -> dict[str, Any]:
    if opt_type == STRING:
        encoded: Any = str(value)
    elif opt_type == INTEGER:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"option {name!r} is an integer option, got {value!r}")
        encoded = value
    elif opt_type == NUMBER:
        encoded = float(value)
    elif opt_type == BOOLEAN:
        if not isinstance(value, bool):
            raise TypeError(f"option {name!r} is a boolean option, got {value!r}")
        encoded = value
    elif (
        opt_type in (USER, MENTIONABLE)
        and isinstance(value, User | int)
        and not isinstance(value, bool)
    ):
        user = value if isinstance(value, User) else world.users[value]
        resolved.add_user(user)
        encoded = str(user.id)
    elif opt_type in (CHANNEL,) and isinstance(value, Channel):
        resolved.add_channel(value)
        encoded = str(value.id)
    elif opt_type in (ROLE, MENTIONABLE) and isinstance(value, Role):
        resolved.add_role(value)
        encoded = str(value.id)
    else:
        raise TypeError(f"cannot send {value!r} as option {name!r} of type {opt_type}")
    return {"name": name, "type": opt_type, "value": encoded}


def _leaf_options(
    world: World,
    resolved: _Resolved,
    schema: list[dict[str, Any]] | None,
    options: Mapping[str, Any],
    where: str,
) -> list[dict[str, Any]]:
    """Typed option payloads checked against the registered schema (when there is one)."""
    out = []
    if schema is None:
        for name, value in options.items():
            out.append(_encode_option(world, resolved, name, _infer_type(value), value))
        return out
    by_name = {o["name"]: o for o in schema}
    for name, value in options.items():
        spec = by_name.get(name)
        if spec is None:
            raise LookupError(f"{where} has no option {name!r}; it has {sorted(by_name)}")
        choices = spec.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            allowed = [c["value"] for c in choices]
            raise ValueError(f"{where}: {value!r} is not a choice of {name!r} ({allowed})")
        out.append(_encode_option(world, resolved, name, int(spec["type"]), value))
    missing = [o["name"] for o in schema if o.get("required") and o["name"] not in options]
    if missing:
        raise ValueError(f"{where}: required option(s) {missing} missing")
    return out


def command_data(
    world: World,
    *,
    command: str,
    options: Mapping[str, Any] | None,
    guild: Guild | None,
    strict: bool,
) -> dict[str, Any]:
    """The ``data`` of an APPLICATION_COMMAND interaction for e.g. ``"hokm new"``."""
    path = _split_command(command)
    registered = find_command(world, path[0], guild.id if guild else None)
    if registered is None and strict:
        known = sorted({c.name for c in world.commands.values()})
        raise LookupError(
            f"/{path[0]} is not a registered command here (the bot registered {known}); "
            "sync commands first or pass strict=False"
        )
    resolved = _Resolved(world, guild)
    schema: list[dict[str, Any]] | None = (
        list(registered.data.get("options") or []) if registered else None
    )
    where = f"/{path[0]}"
    wrappers: list[dict[str, Any]] = []
    for name in path[1:]:
        where += f" {name}"
        if schema is None:
            wrappers.append({"name": name, "type": SUB_COMMAND, "options": []})
            continue
        spec = next((o for o in schema if o["name"] == name and o["type"] in (1, 2)), None)
        if spec is None:
            subs = [o["name"] for o in schema if o["type"] in (1, 2)]
            raise LookupError(f"{where} is not a subcommand (known: {subs})")
        wrappers.append({"name": name, "type": int(spec["type"]), "options": []})
        schema = list(spec.get("options") or [])
    if registered is not None and schema is not None and any(o["type"] in (1, 2) for o in schema):
        raise ValueError(f"{where} is a group; name one of its subcommands")
    leaf = _leaf_options(world, resolved, schema, options or {}, where)
    # Nest: the last wrapper holds the leaf options, each wrapper sits inside the one before.
    inner = leaf
    for wrapper in reversed(wrappers):
        wrapper["options"] = inner
        inner = [wrapper]
    data: dict[str, Any] = {
        "id": str(registered.id if registered else world.ids.next()),
        "name": path[0],
        "type": 1,
        "options": inner,
    }
    if registered is not None and registered.guild_id is not None:
        data["guild_id"] = str(registered.guild_id)
    if resolved.data:
        data["resolved"] = resolved.data
    return data


def component_data(
    message: StoredMessage,
    *,
    custom_id: str | None,
    label: str | None,
    values: list[str] | None,
    stale: bool = False,
) -> dict[str, Any]:
    """The ``data`` of a MESSAGE_COMPONENT interaction, refusing what a member cannot click.

    With ``stale=True`` the custom_id is sent even if the message no longer shows that button
    (or shows it disabled): a member clicking a button their client still displays while the
    bot's edit is on its way.
    """
    if stale:
        if custom_id is None:
            raise ValueError("a stale click needs custom_id=")
        stale_data: dict[str, Any] = {"custom_id": custom_id, "component_type": BUTTON}
        if values is not None:
            stale_data.update(component_type=STRING_SELECT, values=list(values))
        return stale_data
    button = message.button(custom_id=custom_id, label=label)
    if button.disabled:
        raise ValueError(f"component {button.label or button.custom_id!r} is disabled")
    if button.url is not None or button.custom_id is None:
        raise ValueError(f"component {button.label!r} is a link; clicking it sends no interaction")
    data: dict[str, Any] = {"custom_id": button.custom_id, "component_type": button.type}
    if button.type == BUTTON:
        if values is not None:
            raise ValueError("values= is for select menus")
    else:
        if values is None:
            raise ValueError(f"component {button.custom_id!r} is a select menu; pass values=")
        if button.type == STRING_SELECT:
            allowed = [o.get("value") for o in button.raw.get("options", [])]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise ValueError(f"{bad} are not options of select {button.custom_id!r}")
        data["values"] = list(values)
    return data


def modal_submit_data(modal: dict[str, Any], values: Mapping[str, str]) -> dict[str, Any]:
    """Fill a modal's text inputs with ``values`` (by custom_id), keeping its layout."""
    unused = set(values)

    def fill(node: dict[str, Any]) -> dict[str, Any]:
        node_type = node.get("type")
        if node_type == TEXT_INPUT:
            custom_id = node["custom_id"]
            if custom_id not in values and node.get("required", True):
                raise ValueError(f"modal input {custom_id!r} is required")
            unused.discard(custom_id)
            return {"type": TEXT_INPUT, "custom_id": custom_id, "value": values.get(custom_id, "")}
        out: dict[str, Any] = {"type": node_type}
        if "components" in node:
            out["components"] = [fill(c) for c in node["components"]]
        if isinstance(node.get("component"), dict):
            out["component"] = fill(node["component"])
        return out

    components = [fill(copy.deepcopy(c)) for c in modal.get("components", [])]
    if unused:
        raise LookupError(f"modal {modal.get('custom_id')!r} has no inputs {sorted(unused)}")
    return {"custom_id": modal["custom_id"], "components": components}


def app_permissions(world: World, guild: Guild, channel: Channel) -> int:
    """The bot's permissions in ``channel``, as Discord computes ``app_permissions``: its
    server permissions, or the channel's own (``Channel.bot_permissions``), without Send
    Messages where it was denied (``DiscordDouble.deny_send``)."""
    value = guild.permissions_of(world.bot.id)
    if channel.bot_permissions is not None:
        value = channel.bot_permissions
    if not channel.bot_can_send:
        value &= ~SEND_MESSAGES
    return value


def interaction_payload(
    world: World,
    record_id: int,
    token: str,
    *,
    itype: int,
    user: User,
    channel: Channel,
    data: dict[str, Any],
    message: StoredMessage | None,
) -> dict[str, Any]:
    """The INTERACTION_CREATE body, guild or DM shaped."""
    guild = world.guild_of(channel)
    payload: dict[str, Any] = {
        "id": str(record_id),
        "application_id": str(world.application_id),
        "type": itype,
        "data": data,
        "token": token,
        "version": 1,
        "channel_id": str(channel.id),
        "channel": world.channel_payload(channel),
        "locale": user.locale,
        "attachment_size_limit": 10 * 1024 * 1024,
        "entitlements": [],
        "entitlement_sku_ids": [],
    }
    if guild is not None:
        member = guild.members.get(user.id)
        if member is None:
            raise LookupError(f"{user.username} is not a member of guild {guild.name!r}")
        payload["guild_id"] = str(guild.id)
        payload["guild_locale"] = guild.preferred_locale
        payload["guild"] = {"id": str(guild.id), "locale": guild.preferred_locale, "features": []}
        payload["member"] = member.payload(permissions=guild.permissions_of(user.id))
        payload["app_permissions"] = str(app_permissions(world, guild, channel))
        payload["context"] = 0
        payload["authorizing_integration_owners"] = {"0": str(guild.id)}
    else:
        payload["user"] = user.payload()
        payload["app_permissions"] = "0"
        payload["context"] = 1
        payload["authorizing_integration_owners"] = {"0": "0"}
    if message is not None:
        payload["message"] = world.message_payload(message)
    return payload


def new_record(
    world: World,
    *,
    itype: int,
    user: User,
    channel: Channel,
    data: dict[str, Any],
    description: str,
    source_message: StoredMessage | None = None,
) -> InteractionRecord:
    """Create and register the record (not yet dispatched)."""
    record_id = world.ids.next()
    token = world.new_token()
    payload = interaction_payload(
        world,
        record_id,
        token,
        itype=itype,
        user=user,
        channel=channel,
        data=data,
        message=source_message,
    )
    record = InteractionRecord(
        id=record_id,
        token=token,
        type=itype,
        user=user,
        channel=channel,
        guild_id=channel.guild_id,
        description=description,
        payload=payload,
        world=world,
        source_message=source_message,
        dispatched_at=asyncio.get_running_loop().time(),
    )
    world.interactions[record.id] = record
    world.interactions_by_token[token] = record
    return record
