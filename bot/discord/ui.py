"""``MessageSpec`` → discord.py objects.

Buttons go out in a *stopped* view: discord.py then keeps no per-message state for them, and
every click reaches the bot's one stateless router (``bot/discord/router.py``), which parses the
``custom_id`` and checks it against the stored table. So buttons keep working after a restart,
and a forged or stale button gets a clear answer instead of being dropped silently.
"""

from __future__ import annotations

import functools
from collections.abc import Collection
from typing import Any, Final

import discord

from ..present.render import ButtonSpec, MessageSpec

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def _button(spec: ButtonSpec, row: int) -> discord.ui.Button[discord.ui.View]:
    return discord.ui.Button(
        custom_id=spec.custom_id,
        label=spec.label,
        style=_STYLES[spec.style],
        disabled=spec.disabled,
        row=row,
    )


def view_of(spec: MessageSpec) -> discord.ui.View:
    """A view that renders the buttons but is never registered with discord.py's view store."""
    return _stopped_view(spec.rows)


@functools.lru_cache(maxsize=4096)
def _stopped_view(rows: tuple[tuple[ButtonSpec, ...], ...]) -> discord.ui.View:
    """Shared by every message with these buttons: a hand's buttons stay the same through the
    other players' cards, whose live edits would otherwise build the same dozen ``Button``
    objects again (a view costs more than its message's JSON). A stopped view is only read
    when sent (``to_components``), never registered or changed."""
    view = discord.ui.View(timeout=None)
    for row, buttons in enumerate(rows):
        for button in buttons:
            view.add_item(_button(button, row))
    view.stop()
    return view


def embed_of(spec: MessageSpec) -> discord.Embed | None:
    if spec.embed is None:
        return None
    e = spec.embed
    embed = discord.Embed(title=e.title, description=e.description[:4096], color=e.color)
    for name, value, inline in e.fields:
        embed.add_field(name=name, value=value or "\u200b", inline=inline)
    if e.footer:
        embed.set_footer(text=e.footer)
    return embed


def mentions(pings: Collection[int] = ()) -> discord.AllowedMentions:
    """Who a message may notify: never everyone, here or a role; only the listed members.

    Passed explicitly on every send and edit, not left to the client's default: that default
    is merged into most calls, but a member's name in a line must never be able to ping
    anyone, whatever discord.py version or call path sends it.
    """
    users: list[discord.abc.Snowflake] | bool = [discord.Object(i) for i in sorted(set(pings))]
    return discord.AllowedMentions(
        everyone=False, roles=False, users=users or False, replied_user=False
    )


NO_PINGS: Final = mentions()


def text_kwargs(text: str, pings: Collection[int] = ()) -> dict[str, Any]:
    """Keyword arguments for sending plain ``text`` (a report, a refusal, a confirmation)."""
    return {"content": text, "allowed_mentions": mentions(pings) if pings else NO_PINGS}


def message_kwargs(spec: MessageSpec) -> dict[str, Any]:
    """Keyword arguments for ``send``/``edit``/``send_message``/``edit_message``."""
    return {
        "content": spec.content or None,
        "embed": embed_of(spec),
        "view": view_of(spec),
        "allowed_mentions": NO_PINGS,  # a table, a hand, a record: they notify nobody
    }
