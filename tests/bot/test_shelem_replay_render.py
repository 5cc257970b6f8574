"""V6 Shelem's Replay as the presenter draws it: a finished Shelem match gets its
Replay button in ``/hokm history``; each frame shows the bidding, the hakem with his bid and
the mode or trump, the kitty and the cards he laid down (a finished match: every card may
show), every seat's cards, the trick, the points each side has and the score, and at a hand's
end its result; ⏮ ◀ ▶ ⏭ walk every frame; names escaped; English and Persian; the longest
frame (an auction of twenty words, hostile names) within Discord's embed."""

from __future__ import annotations

import random
import re

import pytest

from bot.present import history
from bot.present.history import history_message, replay_message
from bot.present.history_parts import cards_line
from bot.present.i18n import number, suit_label
from bot.service.match_history import MatchReplay
from bot.store import HistoryEntry, MatchPlayer
from engine.shelem import PASS, SAR_SHELEM, SHELEM, ShelemMatch, ShelemOptions
from engine.shelem.story import record, story
from tests.engine.shelem_helpers import finished

from .test_history_render import VIEWER, WHEN, check_limits, page_of, step

NAMES = ["amir", "bahar", "cyrus", "dara"]
HAND_LINE = re.compile(r"^\u200f?\u2068?(amir|bahar|cyrus|`dara`)")


def seated(names: list[str]) -> tuple[MatchPlayer, ...]:
    """Three members and a computer in seat 3."""
    return tuple(
        MatchPlayer(i, i % 2, None if i == 3 else 100 + i, i == 3, names[i]) for i in range(4)
    )


def replay_of(match: ShelemMatch, names: list[str] | None = None) -> MatchReplay:
    told = story(record(match))
    entry = HistoryEntry(
        "abcdef012345",
        5,
        WHEN,
        "shelem",
        match.target_score,
        tuple(match.scores),
        match.winner_team,
        False,
        seated(names or NAMES),
    )
    return MatchReplay(entry, told)


def longest_auction() -> ShelemMatch:
    """V6.3, V6.5, V6.13: at a joker table every points bid from 120 to 200 in turn, then a
    shelem, a pass and a sar-shelem (twenty words: the longest bidding), and the hand played."""
    match = ShelemMatch(8, ShelemOptions(joker=True))
    for value in match.options.point_bids:
        match.bid(match.to_act, value)
    for value in (SHELEM, PASS, SAR_SHELEM):
        match.bid(match.to_act, value)
    rng = random.Random(1)
    while match.hand_number == 1:
        match.play(match.turn, rng.choice(match.legal_cards(match.turn)))
    return match


def text(lang: str, replay: MatchReplay, hand: int, trick: int) -> str:
    spec = replay_message(lang, replay, VIEWER, hand, trick)
    check_limits(spec)
    assert spec.embed is not None and not spec.embed.fields
    return spec.embed.description


def test_v6_a_shelem_row_of_the_listing_has_its_replay_button() -> None:
    match = finished(3, ShelemOptions(target_score=300))
    row = replay_of(match).entry
    spec = history_message("en", "G", page_of([row]))
    check_limits(spec)
    assert spec.embed is not None and "Shelem" in spec.embed.description
    assert "amir & cyrus" in spec.embed.description  # its teams by their players
    assert [b.custom_id for b in spec.rows[0]] == ["hokm:y:abcdef012345"]


@pytest.mark.parametrize("options", [ShelemOptions(target_score=300), ShelemOptions(joker=True)])
def test_v6_the_replay_buttons_walk_every_frame_of_a_shelem_match_and_back(
    options: ShelemOptions,
) -> None:
    replay = replay_of(finished(5, options))
    hands = replay.story.hands
    frames = [(h, t) for h, hand in enumerate(hands) for t in range(len(hand.tricks) + 1)]
    walked = [(0, 0)]
    while (nxt := step(replay_message("en", replay, VIEWER, *walked[-1]), "▶")) is not None:
        check_limits(replay_message("en", replay, VIEWER, *walked[-1]))
        walked.append(nxt)
    assert walked == frames and all(len(h.tricks) == 12 for h in hands)
    back = [frames[-1]]
    while (prev := step(replay_message("en", replay, VIEWER, *back[-1]), "◀")) is not None:
        back.append(prev)
    assert back == frames[::-1]
    middle = replay_message("en", replay, VIEWER, 0, 5)
    assert step(middle, "⏮") == (0, 0)
    assert step(middle, "⏭") == ((1, 0) if len(hands) > 1 else None)


def cards_shown(line: str) -> int:
    held = line.split(": ", 1)[1]
    return len(re.findall(r"(?<![0-9])(10|[2-9JQKA])(?![0-9])", held)) + held.count("🃏")


def test_v6_a_frame_shows_bidding_contract_kitty_points_and_every_hand() -> None:
    match = finished(3, ShelemOptions(nars=True, target_score=300))
    replay = replay_of(match)
    told = replay.story.hands[0]
    names = ["amir", "bahar", "cyrus", "`dara`"]
    deal = text("en", replay, 0, 0)
    lines = deal.splitlines()
    assert lines[0] == f"**Hand 1 of {replay.story.hands[-1].number}** · the deal"
    said = " · ".join(
        f"{names[s]} {({PASS: 'Pass', SHELEM: 'Shelem', SAR_SHELEM: 'Sar-shelem'}).get(v, v)}"
        for s, v in told.auction
    )
    assert f"Bidding: {said}" in lines
    assert told.passed_deals >= 1  # the seed's first deal was passed out
    assert f"Dealt again before this deal (the first three passed): {told.passed_deals}×" in lines
    bid = {SHELEM: "Shelem", SAR_SHELEM: "Sar-shelem"}.get(told.bid, str(told.bid))
    contract = f"Hakem: {names[told.hakem]} · Bid: {bid} · "
    if told.trump is None:
        contract += "No trump (Nars)"
    else:
        contract += f"Trump: {suit_label('en', told.trump)} (the hakem's first card)"
    assert contract in lines, lines
    kitty = [line for line in lines if line.startswith("Kitty")]
    assert len(kitty) == 1 and cards_shown(kitty[0].replace(" · laid down", "")) == 8
    assert f"{names[told.hakem]} leads." in deal
    hands = [line for line in lines if HAND_LINE.match(line)]
    assert [cards_shown(line) for line in hands] == [12, 12, 12, 12]
    assert "👑" in hands[told.hakem]
    points = list(told.team_points(0))
    assert points[told.hakem % 2] >= 5 and points[1 - told.hakem % 2] == 0  # the laid-down set
    assert (
        f"Points this hand: amir & cyrus: {points[0]} · bahar & `dara`: {points[1]} (of 165)"
        in lines
    )
    assert "Score — amir & cyrus: 0 · bahar & `dara`: 0 (to 300)" in lines
    first = told.tricks[0]
    frame = text("en", replay, 0, 1)
    played = " · ".join(f"{names[s]} {c.label}" for s, c in first.plays(4))
    assert f"Trick 1: {played} → {names[first.winner]}" in frame
    assert [cards_shown(x) for x in frame.splitlines() if HAND_LINE.match(x)] == [11] * 4
    last = text("en", replay, 0, 12)
    after = told.result.scores_after
    assert f"Points this hand: amir & cyrus: {told.result.points[0]}" in last
    shown = [number("en", s) for s in after]  # a minus sign below zero
    assert f"Score — amir & cyrus: {shown[0]} · bahar & `dara`: {shown[1]} (to 300)" in last
    assert f"in hand 1 ({told.result.points[told.hakem % 2]}–" in last  # the result's line
    assert [cards_shown(x) for x in last.splitlines() if HAND_LINE.match(x)] == [0] * 4


def test_v6_a_hokm_hand_names_its_trump_and_a_sar_shelem_its_kitty_laid_aside() -> None:
    match = longest_auction()
    replay = replay_of(match)
    told = replay.story.hands[0]
    assert told.bid == SAR_SHELEM and told.trump == told.tricks[0].cards[0].suit
    assert told.trump is not None
    trump = f"Trump: {suit_label('en', told.trump)} (the hakem's first card)"
    lines = text("en", replay, 0, 0).splitlines()
    assert f"Hakem: cyrus · Bid: Sar-shelem · {trump}" in lines or told.hakem != 2
    assert any(line.endswith(f" · Bid: Sar-shelem · {trump}") for line in lines), lines
    assert [line for line in lines if line.startswith("Kitty")] == [
        f"Kitty, laid aside for the hakem's side (sar-shelem): {cards_line('en', told.kitty)}"
    ]
    said = {"sar_shelem": "Sar-shelem! ", "sar_shelem_set": "The sar-shelem fails in hand 1"}
    assert said[told.result.kind] in text("en", replay, 0, 12)


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_v6_the_longest_frame_fits_discords_embed_with_hostile_names(lang: str) -> None:
    """Twenty bids by names whose every character Markdown escapes (twice as long), the
    jokers, the result: every frame within 4096 characters (no field, no cut)."""
    widest = ["_*~`|>" * 6] * 3 + ["C" * 40]
    replay = replay_of(longest_auction(), widest)
    for trick in range(13):
        spec = replay_message(lang, replay, VIEWER, 0, trick)
        check_limits(spec)
        assert spec.embed is not None and not spec.embed.fields
        assert len(spec.embed.description) < history.DESCRIPTION_LIMIT  # nothing cut off
        assert spec.embed.description.count("\\_\\*\\~\\`\\|>") >= 20  # escaped, full length


def test_v6_names_are_escaped_in_the_bidding_and_shortened_when_a_frame_would_not_fit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hostile = ["@everyone **x**", "<@123456789012345678>", "`code`", "🤖 Rostam"]
    replay = replay_of(longest_auction(), hostile)
    shown = text("en", replay, 0, 3)
    assert "@everyone" not in shown and "<@123456789012345678>" not in shown
    bidding = next(line for line in shown.splitlines() if line.startswith("Bidding: "))
    assert bidding.count("@\u200beveryone \\*\\*x\\*\\* ") == 5  # a seat's every bid, escaped
    assert "`🤖 Rostam` 125" in bidding  # the computer in code style, as the listing shows it
    long = ["a" * 32, "b" * 32, "c" * 32, "d" * 32]
    full = replay_of(longest_auction(), long)
    assert "a" * 32 in text("en", full, 0, 3)
    monkeypatch.setattr(history, "DESCRIPTION_LIMIT", 1500)
    short = replay_message("en", full, VIEWER, 0, 3)
    assert short.embed is not None and len(short.embed.description) <= 1500
    assert "a" * 32 not in short.embed.description and "a" * 11 in short.embed.description


def test_v6_a_shelem_replay_frame_in_persian() -> None:
    replay = replay_of(finished(3, ShelemOptions(nars=True, target_score=300)))
    told = replay.story.hands[0]
    spec = replay_message("fa", replay, VIEWER, 0, 1)
    check_limits(spec)
    assert spec.embed is not None
    body = spec.embed.description
    assert body.startswith("\u200f**دور ⁨۱⁩ از") and "دست ⁨۱⁩ از" in body
    assert "خواندن: " in body and "حاکم: ⁨" in body and "زمین: " in body
    assert "امتیاز این دور: " in body and "(از ⁨۱۶۵⁩)" in body
    assert "شلم" in spec.embed.title
    hand_lines = [line for line in body.splitlines() if HAND_LINE.match(line)]
    assert len(hand_lines) == 4 and all(": \u2066" in line for line in hand_lines)
    last = replay_message("fa", replay, VIEWER, 0, len(told.tricks))
    assert last.embed is not None and "دور ⁨۱⁩" in last.embed.description
    assert "فقط شما" in last.embed.footer
