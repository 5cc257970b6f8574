"""``/standings``: the server's leaderboard, ten a page, or one member's record."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from .. import render
from ..custom_ids import Click
from ..discord_ui import message_kwargs
from ..replies import reply_error
from .bot_api import CogBot

log = logging.getLogger(__name__)
PER_PAGE = 10


class StandingsCog(commands.Cog):
    def __init__(self, bot: CogBot) -> None:
        self.bot = bot

    @app_commands.command(name="standings", description="The server's Hokm leaderboard")
    @app_commands.describe(member="Show one member's record instead")
    @app_commands.guild_only()
    async def standings(
        self, interaction: discord.Interaction, member: discord.User | None = None
    ) -> None:
        lang = await self.bot.language_of(interaction.guild_id)
        if interaction.guild_id is None:
            await reply_error(interaction, lang, "error.guild_only")
            return
        try:
            if member is not None:
                record = await self.bot.store.member_record(interaction.guild_id, member.id)
                spec = render.member_message(lang, f"<@{member.id}>", record)
            else:
                spec = await self._page(interaction, lang, 1)
            await interaction.response.send_message(**message_kwargs(spec))
        except Exception:
            log.exception("/standings failed")
            await reply_error(interaction, lang, "error.internal")

    async def _page(
        self, interaction: discord.Interaction, lang: str, page: int
    ) -> render.MessageSpec:
        assert interaction.guild_id is not None
        data = await self.bot.store.standings(interaction.guild_id, page, PER_PAGE)
        guild_name = interaction.guild.name if interaction.guild else str(interaction.guild_id)
        return render.standings_message(lang, guild_name, data)

    async def page_click(self, interaction: discord.Interaction, click: Click) -> None:
        lang = await self.bot.language_of(interaction.guild_id)
        if interaction.guild_id is None:
            await reply_error(interaction, lang, "error.guild_only")
            return
        spec = await self._page(interaction, lang, click.page)
        await interaction.response.edit_message(**message_kwargs(spec))
