"""``MessageSpec`` → discord.py objects.

Buttons go out in a *stopped* view: discord.py then keeps no per-message state for them, and
every click reaches the bot's one stateless router (``bot/components.py``), which parses the
``custom_id`` and checks it against the stored table. So buttons keep working after a restart,
and a forged or stale button gets a clear answer instead of being dropped silently.
"""

from __future__ import annotations

from typing import Any

import discord

from .render import ButtonSpec, MessageSpec

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
    view = discord.ui.View(timeout=None)
    for row, buttons in enumerate(spec.rows):
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


def message_kwargs(spec: MessageSpec) -> dict[str, Any]:
    """Keyword arguments for ``send``/``edit``/``send_message``/``edit_message``."""
    return {
        "content": spec.content or None,
        "embed": embed_of(spec),
        "view": view_of(spec),
    }
