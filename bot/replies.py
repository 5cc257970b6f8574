"""The one way a refusal reaches a member: an ephemeral reply, shared by commands and buttons."""

from __future__ import annotations

import logging
from typing import Any

import discord

from . import render
from .discord_ui import text_kwargs

log = logging.getLogger(__name__)


async def reply_error(
    interaction: discord.Interaction, lang: str, code: str, params: dict[str, Any] | None = None
) -> None:
    """Every refusal is an ephemeral answer to the clicker: free, private, and changes nothing."""
    text = render.error_text(lang, code, params or {})
    try:
        if interaction.response.is_done():
            await interaction.followup.send(ephemeral=True, **text_kwargs(text))
        else:
            await interaction.response.send_message(ephemeral=True, **text_kwargs(text))
    except discord.HTTPException as exc:
        log.warning("could not answer interaction %s: %s", interaction.id, exc)
