"""A game family is one registered object (``bot/service/games.py``, ``bot/present/families.py``):
every format a table can have belongs to exactly one family, and outside the family modules and
the registries no module of ``bot/`` asks which game a table plays."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.present.families import presenter
from bot.service.events import Decided
from bot.service.games import FAMILIES, HOKM_FAMILY, SHELEM_FAMILY, family_named, formats
from bot.service.history import log_line
from bot.service.table import Table, TableSettings
from engine.rules import FORMATS, SHELEM_FORMAT
from engine.shelem import ShelemOptions

ROOT = Path(__file__).resolve().parents[2]
FAMILY_MODULES = {
    "bot/service/family.py",
    "bot/service/games.py",
    "bot/service/hokm_family.py",
    "bot/service/shelem_family.py",
    "bot/service/shelem_moves.py",
    "bot/present/families.py",
    "bot/present/hokm_view.py",
    "bot/present/shelem_view.py",
    "bot/present/shelem.py",
    "bot/present/shelem_hand.py",
}
"""The family modules and the registries: the only places that know a family's classes."""
ASKS_WHICH_GAME = re.compile(r'isinstance\([^)]*(Shelem|Joker)|is_shelem|== *"(standard|shelem)"')
COMPARES_FORMAT_NAMES = re.compile(
    r"\bSHELEM_FORMAT\b|\bFORMAT_NAME\b"  # Shelem's name, to compare a table's with
    r"|STANDARD\.name *[!=]=|[!=]= *STANDARD\.name"  # the default game by its name
    r'|"(standard|shelem)" *[!=]=|!= *"(standard|shelem)"'
    r'|\.family *[!=]= *"'  # a format's family by its name: ask the family object
)
"""Comparing format names (or a format's family name) outside the family modules: a format
says what it is (``GameFormat.family``, ``is_default``), a family what it does."""


def _lines_outside_the_families(pattern: re.Pattern[str]) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in sorted((ROOT / "bot").rglob("*.py"))
        if str(path.relative_to(ROOT)) not in FAMILY_MODULES
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]


def test_no_module_outside_the_families_asks_which_game_a_table_plays() -> None:
    assert _lines_outside_the_families(ASKS_WHICH_GAME) == []


def test_no_module_outside_the_families_compares_format_names() -> None:
    assert _lines_outside_the_families(COMPARES_FORMAT_NAMES) == []


@pytest.mark.parametrize(
    "line",
    [
        "if name == SHELEM_FORMAT:",
        "if config.format != SHELEM_FORMAT and x:",
        'tail = f":{g}" if g != STANDARD.name else ""',
        "if STANDARD.name == values['format']:",
        'if fmt.family == "shelem":',
        'if "standard" != name:',
        "data.get('format') == FORMAT_NAME",
    ],
)
def test_the_name_check_sees_what_it_forbids(line: str) -> None:
    """The grep is real: each way of asking by name that was removed is caught."""
    assert COMPARES_FORMAT_NAMES.search(line)


def test_the_name_check_lets_defaults_and_limits_be() -> None:
    for line in ("game_format: str = STANDARD.name", "MAX_FORMAT_NAME = 32", "fmt.family"):
        assert not COMPARES_FORMAT_NAMES.search(line)


def test_every_format_belongs_to_one_family_shelem_among_them_v6() -> None:
    assert set(formats()) == set(FORMATS) and SHELEM_FORMAT in FORMATS
    assert formats()[SHELEM_FORMAT] == ShelemOptions().fmt
    for name in formats():
        owners = [f for f in FAMILIES if name in f.formats()]
        assert owners == [family_named(name)]
    assert family_named("standard") is HOKM_FAMILY
    assert family_named(SHELEM_FORMAT) is SHELEM_FAMILY
    with pytest.raises(KeyError):
        family_named("no_such_format")


@pytest.mark.parametrize("game_format", sorted(FORMATS))
def test_a_lobby_finds_its_family_and_presenter(game_format: str) -> None:
    table = Table("t1", 1, 2, 3, TableSettings(game_format=game_format), 0.0)
    family = family_named(game_format)
    assert presenter(table).name == family.name
    assert family.hints is (game_format != SHELEM_FORMAT)  # none at Shelem tables (V6)


def test_v5_a_bid_is_logged_from_its_tricks_not_parsed_from_its_name() -> None:
    table = Table("t1", 1, 2, 3, TableSettings(game_format="joker_six"), 0.0)
    line = log_line(table, Decided(0, "bid7", 1, tricks=7))
    assert line is not None and line.key == "report.bids" and dict(line.params)["n"] == 7
    passed = log_line(table, Decided(0, "pass", 1))
    assert passed is not None and passed.key == "report.passes"
    assert Decided(0, "bid7", 1, tricks=7) == Decided(0, "bid7", 1)  # what already says it
