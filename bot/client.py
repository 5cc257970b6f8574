"""The discord.py client: wiring, command sync, and the one router every button click reaches."""

from __future__ import annotations

import asyncio
import gc
import hashlib
import json
import logging
from collections import OrderedDict
from collections.abc import Callable
from functools import partial
from pathlib import Path

import discord
from discord.ext import commands

from . import custom_ids, render
from .cogs.hokm import HokmCog
from .cogs.standings import StandingsCog
from .config import Settings
from .discord_ui import message_kwargs
from .errors import ActionError
from .guild_settings import GuildSettings
from .health import HealthFile
from .housekeeping import purge_ended_tables
from .log_safety import keep_payloads_out_of_logs
from .loop_monitor import LoopLagMonitor
from .names import member_name
from .outbox import Outbox
from .publisher import DiscordPublisher
from .replies import reply_error
from .startup import StartupError
from .store import Store
from .tables import TableService, random_seed
from .thinking import Thinker

log = logging.getLogger(__name__)

SEEN_CLICKS = 4096
"""Interaction ids remembered to drop duplicate deliveries (an interaction lives 15 minutes;
a copy arrives within seconds, so a few thousand recent ids are plenty)."""


class HokmBot(commands.Bot):
    """Hosts Hokm tables. Needs no privileged intents."""

    _resumed_tables = 0
    _ready_logged = False
    _health: HealthFile | None = None

    def __init__(self, settings: Settings, store: Store) -> None:
        # The bot uses no voice: discord.py's "PyNaCl/davey is not installed" is noise.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        keep_payloads_out_of_logs()
        intents = discord.Intents.default()
        intents.typing = False
        intents.presences = False
        # Everything happens through interactions: message events (including the echo of
        # every message the bot sends) would only cost parsing.
        intents.guild_messages = False
        intents.dm_messages = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            guild_ready_timeout=settings.guild_ready_timeout,
            max_messages=None,
            # Nothing the bot sends may ping by default; every call also says so explicitly.
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.settings = settings
        self.store = store
        self.outbox = Outbox(rate=settings.outbox_rate)
        self.thinker = Thinker()
        self.service = TableService(
            store,
            make_publisher=partial(DiscordPublisher, self, self.outbox),
            computer_delay=settings.computer_delay_seconds,
            thinker=self.thinker.decide,
            seed_source=_seed_source(settings.match_seed_base),
        )
        publisher = self.service.publisher
        assert isinstance(publisher, DiscordPublisher)
        self.publisher = publisher
        self._background: list[asyncio.Task[None]] = []
        self._languages: dict[int, str] = {}
        self._seen_clicks: OrderedDict[int, None] = OrderedDict()

    # ------------------------------------------------------------------ start-up

    async def setup_hook(self) -> None:
        await self.add_cog(HokmCog(self))
        await self.add_cog(StandingsCog(self))
        self._background.append(asyncio.create_task(self.outbox.run(), name="hokm-outbox"))
        if self.settings.loop_lag_report_seconds > 0:
            monitor = LoopLagMonitor(report_every=self.settings.loop_lag_report_seconds)
            self._background.append(asyncio.create_task(monitor.run(), name="hokm-loop-lag"))
        if self.settings.health_file:
            self._health = HealthFile(self.settings.health_file)
            self._health.clear()  # a file left by an earlier run says nothing about this one
            task = asyncio.create_task(self._health.run(self._gateway_open), name="hokm-health")
            self._background.append(task)
        await self.sync_commands()
        self._resumed_tables = len(await self.service.restore())
        # Only once start-up went through: a purge still talking to the database when a failed
        # start closes it would keep the process from exiting.
        purge = purge_ended_tables(self.store, self.settings.ended_table_retention_days)
        self._background.append(asyncio.create_task(purge, name="hokm-purge"))
        # What exists now lives as long as the bot: keep it out of every later collection,
        # so a full collection does not pause all tables for a quarter of a second.
        gc.collect()
        gc.freeze()

    async def sync_commands(self) -> None:
        """Sync to ``dev_guild_ids`` (instant) or globally, only when the tree changed."""
        guilds = [discord.Object(g) for g in self.settings.dev_guild_ids]
        payload = sorted(
            (c.to_dict(self.tree) for c in self.tree.get_commands()), key=lambda c: c["name"]
        )
        digest = hashlib.sha256(
            json.dumps([payload, self.settings.dev_guild_ids], sort_keys=True).encode()
        ).hexdigest()
        marker = Path(self.settings.command_sync_file)
        if await asyncio.to_thread(_read_marker, marker) == digest:
            log.info("application commands unchanged; sync skipped")
            return
        if guilds:
            for guild in guilds:
                self.tree.copy_global_to(guild=guild)
                try:
                    await self.tree.sync(guild=guild)
                except (discord.Forbidden, discord.NotFound):
                    raise StartupError(
                        f"dev_guild_ids: the bot is not in server {guild.id}; invite it there "
                        "or remove the id"
                    ) from None
        else:
            await self.tree.sync()
        log.info("application commands synced (%s)", "dev guilds" if guilds else "global")
        await asyncio.to_thread(_write_marker, marker, digest)

    async def close(self) -> None:
        await self.service.close()
        self.thinker.close()
        await self.outbox.drain(within=3.0)
        await self.outbox.close()
        for task in self._background:
            task.cancel()
        # Wait for them to end: the store is closed next, and a task still inside a database
        # call would hold its connection (and its thread) open past the end of the process.
        await asyncio.gather(*self._background, return_exceptions=True)
        self._background.clear()
        await super().close()
        if self._health is not None:
            self._health.clear()

    # ------------------------------------------------------------------ gateway state

    def _gateway_open(self) -> bool:
        return self.ws is not None and self.ws.open and self.is_ready()

    async def on_ready(self) -> None:
        """Fires when the gateway session is READY (again after a new session), not at login."""
        if self._health is not None:
            self._health.touch()
        if self._ready_logged:
            log.info("gateway ready again (new session)")
            return
        self._ready_logged = True
        missing = [g for g in self.settings.dev_guild_ids if self.get_guild(g) is None]
        if missing:
            log.warning(
                "dev_guild_ids: the bot is not in server(s) %s", ", ".join(map(str, missing))
            )
        log.info(
            "ready to serve as %s in %d servers; %d live tables resumed",
            self.user,
            len(self.guilds),
            self._resumed_tables,
        )

    async def on_resumed(self) -> None:
        if self._health is not None:
            self._health.touch()

    async def on_disconnect(self) -> None:
        if self._health is not None:
            self._health.clear()

    # ------------------------------------------------------------------ events

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is discord.InteractionType.component:
            if self._first_delivery(interaction.id):
                await handle_click(self, interaction)
            else:
                log.info("interaction %s delivered again; ignored", interaction.id)

    def _first_delivery(self, interaction_id: int) -> bool:
        """A click delivered twice (same interaction id) is applied once: state checks alone
        would let "Add computer" add two. Discord accepts one answer anyway."""
        if interaction_id in self._seen_clicks:
            return False
        self._seen_clicks[interaction_id] = None
        if len(self._seen_clicks) > SEEN_CLICKS:
            self._seen_clicks.popitem(last=False)
        return True

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        table = self.service.table_in_channel(channel.id)
        if table is not None:
            log.info("table %s: channel deleted", table.table_id)
            await self.service.abandon(table.table_id)

    async def language_of(self, guild_id: int | None) -> str:
        """The server's language, cached: it is needed for every answer."""
        if guild_id is None:
            return "en"
        cached = self._languages.get(guild_id)
        if cached is not None:
            return cached
        try:
            lang = (await self.store.get_guild_settings(guild_id)).language
        except Exception:
            log.exception("guild %s: settings unreadable", guild_id)
            return GuildSettings().language
        self._languages[guild_id] = lang
        return lang

    def settings_changed(self, guild_id: int, settings: GuildSettings) -> None:
        self._languages[guild_id] = settings.language


def _seed_source(base: int | None) -> Callable[[], int]:
    """``match_seed_base`` (tests, replays): deal every match from that seed, so a run can be
    repeated card for card, e.g. once straight through and once with the bot killed midway."""
    if base is None:
        return random_seed
    return lambda: base


def _read_marker(path: Path) -> str:
    try:
        return path.read_text().strip()
    except OSError:
        return ""


def _write_marker(path: Path, digest: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(digest)
    except OSError as exc:
        log.warning("could not write %s: %s", path, exc)


# ---------------------------------------------------------------------- the click router


async def handle_click(bot: HokmBot, interaction: discord.Interaction) -> None:
    custom_id = _custom_id(interaction)
    try:
        click = custom_ids.parse(custom_id)
    except custom_ids.BadCustomId:
        await reply_error(
            interaction, await bot.language_of(interaction.guild_id), "error.bad_button"
        )
        return
    table = bot.service.tables.get(click.table_id) if click.table_id else None
    if table is not None:
        lang = table.settings.language
    else:
        lang = await bot.language_of(interaction.guild_id)
    try:
        if click.kind in ("card", "trump"):
            await _play_click(bot, interaction, click)
        elif click.kind == "lobby":
            await _lobby_click(bot, interaction, click)
        elif click.kind == "my_hand":
            await _my_hand_click(bot, interaction, click)
        elif click.kind == "standings":
            if not _has_page_buttons(interaction.message):  # a page id forged elsewhere
                raise ActionError("error.bad_button")
            cog = bot.get_cog("StandingsCog")
            assert isinstance(cog, StandingsCog)  # added in setup_hook, never removed
            await cog.page_click(interaction, click)
    except ActionError as exc:
        await reply_error(interaction, lang, exc.code, exc.params)
    except Exception:
        log.exception("click %r failed", custom_id)
        await reply_error(interaction, lang, "error.internal")


async def _play_click(
    bot: HokmBot, interaction: discord.Interaction, click: custom_ids.Click
) -> None:
    user_id = interaction.user.id
    if click.kind == "card":
        assert click.card is not None
        update = await bot.service.play_card(click.table_id, user_id, click.hand, click.card)
    else:
        assert click.suit is not None
        update = await bot.service.choose_trump(click.table_id, user_id, click.hand, click.suit)
    table, seat = update.table, update.actor_seat
    assert seat is not None
    ephemeral = bool(interaction.message and interaction.message.flags.ephemeral)
    if table.match is None:
        return
    # The hand replaces the clicked message only in a DM or an ephemeral view; a card id
    # forged onto a public message gets the hand privately, never in the channel.
    in_place = ephemeral or interaction.guild_id is None
    async with bot.service.settled(table.table_id):  # another move may be mid-commit
        spec = render.hand_message(table, seat, ephemeral=ephemeral or not in_place)
    try:
        if in_place:
            await interaction.response.edit_message(**message_kwargs(spec))
        else:
            await interaction.response.send_message(ephemeral=True, **message_kwargs(spec))
    except discord.HTTPException as exc:
        # The move is committed; only its answer was lost (too late, Discord down). Saying
        # "nothing was changed" would be wrong: show the new hand in the DM instead.
        log.warning("table %s: answer to a move lost (%s); DM refreshed", table.table_id, exc)
        bot.publisher.unanswered(table, seat)
        return
    if interaction.guild_id is None or table.seat(seat).dm_closed:
        bot.publisher.answered(table, seat)  # the DM (or the only view) is up to date
    else:
        bot.publisher.unanswered(table, seat)  # played from "My hand": the DM is now stale
    bot.publisher.clicked(table, seat, interaction, click.hand)  # turn marks edit this message
    if update.refusal is not None:  # back from autoplay, but that card could not go now
        await reply_error(
            interaction, table.settings.language, update.refusal.code, update.refusal.params
        )


async def _lobby_click(
    bot: HokmBot, interaction: discord.Interaction, click: custom_ids.Click
) -> None:
    service, user = bot.service, interaction.user
    table = service.get(click.table_id)
    if interaction.guild_id != table.guild_id:
        raise ActionError("error.bad_button")
    if click.action == "join":
        update = await service.join(click.table_id, user.id, member_name(user))
    elif click.action == "leave":
        update = await service.leave(click.table_id, user.id)
    elif click.action == "add_computer":
        admin = interaction.permissions.manage_guild
        update = await service.add_computer(click.table_id, user.id, is_admin=admin)
    elif click.action == "start":
        update = await service.start(
            click.table_id, user.id, is_admin=interaction.permissions.manage_guild
        )
    else:
        perms = interaction.permissions
        update = await service.cancel(click.table_id, user.id, is_admin=perms.manage_guild)
    is_table_message = (
        interaction.message is not None and interaction.message.id == table.message_id
    )
    if is_table_message:
        async with service.settled(table.table_id):
            spec = render.table_message(update.table)
        await interaction.response.edit_message(**message_kwargs(spec))
        bot.outbox.discard(("table", table.table_id))
    else:
        await interaction.response.defer()


async def _my_hand_click(
    bot: HokmBot, interaction: discord.Interaction, click: custom_ids.Click
) -> None:
    table, seat = bot.service.hand_view(click.table_id, interaction.user.id)
    async with bot.service.settled(table.table_id):
        spec = render.hand_message(table, seat, ephemeral=True)
    await interaction.response.send_message(ephemeral=True, **message_kwargs(spec))
    if table.seat(seat).dm_closed:
        bot.publisher.answered(table, seat)
    bot.publisher.clicked(table, seat, interaction)


def _has_page_buttons(message: discord.Message | None) -> bool:
    """Page clicks edit the message they are on: only a standings message may be edited so."""
    if message is None:
        return False
    prefix = custom_ids.PREFIX + "p:"
    return any(
        (getattr(child, "custom_id", None) or "").startswith(prefix)
        for row in message.components
        for child in getattr(row, "children", ())
    )


def _custom_id(interaction: discord.Interaction) -> object:
    """The clicked component's id, unchecked: ``custom_ids.parse`` answers anything forged."""
    data = interaction.data
    return None if data is None else data.get("custom_id")
