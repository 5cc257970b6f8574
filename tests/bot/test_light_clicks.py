"""A click's gateway event is parsed without the clicked message's buttons and embeds
where the bot never reads them (``light_clicks``); a page or replay click keeps them, since
its handler checks the message's own buttons (``router._has_buttons``)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from bot.discord import light_clicks
from bot.present import custom_ids
from engine.cards import BY_CODE

ROWS = [{"type": 1, "components": [{"type": 2, "style": 1, "label": "A♠", "custom_id": "hokm:x"}]}]


def click(custom_id: str) -> dict[str, Any]:
    return {
        "type": 3,
        "data": {"custom_id": custom_id, "component_type": 2},
        "message": {"id": "7", "flags": 64, "components": ROWS, "embeds": [{"title": "t"}]},
    }


@pytest.mark.parametrize(
    "custom_id",
    [
        custom_ids.card_id("0123456789ab", 1, BY_CODE["AS"]),
        custom_ids.lobby_id("0123456789ab", "join"),
        custom_ids.my_hand_id("0123456789ab"),
    ],
)
def test_a_move_or_lobby_click_is_parsed_without_the_messages_buttons(custom_id: str) -> None:
    data = click(custom_id)
    before = copy.deepcopy(data)
    light = light_clicks.lighter(data)
    assert light["message"]["components"] == [] and light["message"]["embeds"] == []
    assert light["message"]["id"] == "7" and light["message"]["flags"] == 64
    assert light["data"] == data["data"]
    assert data == before  # the payload itself is not changed


@pytest.mark.parametrize("kind", ["p:", "g:", "z:", "zz:", "not-ours"])
def test_a_page_replay_or_unknown_click_keeps_every_button(kind: str) -> None:
    custom_id = kind if kind == "not-ours" else custom_ids.PREFIX + kind + "1"
    data = click(custom_id)
    assert light_clicks.lighter(data) is data


def test_a_command_or_a_click_without_message_is_left_alone() -> None:
    command = {"type": 2, "data": {"name": "hokm"}, "message": {"components": ROWS}}
    assert light_clicks.lighter(command) is command
    bare = {"type": 3, "data": {"custom_id": custom_ids.my_hand_id("0123456789ab")}}
    assert light_clicks.lighter(bare) is bare


def test_every_kind_that_reads_the_clicked_buttons_is_parsed_whole() -> None:
    """The kinds ``router._has_buttons`` checks are not light, so their buttons are there."""
    reads_buttons = {"standings", "history", "replay_step", "replay", "tournament"}
    assert not reads_buttons & light_clicks.LIGHT
    assert not {"p", "g", "z"} & light_clicks.LIGHT_TAGS  # the tags router._has_buttons checks
    names = {k.name for k in custom_ids.KINDS}
    assert names >= light_clicks.LIGHT


def test_the_bots_parser_is_wrapped() -> None:
    seen: list[dict[str, Any]] = []
    parsers: dict[str, Any] = {"INTERACTION_CREATE": seen.append}
    light_clicks.install(parsers)
    parsers["INTERACTION_CREATE"](click(custom_ids.my_hand_id("0123456789ab")))
    assert seen and seen[0]["message"]["components"] == []
