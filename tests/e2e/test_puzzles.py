"""``/hokm puzzle`` through the real bot and the Discord double: a position of a finished match
of the server, every player's cards shown, only to the member who asked; a card click answers it
in place, right or wrong, with the line that follows; the count shows in ``/standings member:``.
A player of that match is never offered its positions; a live table's id gets no puzzle.

English on SQLite, Persian on PostgreSQL."""

from __future__ import annotations

import pytest

from bot.discord.client import HokmBot
from bot.present import custom_ids
from bot.present.i18n import number, t
from bot.present.puzzles import seat_name
from bot.present.render import error_text
from engine import ANY_CARDS
from engine.dd_puzzles import check
from tests.double.mentions import mention_problems
from tests.double.models import StoredMessage
from tests.double.server import DiscordDouble
from tests.matches import played
from tests.puzzle_matches import analysed

from .helpers import open_table, table_message

SEED = 101
"""A match whose late tricks hold puzzles."""


def card_ids(message: StoredMessage) -> list[str]:
    return [
        b.custom_id or "" for b in message.buttons() if (b.custom_id or "").startswith("hokm:q:")
    ]


@pytest.mark.parametrize(
    ("bot_db_url", "lang"), [("sqlite", "en"), ("postgresql", "fa")], indirect=["bot_db_url"]
)
async def test_a_puzzle_is_shown_privately_and_answered_right_and_wrong(
    discord_double: DiscordDouble, hokm_bot: HokmBot, lang: str
) -> None:
    double = discord_double
    guild, channel = double.guild, double.channel
    assert guild is not None and channel is not None
    if lang == "fa":
        await double.slash(double.manager, channel, "hokm settings", {"language": "fa"})
    a, b, c, d = double.members
    e = double.add_member(guild, "elham")
    finished = played(SEED, (a.id, b.id, c.id, None), guild.id, 1)
    assert await hokm_bot.store.finish_match(finished)
    book = hokm_bot.service.puzzles
    assert await book.harvest(finished.match_id, analysed(finished.replay)) > 1

    # ------------------------------------------------------------- a live table: no puzzle
    table = await open_table(double, hokm_bot, a)
    for user in (b, c, e):
        join = custom_ids.lobby_id(table.table_id, "join")
        await double.click(user, table_message(double, table), custom_id=join)
    assert table.match is not None  # playing: its hands are hidden
    assert await book.harvest(table.table_id, analysed(finished.replay)) == 0

    # ------------------------------------------------------------- the match's own players
    for player in (a, b, c):
        rec = await double.slash(player, channel, "hokm puzzle")
        assert rec.ephemeral and rec.message is not None
        assert error_text(lang, "error.puzzle_none", {}) in rec.message.text
        assert not card_ids(rec.message)

    # ------------------------------------------------------------- right, then a second click
    rec = await double.slash(d, channel, "hokm puzzle")
    view = rec.message
    assert rec.ephemeral and view is not None and view.ephemeral_to == d.id
    ids = card_ids(view)
    assert len(ids) >= 3
    clicked = custom_ids.parse(ids[0])
    offer = await book.offer(guild.id, d.id)  # the same puzzle: not answered yet
    assert offer.puzzle_id == clicked.puzzle and check(offer.puzzle)
    p = offer.puzzle.position
    assert t(lang, "puzzle.intro", seat=seat_name(lang, p.to_play)) in view.text
    for hand in p.hands:  # every seat's cards are shown
        for card in range(len(ANY_CARDS)):
            if hand >> card & 1:
                assert ANY_CARDS[card].rank_code in view.text
    right = next(i for i in ids if custom_ids.parse(i).card == offer.puzzle.answer)
    rec = await double.click(d, view, custom_id=right)
    assert rec.response_type == 7  # answered in place
    answered = double.message(view.id)
    assert answered.ephemeral_to == d.id and not card_ids(answered)
    label = ANY_CARDS[offer.puzzle.answer].label
    assert "✅" in answered.text and label in answered.text
    assert t(lang, "puzzle.line") in answered.text
    counts = t(lang, "puzzle.counts", solved=number(lang, 1), tried=number(lang, 1))
    assert counts in answered.text

    # ------------------------------------------------------------- wrong, for another member
    manager = double.add_member(guild, "farid")
    rec = await double.slash(manager, channel, "hokm puzzle")
    view = rec.message
    assert view is not None and view.ephemeral_to == manager.id
    shown = custom_ids.parse(card_ids(view)[0]).puzzle
    stored = await hokm_bot.store.puzzle(guild.id, shown)
    assert stored is not None and stored.match_id == finished.match_id
    offer = await book.offer(guild.id, manager.id)
    wrong = next(i for i in card_ids(view) if custom_ids.parse(i).card != offer.puzzle.answer)
    rec = await double.click(manager, view, custom_id=wrong)
    answered = double.message(view.id)
    assert "❌" in answered.text and ANY_CARDS[offer.puzzle.answer].label in answered.text
    counts = t(lang, "puzzle.counts", solved=number(lang, 0), tried=number(lang, 1))
    assert counts in answered.text

    # ------------------------------------------------------------- forged: another message
    rec = await double.click(d, table_message(double, table), custom_id=right, stale=True)
    assert rec.ephemeral
    assert error_text(lang, "error.bad_button", {}) in (rec.message.text if rec.message else "")

    # ------------------------------------------------------------- the count in /standings
    rec = await double.slash(a, channel, "standings", {"member": d.id})
    assert rec.message is not None
    line = t(lang, "standings.member_puzzles", solved=number(lang, 1), tried=number(lang, 1))
    assert line in rec.message.text
    answers = [r for r in double.requests if "/interactions/" in r.template]
    assert answers and mention_problems(answers, lambda content: set()) == []  # nobody pinged
