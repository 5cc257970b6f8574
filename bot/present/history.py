"""``/hokm history`` (issue 16): a server's or a member's finished matches, ten a page, each
with its players, format, score and date and a Replay button; and the Replay itself, one
member's private view stepping through a finished match hand by hand and trick by trick with
every hand shown.

Names are the ones stored with the match, shown through ``shown_name`` (escaped; computers in
code style); in Persian every name, card run and score is isolated so the line reads right to
left. A page fits Discord's embed: when ten rows of long names would not, names are shortened.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine import Card, GameFormat, HandResult, Suit
from engine.rules import FORMATS, SHELEM_FORMAT
from engine.shelem import ShelemOptions

from ..names import shown_name
from ..service.match_history import MatchReplay
from ..store import HistoryEntry, HistoryPage, MatchPlayer
from . import custom_ids
from .formats import format_label, is_solo
from .i18n import CATALOG, LIST_SEPARATOR, isolate, number, suit_label, t, word
from .render import COLOR_DONE, COLOR_LOBBY, ButtonSpec, EmbedSpec, MessageSpec
from .summary import WHY

DESCRIPTION_LIMIT: Final = 4000
SHORT_NAME: Final = 12
SUIT_ORDER: Final = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
REPLAYS_PER_ROW: Final = 5


# ---------------------------------------------------------------------- names and teams


def _names(players: Sequence[MatchPlayer], seats: int, limit: int) -> list[str]:
    """Each seat's shown name (escaped; "?" for a seat the record does not name)."""
    names = ["?"] * seats
    for p in players:
        if p.seat < seats:
            names[p.seat] = shown_name(p.display_name, computer=p.is_computer, limit=limit)
    return names


def team_label(fmt: GameFormat, names: Sequence[str], lang: str, team: int) -> str:
    """A team by its players' names, as given (shown here, plain on the web page)."""
    members = [names[seat] for seat in fmt.seats_of(team)]
    if lang == "fa":
        members = [isolate(n) for n in members]
    return word(lang, "team.join").join(members)


def _scores(
    fmt: GameFormat, names: Sequence[str], lang: str, entry: HistoryEntry, *, bold: bool = True
) -> str:
    """Every team by its players with its final score, the winners' in bold (not in a title,
    where Discord shows no Markdown)."""
    parts = []
    for team, score in enumerate(entry.scores):
        shown = number(lang, score)
        if bold and team == entry.winner_team:
            shown = f"**{shown}**"
        part = f"{team_label(fmt, names, lang, team)} {shown}"
        parts.append(isolate(part) if lang == "fa" else part)
    return " — ".join(parts)


def short_format(lang: str, name: str) -> str:
    """A format's name short enough for a listing row (the long one where there is none)."""
    key = f"history.format_{name}"
    return t(lang, key) if key in CATALOG else format_label(lang, name)


# ---------------------------------------------------------------------- the listing


def history_message(lang: str, guild_name: str, page: HistoryPage) -> MessageSpec:
    """One page of finished matches, newest first, each with its Replay button."""
    member = page.user_id
    head: list[str] = []
    if member is not None:
        head.append(t(lang, "history.of_member", name=f"<@{member}>"))
    rows = _rows(lang, page, limit=32)
    if len("\n".join([*head, *rows])) > DESCRIPTION_LIMIT:
        rows = _rows(lang, page, limit=SHORT_NAME)
    if not rows:
        key = "history.empty_member" if member is not None else "history.empty"
        rows = [t(lang, key, name=f"<@{member}>")]
    pages = number(lang, page.pages) + ("+" if page.deeper else "")
    footer = t(
        lang,
        "history.page",
        page=number(lang, page.page),
        pages=pages,
        total=number(lang, page.total) + ("+" if page.deeper else ""),
    )
    title = t(lang, "history.title", guild=shown_name(guild_name, limit=100))
    embed = EmbedSpec(title[:256], "\n".join([*head, *rows]), COLOR_LOBBY, (), footer)
    replays = [
        ButtonSpec(cid, t(lang, "button.replay", n=number(lang, i + 1)))
        for i, entry in enumerate(page.rows)
        if (cid := custom_ids.replay_id(entry.match_id)) is not None
        and entry.game_format != SHELEM_FORMAT  # V6 keeps no replay (yet)
    ]
    member_id = member or 0
    paging = (
        ButtonSpec(
            custom_ids.history_id(max(1, page.page - 1), "p", member_id),
            t(lang, "button.previous"),
            disabled=page.page <= 1,
        ),
        ButtonSpec(
            custom_ids.history_id(min(page.pages, page.page + 1), "n", member_id),
            t(lang, "button.next"),
            disabled=page.page >= page.pages,
        ),
    )
    grid = [
        tuple(replays[i : i + REPLAYS_PER_ROW]) for i in range(0, len(replays), REPLAYS_PER_ROW)
    ]
    return MessageSpec(embed=embed, rows=(*grid, paging))


def _rows(lang: str, page: HistoryPage, *, limit: int) -> list[str]:
    out = []
    for i, entry in enumerate(page.rows):
        shelem = entry.game_format == SHELEM_FORMAT  # V6: a table of four, partners opposite
        fmt = ShelemOptions().fmt if shelem else FORMATS.get(entry.game_format)
        if fmt is None or len(entry.scores) != len(fmt.teams):
            scores = " — ".join(number(lang, s) for s in entry.scores)
        else:
            names = _names(entry.players, fmt.seats, limit)
            scores = _scores(fmt, names, lang, entry)
        line = t(
            lang,
            "history.row",
            n=number(lang, i + 1),
            date=f"<t:{int(entry.finished_at.timestamp())}:f>",
            format=short_format(lang, entry.game_format),
            scores=scores,
        )
        if entry.hints:
            line += LIST_SEPARATOR + word(lang, "table.hints_on")
        out.append(line)
    return out


# ---------------------------------------------------------------------- the replay


def replay_message(
    lang: str, replay: MatchReplay, viewer: int, hand: int, trick: int
) -> MessageSpec:
    """Hand index ``hand`` after its trick ``trick`` (0: the deal, as play began), with every
    seat's cards, for ``viewer`` only (the buttons carry their id)."""
    story, entry = replay.story, replay.entry
    fmt = story.fmt
    told = story.hands[hand]
    names = _names(entry.players, fmt.seats, 32)
    lines = [*_frame_head(lang, replay, names, hand, trick), ""]
    for seat, held in enumerate(told.held(trick)):
        crown = " 👑" if seat == told.hakem else ""
        lines.append(t(lang, "replay.hand_of", name=names[seat] + crown, cards=_cards(lang, held)))
    title = t(lang, "replay.title", scores=_scores(fmt, names, lang, entry, bold=False))
    if fmt.name != "standard":
        title += LIST_SEPARATOR + short_format(lang, fmt.name)
    footer = t(lang, "replay.footer")
    embed = EmbedSpec(title[:256], "\n".join(lines)[:DESCRIPTION_LIMIT], COLOR_DONE, (), footer)
    return MessageSpec(embed=embed, rows=(_steps(replay, viewer, hand, trick),))


def _frame_head(
    lang: str, replay: MatchReplay, names: Sequence[str], hand: int, trick: int
) -> list[str]:
    """Where the frame is, hakem and trump (and bid), the trick just played (or who leads),
    the tricks and the score so far, and the hand's result after its last trick."""
    story = replay.story
    fmt, told = story.fmt, story.hands[hand]
    where = (
        t(lang, "replay.trick", n=number(lang, trick), of=number(lang, len(told.tricks)))
        if trick
        else word(lang, "replay.deal")
    )
    last_number = number(lang, story.hands[-1].number)
    position = t(lang, "replay.position", hand=number(lang, told.number), hands=last_number)
    table = [
        t(lang, "table.hakem", name=names[told.hakem]),
        t(lang, "table.trump", suit=suit_label(lang, told.trump)),
    ]
    if told.bid:  # V5 joker six
        table.append(t(lang, "replay.bid", n=number(lang, told.bid)))
    lines = [position + LIST_SEPARATOR + where, LIST_SEPARATOR.join(table)]
    if trick:
        played = told.tricks[trick - 1]
        cards = [
            f"{isolate(names[s]) if lang == 'fa' else names[s]} {c.label}"
            for s, c in played.plays(fmt.seats)
        ]
        winner = names[played.winner]
        lines.append(t(lang, "replay.trick_line", n=number(lang, trick), cards=cards, name=winner))
    else:
        lines.append(t(lang, "replay.leads", name=names[told.tricks[0].leader]))
    lines.append(
        t(lang, "table.tricks", teams=team_items(lang, fmt, names, told.team_tricks(fmt, trick)))
    )
    last = trick == len(told.tricks)
    scores = told.result.scores_after if last else told.scores_before
    target = number(lang, fmt.target_score or replay.entry.target_score)
    lines.append(t(lang, "table.score", teams=team_items(lang, fmt, names, scores), target=target))
    if last:
        lines.append(result_line(lang, fmt, names, told.result))
    return lines


def team_items(
    lang: str, fmt: GameFormat, names: Sequence[str], counts: Sequence[int]
) -> list[str]:
    """One ``team: count`` per team of the format (tricks, or points)."""
    return [
        t(lang, "table.team_count", team=team_label(fmt, names, lang, i), count=number(lang, n))
        for i, n in enumerate(counts)
    ]


def result_line(lang: str, fmt: GameFormat, names: Sequence[str], result: HandResult) -> str:
    """Who took the hand, its tricks, points and why (names as given)."""
    winner = result.winner_team
    counts = [result.tricks[winner]] + [n for i, n in enumerate(result.tricks) if i != winner]
    key = "replay.result_solo" if is_solo(fmt) else "replay.result"
    return t(
        lang,
        key,
        team=team_label(fmt, names, lang, winner),
        tricks="–".join(number(lang, n) for n in counts),
        points=number(lang, result.points),
        why=t(lang, WHY.get(result.kind, "summary.why_win")),
    )


def in_suit_order(cards: Sequence[Card]) -> list[Card]:
    """A seat's cards by suit (♠ ♥ ♣ ♦), highest first, jokers last: as the Replay shows a
    hand, on Discord and on the web page."""
    plain = [c for c in cards if not c.is_joker]
    plain.sort(key=lambda c: (SUIT_ORDER.index(c.suit), -c.rank))
    return plain + sorted((c for c in cards if c.is_joker), reverse=True)


def _cards(lang: str, cards: Sequence[Card]) -> str:
    """A seat's cards by suit, highest first: ``♠ A K 5 · ♥ Q 3`` (jokers last)."""
    if not cards:
        return "—"
    groups = []
    ordered = in_suit_order(cards)
    for suit in SUIT_ORDER:
        ranks = [c.rank_code for c in ordered if not c.is_joker and c.suit == suit]
        if ranks:
            groups.append(f"{suit.symbol} {' '.join(ranks)}")
    groups += [c.label for c in ordered if c.is_joker]
    text = "  ".join(groups)
    return isolate(text) if lang == "fa" else text


Step = tuple[str, str, tuple[int, int] | None]
"""A replay's step: its name (``custom_ids``' step names), its symbol, and the position it
goes to, as (hand index, trick); None where there is nowhere to go."""


def replay_steps(replay: MatchReplay, hand: int, trick: int) -> tuple[Step, ...]:
    """⏮ ◀ ▶ ⏭ from hand index ``hand`` after trick ``trick``: the previous hand's deal (this
    one's, past it), a trick back and forward (across hands), the next hand's deal. The
    Discord Replay's buttons and the web page's links (issue 16) both step by these."""
    hands = replay.story.hands
    last_hand = len(hands) - 1
    back = (hand, trick - 1) if trick else (hand - 1, len(hands[hand - 1].tricks)) if hand else None
    forward = (
        (hand, trick + 1)
        if trick < len(hands[hand].tricks)
        else (hand + 1, 0)
        if hand < last_hand
        else None
    )
    hand_back = (hand, 0) if trick else (hand - 1, 0) if hand else None
    hand_forward = (hand + 1, 0) if hand < last_hand else None
    return (
        ("hand_back", "⏮", hand_back),
        ("back", "◀", back),
        ("forward", "▶", forward),
        ("hand_forward", "⏭", hand_forward),
    )


def _steps(replay: MatchReplay, viewer: int, hand: int, trick: int) -> tuple[ButtonSpec, ...]:
    """The replay's step buttons (``replay_steps``); one with nowhere to go is disabled."""
    out = []
    for step, label, to in replay_steps(replay, hand, trick):
        h, k = to if to is not None else (hand, trick)
        cid = custom_ids.replay_step_id(replay.entry.match_id, viewer, h, k, step)
        out.append(ButtonSpec(cid, label, "primary", disabled=to is None))
    return tuple(out)
