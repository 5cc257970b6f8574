"""``/hokm …``: open, join, leave and cancel tables, see your hand, the server's past matches
with their replays, the rules, and settings.

The commands are thin: the lobby and the hand run the same ``actions`` as their buttons, and a
refusal is raised, not answered here: the command tree's one error hook answers it.
"""

from __future__ import annotations

import logging
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from ...names import member_name
from ...present import answers, render
from ...present.formats import format_choice_label
from ...present.shelem import modes_choice_label
from ...service.errors import ActionError
from ...store.guild_settings import SHELEM_MODE_SETS, hosted_formats
from .. import actions, puzzle_actions
from ..ui import message_kwargs, text_kwargs
from .bot_api import CogBot

log = logging.getLogger(__name__)

NEEDED = ("view_channel", "send_messages", "embed_links")
"""What the table message needs in a channel: seeing it, posting in it, and embeds."""
NEEDED_IN_THREAD = ("view_channel", "send_messages_in_threads", "embed_links")
"""In a thread, posting is Send Messages in Threads (Send Messages does not cover it)."""
FORMAT_CHOICES = [
    app_commands.Choice(name=format_choice_label("en", name)[:100], value=name)
    for name in hosted_formats()
][:25]
"""Every format the engine has (V6 Shelem), named in English: Discord has
no Persian locale for a choice's name; the table itself names its format in the server's
language."""
MODE_CHOICES = [
    app_commands.Choice(name=modes_choice_label("en", value), value=value)
    for value in SHELEM_MODE_SETS
]
"""V6.7: the modes a Shelem hakem may announce besides hokm (``GuildSettings.shelem_modes``)."""
THREADS = (
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
)


def missing_permissions(interaction: discord.Interaction) -> list[str]:
    """The permissions the bot lacks here to show a table (names as in ``discord.Permissions``).

    Checked before a table opens: without them the table message could never appear, and the
    host would wait at a table nobody can see.
    """
    threaded = getattr(interaction.channel, "type", None) in THREADS
    have = interaction.app_permissions
    return [p for p in (NEEDED_IN_THREAD if threaded else NEEDED) if not getattr(have, p)]


class HokmCog(commands.Cog):
    hokm = app_commands.Group(name="hokm", description="Play Hokm, the Persian trick-taking game")

    def __init__(self, bot: CogBot) -> None:
        self.bot = bot

    async def _lang(self, interaction: discord.Interaction) -> str:
        return await self.bot.language_of(interaction.guild_id)

    @hokm.command(name="new", description="Open a Hokm table in this channel")
    @app_commands.describe(
        target_score="Points to win the match (1–13)",
        turn_seconds="Seconds per turn (10–60)",
        difficulty="How strong computer players are",
        hints="A Hint button on your turn (marks the match as hinted)",
        game_format="Which game (default: the server's)",
        redeal="Let a hakem with no J, Q, K, A in the first five redeal (R6)",
        bam="A side at 7 tricks to none may play on for every trick (V1)",
        joker="Shelem: two jokers (kitty of 6, bids 120–200, to 1400)",
        modes="Shelem: modes the hakem may announce besides hokm",
        shelem_target="Shelem: points to win (0: 1165, 1400 with jokers; 200–5000)",
    )
    @app_commands.rename(game_format="format")
    @app_commands.choices(game_format=FORMAT_CHOICES, modes=MODE_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        target_score: int | None = None,
        turn_seconds: int | None = None,
        difficulty: Literal["easy", "normal", "hard"] | None = None,
        hints: bool | None = None,
        game_format: str | None = None,
        redeal: bool | None = None,
        bam: bool | None = None,
        joker: bool | None = None,
        modes: str | None = None,
        shelem_target: int | None = None,
    ) -> None:
        if interaction.guild_id is None or interaction.channel_id is None:
            raise ActionError("error.guild_only")
        missing = missing_permissions(interaction)
        if missing:
            lang = await self._lang(interaction)
            names = answers.missing_permissions(lang, missing)
            raise ActionError("error.missing_permissions", missing=names)
        settings = await self.bot.servers.get(interaction.guild_id)
        await self.bot.service.open_table(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            host_id=interaction.user.id,
            host_name=member_name(interaction.user),
            settings=settings,
            target_score=target_score,
            turn_seconds=turn_seconds,
            difficulty=difficulty,
            hints=hints,
            game_format=game_format,
            redeal=redeal,
            bam=bam,
            joker=joker,
            modes=modes,
            shelem_target=shelem_target,
        )
        actions.lobby_click(self.bot, interaction)
        await interaction.response.send_message(
            ephemeral=True, **text_kwargs(answers.table_opened(settings.language))
        )

    @hokm.command(name="join", description="Take a seat at the table in this channel")
    async def join(self, interaction: discord.Interaction) -> None:
        table = actions.table_here(self.bot, interaction)
        await actions.join(self.bot, interaction, table.table_id, actions.confirm("joined"))

    @hokm.command(name="leave", description="Leave the table in this channel before it starts")
    async def leave(self, interaction: discord.Interaction) -> None:
        table = actions.table_here(self.bot, interaction)
        await actions.leave(self.bot, interaction, table.table_id, actions.confirm("left"))

    @hokm.command(
        name="cancel", description="Close the table in this channel (host or server manager)"
    )
    async def cancel(self, interaction: discord.Interaction) -> None:
        table = actions.table_here(self.bot, interaction)
        answer = actions.confirm("cancelled")
        await actions.cancel(self.bot, interaction, table.table_id, answer)

    @hokm.command(name="hand", description="Show your hand (only you can see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        await actions.hand(
            self.bot, interaction, actions.table_here(self.bot, interaction).table_id
        )

    @hokm.command(name="hint", description="On your turn: what a strong player would play, and why")
    async def hint(self, interaction: discord.Interaction) -> None:
        table = actions.table_here(self.bot, interaction)
        if table.match is None:
            raise ActionError("error.not_started")
        await actions.hint(self.bot, interaction, table.table_id, table.match.hand_number)

    @hokm.command(
        name="history", description="The server's last matches, or a member's, each with a replay"
    )
    @app_commands.describe(member="Show only the matches this member played")
    async def history(
        self, interaction: discord.Interaction, member: discord.User | None = None
    ) -> None:
        lang = await self._lang(interaction)
        member_id = member.id if member is not None else 0
        spec = await actions.history_page(self.bot, interaction, lang, 1, member_id)
        await interaction.response.send_message(**message_kwargs(spec))

    @hokm.command(
        name="puzzle", description="Find the one right card in a position from a past match"
    )
    async def puzzle(self, interaction: discord.Interaction) -> None:
        await puzzle_actions.show(self.bot, interaction)

    @hokm.command(name="rules", description="A short summary of the rules of Hokm or Shelem")
    @app_commands.rename(game_format="format")
    @app_commands.describe(game_format="Which game (default: the server's format)")
    @app_commands.choices(game_format=FORMAT_CHOICES)
    async def rules(self, interaction: discord.Interaction, game_format: str | None = None) -> None:
        lang = await self._lang(interaction)
        text = await actions.rules(self.bot, interaction, lang, game_format)
        await interaction.response.send_message(ephemeral=True, **text_kwargs(text))

    @hokm.command(name="settings", description="Server settings for Hokm tables (Manage Server)")
    # Each parameter is named as the setting it changes; two options keep shorter names.
    @app_commands.rename(
        hakem_selection="first_hakem",
        allow_computer_players="computer_players",
        redeal_without_court="redeal",
        game_format="format",
        rate_computer_matches="rate_computers",
    )
    @app_commands.describe(
        turn_seconds="Seconds per turn (10–60)",
        trump_seconds="Seconds for the hakem to name trump (10–120)",
        lobby_timeout_minutes="Minutes before an unfilled table closes (1–120)",
        target_score="Default points to win a match (1–13)",
        hakem_selection="How the first hakem is chosen",
        allow_computer_players="Computer players may fill empty seats",
        language="Language of the bot's messages",
        computer_difficulty="Default strength of computer players",
        max_open_tables="Open tables this server may have at once (1–100)",
        hints="New tables give players a Hint button on their turn",
        redeal_without_court="A hakem with no J, Q, K, A in the first five may redeal (R6)",
        bam="A side at 7 tricks to none may play on for every trick (V1)",
        game_format="The Hokm format new tables are opened with",
        rate_computer_matches="Matches with computers change members' ratings",
        web="A read-only web page of standings and replays; only you see its address",
        shelem_joker="New Shelem tables play with two jokers",
        shelem_modes="Modes a Shelem hakem may announce besides hokm",
        shelem_target="Points to win a Shelem match (0: 1165, 1400 with jokers; 200–5000)",
        tournament_role="Role that may open tournaments (@everyone: none)",
    )
    @app_commands.choices(game_format=FORMAT_CHOICES, shelem_modes=MODE_CHOICES)
    @app_commands.default_permissions(manage_guild=True)
    async def settings(
        self,
        interaction: discord.Interaction,
        turn_seconds: int | None = None,
        trump_seconds: int | None = None,
        lobby_timeout_minutes: int | None = None,
        target_score: int | None = None,
        hakem_selection: Literal["first_ace", "random"] | None = None,
        allow_computer_players: bool | None = None,
        language: Literal["en", "fa"] | None = None,
        computer_difficulty: Literal["easy", "normal", "hard"] | None = None,
        max_open_tables: int | None = None,
        hints: bool | None = None,
        redeal_without_court: bool | None = None,
        bam: bool | None = None,
        game_format: str | None = None,
        rate_computer_matches: bool | None = None,
        web: bool | None = None,
        tournament_role: discord.Role | None = None,
        shelem_joker: bool | None = None,
        shelem_modes: str | None = None,
        shelem_target: int | None = None,
    ) -> None:
        if interaction.guild_id is None:
            raise ActionError("error.guild_only")
        # Each option is named as its setting (``LIMITS``); the service keeps those given.
        options = {
            "turn_seconds": turn_seconds,
            "trump_seconds": trump_seconds,
            "lobby_timeout_minutes": lobby_timeout_minutes,
            "target_score": target_score,
            "hakem_selection": hakem_selection,
            "allow_computer_players": allow_computer_players,
            "language": language,
            "computer_difficulty": computer_difficulty,
            "max_open_tables": max_open_tables,
            "hints": hints,
            "redeal_without_court": redeal_without_court,
            "bam": bam,
            "game_format": game_format,
            "rate_computer_matches": rate_computer_matches,
            "web": web,
            "tournament_role": _role_setting(tournament_role),
            "shelem_joker": shelem_joker,
            "shelem_modes": shelem_modes,
            "shelem_target": shelem_target,
        }
        shown = await self.bot.servers.change(
            interaction.guild_id,
            options,
            is_admin=interaction.permissions.manage_guild,
            web_available=self.bot.web is not None,
        )
        pages, secret = self.bot.web, shown.web_secret
        spec = render.settings_message(
            shown.settings.language,
            shown.settings.model_dump(),
            changed=bool(shown.changed),
            web_url=pages.page_url(interaction.guild_id, secret) if pages and secret else None,
        )
        # ephemeral: the page's address is for the admin who asked, never the channel
        await interaction.response.send_message(ephemeral=True, **message_kwargs(spec))


def _role_setting(role: discord.Role | None) -> int | None:
    """A role option as its setting: its id; @everyone clears it (0), as a role is chosen,
    never typed; ``None``: not given."""
    if role is None:
        return None
    return 0 if role.is_default() else role.id
