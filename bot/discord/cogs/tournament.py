"""``/tournament …``: create a tournament in this channel, join or withdraw, and the
host's start, drop and cancel; the standings.

A command of its own rather than ``/hokm tournament``: Discord counts every name, description,
option and choice of one command against 4,000 characters, and ``/hokm`` is near the 3,600
the project allows it (``tests/bot/test_command_size.py``); a tournament's settings alone take
several hundred. The commands are thin: ``tournament_actions`` runs them and the buttons alike.
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from ...names import member_name
from ...present import answers
from ...present import tournament as present
from ...service.errors import ActionError
from .. import tournament_actions as actions
from ..tournament_port import THREAD_PERMISSIONS, missing_for_threads
from ..ui import message_kwargs, text_kwargs
from .hokm import FORMAT_CHOICES, THREADS, missing_permissions

CLOSES_MINUTES = (1, 10080)
"""Registration stays open from a minute to a week."""


def may_organise(interaction: discord.Interaction, role_id: int) -> bool:
    """Manage Server, or the role an admin named in ``/hokm settings tournament_role`` (T10)."""
    if interaction.permissions.manage_guild:
        return True
    user = interaction.user
    return bool(role_id) and isinstance(user, discord.Member) and user.get_role(role_id) is not None


class TournamentCog(commands.Cog):
    tournament = app_commands.Group(
        name="tournament", description="Hokm and Shelem tournaments", guild_only=True
    )

    def __init__(self, bot: actions.TournamentBot) -> None:
        self.bot = bot

    @tournament.command(
        name="new", description="Open a tournament here (Manage Server or the tournament role)"
    )
    @app_commands.describe(
        name="The tournament's name",
        game_format="Which game every match plays",
        system="swiss: N rounds; knockout; round_robin: up to 8",
        partners="fixed: teams register; individual: teams change each round",
        closes_in="Minutes until registration closes",
        rounds="Swiss rounds (1–15)",
        target_score="Points to win each match (0: the format's own)",
        turn_seconds="Seconds per turn (10–60)",
        grace_seconds="Seconds to join a table before losing it (30–900)",
        bye="What sitting a round out scores",
        rated="Results change skill ratings (default: yes)",
        computers="A computer takes an absent player's seat (default: no)",
    )
    @app_commands.rename(game_format="format")
    @app_commands.choices(game_format=FORMAT_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 80],
        game_format: str,
        system: Literal["swiss", "knockout", "round_robin"],
        partners: Literal["fixed", "individual"],
        closes_in: app_commands.Range[int, 1, 10080],
        rounds: int | None = None,
        target_score: int = 0,
        turn_seconds: int = 20,
        grace_seconds: int = 120,
        bye: Literal["win", "half", "none"] = "win",
        rated: bool = True,
        computers: bool = False,
    ) -> None:
        if interaction.guild_id is None or interaction.channel_id is None:
            raise ActionError("error.guild_only")
        server = await self.bot.servers.get(interaction.guild_id)
        if not may_organise(interaction, server.tournament_role):
            raise ActionError("error.t_not_organiser")
        lang = server.language
        missing = missing_permissions(interaction)
        if missing:
            names = answers.missing_permissions(lang, missing)
            raise ActionError("error.missing_permissions", missing=names)
        in_thread = getattr(interaction.channel, "type", None) in THREADS
        no_threads = (
            THREAD_PERMISSIONS if in_thread else missing_for_threads(interaction.app_permissions)
        )
        settings = {
            "name": name,
            "format": game_format,
            "system": system,
            "partners": partners,
            "registration_closes": int(self.bot.service.clock()) + closes_in * 60,
            "rounds": (3 if rounds is None else rounds) if system == "swiss" else (rounds or 0),
            "target_score": target_score,
            "turn_seconds": turn_seconds,
            "grace_seconds": grace_seconds,
            "bye": bye,
            "rated": rated,
            "computers": computers,
        }
        update = await self.bot.tournaments.create(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            host_id=interaction.user.id,
            host_name=member_name(interaction.user),
            language=lang,
            settings=settings,
            missing=no_threads,
        )
        await actions.say(interaction, answers.tournament_answer(update.state, "created"))

    @tournament.command(
        name="join", description="Enter the tournament; with fixed teams, name your partner"
    )
    @app_commands.describe(
        partner="Your partner (fixed teams)", partner2="A third member (teams of three)"
    )
    async def join(
        self,
        interaction: discord.Interaction,
        partner: discord.User | None = None,
        partner2: discord.User | None = None,
    ) -> None:
        state = await actions.here(self.bot, interaction)
        named = [p for p in (partner, partner2) if p is not None]
        await actions.join(self.bot, interaction, state, named)

    @tournament.command(name="leave", description="Withdraw from the tournament before it starts")
    async def leave(self, interaction: discord.Interaction) -> None:
        await actions.leave(self.bot, interaction, await actions.here(self.bot, interaction))

    @tournament.command(name="start", description="Start now, before registration closes (host)")
    async def start(self, interaction: discord.Interaction) -> None:
        state = await actions.here(self.bot, interaction)
        admin = interaction.permissions.manage_guild
        update = await self.bot.tournaments.start(state.tournament_id, interaction.user.id, admin)
        await actions.say(interaction, answers.tournament_answer(update.state, "started"))

    @tournament.command(name="drop", description="Drop a member when this round ends (host)")
    @app_commands.describe(member="The member to drop (with fixed teams, their team)")
    async def drop(self, interaction: discord.Interaction, member: discord.User) -> None:
        state = await actions.here(self.bot, interaction)
        admin = interaction.permissions.manage_guild
        await self.bot.tournaments.drop(state.tournament_id, interaction.user.id, member.id, admin)
        await actions.say(interaction, answers.tournament_dropped(state, member.id))

    @tournament.command(name="cancel", description="Cancel the tournament (host or server manager)")
    async def cancel(self, interaction: discord.Interaction) -> None:
        state = await actions.here(self.bot, interaction)
        admin = interaction.permissions.manage_guild
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.tournaments.cancel(state.tournament_id, interaction.user.id, admin)
        text = answers.tournament_answer(state, "cancelled")
        await interaction.followup.send(ephemeral=True, **text_kwargs(text))

    @tournament.command(name="standings", description="The standings of this channel's tournament")
    async def standings(self, interaction: discord.Interaction) -> None:
        state = await actions.here(self.bot, interaction)
        spec = present.standings_message(state)
        await interaction.response.send_message(ephemeral=True, **message_kwargs(spec))
