"""The load bench reads the bot with the bot's own catalog and custom ids.

``bench/bot_load.py`` runs for minutes and would only show a change of wording or id layout as
tables that stop moving; these checks make such a change fail here, in a second, instead.
"""

from __future__ import annotations

import importlib
import logging
import random
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest

from bench import bot_text
from bench.member import Member, choose, is_hand_message, read_hand
from bench.metrics import percentile, record_kind
from bot.present import custom_ids
from bot.present.i18n import t
from engine import Card, Suit
from tests.double.interactions import InteractionRecord
from tests.double.models import StoredMessage, User

TABLE = "0123456789ab"
BENCH_MODULES = (
    "bench.bot_text",
    "bench.member",
    "bench.metrics",
    "bench.harness",
    "bench.table_driver",
    "bench.attack",
    "bench.churn",
    "bench.bot_load",
)


@pytest.mark.parametrize("name", BENCH_MODULES)
def test_every_bench_module_imports(name: str) -> None:
    assert importlib.import_module(name).__doc__


def _message(content: str, rows: list[list[dict[str, Any]]]) -> StoredMessage:
    author = User(id=1, username="hokm-bot", bot=True)
    return StoredMessage(
        id=7,
        channel_id=5,
        guild_id=None,
        author=author,
        content=content,
        components=[{"type": 1, "components": row} for row in rows],
    )


def _button(custom_id: str, style: discord.ButtonStyle) -> dict[str, Any]:
    return {"type": 2, "custom_id": custom_id, "style": style.value, "label": custom_id[-3:]}


def _header(n: int) -> str:
    return f"**{t('en', 'hand.header', channel='<#5>', n=n)}**"


# --------------------------------------------------------------------------- catalog text


def test_a_hand_that_waits_names_the_next_player() -> None:
    content = "\n".join([_header(4), t("en", "hand.waiting_for", name="p001c"), "-# " + "only you"])
    view = read_hand(_message(content, []))
    assert view.waiting_for == "p001c"
    assert view.hand == 4
    assert not view.actionable and not view.over


def test_a_hand_before_trump_names_the_hakem() -> None:
    content = "\n".join([_header(1), t("en", "hand.waiting_trump", name="p002a")])
    assert read_hand(_message(content, [])).waiting_for == "p002a"


def test_a_finished_hand_reads_as_over() -> None:
    content = "\n".join([_header(9), t("en", "hand.over")])
    view = read_hand(_message(content, []))
    assert view.over and view.hand == 9 and view.waiting_for is None


@pytest.mark.parametrize(
    ("key", "params"),
    [
        ("table.turn", {"when": "<t:1700000000:R>"}),
        ("table.turn_trump", {"when": "<t:1700000000:R>"}),
        ("table.turn_computer", {}),
    ],
)
def test_the_table_message_names_who_acts(key: str, params: dict[str, str]) -> None:
    text = "\n".join(["**Hand 1** · Hakem: p003a", t("en", key, name="p003b", **params), ""])
    assert bot_text.turn_name(text) == "p003b"


REPLIES: dict[str, tuple[bot_text.Said, dict[str, object]]] = {
    "ok.table_opened": (bot_text.OPENED, {}),
    "error.channel_busy": (bot_text.CHANNEL_BUSY, {"link": ""}),
    "error.internal": (bot_text.INTERNAL_ERROR, {}),
    "error.stale": (bot_text.STALE, {}),
    "error.already_seated": (bot_text.ALREADY_SEATED, {}),
    "error.already_started": (bot_text.ALREADY_STARTED, {}),
    "error.no_table": (bot_text.NO_TABLE, {}),
}


@pytest.mark.parametrize("key", sorted(REPLIES))
def test_each_reply_is_recognised_and_no_other(key: str) -> None:
    said, params = REPLIES[key]
    assert said.key == key
    assert said(t("en", key, **params))
    for other, (_, other_params) in REPLIES.items():
        if other != key:
            assert not said(t("en", other, **other_params)), other


def test_a_link_in_the_busy_reply_is_matched_too() -> None:
    link = "https://discord.com/channels/1/2/3"
    assert bot_text.CHANNEL_BUSY(t("en", "error.channel_busy", link=link))


def test_a_repeated_placeholder_must_repeat_the_same_text() -> None:
    pattern = bot_text.sentence_re("report.dm_closed", name=".+?")
    assert pattern.fullmatch(t("en", "report.dm_closed", name="p004a"))
    text = t("en", "report.dm_closed", name="p004a").replace("p004a,", "p004b,")
    assert not pattern.fullmatch(text)


# --------------------------------------------------------------------------- custom ids


def test_a_hand_is_read_from_its_buttons() -> None:
    legal, other = Card.parse("10H"), Card.parse("AS")
    rows = [
        [
            _button(custom_ids.card_id(TABLE, 3, legal), discord.ButtonStyle.success),
            _button(custom_ids.card_id(TABLE, 3, other), discord.ButtonStyle.secondary),
        ],
        [_button(custom_ids.my_hand_id(TABLE), discord.ButtonStyle.primary)],
    ]
    msg = _message("no header needed", rows)
    view = read_hand(msg)
    assert is_hand_message(msg)
    assert view.hand == 3
    assert view.green_ids == (custom_ids.card_id(TABLE, 3, legal),)
    assert view.green_codes == {"10H"}
    assert view.trump_ids == () and view.actionable
    assert choose(view, random.Random(1)) == custom_ids.card_id(TABLE, 3, legal)


def test_naming_trump_is_read_from_the_suit_buttons() -> None:
    ids = [custom_ids.trump_id(TABLE, 2, s) for s in Suit]
    msg = _message("", [[_button(i, discord.ButtonStyle.primary) for i in ids]])
    view = read_hand(msg)
    assert view.trump_ids == tuple(ids) and view.hand == 2 and is_hand_message(msg)
    assert choose(view, random.Random(1)) in ids


def test_the_lobby_is_found_by_its_join_button() -> None:
    rows = [
        [
            _button(custom_ids.lobby_id(TABLE, action), discord.ButtonStyle.secondary)
            for action in ("join", "leave", "add_computer", "start", "cancel")
        ]
    ]
    msg = _message("", rows)
    assert bot_text.join_table_id(msg.components) == TABLE
    assert not is_hand_message(msg)
    assert bot_text.lobby_action(custom_ids.lobby_id(TABLE, "start")) == "start"
    assert bot_text.join_table_id(_message("", [rows[0][1:]]).components) is None


@pytest.mark.parametrize(
    ("custom_id", "kind"),
    [
        ("", "command"),
        (custom_ids.card_id(TABLE, 1, Card.parse("2C")), "card"),
        (custom_ids.trump_id(TABLE, 1, Suit.HEARTS), "trump"),
        (custom_ids.lobby_id(TABLE, "join"), "join"),
        (custom_ids.lobby_id(TABLE, "add_computer"), "add_computer"),
        (custom_ids.my_hand_id(TABLE), "my_hand"),
        (custom_ids.lobby_id(TABLE, "cancel"), "other"),
        (custom_ids.standings_id(1, "n"), "other"),
        ("hokm:c:forged", "other"),
    ],
)
def test_clicks_are_grouped_by_what_the_bots_parser_says(custom_id: str, kind: str) -> None:
    assert bot_text.click_kind(custom_id) == kind
    record = SimpleNamespace(payload={"data": {"custom_id": custom_id}})
    assert record_kind(cast(InteractionRecord, record)) == kind


def test_a_member_remembers_the_cards_they_played_not_trump() -> None:
    member = Member(User(id=2, username="p005a"), "p005a")
    assert member.note_clicked(custom_ids.card_id(TABLE, 6, Card.parse("QD")))
    assert not member.note_clicked(custom_ids.trump_id(TABLE, 6, Suit.SPADES))
    assert (member.played_hand, member.played) == (6, {"QD"})


def test_nearest_rank_percentile() -> None:
    assert percentile([5.0, 1.0, 3.0, 2.0, 4.0], 50) == 3.0
    assert percentile([1.0, 2.0], 99) == 2.0


async def test_the_attack_bench_reads_the_services_commit_lines(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """``bench/attack.py`` times computer moves from the service's log: a line the real service
    writes, in the bot's log format, must match (the service's module moved once and the bench
    silently counted no move at all)."""
    from bench.attack import EVENT_KINDS, EVENTS_LINE_RE
    from bot.service.service import TableService
    from bot.store import Store
    from bot.store.guild_settings import GuildSettings
    from tests.service.fakes import FakeClock, FakeStore

    clock = FakeClock()
    service = TableService(cast(Store, FakeStore(now=clock)), clock=clock)
    caplog.set_level(logging.INFO)
    update = await service.open_table(
        guild_id=1, channel_id=2, host_id=3, host_name="amir", settings=GuildSettings()
    )
    await service.add_computer(update.table.table_id, 3)  # a move: logged by the commit path
    await service.close()
    formatter = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    lines = [formatter.format(r) for r in caplog.records if "table" in r.getMessage()]
    found = [m.group(4) for m in map(EVENTS_LINE_RE.match, lines) if m]
    assert any(rest.startswith("opened in channel 2") for rest in found), lines
    # the move's own line (the commit path logs it, under another logger than the opening)
    assert "computer_added" in EVENT_KINDS
    assert any(rest.startswith("computer_added seat=1") for rest in found), lines
