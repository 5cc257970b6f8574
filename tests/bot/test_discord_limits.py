"""Every message the presenter makes fits Discord's limits, at every step of
whole matches of every format (Hokm's ``engine.rules.FORMATS`` and Shelem), in English and
Persian, under the worst names a member can choose: 32 characters that are all escaped (so
shown twice as long), right-to-left text with direction controls, names wearing the bot's
marks, and computers beside them.

The engine's greedy players play the matches (short targets keep it fast); at each decision
the table message, every seat's hand message (kept current or not, DM or ephemeral, a Shelem
hakem's chosen cards), the closed hand message and the hand's result line are rendered for
every seat; at the end the summary, ``/hokm history`` and every frame of the Replay; beside
them the standings, a member's record, the settings, the rules, the hints and the refusals.
"""

from __future__ import annotations

import dataclasses
import string
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from itertools import product

import pytest

from bot.names import NAME_LIMIT, seat_name, shown_name
from bot.present import render
from bot.present.catalog import CATALOG
from bot.present.hints import hint_message
from bot.present.history import history_message, replay_message
from bot.present.rules_text import rules_text
from bot.present.shelem import hand_result_line as shelem_result_line
from bot.present.standings import MemberSkill, member_message, standings_message
from bot.present.summary import match_summary
from bot.present.tricks import hand_result_line
from bot.service.games import SHELEM_FAMILY, family_of
from bot.service.history import finished_match
from bot.service.match_history import MatchReplay
from bot.service.table import LogLine, Seat, Table, TableSettings
from bot.store import HistoryEntry, HistoryPage, MemberRating, PlayerRecord, StandingsPage
from engine import Card, GameFormat, GreedyPlayer, Match, Suit, seat_view
from engine.hints import REASONS, Hint
from engine.match import BAM, BID, DISCARD, DRAW, TRUMP
from engine.rules import FORMATS, JOKER_SIX, SHELEM_FORMAT, hokm_format, hokm_formats
from engine.shelem import ShelemMatch
from engine.shelem.players import GreedyShelemPlayer
from engine.shelem.players import act as shelem_act
from engine.shelem.story import story as shelem_story
from engine.story import story
from tests.formats import joker_short

from .discord_limits import assert_fits_discord, assert_text_fits

WIDE = "*_~`|\\<@" * 4
"""32 characters, every one shown as two (escaped, or followed by a zero-width space)."""
NAMES = (
    WIDE,
    WIDE[1:] + WIDE[0],
    "#" + "_" * 31,
    "\u202e" + "ب*" * 15 + "\u2067x",  # right to left, an override and an isolate left open
    ("👑 " + "\\" * 30),
    "[x](https://a.b)" + "|" * 16,
)
"""Members' names: each shows at least 60 characters; the Persian one carries direction
controls; one wears the hakem's crown."""
COMPUTER = "🤖 Gordafarid"
CHANNEL, GUILD, USER = 123456789012345678, 223456789012345678, 323456789012345678
DEADLINE = 1_900_000_000.0
SHELEMS = {
    "shelem": {"shelem_modes": "nars+ace_nars+sars"},
    "shelem_joker": {"shelem_joker": True},
}
GAMES = (*sorted(hokm_formats()), *SHELEMS)
LANGS = ("en", "fa")


def seated(seats: int, lang: str) -> list[Seat | None]:
    """The Persian table: every seat a member with a name of 32 escaped characters (2,013
    characters before the budget); the English one: ``NAMES``, a computer at seat 1 and a member the
    computer plays for at seat 2."""
    out: list[Seat | None] = []
    for i in range(seats):
        if lang == "en" and i == 1:
            out.append(Seat(COMPUTER, difficulty="easy"))
            continue
        name = WIDE[i:] + WIDE[:i] if lang == "fa" else NAMES[i % len(NAMES)]
        seat = Seat(name, user_id=USER + i)
        seat.autoplay = lang == "en" and i == 2
        out.append(seat)
    return out


def closed(table: Table) -> frozenset[int]:
    """Every member's DMs are closed: each gets the line telling them to use My hand."""
    return frozenset(i for i, s in enumerate(table.seats) if s is not None and s.user_id)


def table_of(game: str, lang: str, fmt: GameFormat | None = None) -> Table:
    shelem = game in SHELEMS
    settings = TableSettings(
        language=lang,
        game_format=SHELEM_FORMAT if shelem else (fmt.name if fmt else game),
        target_score=2,
        hints=True,
        bam=True,
        redeal_without_court=True,
        shelem_target=200,
        **SHELEMS.get(game, {}),  # type: ignore[arg-type]
    )
    table = Table("0123456789ab", GUILD, CHANNEL, USER, settings, DEADLINE - 3600)
    table.seats = seated(table.fmt.seats, lang)
    table.deadline = DEADLINE
    return table


def worst_log(table: Table) -> list[LogLine | str]:
    """Six public lines under the table message, each naming a seat."""
    keys = ("report.trump_named", "report.timeout_decision", "report.redealt")
    return [
        LogLine.of(keys[i % 3], name=seat_name(table, i % table.fmt.seats), suit=i % 4)
        for i in range(6)
    ]


def check_table(table: Table) -> None:
    """Every message a live table shows, for every seat."""
    assert_fits_discord(render.table_message(table, closed(table)))
    match = table.match
    if match is None:
        return
    for seat in range(table.fmt.seats):
        chosen: tuple[Card, ...] = ()
        if isinstance(match, ShelemMatch) and match.phase == DISCARD and match.hakem == seat:
            chosen = match.hand_of(seat)[: match.kitty_size]
        assert_fits_discord(render.hand_message(table, seat, ephemeral=True, chosen=chosen))
        assert_fits_discord(render.hand_message(table, seat, live=False))
    assert_fits_discord(render.closed_hand_message(table, match.hand_number, ephemeral=True))
    if match.hand_results:
        last = match.hand_results[-1]
        if isinstance(match, ShelemMatch):
            assert_text_fits(shelem_result_line(table, table.settings.language, last))  # type: ignore[arg-type]
        else:
            assert_text_fits(hand_result_line(table, table.settings.language, last))  # type: ignore[arg-type]


def hokm_step(match: Match, greedy: GreedyPlayer) -> None:
    """One decision of the seat the match waits for, by the greedy player, in any phase."""
    seat = match.to_act
    view = seat_view(match, seat)
    phase = match.phase
    if phase == TRUMP:
        match.choose_trump(seat, greedy.choose_trump(view))
    elif phase == DISCARD:
        match.discard(seat, greedy.choose_discard(view))
    elif phase == DRAW:
        match.draw(seat, greedy.choose_draw(view))
    elif phase == BAM:
        match.declare_bam(seat, greedy.choose_bam(view))
    elif phase == BID:
        match.bid(seat, greedy.choose_bid(view))
    else:
        match.play(seat, greedy.choose_card(view))


@contextmanager
def format_for(game: str) -> Iterator[GameFormat | None]:
    """The joker six to a short target (its own 124 takes a dozen hands); any other format
    as the engine has it; None for Shelem."""
    if game == JOKER_SIX.name:
        with joker_short() as fmt:
            yield fmt
    else:
        yield hokm_format(game)


def play_through(table: Table, seed: int) -> None:
    """The lobby, then the match by the greedy players, every message checked at every
    decision; then the finished table and its summary."""
    table.reserved = {i: s for i, s in enumerate(table.seats) if s is not None}
    assert_fits_discord(
        render.table_message(table, closed(table))
    )  # a rematch lobby naming who it waits for
    table.reserved = {}
    assert_fits_discord(render.table_message(table, closed(table)))
    table.log = worst_log(table)
    table.status, table.started_at = "playing", DEADLINE - 3000
    teams = len(table.fmt.teams)
    table.win_chances = [1 / teams] * teams
    if family_of(table) is SHELEM_FAMILY:
        shelem = table.match = ShelemMatch(seed, table.settings.shelem_options())
        greedy_shelem = GreedyShelemPlayer()
        while not shelem.is_over:
            check_table(table)
            shelem_act(shelem, greedy_shelem)
    else:
        match = table.match = Match(seed, table.rules(), table.fmt)
        greedy = GreedyPlayer()
        while not match.is_over:
            check_table(table)
            hokm_step(match, greedy)
    table.status, table.finished_at = "finished", DEADLINE
    check_table(table)
    table.rating_changes = {s.user_id: -12.34 for s in table.seats if s and s.user_id}
    assert_fits_discord(match_summary(table))
    cancelled = dataclasses.replace(table, status="cancelled")
    assert_fits_discord(render.table_message(cancelled, closed(cancelled)))


def check_history(table: Table) -> None:
    """``/hokm history`` (ten rows of this match) and every frame of its Replay."""
    lang = table.settings.language
    record = finished_match(table, DEADLINE)
    entry = HistoryEntry(
        record.match_id,
        record.channel_id,
        record.finished_at,
        record.game_format,
        record.target_score,
        record.scores,
        record.winner_team,
        record.hints,
        record.players,
    )
    rows = tuple(dataclasses.replace(entry, match_id=f"{i:012x}") for i in range(10))
    page = HistoryPage(GUILD, USER, 2, 10, 1000, True, rows)
    assert_fits_discord(history_message(lang, WIDE * 4, page))
    told = (
        shelem_story(record.replay) if (family_of(table) is SHELEM_FAMILY) else story(record.replay)
    )
    replay = MatchReplay(entry, told)
    for hand, told_hand in enumerate(told.hands):
        for trick in range(len(told_hand.tricks) + 1):
            assert_fits_discord(replay_message(lang, replay, USER, hand, trick))


@pytest.mark.parametrize(("game", "lang"), list(product(GAMES, LANGS)))
def test_every_message_of_a_whole_match_fits_discord(game: str, lang: str) -> None:
    with format_for(game) as fmt:
        table = table_of(game, lang, fmt)
        play_through(table, seed=len(game))
        check_history(table)


def test_the_six_player_persian_hand_message_stays_within_2000_characters() -> None:
    """The issue's case: six members of 32 escaped characters at a Persian six-player table
    (their hand messages reached 2,013–2,033 characters); names are shortened to fit."""
    table = table_of("six_pairs", "fa")
    assert all(len(seat_name(table, i)) >= 60 for i in range(6))
    table.status, table.deadline = "playing", DEADLINE
    match = table.match = Match(3, table.rules(), table.fmt)
    greedy, longest = GreedyPlayer(), 0
    while match.hand_number == 1:
        for seat in range(6):
            spec = render.hand_message(table, seat, ephemeral=True)
            assert_fits_discord(spec)
            longest = max(longest, len(spec.content))
        hokm_step(match, greedy)
    assert 1500 < longest <= 2000  # the names were shortened, not every line dropped


# ---------------------------------------------------------------------- beside a match


@pytest.mark.parametrize("lang", LANGS)
def test_standings_records_settings_rules_hints_and_refusals_fit(lang: str) -> None:
    guild = WIDE * 4
    when = datetime(2026, 12, 1, tzinfo=UTC)
    for fmt in ("standard", "joker_six"):
        rows = tuple(
            PlayerRecord(GUILD, USER + i, WIDE, 1000 + i, 99999, 9999, 0.5, 9, 9, 9, when, fmt)
            for i in range(10)
        )
        page = StandingsPage(GUILD, 999, 10, 1000, 10000, rows, fmt)
        assert_fits_discord(standings_message(lang, guild, page))
        rating = MemberRating(USER, -123.45, 99.9, -123.45, 999)
        skill = MemberSkill(rating, -99.9, (USER, 999, 9999))
        assert_fits_discord(member_message(lang, USER, rows[0], fmt, skill))
        assert_fits_discord(member_message(lang, USER, None, fmt))
    values: dict[str, bool | str | int] = {
        "target_score": 13,
        "game_format": "six_pairs",
        "shelem_modes": "nars+ace_nars+sars",
        "hints": True,
        "language": "fa",
    }
    spec = render.settings_message(lang, values, changed=True, web_url="https://x/" + "a" * 300)
    assert_fits_discord(spec)
    for name in (*FORMATS, "unknown"):
        assert_text_fits(rules_text(lang, name, 5000))
    for reason in REASONS:
        hint = Hint(Card.parse("10♦"), reason, Suit.HEARTS, Card.parse("Q♠"), 12)
        assert_fits_discord(hint_message(lang, hint))
    wide = shown_name(WIDE)
    assert len(wide) == 2 * NAME_LIMIT
    for key in (k for k in CATALOG if k.startswith("error.")):
        fields = {f for _, f, _, _ in string.Formatter().parse(CATALOG[key]["en"]) if f}
        params: dict[str, object] = {f: wide for f in fields}
        assert_text_fits(render.error_text(lang, key, params))
