"""The leaderboard and one member's record (``/standings``), as plain ``MessageSpec`` data:
ten a page with page buttons, equal records sharing a rank (issue 13), one format's standings
at a time (issue 14: a format other than the standard game is named in the title)."""

from __future__ import annotations

from ..names import shown_name
from ..store import PlayerRecord, StandingsPage
from . import custom_ids
from .formats import format_label
from .i18n import number, t
from .render import COLOR_LOBBY, ButtonSpec, EmbedSpec, MessageSpec


def standings_message(
    lang: str, guild_name: str, page: StandingsPage, member_id: int = 0
) -> MessageSpec:
    lines = []
    for r in page.rows:
        lines.append(
            t(
                lang,
                "standings.row",
                rank=number(lang, r.rank),
                name=f"<@{r.user_id}>",
                won=number(lang, r.matches_won),
                played=number(lang, r.matches_played),
                rate=number(lang, round(r.win_rate * 100)),
                hands=number(lang, r.hands_won),
                kots=number(lang, r.kots_dealt),
                hk=number(lang, r.hakem_kots_suffered),
            )
        )
    if not lines:
        lines.append(t(lang, "standings.empty"))
    footer = t(lang, "standings.page", page=number(lang, page.page), pages=number(lang, page.pages))
    title = t(lang, "standings.title", guild=shown_name(guild_name, limit=100))
    fmt = page.game_format
    if fmt != "standard":
        title = f"{title} · {format_label(lang, fmt)}"
    embed = EmbedSpec(
        title[:256],
        "\n".join(lines),
        COLOR_LOBBY,
        (),
        footer,
    )
    buttons = (
        ButtonSpec(
            custom_ids.standings_id(max(1, page.page - 1), "p", game_format=fmt),
            t(lang, "button.previous"),
            disabled=page.page <= 1,
        ),
        ButtonSpec(
            custom_ids.standings_id(min(page.pages, page.page + 1), "n", game_format=fmt),
            t(lang, "button.next"),
            disabled=page.page >= page.pages,
        ),
    )
    return MessageSpec(embed=embed, rows=(buttons,))


def member_message(
    lang: str, name: str, record: PlayerRecord | None, game_format: str = "standard"
) -> MessageSpec:
    """One member's record in one format (the standard game unless another is named)."""
    other = game_format != "standard"
    if record is None:
        if other:
            label = format_label(lang, game_format)
            return MessageSpec(content=t(lang, "standings.member_none_format", name=name, f=label))
        return MessageSpec(content=t(lang, "standings.member_none", name=name))
    text = t(
        lang,
        "standings.member",
        name=name,
        rank=number(lang, record.rank),
        won=number(lang, record.matches_won),
        played=number(lang, record.matches_played),
        rate=number(lang, round(record.win_rate * 100)),
        hands=number(lang, record.hands_won),
        kots=number(lang, record.kots_dealt),
        hk=number(lang, record.hakem_kots_suffered),
    )
    if other:
        text = f"{text}\n{t(lang, 'standings.format', f=format_label(lang, game_format))}"
    return MessageSpec(content=text)
