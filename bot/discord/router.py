"""The one router every button click reaches: parse the id strictly, run the action, answer.

Buttons are routed here rather than through ``discord.ui.DynamicItem`` templates because the
strict ``custom_ids`` parser answers every forged or stale id, where a template silently drops
an id it does not match. A click runs the same ``actions`` function as its slash command and
fails through the same ``replies.reply_failure``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final, Literal

import discord

from engine import Card, Suit

from ..present import custom_ids
from ..service.errors import ActionError
from ..service.service import TableService, Update
from ..service.variants import Decision
from . import actions, puzzle_actions, tournament_actions
from .cogs.bot_api import CogBot
from .replies import reply_error, reply_failure
from .ui import message_kwargs

Route = Callable[[CogBot, discord.Interaction, custom_ids.Click, str], Awaitable[None]]
"""What a click of one kind runs: the bot, the interaction, the parsed id and the language."""
MoveCall = Callable[[TableService, int, custom_ids.Click], Awaitable[Update]]


@dataclass(frozen=True)
class Move:
    """A click that is a move: the service call it makes (the clicker's user id and the id)."""

    call: MoveCall
    names_deal: bool = False
    """V6: the button names the deal, not the hand (a redeal keeps the hand's number), so the
    answer shows the match's current hand."""


def _decision(click: custom_ids.Click) -> Decision:
    """V1 bam or stop, V2 keep or take the next, V5 a joker six's bid."""
    kinds: dict[str, Literal["bam", "draw", "bid"]] = {"bam": "bam", "draw": "draw"}
    return Decision(kinds.get(click.decision, "bid"), click.yes, click.tricks)


def _card(click: custom_ids.Click) -> Card:
    assert click.card is not None  # the parser sets it for a card id
    return click.card


def _suit(click: custom_ids.Click) -> Suit:
    assert click.suit is not None  # the parser sets it for a trump id
    return click.suit


MOVES: Final[dict[str, Move]] = {
    "card": Move(lambda s, user, c: s.play_card(c.table_id, user, c.hand, _card(c))),
    "trump": Move(lambda s, user, c: s.choose_trump(c.table_id, user, c.hand, _suit(c))),
    # R6: answered like a trump, with the hakem's new five
    "redeal": Move(lambda s, user, c: s.redeal(c.table_id, user, c.hand)),
    "decide": Move(lambda s, user, c: s.decide(c.table_id, user, c.hand, _decision(c))),
    # V6.3, V6.5: a bid, Shelem, Sar-shelem or Pass
    "shelem_bid": Move(lambda s, user, c: s.shelem.bid(c.table_id, user, c.hand, c.value), True),
    # V6.6.1: the cards the hakem chose, all at once
    "lay_down": Move(
        lambda s, user, c: s.shelem.lay_down(c.table_id, user, c.hand, c.chosen), True
    ),
    "mode": Move(lambda s, user, c: s.shelem.announce(c.table_id, user, c.hand, c.mode), True),
}
"""The clicks that are moves, each one service call and one answer (``answer_move``)."""
PLAY_CLICKS: Final = tuple(MOVES)


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
        await ROUTES[click.kind](bot, interaction, click, lang)
    except Exception as exc:
        await reply_failure(interaction, lang, exc, f"click {custom_id!r}")


async def _play_click(
    bot: CogBot, interaction: discord.Interaction, click: custom_ids.Click, lang: str
) -> None:
    """A move: the service makes it, the publisher answers it (one call each)."""
    move = MOVES[click.kind]
    update = await move.call(bot.service, interaction.user.id, click)
    await bot.publisher.answer_move(interaction, update, None if move.names_deal else click.hand)


async def _lobby(
    bot: CogBot, interaction: discord.Interaction, click: custom_ids.Click, lang: str
) -> None:
    actions.table_clicked(bot, interaction, click.table_id)
    action = actions.LOBBY[click.action]
    await action(bot, interaction, click.table_id, actions.show_table(bot))


async def _my_hand(
    bot: CogBot, interaction: discord.Interaction, click: custom_ids.Click, lang: str
) -> None:
    # Only a table message carries it: from another server the id is forged, and its
    # clicker is no spectator of this table.
    actions.table_clicked(bot, interaction, click.table_id)
    await actions.hand(bot, interaction, click.table_id)


async def _hint(
    bot: CogBot, interaction: discord.Interaction, click: custom_ids.Click, lang: str
) -> None:
    await actions.hint(bot, interaction, click.table_id, click.hand)


async def _rematch(
    bot: CogBot, interaction: discord.Interaction, click: custom_ids.Click, lang: str
) -> None:
    await actions.rematch(bot, interaction, click.table_id)


async def _standings(
    bot: CogBot, interaction: discord.Interaction, click: custom_ids.Click, lang: str
) -> None:
    if not _has_buttons(interaction.message, "p:"):  # a page id forged elsewhere
        raise ActionError("error.bad_button")
    spec = await actions.standings_page(bot, interaction, lang, click.page, click.game_format)
    await interaction.response.edit_message(**message_kwargs(spec))


async def _history(
    bot: CogBot, interaction: discord.Interaction, click: custom_ids.Click, lang: str
) -> None:
    if not _has_buttons(interaction.message, "g:"):  # a page id forged elsewhere
        raise ActionError("error.bad_button")
    spec = await actions.history_page(bot, interaction, lang, click.page, click.member_id)
    await interaction.response.edit_message(**message_kwargs(spec))


async def _replay(
    bot: CogBot, interaction: discord.Interaction, click: custom_ids.Click, lang: str
) -> None:
    """Opens the clicker's own private replay."""
    spec = await actions.replay(bot, interaction, lang, click.match_id)
    await interaction.response.send_message(ephemeral=True, **message_kwargs(spec))


async def _tournament(
    bot: CogBot, interaction: discord.Interaction, click: custom_ids.Click, lang: str
) -> None:
    """Join or Withdraw on a tournament message."""
    await tournament_actions.click(bot, interaction, click)


async def _kitty_click(
    bot: CogBot, interaction: discord.Interaction, click: custom_ids.Click, lang: str
) -> None:
    """V6.6.1: a card the hakem chooses to lay down, or puts back. Only his own message
    changes (in place); the table does not until he presses **Lay down**. The choice is
    checked against the table (his turn to lay down, his cards, at most the kitty's number)."""
    user = interaction.user.id
    table, seat, chosen = await bot.service.shelem.choose(
        click.table_id, user, click.hand, click.chosen, _card(click)
    )
    await bot.publisher.answer_choice(interaction, table, seat, chosen)


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


ROUTES: Final[dict[str, Route]] = {
    **dict.fromkeys(MOVES, _play_click),
    "kitty": _kitty_click,
    "lobby": _lobby,
    "my_hand": _my_hand,
    "hint": _hint,
    "rematch": _rematch,
    "standings": _standings,
    "history": _history,
    "replay": _replay,
    "replay_step": _replay_step,
    "tournament": _tournament,
    "puzzle": puzzle_actions.click,
}
"""Every kind of id (``custom_ids.KINDS``) -> what its click runs: one entry a kind."""


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
