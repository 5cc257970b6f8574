"""The leaderboard and one member's record (``/standings``), as plain ``MessageSpec`` data:
ten a page with page buttons, equal records sharing a rank (issue 13)."""

from __future__ import annotations

from ..names import shown_name
from ..store import PlayerRecord, StandingsPage
from . import custom_ids
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
    embed = EmbedSpec(
        t(lang, "standings.title", guild=shown_name(guild_name, limit=100)),
        "\n".join(lines),
        COLOR_LOBBY,
        (),
        footer,
    )
    buttons = (
        ButtonSpec(
            custom_ids.standings_id(max(1, page.page - 1), "p"),
            t(lang, "button.previous"),
            disabled=page.page <= 1,
        ),
        ButtonSpec(
            custom_ids.standings_id(min(page.pages, page.page + 1), "n"),
            t(lang, "button.next"),
            disabled=page.page >= page.pages,
        ),
    )
    return MessageSpec(embed=embed, rows=(buttons,))


def member_message(lang: str, name: str, record: PlayerRecord | None) -> MessageSpec:
    if record is None:
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
    return MessageSpec(content=text)
