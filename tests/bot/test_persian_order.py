"""Every Persian line reads, right to left, in the order it is written.

Whole matches of every format (Hokm's ``FORMATS`` and Shelem) are played in Persian through
the service's moves (``persian_match``); every text they show (the table message, every hand
message, the closed hand message, the channel's report, the summary, ``/hokm history`` and every
Replay frame) and the texts beside a match (standings, a member's record, refusals naming a
command, the rules, hints, settings) are run through python-bidi's Unicode bidirectional
algorithm as a right-to-left paragraph (``persian_order``), and each line must show its units in
the order a Persian reader takes them from the right: a score «۷ بر ۵» 7 first (a negative
Shelem score with its minus on its digits), a fraction «۳ برد از ۵» 3 first, a play its name and
then its card (the card whole, left to right), a command as ``/hokm new``, a countdown after a
label at the end of its line, never inside a sentence (Discord writes it in English).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import cache

import pytest
from bidi import get_display

from bot.present import render
from bot.present.catalog import CATALOG
from bot.present.hints import hint_message
from bot.present.i18n import play, score_pair, t
from bot.present.rules_text import rules_text
from bot.present.standings import MemberSkill, member_message, standings_message
from bot.store import MemberRating, PlayerRecord, StandingsPage
from engine import Card, Suit
from engine.hints import REASONS, Hint
from engine.rules import FORMATS, JOKER_SIX, SHELEM_FORMAT
from tests.formats import joker_short

from .persian_match import Texts, members, play_match, shown_names
from .persian_order import (
    CONTROLS,
    FSI,
    LRI,
    PDI,
    RLI,
    Shown,
    as_shown,
    display,
    reading_faults,
)

GAMES = tuple(sorted(FORMATS))
SEEDS = {SHELEM_FORMAT: 10}
"""A Shelem seed whose match has a side below zero (a negative score in its lines)."""
_PERSIAN = re.compile(r"[\u0620-\u064a\u067e-\u06d3]")
_DIGITS = "0-9۰-۹"
_BARE_PAIR = re.compile(rf"[{_DIGITS}]\s*[–\-/]\s*[−\-+]?[{_DIGITS}]")
_PAIR = re.compile(rf"([−+]?[{_DIGITS}]+) بر ([−+]?[{_DIGITS}]+)")


@contextmanager
def _format(game: str) -> Iterator[str]:
    """The joker six to a short target (its own 124 takes a dozen hands), else ``game``."""
    if game == JOKER_SIX.name:
        with joker_short() as fmt:
            yield fmt.name
    else:
        yield game


@cache
def _played(game: str) -> Texts:
    with _format(game) as name:
        return play_match(name, SEEDS.get(game, len(game)))


def _faults(texts: list[tuple[str, str]], shown: Shown, atoms: list[str]) -> list[str]:
    """Every line of ``texts`` with a Persian word that does not read as written, once."""
    out, seen = [], set()
    for where, line in texts:
        if line in seen or not _PERSIAN.search(line):
            continue
        seen.add(line)
        drawn = as_shown(line, shown)
        found = reading_faults(drawn, atoms)
        plain = "".join(ch for ch in drawn if ch not in CONTROLS)
        if _BARE_PAIR.search(plain):
            found.append("two numbers joined by a dash or a slash (a score or fraction)")
        if shown.countdown in plain and not _after_label(plain, shown.countdown):
            found.append("a countdown inside a sentence")
        if found:
            out.append(f"{where}: {line!r}\n    shown: {display(drawn)}\n    " + "; ".join(found))
    return out


def _after_label(plain: str, countdown: str) -> bool:
    """The countdown ends its line, after a label («… · مهلت: …»)."""
    head, _, tail = plain.rpartition(countdown)
    return tail.strip(" .") == "" and head.rstrip().endswith(":")


def _atoms(texts: Texts, shown: Shown) -> list[str]:
    """What reads as one piece: each name as shown, the server's name, Discord's times."""
    names = [as_shown(n, shown) for n in shown_names(texts.table)]
    return [*names, *members(texts.table).values(), "Hokm club", shown.countdown, shown.date]


@pytest.mark.parametrize("game", GAMES)
def test_every_persian_line_of_a_whole_match_reads_right_to_left(game: str) -> None:
    texts = _played(game)
    shown = Shown(members(texts.table))
    faults = _faults(texts.texts, shown, _atoms(texts, shown))
    assert not faults, f"{len(faults)} lines:\n" + "\n".join(faults[:12])


@pytest.mark.parametrize("game", GAMES)
def test_the_match_shows_scores_plays_and_countdowns(game: str) -> None:
    """What the order is checked on is there: score pairs written «۷ بر ۵», plays («name
    card»), countdowns; at Shelem a negative score («… بر −۳۳۰»)."""
    texts = _played(game)
    shown = Shown(members(texts.table))
    lines = ["".join(c for c in as_shown(x, shown) if c not in CONTROLS) for _, x in texts.texts]
    pairs = [m for line in lines for m in _PAIR.finditer(line)]
    assert pairs, "no score pair"
    assert any(shown.countdown in line for line in lines)
    names = members(texts.table).values()
    assert any(
        re.search(rf"{re.escape(n)} (?:10|[2-9JQKA])[♠♥♦♣]", x) for x in lines for n in names
    )
    if game == SHELEM_FORMAT:
        assert any("−" in m.group(0) for m in pairs), "no negative score"


def test_python_bidi_lays_out_isolates() -> None:
    """The check means something only if the algorithm knows isolates (Unicode 6.3; python-bidi's
    own Python algorithm is UBA 5 and does not): a play of a Latin name is shown card first
    only when its isolates are honoured (ignored, ``amir 6♠`` would be one left-to-right run)."""
    assert display(f"{RLI}{FSI}amir{PDI} {LRI}6♠{PDI}{PDI}") == "6♠ amir"
    # the issue's «۷–۵» in an FSI (no letter in it): left to right, 5 read first from the right
    assert display(f"x {FSI}۷–۵{PDI}") == "۷–۵ x"


def test_the_issues_cases_read_in_order() -> None:
    """Item 1: «۷ بر ۵» shows 7 on the right; item 3: a play shows its name on the right of
    its card, whatever the name's script; item 2: «۳ برد از ۵» shows 3 on the right."""
    for name in ("amir", "امیر", "Dara 2"):
        line = t("fa", "dm.on_table", cards=[play("fa", name, "10♠"), play("fa", "bahar", "A♥")])
        shown = display(line)
        assert not reading_faults(line, [name, "bahar"]), shown
        # from the right: the first name, its card, then the second play, name then card
        order = ("A♥", "bahar", "10♠", str(get_display(name)))
        assert [shown.index(x) for x in order] == sorted(shown.index(x) for x in order), shown
    row = PlayerRecord(1, 101, "m", 1, 5, 3, 0.6, 9, 2, 1, datetime(2026, 1, 1, tzinfo=UTC))
    page = StandingsPage(1, 1, 10, 1, 1, (row,))
    standing = standings_message("fa", "x", page).embed
    assert standing is not None
    line = as_shown(standing.description.splitlines()[0], Shown({101: "amir"}))
    assert not reading_faults(line, ["amir"]) and display(line).index("۵") < display(line).index(
        "۳"
    )


def test_a_score_reads_its_first_number_first() -> None:
    """The pieces the test reads by, on the issue's own cases."""
    for scores, first, second in (([7, 5], "۷", "۵"), ([215, -35], "۲۱۵", "−۳۵")):
        pair = score_pair("fa", scores)
        assert " بر " in pair and "–" not in pair  # the way Persian writes a score
        line = f"امتیاز: {pair}"
        shown = display(line)
        assert not reading_faults(line), shown
        assert shown.index(first) > shown.index(second), shown  # the first on the right


# ---------------------------------------------------------------------- beside a match


def _beside() -> list[tuple[str, str]]:
    """Standings (ranks, ratings, fractions), a member's record, refusals (commands), the
    rules, every hint and the settings, in Persian."""
    out = Texts(None)  # type: ignore[arg-type]
    when = datetime(2026, 12, 1, tzinfo=UTC)
    rows = tuple(
        PlayerRecord(1, 101 + i, f"m{i}", 1 + i, 5, 3, 0.6, 9, 2, 1, when, "standard")
        for i in range(3)
    )
    page = StandingsPage(1, 1, 10, 1, 3, rows, "standard")
    out.add("standings", standings_message("fa", "Hokm club", page))
    skill = MemberSkill(MemberRating(101, -12.34, 3.1, -12.34, 7), -1.5, (102, 3, 5))
    out.add("member", member_message("fa", 101, rows[0], "standard", skill))
    for key in sorted(k for k in CATALOG if k.startswith("error.")):
        fields = re.findall(r"\{(\w+)\}", CATALOG[key]["en"])
        params: dict[str, object] = {f: "<@102>" for f in fields if f != "key"}
        if "key" in fields:
            continue
        out.line(key, render.error_text("fa", key, params))
    for name in FORMATS:
        out.line(f"rules {name}", rules_text("fa", name, 7))
    for reason in REASONS:
        hint = Hint(Card.parse("10♦"), reason, Suit.HEARTS, Card.parse("Q♠"), 12)
        out.add(f"hint {reason}", hint_message("fa", hint))
    values: dict[str, bool | str | int] = {"target_score": 7, "hints": True, "language": "fa"}
    out.add("settings", render.settings_message("fa", values, changed=True, web_url="https://x/"))
    return out.texts


def test_standings_records_refusals_rules_and_hints_read_right_to_left() -> None:
    shown = Shown({101: "امیر", 102: "bahar"})
    faults = _faults(_beside(), shown, ["امیر", "bahar", "Hokm club", "https://x/"])
    assert not faults, f"{len(faults)} lines:\n" + "\n".join(faults[:12])


def test_a_command_reads_as_typed() -> None:
    """Item 4: «`/hokm new`» shows as ``/hokm new``, not ``hokm new/``."""
    line = render.error_text("fa", "error.no_table", {})
    assert "/hokm new" in display(as_shown(line, Shown({})))
