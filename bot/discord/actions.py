"""One function per member intent, run alike by a ``/hokm`` command and by its button.

A slash command and a button differ only in where the table comes from (the channel, or the
id the button carries) and in how they answer (an ephemeral confirmation, or the table message
edited in place); both are parameters here, so the flow itself exists once. A refusal is an
``ActionError`` raised to the caller: the command tree's error hook and the click router turn
it into the same ephemeral reply (``replies.reply_failure``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Final

import discord

from ..names import member_name
from ..present import answers, history, render, standings
from ..present.hints import hint_message
from ..present.rules_text import rules_text
from ..service.errors import ActionError
from ..service.service import Update
from ..service.table import Table, TableSettings
from ..service.tournament_tables import is_tournament_table, require_player
from ..store.guild_settings import GuildSettings, hosted_formats
from .cogs.bot_api import CogBot
from .ui import message_kwargs, text_kwargs

Answer = Callable[[discord.Interaction, Update], Awaitable[None]]
"""How a lobby action answers the member once the service committed it."""
LobbyAction = Callable[[CogBot, discord.Interaction, str, Answer], Awaitable[None]]
STANDINGS_PER_PAGE: Final = 10


# ---------------------------------------------------------------------- finding the table


def table_here(bot: CogBot, interaction: discord.Interaction) -> Table:
    """The table of the channel a command was typed in (commands name no table)."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise ActionError("error.guild_only")
    table = bot.service.table_in_channel(interaction.channel_id)
    if table is None:
        raise ActionError("error.no_table")
    return table


def table_clicked(bot: CogBot, interaction: discord.Interaction, table_id: str) -> Table:
    """The table a lobby button names, refused when clicked from another server (forged)."""
    table = bot.service.get(table_id)
    if interaction.guild_id != table.guild_id:
        raise ActionError("error.bad_button")
    return table


# ---------------------------------------------------------------------- the lobby


def lobby_click(bot: CogBot, interaction: discord.Interaction) -> None:
    """Keep a lobby interaction: the match's first hand may go through it (``tokens``).
    Noted before the service runs, as the click that fills a table starts the match."""
    bot.publisher.lobby_click(interaction.channel_id, interaction.user.id, interaction)


async def join(
    bot: CogBot, interaction: discord.Interaction, table_id: str, answer: Answer
) -> None:
    user = interaction.user
    require_player(bot.service.get(table_id), user.id)  # a tournament table's players only
    lobby_click(bot, interaction)
    await answer(interaction, await bot.service.join(table_id, user.id, member_name(user)))


async def leave(
    bot: CogBot, interaction: discord.Interaction, table_id: str, answer: Answer
) -> None:
    if is_tournament_table(bot.service.get(table_id)):  # its players stay: their match
        raise ActionError("error.t_no_leave")
    await answer(interaction, await bot.service.leave(table_id, interaction.user.id))


async def add_computer(
    bot: CogBot, interaction: discord.Interaction, table_id: str, answer: Answer
) -> None:
    admin = interaction.permissions.manage_guild
    lobby_click(bot, interaction)
    update = await bot.service.add_computer(table_id, interaction.user.id, is_admin=admin)
    await answer(interaction, update)


async def start(
    bot: CogBot, interaction: discord.Interaction, table_id: str, answer: Answer
) -> None:
    admin = interaction.permissions.manage_guild
    lobby_click(bot, interaction)
    await answer(
        interaction, await bot.service.start(table_id, interaction.user.id, is_admin=admin)
    )


async def cancel(
    bot: CogBot, interaction: discord.Interaction, table_id: str, answer: Answer
) -> None:
    admin = interaction.permissions.manage_guild
    update = await bot.service.cancel(table_id, interaction.user.id, is_admin=admin)
    await answer(interaction, update)


LOBBY: Final[dict[str, LobbyAction]] = {
    "join": join,
    "leave": leave,
    "add_computer": add_computer,
    "start": start,
    "cancel": cancel,
}
"""The lobby buttons' actions, by ``custom_ids.LOBBY_ACTIONS`` name."""


def confirm(what: answers.SeatAnswer) -> Answer:
    """A command's answer: an ephemeral line in the table's language (``answers.seat_answer``)."""

    async def answer(interaction: discord.Interaction, update: Update) -> None:
        text = answers.seat_answer(update.table, interaction.user.id, what)
        await interaction.response.send_message(ephemeral=True, **text_kwargs(text))

    return answer


def show_table(bot: CogBot) -> Answer:
    """A button's answer: the clicked table message edited in place, in the same request as
    the acknowledgement, so the publisher's own edit of it is dropped from the outbox."""

    async def answer(interaction: discord.Interaction, update: Update) -> None:
        table = update.table
        message = interaction.message
        delivery = bot.service.delivery(table.table_id).now
        if message is None or message.id != delivery.message_id:
            await interaction.response.defer()
            return
        shown = update.shown  # the change as stored: a later one may be mid-commit
        spec, version = render.table_message(shown, delivery.closed_seats()), shown.version
        await interaction.response.edit_message(**message_kwargs(spec))
        # Only what this edit showed is done: a change committed since (a Cancel right after
        # a Start, while this edit was on its way) queued the newer state under the same key,
        # and that job must still run, or the message keeps showing the older table.
        if table.version == version:
            bot.outbox.discard(("table", table.table_id))

    return answer


# ---------------------------------------------------------------------- rematch


async def rematch(bot: CogBot, interaction: discord.Interaction, table_id: str) -> None:
    """Rematch under a finished match's summary: open its rematch lobby, or take the seat it
    keeps; answered privately (the lobby's own table message shows everyone the rest)."""
    guild_id, channel_id = interaction.guild_id, interaction.channel_id
    if guild_id is None or channel_id is None:
        raise ActionError("error.guild_only")
    settings = await bot.servers.get(guild_id)
    user = interaction.user
    lobby_click(bot, interaction)
    update = await bot.service.rematches.press(
        table_id,
        guild_id=guild_id,
        channel_id=channel_id,
        user_id=user.id,
        name=member_name(user),
        max_open_tables=settings.max_open_tables,
    )
    text = answers.rematch_answer(update.table)
    await interaction.response.send_message(ephemeral=True, **text_kwargs(text))


# ---------------------------------------------------------------------- the hand


async def hand(bot: CogBot, interaction: discord.Interaction, table_id: str) -> None:
    """The member's hand, privately: ``/hokm hand`` and the My hand button alike."""
    table, seat = bot.service.hand_view(table_id, interaction.user.id)
    await bot.publisher.answer_hand(interaction, table, seat)


async def hint(bot: CogBot, interaction: discord.Interaction, table_id: str, hand: int) -> None:
    """A hint for the member's turn, privately: ``/hokm hint`` and the Hint button alike.

    Checked before anything is sent (a refusal is the answer); then the answer is deferred
    while the worker thinks, so a busy worker never makes Discord drop the interaction.
    """
    await bot.service.held(table_id)  # a table another process holds is loaded
    table = bot.service.shown(table_id)  # as last committed: no lock, no move unstored
    view = bot.service.hints.view(table, interaction.user.id, hand)
    await interaction.response.defer(ephemeral=True, thinking=True)
    advice = await bot.service.hints.think(table_id, view)
    spec = hint_message(table.settings.language, advice)
    await interaction.followup.send(ephemeral=True, **text_kwargs(spec.content))


# ---------------------------------------------------------------------- standings


async def standings_page(
    bot: CogBot,
    interaction: discord.Interaction,
    lang: str,
    page: int,
    game_format: str = "standard",
) -> render.MessageSpec:
    """One page of the server's leaderboard in one format (the command shows page 1, buttons
    the others)."""
    if interaction.guild_id is None:
        raise ActionError("error.guild_only")
    if game_format not in hosted_formats():  # a page id forged with a format nobody plays
        raise ActionError("error.bad_button")
    data = await bot.servers.standings(interaction.guild_id, page, STANDINGS_PER_PAGE, game_format)
    guild_name = interaction.guild.name if interaction.guild else str(interaction.guild_id)
    return standings.standings_message(lang, guild_name, data)


async def rules(
    bot: CogBot, interaction: discord.Interaction, lang: str, game_format: str | None
) -> str:
    """The rules of ``game_format`` (by default the server's format), to the target this
    server's tables of it play to."""
    settings = GuildSettings()
    if interaction.guild_id is not None:
        settings = await bot.servers.get(interaction.guild_id)
    name = game_format if game_format in hosted_formats() else settings.game_format
    table = replace(TableSettings.from_guild(settings), game_format=name)
    return rules_text(lang, name, table.match_target)


# ---------------------------------------------------------------------- history


async def history_page(
    bot: CogBot, interaction: discord.Interaction, lang: str, page: int, member_id: int = 0
) -> render.MessageSpec:
    """One page of the server's finished matches, or of one member's (``member_id``); the
    command shows page 1, the page buttons the others."""
    if interaction.guild_id is None:
        raise ActionError("error.guild_only")
    data = await bot.service.history.page(interaction.guild_id, page, member_id or None)
    guild_name = interaction.guild.name if interaction.guild else str(interaction.guild_id)
    return history.history_message(lang, guild_name, data)


async def replay(
    bot: CogBot,
    interaction: discord.Interaction,
    lang: str,
    match_id: str,
    hand: int = 0,
    trick: int = 0,
) -> render.MessageSpec:
    """A finished match of this server at hand index ``hand``, trick ``trick`` (0: the deal),
    for the clicking member only: a live table, another server's match or a position the
    match does not have is refused (``MatchHistory.replay``, ``MatchReplay.check``)."""
    if interaction.guild_id is None:
        raise ActionError("error.guild_only")
    found = await bot.service.history.replay(interaction.guild_id, match_id)
    found.check(hand, trick)
    return history.replay_message(lang, found, interaction.user.id, hand, trick)
