"""The discord.py client: wiring, command sync and gateway events.

Button clicks go to ``router.handle_click``; every slash command's failure goes through the
one hook ``HokmTree.on_error``. Both answer with ``replies.reply_failure``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections import OrderedDict
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from .. import collector
from ..config import Settings
from ..health import HealthFile
from ..limits import build_limiter, namespace_of
from ..log_safety import keep_payloads_out_of_logs
from ..loop_monitor import LoopLagMonitor
from ..service.analysis import Analyses
from ..service.housekeeping import purge_ended_tables
from ..service.servers import Servers
from ..service.service import TableService, random_seed
from ..service.summary_edits import SummaryEdits
from ..service.thinking import Thinker
from ..service.tournaments import TournamentService, WatchTables
from ..startup import StartupError
from ..store import Store
from ..store.listen import TableSaves
from ..web.server import WebServer
from . import light_clicks
from .cogs.hokm import HokmCog
from .cogs.standings import StandingsCog
from .cogs.tournament import TournamentCog
from .outbox import Outbox
from .publisher import DiscordPublisher
from .replies import reply_failure
from .rest_gate import gate_rest_calls
from .router import handle_click
from .tournament_port import DiscordTournamentPort

log = logging.getLogger(__name__)

SEEN_CLICKS = 4096
"""Interaction ids remembered to drop duplicate deliveries (an interaction lives 15 minutes;
a copy arrives within seconds, so a few thousand recent ids are plenty)."""


class HokmTree(app_commands.CommandTree["HokmBot"]):
    """The command tree with the single error path of every slash command."""

    async def on_error(
        self, interaction: discord.Interaction[HokmBot], error: app_commands.AppCommandError, /
    ) -> None:
        """A command's ``ActionError`` arrives wrapped in ``CommandInvokeError``: unwrap it,
        so a refusal becomes its ephemeral answer and only a real failure is logged."""
        original = getattr(error, "original", error)  # CommandInvokeError wraps the raise
        lang = await self.client.language_of(interaction.guild_id)
        name = interaction.command.qualified_name if interaction.command else "?"
        await reply_failure(interaction, lang, original, f"/{name}")


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
            tree_cls=HokmTree,
            guild_ready_timeout=settings.guild_ready_timeout,
            max_messages=None,
            # Nothing the bot sends may ping by default; every call also says so explicitly.
            allowed_mentions=discord.AllowedMentions.none(),
            **self._gateway_options(settings),
        )
        self.settings = settings
        self.store = store
        self.servers = Servers(store)
        light_clicks.install(self._connection.parsers)  # a click's buttons go unparsed
        token = settings.discord_token.get_secret_value() if settings.discord_token else None
        redis_url = settings.redis_url.get_secret_value() if settings.redis_url else None
        self.limiter = build_limiter(
            rate=settings.outbox_rate,
            redis_url=redis_url,
            database_url=settings.database_url,
            shard_ids=settings.shard_ids,
            shard_count=settings.shard_count,
            namespace=namespace_of(token, settings.discord_api_base),
        )
        gate_rest_calls(self.http, self.limiter)  # every REST call takes its token as it goes
        self.outbox = Outbox(limiter=self.limiter)
        self.thinker = Thinker()
        self.analyses = Analyses(store, settings.analysis_workers)
        """Each finished match graded with every hand known, in a worker."""
        self.service = TableService(
            store,
            make_publisher=partial(DiscordPublisher, self, self.outbox, edits=SummaryEdits(store)),
            computer_delay=settings.computer_delay_seconds,
            thinker=self.thinker.decide,
            seed_source=_seed_source(settings.match_seed_base),
            # PostgreSQL may have other processes on it (shards, a rolling deploy)
            shared=store.backend == "postgresql",
            owns=self.holds_guild,
            analyses=self.analyses,
        )
        publisher = self.service.publisher
        assert isinstance(publisher, DiscordPublisher)
        self.publisher = publisher
        self.analyses.listen(
            lambda done: publisher.summaries.analysed(done.match_id, done.analysis)
        )
        # Tournaments: their tables are the service's; one that ends moves its
        # tournament on (``WatchTables``).
        port = DiscordTournamentPort(self, self.outbox, self)
        self.tournaments = TournamentService(store, self.service, port)
        port.tournaments = self.tournaments
        self.service.watch(WatchTables(self.tournaments))
        self._background: list[asyncio.Task[None]] = []
        self._table_saves: TableSaves | None = None
        self._seen_clicks: OrderedDict[int, None] = OrderedDict()
        self.web: WebServer | None = None
        """The servers' web pages, served while ``web_port`` is set."""

    @staticmethod
    def _gateway_options(settings: Settings) -> dict[str, Any]:
        """Extra client options for the gateway connection(s): none for one connection."""
        return {}

    def holds_guild(self, guild_id: int) -> bool:
        """Whether this process receives the guild's events (one connection: every guild)."""
        return True

    # ------------------------------------------------------------------ start-up

    async def login(self, token: str) -> None:
        """Connect the shared rate limiter first (its first calls are login's own)."""
        await self.limiter.start()
        await super().login(token)

    async def setup_hook(self) -> None:
        await self.add_cog(HokmCog(self))
        await self.add_cog(StandingsCog(self))
        await self.add_cog(TournamentCog(self))
        self._background.append(asyncio.create_task(self.outbox.run(), name="hokm-outbox"))
        if self.settings.loop_lag_report_seconds > 0:
            monitor = LoopLagMonitor(report_every=self.settings.loop_lag_report_seconds)
            self._background.append(asyncio.create_task(monitor.run(), name="hokm-loop-lag"))
        if self.settings.health_file:
            self._health = HealthFile(self.settings.health_file)
            self._health.clear()  # a file left by an earlier run says nothing about this one
            task = asyncio.create_task(self._health.run(self._gateway_open), name="hokm-health")
            self._background.append(task)
        await self._start_web()
        await self.sync_commands()
        self._resumed_tables = len(await self.service.restore())
        # every live tournament brought up to date, then the overdue ones each second
        tournaments = asyncio.create_task(self.tournaments.run_forever(), name="hokm-tournaments")
        self._background.append(tournaments)
        # Other processes' saves of the tables held here (PostgreSQL).
        self._table_saves = self.store.listen_tables(self.service.saved_elsewhere)
        if self.service.shared:  # a dead process's tables play on from here
            sweep = asyncio.create_task(self.service.sweep_forever(), name="hokm-sweep")
            self._background.append(sweep)
        if self.analyses.enabled:  # the finished matches still without an analysis
            missing = self.analyses.catch_up(owns=self.holds_guild)
            self._background.append(asyncio.create_task(missing, name="hokm-analyse-missing"))
        # summaries whose analysis another process stored (or stored while this one was down)
        edits = asyncio.create_task(self.publisher.summaries.sweep_forever(), name="hokm-edits")
        self._background.append(edits)
        # Only once start-up went through: a purge still talking to the database when a failed
        # start closes it would keep the process from exiting.
        purge = purge_ended_tables(self.store, self.settings.ended_table_retention_days)
        self._background.append(asyncio.create_task(purge, name="hokm-purge"))
        # What exists now lives as long as the bot: out of every later collection, and the
        # collector runs less often (``collector``).
        collector.settle()

    async def _start_web(self) -> None:
        """Serve the servers' web pages when ``web_port`` is set."""
        port = self.settings.web_port
        if port is None:
            return
        web = WebServer(
            self.store,
            self.service.history,
            puzzles=self.service.puzzles,
            host=self.settings.web_host,
            port=port,
            base_url=self.settings.web_base_url,
            guild_name=lambda guild_id: getattr(self.get_guild(guild_id), "name", None),
        )
        try:
            await web.start()
        except OSError as exc:
            where = f"{self.settings.web_host}:{port}"
            raise StartupError(
                f"web_port: cannot serve the web page on {where} ({exc.strerror or exc})"
            ) from None
        self.web = web

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
        if self._table_saves is not None:
            await self._table_saves.close()
        await self.service.close()
        await self.tournaments.close()
        self.thinker.close()
        await self.analyses.close()
        await self.outbox.drain(within=3.0)
        await self.outbox.close()
        for task in self._background:
            task.cancel()
        # Wait for them to end: the store is closed next, and a task still inside a database
        # call would hold its connection (and its thread) open past the end of the process.
        await asyncio.gather(*self._background, return_exceptions=True)
        self._background.clear()
        if self.web is not None:
            await self.web.close()
        await super().close()
        await self.limiter.close()
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
        # A server on a shard another process holds is not missing: it is not ours to see.
        missing = [
            g
            for g in self.settings.dev_guild_ids
            if self.holds_guild(g) and self.get_guild(g) is None
        ]
        if missing:
            log.warning(
                "dev_guild_ids: the bot is not in server(s) %s", ", ".join(map(str, missing))
            )
        log.info(
            "ready to serve as %s in %d servers%s; %d live tables resumed",
            self.user,
            len(self.guilds),
            f" ({self.settings.shard_slice()})" if self.settings.sharded else "",
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
        """The server's language (``Servers.language``): it is needed for every answer."""
        return await self.servers.language(guild_id)


class ShardedHokmBot(HokmBot, commands.AutoShardedBot):
    """The bot on discord.py's ``AutoShardedBot``: one gateway connection per shard it holds
    (``shard_ids`` of ``shard_count``, or all of them). The other shards' guilds, and their
    events, belong to other processes (docs/scaling.md); REST reaches every channel alike.
    """

    @staticmethod
    def _gateway_options(settings: Settings) -> dict[str, Any]:
        return {"shard_count": settings.shard_count, "shard_ids": settings.shard_ids}

    def holds_guild(self, guild_id: int) -> bool:
        """Discord's rule: a guild's events go to shard ``(guild_id >> 22) % shard_count``."""
        assert self.shard_count is not None  # given at construction
        shard = (guild_id >> 22) % self.shard_count
        return self.shard_ids is None or shard in self.shard_ids

    def _gateway_open(self) -> bool:
        """Healthy while every shard this process holds is connected (``self.ws`` is unused
        by a sharded client: each shard has its own)."""
        shards = self.shards
        return bool(shards) and self.is_ready() and not any(s.is_closed() for s in shards.values())


def make_bot(settings: Settings, store: Store) -> HokmBot:
    """A shard count in the settings runs the sharded client; without one, the plain client:
    one connection, no ``GET /gateway/bot`` (exactly the bot as before sharding existed)."""
    cls = ShardedHokmBot if settings.sharded else HokmBot
    return cls(settings, store)


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
