"""``/hokm history`` and its Replay as the presenter draws them: rows of players,
format, score and date with a Replay button each; a replay frame per trick with every hand,
whose ⏮ ◀ ▶ ⏭ buttons walk every frame of the match and back; names escaped; Persian RTL."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta

import pytest

from bot.present import custom_ids
from bot.present.history import history_message, replay_message
from bot.present.render import MessageSpec
from bot.service.match_history import MatchReplay
from bot.store import HistoryEntry, HistoryPage, MatchPlayer
from engine import FORMATS, Match, Rules
from engine.rules import hokm_formats
from engine.story import record, story
from tests.engine.helpers import random_move

WHEN = datetime(2026, 12, 3, 20, 15, tzinfo=UTC)
VIEWER = 4242


def players(n: int, names: list[str] | None = None) -> tuple[MatchPlayer, ...]:
    fmt_team = FORMATS["standard"].team_of if n == 4 else tuple(range(n))
    return tuple(
        MatchPlayer(
            seat=i,
            team=fmt_team[i],
            user_id=None if i == n - 1 else 100 + i,
            is_computer=i == n - 1,
            display_name=(names or [f"p{j}" for j in range(n)])[i],
        )
        for i in range(n)
    )


def entry(i: int, *, names: list[str] | None = None, winner: int = 0) -> HistoryEntry:
    return HistoryEntry(
        match_id=f"abcdef{i:06d}",
        channel_id=5,
        finished_at=WHEN - timedelta(hours=i),
        game_format="standard",
        target_score=7,
        scores=(7, 3) if winner == 0 else (4, 7),
        winner_team=winner,
        hints=i == 2,
        players=players(4, names),
    )


def page_of(
    rows: list[HistoryEntry],
    page: int = 1,
    total: int = 0,
    *,
    user_id: int | None = None,
    deeper: bool = False,
) -> HistoryPage:
    return HistoryPage(1, user_id, page, 10, total or len(rows), deeper, tuple(rows))


def ids(spec: MessageSpec) -> list[str]:
    return [b.custom_id for row in spec.rows for b in row]


def check_limits(spec: MessageSpec) -> None:
    assert spec.embed is not None
    assert len(spec.embed.description) <= 4096 and len(spec.embed.title) <= 256
    assert len(spec.rows) <= 5 and all(len(row) <= 5 for row in spec.rows)
    every = ids(spec)
    assert len(set(every)) == len(every)  # Discord refuses a message with two equal ids
    for cid in every:
        assert len(cid) <= custom_ids.MAX_LENGTH
        custom_ids.parse(cid)  # the router understands every button it is given


# ---------------------------------------------------------------------- custom ids


def test_history_and_replay_ids_round_trip_and_forgeries_are_refused() -> None:
    page = custom_ids.parse(custom_ids.history_id(3, "n", 77))
    assert (page.kind, page.page, page.member_id) == ("history", 3, 77)
    opened = custom_ids.parse(custom_ids.replay_id("abcdef012345") or "")
    assert (opened.kind, opened.match_id) == ("replay", "abcdef012345")
    step = custom_ids.parse(custom_ids.replay_step_id("abcdef012345", VIEWER, 2, 13, "forward"))
    assert (step.kind, step.match_id, step.viewer, step.hand, step.trick, step.action) == (
        "replay_step",
        "abcdef012345",
        VIEWER,
        2,
        13,
        "forward",
    )
    assert custom_ids.replay_id("x" * 41) is None and custom_ids.replay_id("a:b") is None
    for forged in (
        "hokm:g:0:0:p",  # page 0
        "hokm:y:",  # no match
        "hokm:y:" + "x" * 41,
        "hokm:y:abc:def",
        "hokm:z:abc:0:0:0:n",  # nobody opened it
        f"hokm:z:abc:5:{custom_ids.MAX_HAND}:0:n",  # a hand index past the last hand's
        f"hokm:z:abc:5:0:{custom_ids.MAX_TRICKS + 1}:n",  # a trick past any hand's
        "hokm:z:abc:5:0:0:x",  # no such step
        "hokm:z:abc:5:01:0:n",
    ):
        with pytest.raises(custom_ids.BadCustomId):
            custom_ids.parse(forged)


# ---------------------------------------------------------------------- the listing


def test_a_page_lists_players_format_score_and_date_with_a_replay_each() -> None:
    rows = [entry(i, winner=i % 2) for i in range(10)]
    spec = history_message("en", "Guild", page_of(rows, total=23))
    check_limits(spec)
    assert spec.embed is not None
    lines = spec.embed.description.splitlines()
    assert len(lines) == 10
    first = lines[0]
    assert first.startswith("**1.** <t:")
    assert f"<t:{int(WHEN.timestamp())}:f>" in first and "Standard" in first
    assert "p0 & p2 **7** — p1 & `p3` 3" in first  # the winners' score in bold
    assert "p0 & p2 4 — p1 & `p3` **7**" in lines[1]
    assert "💡" in lines[2] and "💡" not in first  # a match with hints says so
    assert spec.embed.footer.startswith("Page 1 of 3 · matches: 23")
    replay_ids = [i for i in ids(spec) if i.startswith("hokm:y:")]
    assert replay_ids == [f"hokm:y:abcdef{i:06d}" for i in range(10)]
    labels = [b.label for row in spec.rows[:2] for b in row]
    assert labels == [f"🎬 Replay {n}" for n in range(1, 11)]
    previous, following = spec.rows[-1]
    assert previous.disabled and not following.disabled
    assert following.custom_id == "hokm:g:2:0:n"


def test_names_are_escaped_and_long_pages_still_fit() -> None:
    hostile = ["@everyone **x**", "<@123456789012345678>", "`code`", "🤖 Rostam"]
    spec = history_message("en", "G", page_of([entry(0, names=hostile)]))
    text = spec.all_text()
    assert "@everyone" not in text and "<@123456789012345678>" not in text
    assert "\\*\\*x\\*\\*" in text and "`🤖 Rostam`" in text  # the computer: code style
    widest = ["_*~`|>" * 6] * 4  # every character escaped: names twice as long
    rows = [entry(i, names=widest) for i in range(10)]
    spec = history_message("en", "G", page_of(rows))
    check_limits(spec)
    assert spec.embed is not None and len(spec.embed.description.splitlines()) == 10


def test_a_members_page_the_last_page_and_an_empty_one() -> None:
    rows = [entry(i) for i in range(3)]
    spec = history_message("en", "G", page_of(rows, page=3, total=23, user_id=101))
    check_limits(spec)
    assert spec.embed is not None
    assert spec.embed.description.splitlines()[0] == "Matches <@101> played:"
    previous, following = spec.rows[-1]
    assert following.disabled and previous.custom_id == "hokm:g:2:101:p"
    deep = history_message("en", "G", page_of(rows, total=1_000, deeper=True))
    assert deep.embed is not None and deep.embed.footer.startswith("Page 1 of 100+")
    none = history_message("en", "G", page_of([]))
    assert none.embed is not None and none.embed.description == "No finished matches yet."
    assert [len(row) for row in none.rows] == [2]  # no Replay button without a match
    someone = history_message("en", "G", page_of([], user_id=5))
    assert someone.embed is not None
    assert "<@5> hasn't finished a match here yet." in someone.embed.description


def test_the_listing_in_persian() -> None:
    spec = history_message("fa", "G", page_of([entry(i) for i in range(12)][:10], total=12))
    assert spec.embed is not None
    first = spec.embed.description.splitlines()[0]
    assert "**۷**" in first and "معمولی" in first
    assert first.startswith("\u200f")  # a line opening with markup still reads right to left
    assert "\u2068p0\u2069" in first  # every name isolated
    assert spec.embed.footer.startswith("صفحهٔ ⁨۱⁩ از ⁨۲⁩")
    labels = [b.label.lstrip("\u200f") for b in spec.rows[0]][:2]
    assert labels == ["🎬 بازپخش ⁨۱⁩", "🎬 بازپخش ⁨۲⁩"]


# ---------------------------------------------------------------------- the replay


def finished_replay(fmt_name: str, seed: int = 3) -> MatchReplay:
    fmt = FORMATS[fmt_name]
    match = Match(seed, Rules(target_score=2, bam=True), fmt)
    rng = random.Random(seed)
    while not match.is_over:
        random_move(match, rng)
    seated = tuple(
        MatchPlayer(i, fmt.team_of[i], 100 + i, False, f"seat{i}") for i in range(fmt.seats)
    )
    assert match.winner_team is not None
    found = HistoryEntry(
        "abcdef012345", 5, WHEN, fmt_name, 2, tuple(match.scores), match.winner_team, False, seated
    )
    return MatchReplay(found, story(record(match)))


def position(cid: str) -> tuple[int, int]:
    click = custom_ids.parse(cid)
    assert click.viewer == VIEWER and click.match_id == "abcdef012345"
    return click.hand, click.trick


def step(spec: MessageSpec, label: str) -> tuple[int, int] | None:
    button = next(b for row in spec.rows for b in row if b.label == label)
    return None if button.disabled else position(button.custom_id)


@pytest.mark.parametrize("fmt_name", sorted(hokm_formats()))
def test_the_buttons_walk_every_frame_of_the_match_and_back(fmt_name: str) -> None:
    replay = finished_replay(fmt_name)
    hands = replay.story.hands
    frames = [(h, t) for h, hand in enumerate(hands) for t in range(len(hand.tricks) + 1)]
    walked = [(0, 0)]
    while True:
        spec = replay_message("en", replay, VIEWER, *walked[-1])
        check_limits(spec)
        nxt = step(spec, "▶")
        if nxt is None:
            break
        walked.append(nxt)
    assert walked == frames
    back = [frames[-1]]
    while (prev := step(replay_message("en", replay, VIEWER, *back[-1]), "◀")) is not None:
        back.append(prev)
    assert back == frames[::-1]
    # ⏭ goes to the next hand's deal, ⏮ to this hand's deal, then to the one before
    middle = replay_message("en", replay, VIEWER, 0, 1)
    assert step(middle, "⏮") == (0, 0)
    assert step(middle, "⏭") == ((1, 0) if len(hands) > 1 else None)
    if len(hands) > 1:
        assert step(replay_message("en", replay, VIEWER, 1, 0), "⏮") == (0, 0)


def cards_shown(line: str) -> int:
    """Card ranks (and jokers) in a "name: ♠ A K  ♥ 3" line of the replay."""
    held = line.split(": ", 1)[1]
    return len(re.findall(r"(?<![0-9])(10|[2-9JQKA])(?![0-9])", held)) + held.count("🃏")


def test_a_frame_shows_every_hand_the_trick_and_the_counts() -> None:
    replay = finished_replay("standard")
    told = replay.story.hands[0]
    deal = replay_message("en", replay, VIEWER, 0, 0)
    assert deal.embed is not None
    text = deal.embed.description
    assert text.startswith(f"**Hand 1 of {replay.story.hands[-1].number}** · the deal")
    assert f"seat{told.hakem} leads." in text
    hand_lines = [line for line in text.splitlines() if line.startswith("seat")]
    assert [cards_shown(line) for line in hand_lines] == [13, 13, 13, 13]
    assert "👑" in hand_lines[told.hakem]
    first = told.tricks[0]
    frame = replay_message("en", replay, VIEWER, 0, 1)
    assert frame.embed is not None
    body = frame.embed.description
    played = " · ".join(f"seat{s} {c.label}" for s, c in first.plays(4))
    assert f"Trick 1: {played} → seat{first.winner}" in body
    hand_lines = [line for line in body.splitlines() if line.startswith("seat")]
    assert [cards_shown(line) for line in hand_lines] == [12, 12, 12, 12]
    team = first.winner % 2
    counts = ["seat0 & seat2: 0", "seat1 & seat3: 0"]
    counts[team] = counts[team][:-1] + "1"
    assert f"Tricks — {counts[0]} · {counts[1]}" in body
    assert "Score — seat0 & seat2: 0 · seat1 & seat3: 0 (to 2)" in body
    last = replay_message("en", replay, VIEWER, 0, len(told.tricks))
    assert last.embed is not None and "take the hand (" in last.embed.description
    assert "Only you can see this replay" in last.embed.footer


def test_a_joker_six_frame_names_the_bid_and_the_jokers() -> None:
    replay = finished_replay("joker_six", seed=5)
    spec = replay_message("en", replay, VIEWER, 0, 0)
    assert spec.embed is not None
    assert f"Bid: {replay.story.hands[0].bid}" in spec.embed.description
    assert "Joker six" in spec.embed.title
    shown = [cards_shown(x) for x in spec.embed.description.splitlines() if x.startswith("seat")]
    assert shown == [9] * 6


def test_a_replay_frame_in_persian() -> None:
    replay = finished_replay("standard")
    spec = replay_message("fa", replay, VIEWER, 0, 1)
    assert spec.embed is not None
    text = spec.embed.description
    assert text.startswith("\u200f**دور ⁨۱⁩ از") and "دست ⁨۱⁩ از" in text
    assert "دست ⁨۱⁩: " in text and " ← " in text
    hand_lines = [line for line in text.splitlines() if line.startswith("\u200f\u2068seat")]
    assert len(hand_lines) == 4  # each a name, then its cards as one left-to-right run
    assert all(re.search(": \u2066[♠♥♣♦] ", line) for line in hand_lines), hand_lines
    assert "فقط شما" in spec.embed.footer
