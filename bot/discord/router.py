"""The one router every button click reaches: parse the id strictly, run the action, answer.

Buttons are routed here rather than through ``discord.ui.DynamicItem`` templates because the
strict ``custom_ids`` parser answers every forged or stale id, where a template silently drops
an id it does not match. A click runs the same ``actions`` function as its slash command and
fails through the same ``replies.reply_failure``.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Literal

import discord

from ..present import custom_ids, render
from ..service.errors import ActionError
from ..service.variants import Decision
from . import actions, token_calls, tournament_actions
from .cogs.bot_api import CogBot
from .replies import reply_error, reply_failure
from .ui import message_kwargs

log = logging.getLogger(__name__)

PLAY_CLICKS = ("card", "trump", "redeal", "decide", "shelem_bid", "lay_down", "mode")
"""The clicks that are moves: each answered with the clicker's hand, in place."""
SHELEM_DECISIONS = ("shelem_bid", "lay_down", "mode")
"""V6: moves whose button names the deal, not the hand (a redeal keeps the hand's number)."""


async def handle_click(bot: CogBot, interaction: discord.Interaction) -> None:
    custom_id = _custom_id(interaction)
    try:
        click = custom_ids.parse(custom_id)
    except custom_ids.BadCustomId:
        await reply_error(
            interaction, await bot.language_of(interaction.guild_id), "error.bad_button"
        )
        return
    table = None
    if click.table_id:  # one held by another process is loaded here
        with contextlib.suppress(ActionError):
            table = await bot.service.held(click.table_id)
    if table is not None:
        lang = table.settings.language
    else:
        lang = await bot.language_of(interaction.guild_id)
    try:
        await _route(bot, interaction, click, lang)
    except Exception as exc:
        await reply_failure(interaction, lang, exc, f"click {custom_id!r}")


async def _route(
    bot: CogBot, interaction: discord.Interaction, click: custom_ids.Click, lang: str
) -> None:
    if click.kind in PLAY_CLICKS:
        await _play_click(bot, interaction, click)
    elif click.kind == "kitty":
        await _kitty_click(bot, interaction, click)
    elif click.kind == "lobby":
        actions.table_clicked(bot, interaction, click.table_id)
        action = actions.LOBBY[click.action]
        await action(bot, interaction, click.table_id, actions.show_table(bot))
    elif click.kind == "my_hand":
        # Only a table message carries it: from another server the id is forged, and its
        # clicker is no spectator of this table.
        actions.table_clicked(bot, interaction, click.table_id)
        await actions.hand(bot, interaction, click.table_id)
    elif click.kind == "hint":
        await actions.hint(bot, interaction, click.table_id, click.hand)
    elif click.kind == "rematch":
        await actions.rematch(bot, interaction, click.table_id)
    elif click.kind == "standings":
        if not _has_buttons(interaction.message, "p:"):  # a page id forged elsewhere
            raise ActionError("error.bad_button")
        spec = await actions.standings_page(bot, interaction, lang, click.page, click.game_format)
        await interaction.response.edit_message(**message_kwargs(spec))
    elif click.kind == "history":
        if not _has_buttons(interaction.message, "g:"):  # a page id forged elsewhere
            raise ActionError("error.bad_button")
        spec = await actions.history_page(bot, interaction, lang, click.page, click.member_id)
        await interaction.response.edit_message(**message_kwargs(spec))
    elif click.kind == "replay":  # opens the clicker's own private replay
        spec = await actions.replay(bot, interaction, lang, click.match_id)
        await interaction.response.send_message(ephemeral=True, **message_kwargs(spec))
    elif click.kind == "replay_step":
        await _replay_step(bot, interaction, click, lang)
    elif click.kind == "tournament":  # Join or Withdraw on a tournament message
        await tournament_actions.click(bot, interaction, click)


async def _play_click(
    bot: CogBot, interaction: discord.Interaction, click: custom_ids.Click
) -> None:
    user_id = interaction.user.id
    shelem = bot.service.shelem
    if click.kind == "shelem_bid":  # V6.3, V6.5: a bid, Shelem, Sar-shelem or Pass
        update = await shelem.bid(click.table_id, user_id, click.hand, click.value)
    elif click.kind == "lay_down":  # V6.6.1: the cards the hakem chose, all at once
        update = await shelem.lay_down(click.table_id, user_id, click.hand, click.chosen)
    elif click.kind == "mode":  # V6.7
        update = await shelem.announce(click.table_id, user_id, click.hand, click.mode)
    elif click.kind == "card":
        assert click.card is not None
        update = await bot.service.play_card(click.table_id, user_id, click.hand, click.card)
    elif click.kind == "redeal":  # R6: answered like a trump, with the hakem's new five
        update = await bot.service.redeal(click.table_id, user_id, click.hand)
    elif click.kind == "decide":  # V1 bam or stop, V2 keep or take the next
        kinds: dict[str, Literal["bam", "draw", "bid"]] = {"bam": "bam", "draw": "draw"}
        choice = Decision(kinds.get(click.decision, "bid"), click.yes, click.tricks)
        update = await bot.service.decide(click.table_id, user_id, click.hand, choice)
    else:
        assert click.suit is not None
        update = await bot.service.choose_trump(click.table_id, user_id, click.hand, click.suit)
    table, seat = update.table, update.actor_seat
    assert seat is not None
    ephemeral = bool(interaction.message and interaction.message.flags.ephemeral)
    if table.match is None:
        return
    shown = table.match.hand_number if click.kind in SHELEM_DECISIONS else click.hand
    # The hand replaces the clicked message only in a DM or an ephemeral view; a card id
    # forged onto a public message gets the hand privately, never in the channel.
    in_place = ephemeral or interaction.guild_id is None
    async with bot.service.settled(table.table_id):  # another move may be mid-commit
        spec = render.hand_message(table, seat, ephemeral=ephemeral or not in_place)
        rendered = render.hand_signatures(table, seat)  # what this answer shows
    try:
        if in_place:  # the one request Discord asks of a card, without discord.py's objects
            await token_calls.answer_update(interaction, spec)
        else:
            await interaction.response.send_message(ephemeral=True, **message_kwargs(spec))
    except discord.HTTPException as exc:
        # The move is committed; only its answer was lost (too late, Discord down). Saying
        # "nothing was changed" would be wrong: show the new hand in the DM instead.
        log.warning("table %s: answer to a move lost (%s); DM refreshed", table.table_id, exc)
        bot.publisher.unanswered(table, seat)
        return
    if interaction.guild_id is None or table.seat(seat).dm_closed:
        bot.publisher.answered(table, seat, rendered)  # the DM (or the only view) shows it
        bot.publisher.clicked(table, seat, interaction, shown, rendered)  # kept live
    elif not bot.publisher.clicked(table, seat, interaction, shown, rendered):
        # Played from "My hand": the DM still shows the card. When the DM was the live
        # surface, its own token just gave it its last edit; else the outbox edits it.
        bot.publisher.unanswered(table, seat)
    if update.refusal is not None:  # back from autoplay, but that card could not go now
        await reply_error(
            interaction, table.settings.language, update.refusal.code, update.refusal.params
        )


async def _kitty_click(
    bot: CogBot, interaction: discord.Interaction, click: custom_ids.Click
) -> None:
    """V6.6.1: a card the hakem chooses to lay down, or puts back. Only his own message
    changes (in place); the table does not until he presses **Lay down**. The choice is
    checked against the table (his turn to lay down, his cards, at most the kitty's number)."""
    assert click.card is not None
    before = click.chosen
    chosen = (
        tuple(c for c in before if c != click.card)
        if click.card in before
        else (*before, click.card)
    )
    ephemeral = bool(interaction.message and interaction.message.flags.ephemeral)
    async with bot.service.settled(click.table_id):
        table, seat, chosen = bot.service.shelem.selection(
            click.table_id, interaction.user.id, click.hand, chosen
        )
        in_place = ephemeral or interaction.guild_id is None
        spec = render.hand_message(table, seat, ephemeral=not in_place or ephemeral, chosen=chosen)
    if in_place:
        await interaction.response.edit_message(**message_kwargs(spec))
    else:  # forged onto a public message: the hand goes privately, never to the channel
        await interaction.response.send_message(ephemeral=True, **message_kwargs(spec))


async def _replay_step(
    bot: CogBot, interaction: discord.Interaction, click: custom_ids.Click, lang: str
) -> None:
    """⏮ ◀ ▶ ⏭ of a replay: only its own member steps it, and only the private replay
    message is edited (a step id forged onto any other message edits nothing)."""
    if click.viewer != interaction.user.id:
        raise ActionError("error.replay_not_yours")
    message = interaction.message
    if message is None or not message.flags.ephemeral or not _has_buttons(message, "z:"):
        raise ActionError("error.bad_button")
    spec = await actions.replay(bot, interaction, lang, click.match_id, click.hand, click.trick)
    await interaction.response.edit_message(**message_kwargs(spec))


def _has_buttons(message: discord.Message | None, kind: str) -> bool:
    """Page and step clicks edit the message they are on: only a message with buttons of
    their own kind (``p:`` standings, ``g:`` history, ``z:`` a replay) may be edited so."""
    if message is None:
        return False
    prefix = custom_ids.PREFIX + kind
    return any(
        (getattr(child, "custom_id", None) or "").startswith(prefix)
        for row in message.components
        for child in getattr(row, "children", ())
    )


def _custom_id(interaction: discord.Interaction) -> object:
    """The clicked component's id, unchecked: ``custom_ids.parse`` answers anything forged."""
    data = interaction.data
    return None if data is None else data.get("custom_id")
