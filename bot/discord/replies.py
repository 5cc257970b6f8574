"""The one way a refusal reaches a member: an ephemeral reply, shared by commands and buttons."""

from __future__ import annotations

import logging
from typing import Any

import discord

from ..present import render
from ..service.errors import ActionError
from ..store.guild_settings import SettingError
from .ui import text_kwargs

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


async def reply_failure(
    interaction: discord.Interaction, lang: str, error: BaseException, what: str
) -> None:
    """The single error path of commands (the tree's hook) and buttons (the router).

    A refusal (``ActionError``, a bad ``SettingError`` value) is the member's answer; anything
    else is a bug: logged once with its traceback, and the member only hears ``error.internal``.
    """
    if _expired(error):
        # Answered after Discord's 3 s (a busy process): nothing can answer it any more, and
        # it is load, not a bug: one line, no traceback (formatting one costs a busy loop
        # more than the answer did). What the action changed is published as usual.
        log.warning("%s: interaction %s answered too late (%s)", what, interaction.id, error)
        return
    if isinstance(error, ActionError):
        await reply_error(interaction, lang, error.code, error.params)
    elif isinstance(error, SettingError):
        await reply_error(interaction, lang, "error.setting", {"detail": str(error)})
    else:
        log.error("%s failed", what, exc_info=error)
        await reply_error(interaction, lang, "error.internal")


UNKNOWN_INTERACTION = 10062
"""Discord's code for an interaction token that expired (not acknowledged within 3 s)."""


def _expired(error: BaseException) -> bool:
    return isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION
