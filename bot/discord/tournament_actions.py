"""One function per tournament intent, run alike by a ``/tournament`` command and
by the tournament message's **Join**/**Withdraw** buttons: where the tournament comes from
(the channel, or the id the button carries) is the only difference.

A refusal is an ``ActionError`` raised to the caller (the command tree's hook and the click
router answer it privately); what changed is shown by the tournament's own message, which
the publisher keeps current, so the member is answered with one private line.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from ..names import member_name
from ..present import custom_ids
from ..present.answers import tournament_answer, tournament_invited
from ..service.errors import ActionError
from ..service.tournament_state import TournamentState
from .cogs.bot_api import CogBot
from .ui import text_kwargs

TournamentBot = CogBot


async def here(bot: TournamentBot, interaction: discord.Interaction) -> TournamentState:
    """The tournament of the channel a command was typed in (its live one, else its last)."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise ActionError("error.guild_only")
    return await bot.tournaments.in_channel(interaction.channel_id)


async def clicked(
    bot: TournamentBot, interaction: discord.Interaction, tournament_id: str
) -> TournamentState:
    """The tournament a button names, refused when clicked from another server (forged)."""
    state = await bot.tournaments.load(tournament_id)
    if interaction.guild_id != state.guild_id:
        raise ActionError("error.bad_button")
    return state


async def say(interaction: discord.Interaction, text: str) -> None:
    """A private answer (its words from ``present.answers``)."""
    await interaction.response.send_message(ephemeral=True, **text_kwargs(text))


async def join(
    bot: TournamentBot,
    interaction: discord.Interaction,
    state: TournamentState,
    partners: Sequence[discord.User | discord.Member] = (),
) -> None:
    """Enter; with fixed partners, name the partner(s) (an invitation) or confirm one."""
    user = interaction.user
    if any(p.bot for p in partners):
        raise ActionError("error.t_partner_bot")
    names = {user.id: member_name(user), **{p.id: member_name(p) for p in partners}}
    ids = [p.id for p in partners]
    update = await bot.tournaments.join(state.tournament_id, user.id, names, ids)
    done = update.state
    if done.core.member_entry(user.id) is not None:
        await say(interaction, tournament_answer(done, "joined"))
    elif ids:
        await say(interaction, tournament_invited(done, ids))
    else:
        await say(interaction, tournament_answer(done, "confirmed"))


async def leave(
    bot: TournamentBot, interaction: discord.Interaction, state: TournamentState
) -> None:
    update = await bot.tournaments.leave(state.tournament_id, interaction.user.id)
    await say(interaction, tournament_answer(update.state, "left"))


async def click(
    bot: TournamentBot, interaction: discord.Interaction, button: custom_ids.Click
) -> None:
    """**Join** or **Withdraw** on a tournament message."""
    state = await clicked(bot, interaction, button.tournament_id)
    if button.action == "join":
        await join(bot, interaction, state)
    else:
        await leave(bot, interaction, state)
