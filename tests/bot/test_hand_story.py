"""The table message lists this hand's tricks with
who played each card (R7 play order, R9 winner), the previous hand in one line (R10–R11), and
names teams by their players, in English and Persian, within Discord's embed limits."""

from __future__ import annotations

import dataclasses

import pytest

from bot.discord.reports import ChannelReports
from bot.present import render
from bot.present.budget import DESCRIPTION as EMBED_DESCRIPTION
from bot.present.i18n import t
from bot.present.tricks import hand_result_line, trick_line, trick_lines
from bot.service.events import HandEnded, MatchOver, TrickTaken
from bot.service.history import log_line
from bot.service.table import LogLine, Seat, Table
from engine import CARDS, TRUMP, GreedyPlayer, HandResult, Match, Suit, Trick, seat_view

from .helpers import lobby_table

NAMES = ("amir", "bahar", "cyrus", "dara")


def playing_table(lang: str = "en", names: tuple[str, ...] = NAMES, seed: int = 3) -> Table:
    table = lobby_table()
    table.settings = dataclasses.replace(table.settings, language=lang)
    table.seats = [Seat(name=n, user_id=10 + i) for i, n in enumerate(names)]
    table.match = Match(seed)
    table.status = "playing"
    return table


def play_until(table: Table, done: object) -> None:
    """Greedy moves for every seat until ``done(match)``."""
    match = table.match
    assert match is not None
    player = GreedyPlayer()
    while not done(match):  # type: ignore[operator]
        view = seat_view(match, match.to_act)
        if match.phase == TRUMP:
            match.choose_trump(match.to_act, player.choose_trump(view))
        else:
            match.play(match.to_act, player.choose_card(view))


def description(table: Table) -> str:
    embed = render.table_message(table).embed
    assert embed is not None
    return embed.description


def test_r7_r9_a_trick_line_names_every_card_with_its_player_from_the_leader() -> None:
    table = playing_table()
    c = {card.code: card for card in CARDS}
    trick = Trick(4, 1, (c["6S"], c["KS"], c["7S"], c["9H"]), 2)  # bahar leads, cyrus wins
    assert trick_line(table, "en", trick) == "4 · bahar 6♠ · cyrus K♠ · dara 7♠ · amir 9♥ → cyrus"
    fa = trick_line(table, "fa", trick)
    assert "۴" in fa and "4" not in fa.replace("♠", "")
    # each play right to left (its name first), its card left to right
    assert "\u2067\u2068bahar\u2069 \u20666♠\u2069\u2069" in fa
    assert fa.endswith("← \u2068cyrus\u2069")


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_hand_2_lists_only_its_own_tricks_and_hand_1_in_one_line(lang: str) -> None:
    table = playing_table(lang)
    play_until(table, lambda m: m.hand_number == 2 and len(m.tricks) == 3)
    match = table.match
    assert match is not None
    lines = description(table).splitlines()
    result = hand_result_line(table, lang, match.hand_results[0])
    assert result in lines
    shown = [trick_line(table, lang, tr) for tr in match.tricks]
    at = lines.index(result)
    assert lines[at + 1 : at + 4] == shown  # this hand's tricks 1-3, in order, after hand 1
    # nothing of hand 1's tricks: every trick line is one of this hand's
    arrow = "→" if lang == "en" else "←"
    assert [line for line in lines if f" {arrow} " in line] == shown


def test_r10_the_previous_hand_reads_by_team_names_winners_tricks_first() -> None:
    table = playing_table()
    result = HandResult(1, 0, Suit.HEARTS, (4, 7), 1, 1, "win", (0, 1))
    assert hand_result_line(table, "en", result) == (
        "bahar & dara take hand 1 (7–4): +1 · amir & cyrus 0 — bahar & dara 1"
    )
    kot = HandResult(2, 0, Suit.HEARTS, (7, 0), 0, 2, "kot", (2, 1))
    assert hand_result_line(table, "en", kot) == (
        "Kot! amir & cyrus take hand 2 seven–nil: +2 · amir & cyrus 2 — bahar & dara 1"
    )
    hakem_kot = HandResult(3, 0, Suit.HEARTS, (0, 7), 1, 3, "hakem_kot", (2, 4))
    assert hand_result_line(table, "en", hakem_kot).startswith(
        "Hakem-kot! The defenders, bahar & dara, take hand 3 seven–nil: +3"
    )
    fa = hand_result_line(table, "fa", result)
    assert "دور" in fa and "بردند" in fa and "تیم" not in fa
    assert "\u2068bahar\u2069 و \u2068dara\u2069" in fa and "۷ بر ۴" in fa


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_channel_reports_name_teams_by_their_players(lang: str) -> None:
    table = playing_table(lang)
    reports = ChannelReports(bot=None)  # type: ignore[arg-type]  # recording needs no client
    result = HandResult(1, 0, Suit.HEARTS, (4, 7), 1, 1, "win", (0, 1))
    reports.record(table, lang, HandEnded(result))
    reports.record(table, lang, MatchOver(1, (3, 7)))  # the summary says it (item 7)
    lines = reports._reports[table.channel_id]
    assert lines == [hand_result_line(table, lang, result)]
    assert all("team 2" not in line.lower() and "تیم ۲" not in line for line in lines)


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_team_fields_and_counts_name_the_players(lang: str) -> None:
    table = playing_table(lang)
    embed = render.table_message(table).embed
    assert embed is not None
    headings = [name for name, _, _ in embed.fields]
    if lang == "en":
        assert headings == ["amir & cyrus", "bahar & dara"]
        assert "Tricks — amir & cyrus: 0 · bahar & dara: 0" in embed.description
        assert "Score — amir & cyrus: 0 · bahar & dara: 0 (to 7)" in embed.description
    else:
        assert headings == [
            "\u2068amir\u2069 و \u2068cyrus\u2069",
            "\u2068bahar\u2069 و \u2068dara\u2069",
        ]
    # in the lobby, with a seat of a team still empty, the team keeps its number
    lobby = lobby_table()
    lobby.seats[0] = Seat(name="amir", user_id=10)
    lobby_embed = render.table_message(lobby).embed
    assert lobby_embed is not None
    assert [name for name, _, _ in lobby_embed.fields] == ["Team 1", "Team 2"]


def thirteen_tricks(table: Table) -> None:
    """A finished 7–6 hand: all 52 cards in 13 tricks (what a finished table shows)."""
    match = table.match
    assert match is not None
    cards = list(CARDS)
    match.tricks[:] = [
        Trick(n + 1, n % 4, tuple(cards[4 * n : 4 * n + 4]), (n + 1) % 4) for n in range(13)
    ]


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_13_tricks_with_32_character_names_show_in_full_within_the_embed_limit(lang: str) -> None:
    names = tuple(f"{n}_" + "x" * (31 - len(n)) for n in NAMES)  # 32 characters, one escape
    table = playing_table(lang, names)
    thirteen_tricks(table)
    text = description(table)
    assert len(text) <= EMBED_DESCRIPTION
    match = table.match
    assert match is not None
    for trick in match.tricks:  # all 13, full names
        assert trick_line(table, lang, trick) in text.splitlines()


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_names_that_escape_to_double_length_still_fit_with_shortened_names(lang: str) -> None:
    names = tuple("_*" * 16 for _ in NAMES)  # 32 characters, 64 once escaped
    table = playing_table(lang, names)
    table.log = [LogLine.of("report.replaced", name="_*" * 16)] * 6
    thirteen_tricks(table)
    text = description(table)
    assert len(text) <= EMBED_DESCRIPTION
    arrow = "→" if lang == "en" else "←"
    tricks = [line for line in text.splitlines() if f" {arrow} " in line]
    assert len(tricks) == 13, "all 13 tricks, with shortened names"
    match = table.match
    assert match is not None
    assert len("\n".join(trick_line(table, lang, tr) for tr in match.tricks)) > EMBED_DESCRIPTION
    assert trick_line(table, lang, match.tricks[0]) not in text  # the full names did not fit
    assert all(r"\_\*\_\*\_" in line for line in tricks)  # shortened, still escaped
    assert not any("_*" in line.replace("\\_", "").replace("\\*", "") for line in tricks)


def test_a_trick_leaves_no_log_line_and_an_old_saved_trick_line_is_skipped() -> None:
    table = playing_table()
    play_until(table, lambda m: len(m.tricks) == 1)
    match = table.match
    assert match is not None
    assert log_line(table, TrickTaken(match.tricks[0], 1)) is None
    old = Table.from_dict(
        {
            **table.to_dict(),
            "log": [
                {"key": "report.trick", "params": {"n": 9, "cards": "A♠", "name": "x"}},
                {"key": "report.back", "params": {"name": "amir"}},
                "an old line, already in English",
            ],
        }
    )
    text = description(old)
    assert "Trick 9" not in text and "A♠ → **x**" not in text
    assert "amir is back at the table." in text and "an old line, already in English" in text


def test_when_even_short_names_do_not_fit_the_oldest_tricks_give_way() -> None:
    table = playing_table()
    thirteen_tricks(table)
    lines = trick_lines(table, "en", budget=300)
    assert len("\n".join(lines)) <= 300
    assert lines[0].startswith("… ") and lines[0].endswith(" earlier tricks")
    assert lines[-1].startswith("13 · ")  # the newest trick always stays
    assert trick_lines(table, "en", budget=0) == [t("en", "table.tricks_earlier", count="13")]
