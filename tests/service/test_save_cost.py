"""What saving a move costs, kept from coming back.

A table is written whole on every move: its state is built (``Table.to_dict``) and encoded
(the store's ``JSONText``) once a card. ``dataclasses.asdict`` deep-copied every field of the
settings and of each seat (most of ``to_dict``), and the json module took ten times orjson's
time to encode it.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from typing import Any

import orjson
import pytest
import sqlalchemy as sa

from bot.service.table import Seat, Table
from bot.store import schema
from engine import PLAY
from tests.bot.test_hand_story import play_until, playing_table


def _table() -> Table:
    table = playing_table()
    table.reserved = {2: Seat(name="bahar", user_id=99)}
    play_until(table, lambda m: m.phase == PLAY and len(m.tricks) == 2 and len(m.trick) == 1)
    return table


def test_a_tables_state_is_made_without_a_deep_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    table = _table()
    expected = table.to_dict()
    assert expected["settings"] == dataclasses.asdict(table.settings)
    assert expected["seats"] == [dataclasses.asdict(s) for s in table.seats if s is not None]
    assert expected["reserved"] == {"2": dataclasses.asdict(table.reserved[2])}

    def no_copy(value: Any, memo: Any = None) -> Any:
        raise AssertionError("a deep copy while building a table's state")

    monkeypatch.setattr(copy, "deepcopy", no_copy)
    state = table.to_dict()
    assert state == expected
    state["seats"][0]["name"] = "changed"  # a copy: the table keeps its own
    assert table.seats[0] is not None and table.seats[0].name != "changed"
    assert Table.from_dict(expected).to_dict() == expected


def test_a_tables_state_is_encoded_by_orjson_and_reads_back_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = _table().to_dict() | {"big": 2**70, 7: "an int key"}
    calls: list[object] = []
    dumps = orjson.dumps

    def counted(value: Any, *args: Any, **kwargs: Any) -> bytes:
        calls.append(value)
        return dumps(value, *args, **kwargs)

    monkeypatch.setattr(schema.orjson, "dumps", counted)
    column = schema.JSONText()
    dialect = sa.create_engine("sqlite://").dialect
    small = column.process_bind_param(state | {"big": 1}, dialect)
    assert calls, "the state was not encoded by orjson"
    assert small is not None and json.loads(small) == json.loads(json.dumps(state | {"big": 1}))
    text = column.process_bind_param(state, dialect)  # past 64 bits: the json module
    assert text is not None
    assert column.process_result_value(text, dialect) == json.loads(json.dumps(state))
    assert column.process_result_value('{"x": NaN}', dialect)["x"] != 0  # json's own text
