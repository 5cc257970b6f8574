"""The double's threads: Discord's routes to start a public thread (from a message, or in
a channel without one) and to list a server's active threads, with the permissions they
need, as the published API and discord.py (``HTTPClient.start_thread_with_message``,
``start_thread_without_message``, ``get_active_threads``) use them.

A thread is a channel of type 11 (``PUBLIC_THREAD``) with its ``parent_id``; one started from
a message takes the message's id, and a message has one thread at most (error 160004). The
bot needs Create Public Threads in the parent to start one, and Send Messages in Threads to
post in one (``RestApi.create_message`` asks ``may_post``). Each new thread is announced by
THREAD_CREATE, and a server's GUILD_CREATE lists its threads, so a restarted bot knows them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from aiohttp import web

from .gateway import GUILDS
from .models import (
    CREATE_PUBLIC_THREADS,
    PUBLIC_THREAD,
    SEND_MESSAGES_IN_THREADS,
    Channel,
)

if TYPE_CHECKING:
    from .rest import Ctx, RestApi

ARCHIVE_DURATIONS: Final = (60, 1440, 4320, 10080)
"""Minutes a thread may stay quiet before it is archived (Discord accepts these only)."""
NAME_LENGTH: Final = (1, 100)


def bot_permissions(api: RestApi, channel: Channel) -> int:
    """The bot's permissions in ``channel`` (a thread's are its parent's)."""
    guild = api.world.guild_of(channel)
    if guild is None:
        return 0
    if channel.bot_permissions is not None:
        return channel.bot_permissions
    return guild.permissions_of(api.world.bot.id)


def may_post(api: RestApi, channel: Channel) -> bool:
    """Whether the bot may post in thread ``channel``."""
    return bool(bot_permissions(api, channel) & SEND_MESSAGES_IN_THREADS)


class ThreadRoutes:
    def __init__(self, api: RestApi) -> None:
        self.api = api

    def register(self) -> None:
        add = self.api._add
        add("POST", "/channels/{channel_id}/threads", self.start_without_message)
        add("POST", "/channels/{channel_id}/messages/{message_id}/threads", self.start_from_message)
        add("GET", "/guilds/{guild_id}/threads/active", self.active)

    def _checked(self, ctx: Ctx) -> tuple[Channel, str, int] | web.Response:
        """The parent, the name and the archive duration asked for, or Discord's refusal."""
        from .rest import error

        channel = self.api._find_channel(ctx)
        if isinstance(channel, web.Response):
            return channel
        if channel.is_dm or channel.is_thread or channel.guild_id is None:
            return error(400, "Cannot execute action on this channel type", 50024)
        if not bot_permissions(self.api, channel) & CREATE_PUBLIC_THREADS:
            return error(403, "Missing Permissions", 50013)
        body: dict[str, Any] = ctx.body if isinstance(ctx.body, dict) else {}
        name = body.get("name")
        low, high = NAME_LENGTH
        if not isinstance(name, str) or not low <= len(name) <= high:
            return error(400, "Invalid Form Body (name)", 50035)
        duration = body.get("auto_archive_duration", 1440)
        if duration not in ARCHIVE_DURATIONS:
            return error(400, "Invalid Form Body (auto_archive_duration)", 50035)
        return channel, name, int(duration)

    def _created(self, thread: Channel) -> web.Response:
        from .rest import json_response

        payload = self.api.world.thread_payload(thread)
        self.api.gateway.dispatch(
            "THREAD_CREATE",
            {**payload, "newly_created": True},
            guild_id=thread.guild_id,
            intent=GUILDS,
        )
        return json_response(payload, status=201)

    async def start_without_message(self, ctx: Ctx) -> web.Response:
        from .rest import error

        checked = self._checked(ctx)
        if isinstance(checked, web.Response):
            return checked
        parent, name, duration = checked
        body: dict[str, Any] = ctx.body if isinstance(ctx.body, dict) else {}
        if body.get("type", PUBLIC_THREAD) != PUBLIC_THREAD:
            return error(400, "Invalid Form Body (type): public threads only here", 50035)
        thread = self.api.world.add_thread(
            parent, name, owner_id=self.api.world.bot.id, auto_archive_duration=duration
        )
        return self._created(thread)

    async def start_from_message(self, ctx: Ctx) -> web.Response:
        from .rest import error

        checked = self._checked(ctx)
        if isinstance(checked, web.Response):
            return checked
        parent, name, duration = checked
        message = self.api._find_message(ctx, parent)
        if isinstance(message, web.Response):
            return message
        if message.id in self.api.world.channels:
            return error(400, "A thread has already been created for this message", 160004)
        thread = self.api.world.add_thread(
            parent,
            name,
            owner_id=self.api.world.bot.id,
            thread_id=message.id,
            auto_archive_duration=duration,
        )
        return self._created(thread)

    async def active(self, ctx: Ctx) -> web.Response:
        from .rest import json_response

        guild = self.api._find_guild(ctx)
        if isinstance(guild, web.Response):
            return guild
        threads = [self.api.world.thread_payload(t) for t in guild.threads.values()]
        return json_response({"threads": threads, "members": []})
