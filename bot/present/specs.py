"""What a message is made of, as plain data: ``MessageSpec`` (content, one embed, rows of
``ButtonSpec``), which ``bot/discord/ui.py`` turns into discord.py's arguments. Every renderer of
``bot.present`` builds these, so what a reader would see is testable without Discord."""

from __future__ import annotations

from dataclasses import dataclass, field

COLOR_LOBBY, COLOR_PLAY, COLOR_DONE = 0x2B7A78, 0xC0392B, 0x7F8C8D

Signatures = tuple[tuple[object, ...] | None, tuple[object, ...] | None]
"""A seat's two ``render.hand_signature``s: (outbox DM, live surface)."""


@dataclass(frozen=True)
class ButtonSpec:
    custom_id: str
    label: str
    style: str = "secondary"  # primary | secondary | success | danger
    disabled: bool = False


@dataclass(frozen=True)
class EmbedSpec:
    title: str
    description: str
    color: int = COLOR_PLAY
    fields: tuple[tuple[str, str, bool], ...] = ()
    footer: str = ""


@dataclass(frozen=True)
class MessageSpec:
    content: str = ""
    embed: EmbedSpec | None = None
    rows: tuple[tuple[ButtonSpec, ...], ...] = field(default=())

    def all_text(self) -> str:
        """Everything a reader sees, for tests that check what leaks."""
        parts = [self.content]
        if self.embed:
            parts += [self.embed.title, self.embed.description, self.embed.footer]
            parts += [f"{n} {v}" for n, v, _ in self.embed.fields]
        parts += [b.label for row in self.rows for b in row]
        return "\n".join(parts)


def when(deadline: float | None) -> str:
    """Discord renders ``<t:UNIX:R>`` as a live "in 17 seconds" in every client."""
    return f"<t:{int(deadline)}:R>" if deadline else ""
