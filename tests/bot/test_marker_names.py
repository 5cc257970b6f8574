"""A member's name never wears one of the bot's own marks (``MARKERS``): a
member named "bahar 👑" does not pass for the hakem at any seat, in the table message, the hand
messages, the channel's report, the summary, ``/hokm history``, its Replay or the web page; and
every symbol the catalog draws as a mark is on that one list."""

from __future__ import annotations

import random
import unicodedata
from pathlib import Path

import pytest

from bot import present
from bot.discord.reports import ChannelReports
from bot.names import CROWN, MARKERS, ROBOT, plain_name, shown_name
from bot.present import render
from bot.present.catalog import CATALOG
from bot.present.history import history_message, replay_message
from bot.present.summary import match_summary
from bot.present.web_pages import Home, home_page, replay_page
from bot.service.events import HandDealt, Redealt, Started
from bot.service.match_history import MatchReplay
from bot.service.table import Seat, Table, TableSettings
from bot.store import HistoryEntry, HistoryPage, PlayerRecord, StandingsPage
from engine import Match, Rules
from engine.story import story
from tests.engine.helpers import random_move
from tests.matches import played

from .test_history_render import VIEWER

SUITS = frozenset("♠♥♣♦")
"""Card faces, not marks: a name may hold them."""
NOT_MARKS = frozenset("•")
"""The rules' bullet: a list's punctuation, never drawn beside a name."""


def marked(mark: str) -> list[str]:
    """Every way a member might wear ``mark``: after the name, before it, inside it, with the
    emoji variation selector, with the text one, or joined to another emoji."""
    return [
        f"bahar {mark}",
        f"{mark} bahar",
        f"ba{mark}har",
        f"bahar {mark}\ufe0f",
        f"bahar{mark}\ufe0e",
        f"bahar \U0001f525\u200d{mark}",
        f"{mark}{mark}bahar{mark}",
    ]


@pytest.mark.parametrize("mark", sorted(MARKERS))
def test_no_shown_name_of_a_member_keeps_a_mark_of_the_bot(mark: str) -> None:
    for raw in marked(mark):
        for shown in (shown_name(raw), plain_name(raw), shown_name(raw, limit=6)):
            assert mark not in shown, (raw, shown)
            assert "\ufe0f" not in shown and "\ufe0e" not in shown, (raw, shown)
            assert "ba" in shown, (raw, shown)  # the name itself stays
    assert shown_name(f"bahar {mark}") == "bahar"
    assert shown_name(mark * 3) == "?"  # a name of marks alone is no name


def test_computers_keep_their_robot() -> None:
    assert shown_name(f"{ROBOT} Rostam", computer=True) == f"`{ROBOT} Rostam`"
    assert plain_name(f"{ROBOT} Rostam", computer=True) == f"{ROBOT} Rostam"


def symbol(ch: str) -> bool:
    """An "other symbol" (emoji and the like) or an arrow."""
    category = unicodedata.category(ch)
    return category == "So" or (category == "Sm" and "\u2190" <= ch <= "\u21ff")


def catalog_marks() -> set[str]:
    """Every symbol the catalog draws."""
    return {
        ch for entry in CATALOG.values() for text in entry.values() for ch in text if symbol(ch)
    }


def test_every_symbol_of_the_catalog_is_a_mark_on_the_one_list() -> None:
    missing = catalog_marks() - MARKERS - SUITS - NOT_MARKS
    assert not missing, sorted(missing)
    drawn = set()  # and every one the presenter's code draws itself
    for path in Path(present.__file__).parent.glob("*.py"):
        drawn |= {ch for ch in path.read_text(encoding="utf-8") if symbol(ch)}
    assert not drawn - MARKERS - SUITS - NOT_MARKS, sorted(drawn - MARKERS - SUITS - NOT_MARKS)


# ---------------------------------------------------------------------- where names are shown

CROWNED = f"bahar {CROWN}"


def live_table(lang: str, seed: int = 4) -> Table:
    """A standard table in its second hand, seat 1 a member named "bahar 👑", the hakem
    elsewhere; a few public lines and a finished hand behind it."""
    table = Table("0123456789ab", 1, 2, 3, TableSettings(language=lang), 0.0)
    names = ["amir", CROWNED, "cyrus", f"dara {CROWN}\ufe0f"]
    table.seats = [Seat(n, user_id=10 + i) for i, n in enumerate(names)]
    match = Match(seed, Rules(target_score=7))
    rng = random.Random(seed)
    while match.hand_number < 2:
        random_move(match, rng)
    while match.hakem in (1, 3) or match.phase == "trump":
        random_move(match, rng)
        assert not match.is_over
    for _ in range(6):
        random_move(match, rng)
    table.match, table.status, table.deadline = match, "playing", 1_900_000_000.0
    return table


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_crown_is_drawn_for_the_hakem_alone(lang: str) -> None:
    table = live_table(lang)
    match = table.match
    assert match is not None and match.hakem in (0, 2)
    spec = render.table_message(table)
    assert spec.all_text().count(CROWN) == 1  # the hakem's seat line, nobody else's
    assert spec.embed is not None
    crowned = [v for _, v, _ in spec.embed.fields if CROWN in v]
    assert len(crowned) == 1 and f"<@{10 + match.hakem}> {CROWN}" in crowned[0]
    for seat in range(4):
        for live in (True, False):
            assert CROWN not in render.hand_message(table, seat, live=live).all_text()
        assert CROWN not in render.closed_hand_message(table, 1).all_text()
    reports = ChannelReports(None)  # type: ignore[arg-type]
    for event in (Started(1), Redealt(1, 2), HandDealt(3, 2)):
        reports.record(table, lang, event)
    lines = reports._reports[table.channel_id]
    assert len(lines) == 4 and "bahar" in "\n".join(lines)
    assert all(CROWN not in line for line in lines)
    while not match.is_over:
        random_move(match, random.Random(1))
    table.status = "finished"
    assert CROWN not in match_summary(table).all_text()


def test_history_its_replay_and_the_web_page_crown_the_hakem_alone() -> None:
    names = ["amir", CROWNED, f"{CROWN} cyrus", f"dara{CROWN}\ufe0f"]
    finished = played(7, (11, 12, 13, 14), 1, 1, names)
    entry = HistoryEntry(
        finished.match_id,
        finished.channel_id,
        finished.finished_at,
        "standard",
        finished.target_score,
        finished.scores,
        finished.winner_team,
        False,
        finished.players,
    )
    page = HistoryPage(1, None, 1, 10, 1, False, (entry,))
    assert CROWN not in history_message("en", f"Guild {CROWN}", page).all_text()
    replay = MatchReplay(entry, story(finished.replay))
    for lang in ("en", "fa"):
        for trick in range(3):
            frame = replay_message(lang, replay, VIEWER, 0, trick).all_text()
            assert frame.count(CROWN) == 1  # the hakem's line of hands
        web = replay_page(lang, "Guild", replay, 0, 1)
        assert "bahar" in web and web.count(CROWN) == 1  # the page's own mark of the hakem
    record = PlayerRecord(1, 12, CROWNED, 1, 1, 1, 1.0, 1, 0, 0, finished.finished_at)
    board = StandingsPage(1, 1, 20, 1, 1, (record,))
    home = home_page(Home("en"), "Guild", board, page)
    assert "bahar" in home and CROWN not in home
