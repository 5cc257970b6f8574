"""V6 Shelem as the players see it, in English and Persian: the table message in each
stage of a hand, each seat's hand message (the bid buttons, the hakem's kitty and his cards to
lay down, the modes, the cards to play), a hand's result of every kind and the match summary.

The kitty and the laid-down cards (V6.6.4) are the hakem's alone: they appear in his hand
message and in no other seat's, nor on the table message, nor in any result."""

from __future__ import annotations

import dataclasses
import re

import pytest

from bot.present import custom_ids, render, shelem
from bot.present.i18n import LANGUAGES
from bot.present.summary import match_summary
from bot.service.table import Seat, Table, TableSettings
from engine.shelem import (
    BID,
    DISCARD,
    MODE,
    PASSED_DEALS_MAX,
    PLAY,
    SAR_SHELEM,
    SHELEM,
    GreedyShelemPlayer,
    ShelemHandResult,
    ShelemMatch,
    act,
)

TID = "0123456789ab"
NAMES = ("amir", "bahar", "cyrus", "dara")
LATIN = re.compile(r"[A-Za-z]{3,}")
"""A Latin word in a Persian line: allowed only for names, the channel and ids."""


def shelem_table(lang: str = "en", **settings: object) -> Table:
    table = Table(
        table_id=TID,
        guild_id=1,
        channel_id=2,
        host_id=10,
        settings=TableSettings(game_format="shelem", language=lang, **settings),  # type: ignore[arg-type]
        created_at=0.0,
    )
    for i, name in enumerate(NAMES):
        table.seats[i] = Seat(name=name, user_id=10 + i)
    table.status = "playing"
    table.match = ShelemMatch(3, table.settings.shelem_options())
    table.deadline = 1_000_000.0
    return table


def match_of(table: Table) -> ShelemMatch:
    assert isinstance(table.match, ShelemMatch)
    return table.match


def to_discard(table: Table, bid: int = 105) -> ShelemMatch:
    """The first to speak bids ``bid``, the rest pass: he lays down."""
    match = match_of(table)
    match.bid(match.to_act, bid)
    while match.phase == BID:
        match.bid(match.to_act, 0)
    return match


def persian_only(text: str) -> list[str]:
    """Latin words in a Persian message other than the players' names and ids."""
    words = LATIN.findall(re.sub(r"<[^>]*>|hokm:\S+", "", text))
    return [w for w in words if w not in NAMES]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_v6_3_the_auction_on_the_table_and_the_bid_buttons(lang: str) -> None:
    table = shelem_table(lang)
    match = match_of(table)
    first = match.to_act
    match.bid(first, 110)
    message = render.table_message(table)
    assert message.embed is not None
    assert message.embed.title == ("Shelem table" if lang == "en" else "میز شلم")
    text = message.embed.description
    seat = match.to_act
    spec = render.hand_message(table, seat)
    ids = [b.custom_id for row in spec.rows for b in row]
    # every bid above 110, Shelem, then Pass: this deal's ids, four rows
    bids = [custom_ids.parse(i).value for i in ids]
    assert bids == [*range(115, 166, 5), SHELEM, 0]
    assert all(custom_ids.parse(i).hand == match.deal_number for i in ids)
    assert len(spec.rows) == 3 and all(len(row) <= 5 for row in spec.rows)
    others = render.hand_message(table, (seat + 1) % 4)
    assert others.rows == ()  # no buttons out of turn, and no card can be played yet
    if lang == "en":
        assert (
            f"Bidding: {NAMES[first]} 110" in text
            and f"Highest bid: **110** by {NAMES[first]}" in text
        )
        assert f"▶ {NAMES[seat]} to bid" in text and "Shelem" in message.embed.footer
        assert "(at least 115)" in spec.content and "Your cards: " in spec.content
        assert [b.label for b in spec.rows[-1]][-2:] == ["Shelem", "Pass"]
        assert f"Waiting for {NAMES[seat]} to bid" in others.content
    else:
        assert "خواندن: " in text and "۱۱۰" in text and "شلم" in message.embed.footer
        assert "دست‌کم ⁨۱۱۵⁩" in spec.content and [b.label for b in spec.rows[-1]][-2:] == [
            "شلم",
            "پاس",
        ]
        assert persian_only(text + spec.content + others.content) == []
    # every seat's hand is its own: its cards in its own message only
    for s in range(4):
        mine = render.hand_message(table, s).content
        assert all(c.label in mine for c in match.hand_of(s))
        assert not any(c.label in text for c in match.hand_of(s))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_v6_4_1_the_dealer_who_must_open_is_offered_no_pass_and_told_why(lang: str) -> None:
    table = shelem_table(lang)
    match = match_of(table)
    for _ in range(PASSED_DEALS_MAX):  # three deals passed out
        for _ in range(3):
            match.bid(match.to_act, 0)
    dealer = match.dealer
    final = render.table_message(table)
    assert final.embed is not None
    waiting = render.hand_message(table, dealer).content
    for _ in range(3):  # the first three pass the final deal too
        match.bid(match.to_act, 0)
    assert match.to_act == dealer and match.must_open
    spec = render.hand_message(table, dealer)
    values = [custom_ids.parse(b.custom_id).value for row in spec.rows for b in row]
    assert values == [*range(100, 166, 5), SHELEM]  # no Pass
    pass_label = "Pass" if lang == "en" else "پاس"
    assert pass_label not in [b.label for row in spec.rows for b in row]
    others = render.hand_message(table, (dealer + 1) % 4).content
    if lang == "en":
        notice = "3 deals of this hand were passed: this one is the last. If the first three "
        notice += f"pass, {NAMES[dealer]}, the dealer, must open."
        assert notice in final.embed.description and notice in waiting
        assert "as the dealer you must open, so there is no Pass" in spec.content
        assert "at least 100" in spec.content
    else:
        assert "آخرین پخش است" in final.embed.description and "آخرین پخش است" in waiting
        assert "باید بخوانید، پس پاس نیست" in spec.content and "۱۰۰" in spec.content
        assert persian_only(final.embed.description + waiting + spec.content + others) == []
    # once he is asked, his own line (why there is no Pass) replaces the notice
    assert ("is the last" if lang == "en" else "آخرین پخش") not in spec.content


@pytest.mark.parametrize("lang", LANGUAGES)
def test_v6_5_after_a_shelem_an_opponent_sees_sar_shelem_or_pass(lang: str) -> None:
    table = shelem_table(lang)
    match = match_of(table)
    match.bid(match.to_act, SHELEM)
    spec = render.hand_message(table, match.to_act)
    values = [custom_ids.parse(b.custom_id).value for row in spec.rows for b in row]
    assert values == [SAR_SHELEM, 0]
    assert ("Sar-shelem" if lang == "en" else "سرشلم") in spec.content


@pytest.mark.parametrize("lang", LANGUAGES)
def test_v6_6_the_kitty_and_the_cards_laid_down_are_the_hakems_alone(lang: str) -> None:
    table = shelem_table(lang)
    match = to_discard(table)
    hakem = match.hakem
    kitty = match.kitty_of(hakem)
    held = match.hand_of(hakem)
    assert match.phase == DISCARD and len(held) == 16
    mine = render.hand_message(table, hakem)
    assert all(c.label in mine.content.split("\n")[1] for c in kitty)  # the kitty, named
    toggles = [b for row in mine.rows[:-1] for b in row]
    assert sorted(custom_ids.parse(b.custom_id).card for b in toggles) == sorted(held)
    (confirm,) = mine.rows[-1]
    assert confirm.disabled and custom_ids.parse(confirm.custom_id).chosen == ()
    # two chosen so far: red, and carried by every button; Lay down still off
    chosen = held[:2]
    two = render.hand_message(table, hakem, chosen=chosen)
    red = [b for row in two.rows[:-1] for b in row if b.style == "danger"]
    assert sorted(b.label for b in red) == sorted(c.label for c in chosen)
    assert all(custom_ids.parse(b.custom_id).chosen == chosen for row in two.rows[:-1] for b in row)
    assert two.rows[-1][0].disabled
    four = render.hand_message(table, hakem, chosen=held[:4])
    assert not four.rows[-1][0].disabled
    assert custom_ids.parse(four.rows[-1][0].custom_id).chosen == held[:4]
    # nobody else sees the kitty: not the other seats, not the table
    public = render.table_message(table).all_text()
    for seat in range(4):
        if seat == hakem:
            continue
        other = render.hand_message(table, seat)
        assert other.rows == ()
        shown = other.all_text() + public
        assert not any(c.label in shown for c in kitty if c not in match.hand_of(seat))
    if lang == "en":
        assert f"{NAMES[hakem]} is laying down 4 cards" in public
        assert two.rows[-1][0].label == "Lay down (2/4)"
    # laid down: his own message names them and their points; nobody else's
    match.discard(hakem, held[:4])
    down = [c.label for c in held[:4]]
    own = render.hand_message(table, hakem).content
    assert all(label in own for label in down)
    points = match.hand_points()[hakem % 2]
    assert (str(points) if lang == "en" else "") in own
    while match.phase != PLAY:
        act(match, GreedyShelemPlayer())
    for _ in range(8):
        act(match, GreedyShelemPlayer())
    # the laid-down cards are out of play: no other seat, and not the table, ever shows one
    texts = [render.table_message(table).all_text()]
    texts += [render.hand_message(table, s).all_text() for s in range(4) if s != hakem]
    assert not any(label in text for text in texts for label in down)
    assert all(label in render.hand_message(table, hakem).content for label in down)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_v6_7_the_hakem_announces_the_mode_with_buttons(lang: str) -> None:
    table = shelem_table(lang, shelem_modes="nars+ace_nars")
    match = to_discard(table)
    hakem = match.hakem
    match.discard(hakem, match.hand_of(hakem)[:4])
    assert match.phase == MODE
    spec = render.hand_message(table, hakem)
    (row,) = spec.rows
    assert [custom_ids.parse(b.custom_id).mode for b in row] == ["hokm", "nars", "ace_nars"]
    assert [b.label for b in row] == (
        ["Hokm", "Nars", "Ace-nars"] if lang == "en" else ["حکم", "نرس", "آس نرس"]
    )
    match.choose_mode(hakem, "nars")
    text = render.table_message(table).all_text()
    assert ("Nars" if lang == "en" else "نرس") in text
    assert ("No trump (Nars)" if lang == "en" else "بی‌حکم") in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_v6_8_the_play_table_and_hand(lang: str) -> None:
    table = shelem_table(lang)
    match = to_discard(table)
    hakem = match.hakem
    match.discard(hakem, match.hand_of(hakem)[:4])
    assert match.phase == PLAY and match.trump is None
    first = render.hand_message(table, hakem)
    assert (
        "Your first card names trump" if lang == "en" else "اولین کارت شما حکم"
    ) in first.content
    legal = {b.label for row in first.rows for b in row if b.style == "success"}
    assert legal == {c.label for c in match.legal_cards(hakem)}
    text = render.table_message(table).all_text()
    assert ("named by" if lang == "en" else "با اولین کارت") in text
    for _ in range(5):
        act(match, GreedyShelemPlayer())
    assert match.trump is not None
    text = render.table_message(table).all_text()
    if lang == "en":
        assert f"Trump: {match.trump.symbol}" in text and "Points this hand: " in text
        assert "(of 165)" in text and "1 · " in text  # the first trick, card by card
    else:
        assert "امتیاز این دور" in text and persian_only(text) == []


def result(kind: str, **changes: object) -> ShelemHandResult:
    base = ShelemHandResult(
        number=2,
        hakem=1,
        bid=120,
        mode="hokm",
        trump=None,
        tricks=(3, 9),
        points=(40, 125),
        kind="made",  # type: ignore[arg-type]
        changes=(40, 120),
        withheld=(0, 0),
        scores_after=(100, 300),
    )
    return base._replace(kind=kind, **changes)  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(
    ("kind", "english"),
    [
        ("made", "bahar & dara make their bid of 120 in hand 2 (125–40 points): +120"),
        ("all_tricks", "bahar & dara take every trick of hand 2 on a bid of 120"),
        ("set", "bahar & dara fall short of their bid of 120 in hand 2 (125–40 points): −120"),
        ("double_set", "take fewer points than the others (125–40 points): twice the bid, −120"),
        ("shelem", "Shelem! bahar & dara take every trick of hand 2: +120"),
        ("shelem_set", "The shelem fails in hand 2 (125–40 points): bahar & dara −120"),
        ("sar_shelem", "Sar-shelem! bahar & dara take every trick of hand 2"),
        ("sar_shelem_set", "The sar-shelem fails in hand 2"),
    ],
)
def test_v6_10_every_kind_of_hand_result(lang: str, kind: str, english: str) -> None:
    table = shelem_table(lang)
    sign = -1 if kind.endswith("set") else 1
    line = shelem.hand_result_line(table, lang, result(kind, changes=(40, sign * 120)))
    if lang == "en":
        assert english in line and line.endswith("amir & cyrus 100 — bahar & dara 300")
    else:
        assert "۱۲۰" in line and persian_only(line) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_v6_12_points_withheld_near_the_target_are_said(lang: str) -> None:
    table = shelem_table(lang)
    line = shelem.hand_result_line(table, lang, result("made", withheld=(40, 0), changes=(0, 120)))
    assert (
        "amir & cyrus, near the target, score nothing for their 40"
        if lang == "en"
        else "نزدیک پایان"
    ) in line


@pytest.mark.parametrize("lang", LANGUAGES)
def test_v6_the_summary_of_a_finished_match(lang: str) -> None:
    table = shelem_table(lang, shelem_target=200)
    match = match_of(table)
    player = GreedyShelemPlayer()
    for _ in range(5000):
        if match.is_over:
            break
        if match.phase == BID and not match.auction:
            match.bid(match.to_act, 100)  # someone always bids: no endless redeals
        else:
            act(match, player)
    assert match.is_over and match.winner_team is not None
    table.status, table.finished_at, table.started_at = "finished", 600.0, 0.0
    spec = match_summary(table)
    assert spec.embed is not None
    text = spec.embed.description
    assert len(text.splitlines()) >= len(match.hand_results) + 2
    lines = text.splitlines()
    for i, r in enumerate(match.hand_results):  # each hand: its number, hakem and bid
        assert NAMES[r.hakem] in lines[i] and shelem.bid_label(lang, r.bid) in lines[i]
    if lang == "en":
        assert spec.embed.title.startswith("🏆 ") and "win the match" in spec.embed.title
        assert f"{len(match.hand_results)} hands" in text
        hands = lines[: len(match.hand_results)]
        assert all(("bid made" in line) != ("bid failed" in line) for line in hands)
    else:
        assert "بازی را" in spec.embed.title and persian_only(text) == []
    assert spec.rows[0][0].custom_id == custom_ids.rematch_id(TID)


def test_v6_settings_show_the_shelem_options() -> None:
    values = {"shelem_joker": True, "shelem_modes": "nars+sars", "shelem_target": 500}
    en = render.settings_message("en", values, changed=False).all_text()
    assert "two jokers" in en and "Nars, Sars" in en and "500" in en
    fa = render.settings_message("fa", values, changed=False).all_text()
    assert "نرس، سرس" in fa and "۵۰۰" in fa


def test_v6_13_a_joker_table_says_so_and_lays_down_six() -> None:
    table = shelem_table("en", shelem_joker=True)
    match = to_discard(table, 120)
    assert "two jokers" in render.table_message(table).embed.footer  # type: ignore[union-attr]
    spec = render.hand_message(table, match.hakem)
    assert sum(len(row) for row in spec.rows[:-1]) == 18 and "(0/6)" in spec.rows[-1][0].label
    jokers = [c for c in match.hand_of(match.hakem) if c.is_joker]
    labels = {b.label for row in spec.rows for b in row}
    assert all(j.label in labels for j in jokers)


def test_v6_signatures_follow_the_turn_and_the_stage() -> None:
    table = shelem_table()
    match = match_of(table)
    seat = match.to_act
    dm, live = render.hand_signatures(table, seat)
    assert dm is not None and live is not None and dm[5] is True  # the publisher reads [5]
    match.bid(seat, 100)
    after, _ = render.hand_signatures(table, seat)
    assert after is not None and after[5] is False and after != dm
    watcher = (seat + 2) % 4
    _, live_w = render.hand_signatures(table, watcher)
    match.bid(match.to_act, 0)
    _, live_again_w = render.hand_signatures(table, watcher)
    assert live_w != live_again_w  # a live view shows every bid


def test_v6_a_rematchs_copied_settings_keep_the_shelem_options() -> None:
    table = shelem_table()
    copy = dataclasses.replace(table.settings)
    assert copy.shelem_options() == table.settings.shelem_options()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_v6_a_closed_hand_message_is_shelems(lang: str) -> None:
    table = shelem_table(lang)
    text = render.closed_hand_message(table, 1).content
    assert text.startswith("**Shelem in <#2>" if lang == "en" else "**شلم در")
