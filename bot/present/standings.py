"""The leaderboard and one member's record (``/standings``), as plain ``MessageSpec`` data:
ten a page with page buttons, equal records sharing a rank, one format's standings
at a time (a format other than the standard game is named in the title)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.rules import STANDARD

from ..names import shown_name
from ..store import MemberRating, PlayerRecord, StandingsPage
from ..store.puzzle_ops import PuzzleCounts
from ..store.rating_ops import TREND_MATCHES
from . import custom_ids
from .budget import TITLE, cut
from .formats import format_is_named, format_label
from .i18n import ltr, number, t
from .render import COLOR_LOBBY, ButtonSpec, EmbedSpec, MessageSpec


def decimal(lang: str, value: float, *, signed: bool = False) -> str:
    """A rating, to one decimal (``12.3``, ``+1.5``), in the language's digits and mark; in
    Persian a sign stays on the left of its digits, as ``i18n.signed`` keeps it."""
    value = round(value, 1) + 0.0  # no "-0.0"
    text = f"{value:+.1f}" if signed else f"{value:.1f}"
    if lang != "fa":
        return text
    text = text.translate(_FA)
    return ltr(lang, text) if text[0] in "+−" else text


_FA = str.maketrans("0123456789.-+", "۰۱۲۳۴۵۶۷۸۹٫−+")


def standings_message(
    lang: str, guild_name: str, page: StandingsPage, member_id: int = 0
) -> MessageSpec:
    """Ranked by the conservative skill rating, with wins and matches beside it."""
    lines = []
    for r in page.rows:
        lines.append(
            t(
                lang,
                "standings.row_rated",
                rank=number(lang, r.rank),
                name=f"<@{r.user_id}>",
                rating=decimal(lang, r.rating),
                won=number(lang, r.matches_won),
                played=number(lang, r.matches_played),
                rate=number(lang, round(r.win_rate * 100)),
            )
        )
    if not lines:
        lines.append(t(lang, "standings.empty"))
    else:
        lines.append(f"-# {t(lang, 'standings.rating_note')}")
    footer = t(lang, "standings.page", page=number(lang, page.page), pages=number(lang, page.pages))
    title = t(lang, "standings.title", guild=shown_name(guild_name, limit=100))
    fmt = page.game_format
    if format_is_named(fmt):
        title = f"{title} · {format_label(lang, fmt)}"
    embed = EmbedSpec(
        cut(title, TITLE),
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


@dataclass(frozen=True, slots=True)
class MemberSkill:
    """What ``/standings member`` adds to the record: the rating, its change over
    the last rated matches, and the best partner (user id, wins together, matches together)."""

    rating: MemberRating | None = None
    trend: float | None = None
    partner: tuple[int, int, int] | None = None


def member_message(
    lang: str,
    member_id: int,
    record: PlayerRecord | None,
    game_format: str = STANDARD.name,
    skill: MemberSkill | None = None,
    puzzles: PuzzleCounts | None = None,
) -> MessageSpec:
    """One member's record in one format (the standard game unless another is named), with
    their rating, its recent change and their best partner; and the puzzles they solved of
    those they answered (every format's, when given). The member is named by a mention."""
    name = f"<@{member_id}>"
    other = format_is_named(game_format)
    tail = [] if puzzles is None else [_puzzles_line(lang, puzzles)]
    if record is None:
        if other:
            label = format_label(lang, game_format)
            text = t(lang, "standings.member_none_format", name=name, f=label)
        else:
            text = t(lang, "standings.member_none", name=name)
        return MessageSpec(content="\n".join([text, *tail]))
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
    lines = [text, *_skill_lines(lang, skill or MemberSkill())]
    if other:
        lines.append(t(lang, "standings.format", f=format_label(lang, game_format)))
    return MessageSpec(content="\n".join([*lines, *tail]))


def _puzzles_line(lang: str, counts: PuzzleCounts) -> str:
    solved, tried = number(lang, counts.solved), number(lang, counts.tried)
    return t(lang, "standings.member_puzzles", solved=solved, tried=tried)


def _skill_lines(lang: str, skill: MemberSkill) -> list[str]:
    rating = skill.rating
    if rating is None:
        lines = [t(lang, "standings.member_unrated")]
    else:
        lines = [
            t(
                lang,
                "standings.member_rating",
                rating=decimal(lang, rating.ordinal),
                rated=number(lang, rating.matches_rated),
            )
        ]
        if skill.trend is not None:
            n = number(lang, min(rating.matches_rated, TREND_MATCHES))
            change = decimal(lang, skill.trend, signed=True)
            lines.append(t(lang, "standings.member_trend", n=n, change=change))
    if skill.partner is not None:
        partner, won, played = skill.partner
        lines.append(
            t(
                lang,
                "standings.member_partner",
                name=f"<@{partner}>",
                won=number(lang, won),
                played=number(lang, played),
            )
        )
    return lines
