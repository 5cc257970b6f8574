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


def test_no_module_outside_the_families_asks_which_game_a_table_plays() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in sorted((ROOT / "bot").rglob("*.py"))
        if str(path.relative_to(ROOT)) not in FAMILY_MODULES
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if ASKS_WHICH_GAME.search(line)
    ]
    assert found == []


def test_every_format_belongs_to_one_family_shelem_among_them_v6() -> None:
    assert set(formats()) == {*FORMATS, SHELEM_FORMAT}
    assert formats()[SHELEM_FORMAT] == ShelemOptions().fmt
    for name in formats():
        owners = [f for f in FAMILIES if name in f.formats()]
        assert owners == [family_named(name)]
    assert family_named("standard") is HOKM_FAMILY
    assert family_named(SHELEM_FORMAT) is SHELEM_FAMILY
    with pytest.raises(KeyError):
        family_named("no_such_format")


@pytest.mark.parametrize("game_format", [*sorted(FORMATS), SHELEM_FORMAT])
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
