"""``/standings``: the server's leaderboard, ten a page, or one member's record.

Its page buttons go through the click router to ``actions.standings_page``, as this does.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from ...present import standings
from ...service.errors import ActionError
from .. import actions
from ..ui import message_kwargs
from .bot_api import CogBot
from .hokm import FORMAT_CHOICES


class StandingsCog(commands.Cog):
    def __init__(self, bot: CogBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="standings", description="The server's Hokm leaderboard, by skill rating"
    )
    @app_commands.describe(
        member="Show one member's record, rating, recent change and best partner instead",
        game_format="Which Hokm's standings (default: the standard game)",
    )
    @app_commands.rename(game_format="format")
    @app_commands.choices(game_format=FORMAT_CHOICES)
    @app_commands.guild_only()
    async def standings(
        self,
        interaction: discord.Interaction,
        member: discord.User | None = None,
        game_format: str = "standard",
    ) -> None:
        lang = await self.bot.language_of(interaction.guild_id)
        if interaction.guild_id is None:
            raise ActionError("error.guild_only")
        if member is not None:
            found = await self.bot.servers.member(interaction.guild_id, member.id, game_format)
            skill = standings.MemberSkill(found.rating, found.trend, found.partner)
            spec = standings.member_message(
                lang, member.id, found.record, game_format, skill, found.puzzles
            )
        else:
            spec = await actions.standings_page(self.bot, interaction, lang, 1, game_format)
        await interaction.response.send_message(**message_kwargs(spec))
