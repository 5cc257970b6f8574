"""English and Persian: a signed number and a score pair,
the target a table's footer names (in the singular for 1), a solo table's seats, and the
bidding as the table and a waiting seat's hand message say it (edited on every bid)."""

from __future__ import annotations

import pytest

from bot.present import render
from bot.present.i18n import LANGUAGES, number, score_pair, signed, t
from bot.service.games import SHELEM_FAMILY, family_of
from bot.service.table import Seat, Table, TableSettings
from engine import BID, Match, Rules
from engine.shelem import ShelemMatch

NAMES = ("amir", "bahar", "cyrus", "dara", "elham", "farid")
LRI, RLI, FSI, PDI, MINUS = "\u2066", "\u2067", "\u2068", "\u2069", "\u2212"


def table_of(game_format: str, lang: str = "en", seated: int = 99, **settings: object) -> Table:
    table = Table(
        table_id="0123456789ab",
        guild_id=1,
        channel_id=2,
        host_id=10,
        settings=TableSettings(game_format=game_format, language=lang, **settings),  # type: ignore[arg-type]
        created_at=0.0,
    )
    for i in range(min(seated, len(table.seats))):
        table.seats[i] = Seat(name=NAMES[i], user_id=10 + i)
    return table


def playing(table: Table) -> Table:
    if family_of(table) is SHELEM_FAMILY:
        table.match = ShelemMatch(3, table.settings.shelem_options())
    else:
        table.match = Match(5, Rules(target_score=table.settings.target_score), table.fmt)
    table.status, table.deadline = "playing", 1_000_000.0
    return table


# ---------------------------------------------------------------------- item 5


def test_a_negative_number_has_a_minus_sign_kept_with_its_digits() -> None:
    assert [number("en", v) for v in (35, 0, -35)] == ["35", "0", f"{MINUS}35"]
    assert [number("fa", v) for v in (35, 0, -35)] == ["۳۵", "۰", f"{LRI}{MINUS}۳۵{PDI}"]
    assert [signed("en", v) for v in (35, 0, -120)] == ["+35", "+0", f"{MINUS}120"]
    assert signed("fa", -120) == f"{LRI}{MINUS}۱۲۰{PDI}" and signed("fa", 5) == f"{LRI}+۵{PDI}"
    # a pair with a negative number is spaced from its dash; without one, as before
    assert score_pair("en", [7, 5]) == "7–5" and score_pair("en", [7, 5, 3]) == "7–5–3"
    assert score_pair("en", [215, -35]) == f"215 – {MINUS}35"
    assert score_pair("fa", [215, -35]) == f"{RLI}۲۱۵ بر {LRI}{MINUS}۳۵{PDI}{PDI}"
    # an int filled into a sentence is written the same way
    assert t("en", "table.team_count", team="amir", count=-35) == f"amir: {MINUS}35"
    assert f"{LRI}{MINUS}۳۵{PDI}" in t("fa", "table.team_count", team="amir", count=-35)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_shelem_score_below_zero_on_the_table_and_in_the_hand(lang: str) -> None:
    table = playing(table_of("shelem", lang))
    match = table.match
    assert isinstance(match, ShelemMatch)
    match.scores[:] = [215, -35]
    text = render.table_message(table).all_text() + render.hand_message(table, 0).content
    assert "-3" not in text and "-۳" not in text
    assert number(lang, -35) in text


# ---------------------------------------------------------------------- item 4


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_footer_names_the_target_the_match_plays_to(lang: str) -> None:
    one = render.table_message(table_of("standard", lang, seated=1, target_score=1))
    joker = render.table_message(table_of("joker_six", lang, seated=1, target_score=1))
    seven = render.table_message(table_of("standard", lang, seated=1, target_score=7))
    footers = [m.embed.footer if m.embed else "" for m in (one, joker, seven)]
    if lang == "en":
        assert footers[0] == "First to 1 point · 20s a turn"
        assert footers[1].endswith("First to 124 points · 20s a turn")
        assert footers[2] == "First to 7 points · 20s a turn"
    else:
        assert footers[0] == "تا ۱ امتیاز · هر نوبت ۲۰ ثانیه"
        assert footers[1].endswith("تا ۱۲۴ امتیاز · هر نوبت ۲۰ ثانیه")
    started = render.table_message(playing(table_of("joker_six", lang, target_score=1)))
    assert started.embed is not None and started.embed.footer == footers[1]
    assert number(lang, 124) in started.embed.description  # "Score — … (to 124)"


# ---------------------------------------------------------------------- item 6


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game_format", ["three", "two"])
def test_a_solo_table_lists_seats_and_players(lang: str, game_format: str) -> None:
    table = table_of(game_format, lang, seated=1)
    seats = [t(lang, "table.seat", n=number(lang, i + 1)) for i in range(len(table.seats))]
    team = t(lang, "table.team", n=number(lang, 2))
    lobby = render.table_message(table)
    assert lobby.embed is not None
    assert [name for name, _, _ in lobby.embed.fields] == seats
    assert [value for _, value, _ in lobby.embed.fields] == [
        "<@10>",
        *[t(lang, "table.empty_seat")] * (len(seats) - 1),
    ]
    assert team not in lobby.all_text()
    for i in range(1, len(table.seats)):
        table.seats[i] = Seat(name=NAMES[i], user_id=10 + i)
    message = render.table_message(playing(table))
    assert message.embed is not None
    assert [name for name, _, _ in message.embed.fields] == seats
    assert all(f"<@{10 + i}>" in v for i, (_, v, _) in enumerate(message.embed.fields))
    # teams stay teams: "Team 1" until a team's seats are all taken
    standard = render.table_message(table_of("standard", lang, seated=1))
    assert standard.embed is not None
    assert standard.embed.fields[0][0] == t(lang, "table.team", n=number(lang, 1))


# ---------------------------------------------------------------------- item 7


def _bid_lines(table: Table, lang: str, to_act: int, bid: str, by: int) -> list[str]:
    who = t(lang, "bid.waiting", name=NAMES[to_act])
    if by < 0:
        return [who, t(lang, "bid.none")]
    return [who, t(lang, "shelem.auction_high", bid=bid, name=NAMES[by])]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_joker_six_bidding_on_the_table_and_in_a_waiting_dm(lang: str) -> None:
    table = playing(table_of("joker_six", lang))
    match = table.match
    assert isinstance(match, Match) and match.phase == BID
    first = match.to_act
    waiting = (first + 3) % 6
    dm_before = render.hand_signature(table, waiting)
    text = render.hand_message(table, waiting, live=False).content
    assert all(line in text for line in _bid_lines(table, lang, first, "", -1))
    assert t(lang, "dm.see_table", channel="<#2>") not in text
    match.bid(first, 6)
    second = match.to_act
    assert render.hand_signature(table, waiting) != dm_before  # the DM is edited on a bid
    expected = _bid_lines(table, lang, second, number(lang, 6), first)
    text = render.hand_message(table, waiting, live=False).content
    assert all(line in text for line in expected), text
    board = render.table_message(table)
    assert board.embed is not None
    turn = t(lang, "table.turn_bid", name=NAMES[second], when="").split(" — ")[0]
    turn = turn.split(" · ")[0]  # in Persian the countdown after a label
    assert turn in board.embed.description and expected[1] in board.embed.description


@pytest.mark.parametrize("lang", LANGUAGES)
def test_shelem_bidding_on_the_table_and_in_a_waiting_dm(lang: str) -> None:
    table = playing(table_of("shelem", lang))
    match = table.match
    assert isinstance(match, ShelemMatch)
    first = match.to_act
    waiting = (first + 2) % 4
    dm_before = render.hand_signature(table, waiting)
    text = render.hand_message(table, waiting, live=False).content
    assert all(line in text for line in _bid_lines(table, lang, first, "", -1)), text
    match.bid(first, 110)
    second = match.to_act
    assert render.hand_signature(table, waiting) != dm_before
    expected = _bid_lines(table, lang, second, number(lang, 110), first)
    text = render.hand_message(table, waiting, live=False).content
    assert all(line in text for line in expected), text
    assert t(lang, "dm.see_table", channel="<#2>") not in text
    board = render.table_message(table)
    assert board.embed is not None and expected[1] in board.embed.description
