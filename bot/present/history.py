"""``/hokm history``: a server's or a member's finished matches, ten a page, each
with its players, format, score and date and a Replay button; and the Replay itself, one
member's private view stepping through a finished match hand by hand and trick by trick with
every hand shown: a Hokm match of any format, or a Shelem match (V6) with its bidding, kitty and
points (``shelem_replay``'s lines).

Names are the ones stored with the match, shown through ``shown_name`` (escaped; computers in
code style); in Persian every name, card run and score is isolated so the line reads right to
left. A page fits Discord's embed: when ten rows of long names would not, names are shortened
(``budget``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine import GameFormat, HandResult
from engine.rules import FORMATS
from engine.story import MatchStory

from ..names import CROWN, shown_name
from ..service.match_history import MatchReplay
from ..store import HistoryPage
from . import custom_ids
from .analysis_lines import about_lines, trick_marks
from .budget import NAME_STEPS, TITLE, cut, cut_lines, first_fit
from .families import replay_presenter
from .formats import format_is_named, format_label, is_solo
from .history_parts import cards_line, scores_line, stored_names, team_items, team_label
from .i18n import CATALOG, LIST_SEPARATOR, number, play, score_pair, signed, suit_label, t, word
from .render import COLOR_DONE, COLOR_LOBBY, ButtonSpec, EmbedSpec, MessageSpec
from .summary import WHY

DESCRIPTION_LIMIT: Final = 4000
"""A page's and a frame's description: Discord's 4,096, with room to spare."""
REPLAYS_PER_ROW: Final = 5


# ---------------------------------------------------------------------- formats


def listed_format(name: str) -> GameFormat | None:
    """The shape of a stored match's format, to name its teams by: Hokm's formats, and Shelem's
    four seats, partners opposite (V6); None for a name this bot does not know."""
    return FORMATS.get(name)


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
    for limit in NAME_STEPS:  # names shortened when ten rows of them would not fit
        rows = _rows(lang, page, limit=limit)
        if len("\n".join([*head, *rows])) <= DESCRIPTION_LIMIT:
            break
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
    description = cut_lines("\n".join([*head, *rows]), DESCRIPTION_LIMIT)
    embed = EmbedSpec(cut(title, TITLE), description, COLOR_LOBBY, (), footer)
    replays = [
        ButtonSpec(cid, t(lang, "button.replay", n=number(lang, i + 1)))
        for i, entry in enumerate(page.rows)
        if (cid := custom_ids.replay_id(entry.match_id)) is not None
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
        fmt = listed_format(entry.game_format)
        if fmt is None or len(entry.scores) != len(fmt.teams):
            scores = score_pair(lang, entry.scores)
        else:
            names = stored_names(entry.players, fmt.seats, limit)
            scores = scores_line(fmt, names, lang, entry.scores, entry.winner_team)
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
    seat's cards, for ``viewer`` only (the buttons carry their id). Hokm's and Shelem's frames
    differ only in the lines ``replay_about`` and ``replay_counts`` give; names are shortened
    when the longest frame (a Shelem auction of twenty bids) would not fit Discord's embed,
    and in the title (every team with its score) when it would pass 256 characters: every
    team's score stays, and a cut never splits an escape or an isolate (``budget``)."""
    story, entry = replay.story, replay.entry
    fmt = story.fmt
    told = story.hands[hand]
    for limit in NAME_STEPS:
        names = stored_names(entry.players, fmt.seats, limit)
        lines = [*_frame_head(lang, replay, names, hand, trick), ""]
        for seat, held in enumerate(told.held(trick)):
            crown = f" {CROWN}" if seat == told.hakem else ""
            cards = cards_line(lang, held)
            lines.append(t(lang, "replay.hand_of", name=names[seat] + crown, cards=cards))
        description = "\n".join(lines)
        if len(description) <= DESCRIPTION_LIMIT:
            break
    title = first_fit(lambda limit: _replay_title(lang, replay, limit), TITLE)
    footer = t(lang, "replay.footer")
    description = cut_lines(description, DESCRIPTION_LIMIT)
    embed = EmbedSpec(title, description, COLOR_DONE, (), footer)
    return MessageSpec(embed=embed, rows=(_steps(replay, viewer, hand, trick),))


def _replay_title(lang: str, replay: MatchReplay, limit: int) -> str:
    """Every team by its players' names (at most ``limit`` characters) with its final score,
    and a format other than the standard game's."""
    fmt, entry = replay.story.fmt, replay.entry
    names = stored_names(entry.players, fmt.seats, limit)
    title = t(lang, "replay.title", scores=scores_line(fmt, names, lang, entry.scores))
    if format_is_named(fmt.name):
        title += LIST_SEPARATOR + short_format(lang, fmt.name)
    return title


def _frame_head(
    lang: str, replay: MatchReplay, names: Sequence[str], hand: int, trick: int
) -> list[str]:
    """Where the frame is, the hand's contract (``replay_about``), the trick just played (or
    who leads), and the counts so far (``replay_counts``)."""
    story = replay.story
    fmt, told = story.fmt, story.hands[hand]
    where = (
        t(lang, "replay.trick", n=number(lang, trick), of=number(lang, len(told.tricks)))
        if trick
        else word(lang, "replay.deal")
    )
    last_number = number(lang, story.hands[-1].number)
    position = t(lang, "replay.position", hand=number(lang, told.number), hands=last_number)
    lines = [position + LIST_SEPARATOR + where, *replay_about(lang, replay, names, hand)]
    if trick:
        played = told.tricks[trick - 1]
        cards = [play(lang, names[s], c.label) for s, c in played.plays(fmt.seats)]
        winner = names[played.winner]
        lines.append(t(lang, "replay.trick_line", n=number(lang, trick), cards=cards, name=winner))
        lines += replay_marks(lang, replay, names, hand, trick)
    else:
        lines.append(t(lang, "replay.leads", name=names[told.tricks[0].leader]))
    return lines + replay_counts(lang, replay, names, hand, trick)


def replay_about(lang: str, replay: MatchReplay, names: Sequence[str], hand: int) -> list[str]:
    """The hand's contract: Hokm's hakem and trump (and the joker six's bid, V5); Shelem's
    bidding, hakem, bid, mode or trump and kitty (``shelem_replay``). On Discord and the web."""
    return replay_presenter(replay).replay_about(lang, replay, names, hand)


def hokm_replay_about(lang: str, replay: MatchReplay, names: Sequence[str], hand: int) -> list[str]:
    """Hokm's hand contract (``hokm_view``): the hakem and trump, and V5's bid."""
    story = replay.story
    assert isinstance(story, MatchStory)
    told = story.hands[hand]
    table = [
        t(lang, "table.hakem", name=names[told.hakem]),
        t(lang, "table.trump", suit=suit_label(lang, told.trump)),
    ]
    if told.bid:  # V5 joker six
        table.append(t(lang, "replay.bid", n=number(lang, told.bid)))
    graded = about_lines(lang, story.fmt, names, replay.analysis, told.number)
    return [LIST_SEPARATOR.join(table), *graded]


def replay_marks(
    lang: str, replay: MatchReplay, names: Sequence[str], hand: int, trick: int
) -> list[str]:
    """Under trick ``trick`` of hand index ``hand``: each card that cost points with every
    hand known, the best card beside it (``analysis_lines``). On Discord and the web."""
    story = replay.story
    if not isinstance(story, MatchStory):  # Shelem (V6): no analysis
        return []
    number_ = story.hands[hand].number
    return trick_marks(lang, story.fmt, names, replay.analysis, number_, trick)


def replay_counts(
    lang: str, replay: MatchReplay, names: Sequence[str], hand: int, trick: int
) -> list[str]:
    """The counts after trick ``trick``: Hokm's tricks, Shelem's points (``shelem_replay``);
    the score; and after the hand's last trick its result. On Discord and the web."""
    return replay_presenter(replay).replay_counts(lang, replay, names, hand, trick)


def hokm_replay_counts(
    lang: str, replay: MatchReplay, names: Sequence[str], hand: int, trick: int
) -> list[str]:
    """Hokm's counts after a trick (``hokm_view``): tricks, the score, the hand's result."""
    story = replay.story
    assert isinstance(story, MatchStory)
    fmt, told = story.fmt, story.hands[hand]
    last = trick == len(told.tricks)
    scores = told.result.scores_after if last else told.scores_before
    target = number(lang, fmt.target_score or replay.entry.target_score)
    lines = [
        t(lang, "table.tricks", teams=team_items(lang, fmt, names, told.team_tricks(fmt, trick))),
        t(lang, "table.score", teams=team_items(lang, fmt, names, scores), target=target),
    ]
    if last:
        lines.append(result_line(lang, fmt, names, told.result))
    return lines


def result_line(lang: str, fmt: GameFormat, names: Sequence[str], result: HandResult) -> str:
    """Who took the hand, its tricks, points and why (names as given)."""
    winner = result.winner_team
    counts = [result.tricks[winner]] + [n for i, n in enumerate(result.tricks) if i != winner]
    key = "replay.result_solo" if is_solo(fmt) else "replay.result"
    return t(
        lang,
        key,
        team=team_label(fmt, names, lang, winner),
        tricks=score_pair(lang, counts),
        points=number(lang, result.points),
        change=signed(lang, result.points),
        why=t(lang, WHY.get(result.kind, "summary.why_win")),
    )


Step = tuple[str, str, tuple[int, int] | None]
"""A replay's step: its name (``custom_ids``' step names), its symbol, and the position it
goes to, as (hand index, trick); None where there is nowhere to go."""


def replay_steps(replay: MatchReplay, hand: int, trick: int) -> tuple[Step, ...]:
    """⏮ ◀ ▶ ⏭ from hand index ``hand`` after trick ``trick``: the previous hand's deal (this
    one's, past it), a trick back and forward (across hands), the next hand's deal. The
    Discord Replay's buttons and the web page's links both step by these."""
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
