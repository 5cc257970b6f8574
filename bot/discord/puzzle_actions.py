"""``/hokm puzzle`` and a click on one of its cards: a double-dummy puzzle from this server's
finished matches, shown to the member alone (ephemeral), answered in place.

The command shows a puzzle the service checked against the solver, never one from a match the
member played; a card click answers it in the same private message. A puzzle id forged onto
any other message, or by another member's hand, is refused (``error.bad_button``).
"""

from __future__ import annotations

from datetime import UTC, datetime

import discord

from ..present import custom_ids, puzzles
from ..service.errors import ActionError
from .cogs.bot_api import CogBot
from .ui import message_kwargs


async def show(bot: CogBot, interaction: discord.Interaction) -> None:
    """``/hokm puzzle``: a new puzzle for the member, only they see it."""
    if interaction.guild_id is None:
        raise ActionError("error.guild_only")
    lang = await bot.language_of(interaction.guild_id)
    offer = await bot.service.puzzles.offer(interaction.guild_id, interaction.user.id)
    spec = puzzles.puzzle_message(lang, offer)
    await interaction.response.send_message(ephemeral=True, **message_kwargs(spec))


async def click(
    bot: CogBot, interaction: discord.Interaction, click: custom_ids.Click, lang: str
) -> None:
    """A card of a puzzle: the answer replaces the puzzle in its private message."""
    message = interaction.message
    if interaction.guild_id is None or message is None or not message.flags.ephemeral:
        raise ActionError("error.bad_button")
    ours = custom_ids.PREFIX + f"q:{click.puzzle}:"
    if not any(
        (getattr(child, "custom_id", None) or "").startswith(ours)
        for row in message.components
        for child in getattr(row, "children", ())
    ):
        raise ActionError("error.bad_button")  # a puzzle id forged onto another message
    assert click.card is not None  # the parser sets it
    now = datetime.fromtimestamp(bot.service.clock(), UTC)
    answer = await bot.service.puzzles.answer(
        interaction.guild_id, interaction.user.id, click.puzzle, int(click.card), now
    )
    spec = puzzles.answer_message(lang, answer)
    await interaction.response.edit_message(**message_kwargs(spec))
