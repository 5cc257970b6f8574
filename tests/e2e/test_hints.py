"""Against the Discord double: a table opened with hints gives the
player to act a Hint button in their DM (and My hand view); pressing it answers privately with
the hard player's card and a reason in the table's language, and changes nothing. A table
without hints has no button and refuses a forged one; the table message and the stored result
say hints were on."""

from __future__ import annotations

import random
import re

import pytest

from bot.discord.client import HokmBot
from bot.present.catalog import CATALOG
from bot.service.table import Table
from engine import PLAY, Card, seat_view
from tests.double.models import StoredMessage, User
from tests.double.server import DiscordDouble

from .helpers import open_table, table_message
from .players import hand_message, play_turn_by_dm, ready_to_act

HINT_PREFIX = "hokm:i:"


def hint_button_ids(message: StoredMessage) -> list[str]:
    return [
        b.custom_id or "" for b in message.buttons() if (b.custom_id or "").startswith(HINT_PREFIX)
    ]


def plain(text: str) -> str:
    """``text`` without the bidi isolates and marks the Persian lines carry."""
    return re.sub("[\u2066-\u2069\u200e\u200f]", "", text)


def reasons(lang: str) -> list[str]:
    """Each reason's fixed words (the text before its first parameter), in ``lang``."""
    return [
        re.split(r"\{", entry[lang])[0].strip()
        for key, entry in CATALOG.items()
        if key.startswith("hint.") and key not in ("hint.card", "hint.trump", "hint.note")
    ]


async def computers_move(double: DiscordDouble, table: Table) -> None:
    """Let computer seats play until a member is to act (or the match ends)."""
    match = table.match
    assert match is not None
    await double.wait_until(
        lambda: table.status != "playing" or not table.seat(match.to_act).computer_plays,
        timeout=10.0,
        what="a member's turn",
    )


async def host_in_play(
    double: DiscordDouble, bot: HokmBot, lang_options: dict[str, object]
) -> tuple[Table, User]:
    """The host at a table of three easy computers, on their first turn to play a card."""
    host = double.members[0]
    table = await open_table(double, bot, host, {"difficulty": "easy", **lang_options})
    start = (
        "شروع"
        if bot.service.table_in_channel(table.channel_id).settings.language == "fa"
        else "Start"
    )  # type: ignore[union-attr]
    await double.click(host, table_message(double, table), label=start)
    match = table.match
    assert match is not None
    rng = random.Random(5)
    users = {host.id: host}
    for _ in range(20):
        await computers_move(double, table)
        if match.phase == PLAY and table.seat(match.to_act).user_id == host.id:
            break
        await play_turn_by_dm(double, bot, table, users, rng)  # the host names trump
    assert match.phase == PLAY and table.seat(match.to_act).user_id == host.id
    await double.wait_until(
        lambda: ready_to_act(hand_message(double, host), table), what="the host's turn in the DM"
    )
    return table, host


async def test_hint_button_answers_privately_with_the_hard_players_card_and_a_reason(
    discord_double: DiscordDouble, hokm_bot: HokmBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    double, bot = discord_double, hokm_bot
    # The search's own budget decides the hint, not the clock: on a loaded machine the 1 s
    # bound cut it short and the second press below got another card.
    monkeypatch.setattr("bot.service.hints.HINT_SECONDS", 30.0)
    table, host = await host_in_play(double, bot, {"hints": True})
    assert "hints on" in table_message(double, table).text  # the table is marked
    match = table.match
    assert match is not None
    dm = hand_message(double, host)
    assert dm is not None
    [hint_id] = hint_button_ids(dm)
    assert hint_id == f"hokm:i:{table.table_id}:{match.hand_number}"
    before = match.to_dict()
    record = await double.click(host, dm, custom_id=hint_id)
    assert record.response_name == "deferred channel message" and record.ephemeral
    [answer] = await record.wait_followups(1, timeout=10.0)
    assert answer.ephemeral and answer.visible_to(host.id)
    shown = re.search(r"Play \*\*(.+?)\*\*: (.+)\.\n", answer.content)
    assert shown is not None, answer.content
    legal = {c.label: c for c in seat_view(match, match.to_act).legal}
    assert shown.group(1) in legal  # a card the host may play now
    assert any(shown.group(2).startswith(r) for r in reasons("en")), shown.group(2)
    assert "hard computer player" in answer.content
    assert match.to_dict() == before  # a hint changes nothing
    # the same hint from the My hand view (an ephemeral in the channel)
    view = await double.click(host, table_message(double, table), label="My hand")
    assert view.ephemeral and hint_button_ids(view.message) == [hint_id]  # type: ignore[arg-type]
    again = await double.click(host, view.message, custom_id=hint_id)  # type: ignore[arg-type]
    [second] = await again.wait_followups(1, timeout=10.0)
    assert second.content == answer.content  # a function of the host's view: the same hint
    # the host plays the hinted card; on others' turns there is no Hint button, and a stale
    # press is refused privately
    card = legal[shown.group(1)]
    # The computers pause 1 s here, so the stale press below comes while it is still not the
    # host's turn (with 0.02 s, three computer moves sometimes beat it on a loaded machine,
    # and the press then got a hint).
    bot.service.computer_delay = 1.0
    played = await double.click(
        host, dm, custom_id=f"hokm:c:{table.table_id}:{match.hand_number}:{Card(card).code}"
    )
    assert played.response_type == 7
    if table.status == "playing" and table.seat(match.to_act).user_id != host.id:
        assert played.message is not None and hint_button_ids(played.message) == []
        late = await double.click(host, dm, custom_id=hint_id, stale=True)
        assert late.ephemeral and "on your turn" in late.message.text  # type: ignore[union-attr]
    bot.service.computer_delay = 0.02
    # forged and other members' presses, once the computers are done (a computer's move
    # between the two snapshots below would look like a change the press made)
    await computers_move(double, table)
    guest = double.add_member(double.guild, "guest")  # type: ignore[arg-type]
    for who, custom_id, words in (
        (guest, hint_id, "aren't playing"),
        (host, f"hokm:i:{table.table_id}:{match.hand_number + 5}", "earlier hand"),
        (host, "hokm:i:000000000000:1", "earlier hand"),
        (host, f"hokm:i:{table.table_id}:x", "isn't one of mine"),
    ):
        state = match.to_dict()
        rec = await double.click(who, table_message(double, table), custom_id=custom_id, stale=True)
        assert rec.ephemeral, custom_id
        text = rec.message.text  # type: ignore[union-attr]
        assert "Traceback" not in text
        assert words in text or custom_id.endswith(":x"), (custom_id, text)
        assert match.to_dict() == state
    assert double.internal_errors == []


async def test_a_table_without_hints_has_no_button_and_refuses_a_forged_one(
    discord_double: DiscordDouble, hokm_bot: HokmBot
) -> None:
    double, bot = discord_double, hokm_bot
    table, host = await host_in_play(double, bot, {})
    assert "hints on" not in table_message(double, table).text
    dm = hand_message(double, host)
    assert dm is not None and hint_button_ids(dm) == []
    match = table.match
    assert match is not None
    before = match.to_dict()
    forged = f"hokm:i:{table.table_id}:{match.hand_number}"
    rec = await double.click(host, dm, custom_id=forged, stale=True)
    assert rec.ephemeral and "Hints are off" in rec.message.text  # type: ignore[union-attr]
    rec = await double.slash(host, double.channel, "hokm hint")
    assert rec.ephemeral and "Hints are off" in rec.message.text  # type: ignore[union-attr]
    assert match.to_dict() == before


async def test_persian_server_with_hints_on_by_setting_gets_a_persian_hint(
    discord_double: DiscordDouble, hokm_bot: HokmBot
) -> None:
    """The server setting (not the /hokm new option) turns hints on; all of it in Persian."""
    double, bot = discord_double, hokm_bot
    admin = double.members[0]
    rec = await double.slash(
        admin, double.channel, "hokm settings", {"language": "fa", "hints": True}
    )
    assert "راهنمایی برای تازه‌کارها: بله" in plain(rec.message.text)  # type: ignore[union-attr]
    table, host = await host_in_play(double, bot, {})
    assert table.settings.hints
    assert "با راهنمایی" in table_message(double, table).text
    dm = hand_message(double, host)
    assert dm is not None
    assert "💡 راهنمایی" in {plain(b.label or "") for b in dm.buttons()}
    rec = await double.slash(host, double.channel, "hokm hint")  # the command, same action
    [answer] = await rec.wait_followups(1, timeout=10.0)
    text = plain(answer.content)
    assert answer.ephemeral and "را بازی کنید" in text
    assert any(r in text for r in reasons("fa")), text
    assert "بازیکن کامپیوتری سخت" in answer.content


async def test_a_hinted_match_is_stored_as_hinted(
    discord_double: DiscordDouble, hokm_bot: HokmBot
) -> None:
    double, bot = discord_double, hokm_bot
    host = double.members[0]
    table = await open_table(
        double, bot, host, {"target_score": 1, "difficulty": "easy", "hints": True}
    )
    await double.click(host, table_message(double, table), label="Start")
    users = {host.id: host}
    rng = random.Random(7)
    for _ in range(200):
        await computers_move(double, table)
        if table.status != "playing":
            break
        await play_turn_by_dm(double, bot, table, users, rng)
    assert table.status == "finished"
    await double.wait_until(
        lambda: (
            "hints on" in table_message(double, table).text
            and "over" in table_message(double, table).text.lower()
        ),
        what="the final table message",
    )
    [summary] = await bot.store.recent_matches(table.guild_id, host.id)
    assert summary.match_id == table.table_id and summary.hints is True
