"""``/hokm history`` lists the server's finished matches (or a member's),
ten a page, and each one's Replay opens a private view that steps through it hand by hand and
trick by trick with every hand shown. A live table is never replayed; another server's match
id, a forged step, another member's replay buttons get clear refusals; nobody is pinged.

One test walks it all (each e2e test costs seconds of set-up): English on SQLite, Persian on
PostgreSQL."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from bot.discord.client import HokmBot
from bot.present import custom_ids
from bot.present.i18n import number, t
from bot.present.render import error_text
from engine import CARDS
from engine.story import MatchStory, story
from tests.double.mentions import mention_problems
from tests.double.models import StoredMessage, User
from tests.double.server import DiscordDouble
from tests.matches import played

from .helpers import open_table, table_message

CARD = re.compile(r"(?<![0-9])(10|[2-9JQKA])[♠♥♦♣]")


def press(message: StoredMessage, label: str) -> str:
    """The custom_id of the enabled button ``label`` (labels may start with an RLM in Persian)."""
    found = [b for b in message.buttons() if (b.label or "").lstrip("\u200f") == label]
    assert len(found) == 1 and not found[0].disabled, [b.label for b in message.buttons()]
    return found[0].custom_id or ""


def replay_ids(message: StoredMessage) -> list[str]:
    return [
        x.custom_id or "" for x in message.buttons() if (x.custom_id or "").startswith("hokm:y:")
    ]


HAND_LINE = re.compile("^[^:]+: [\u2066-\u2068]*(?:[♠♥♣♦] |—)")
RANK = re.compile(r"(?<![0-9])(?:10|[2-9JQKA])(?![0-9])")


def cards_in_hands(text: str) -> list[int]:
    """How many cards each seat's line of a replay frame shows (``name: ♠ A K  ♥ 3``)."""
    lines = [line for line in text.splitlines() if HAND_LINE.match(line)]
    return [len(RANK.findall(line.split(": ", 1)[1])) for line in lines]


@pytest.mark.parametrize(
    ("bot_db_url", "lang"), [("sqlite", "en"), ("postgresql", "fa")], indirect=["bot_db_url"]
)
async def test_history_lists_pages_and_replays_finished_matches_only(
    discord_double: DiscordDouble, hokm_bot: HokmBot, lang: str
) -> None:
    double = discord_double
    guild, channel = double.guild, double.channel
    assert guild is not None and channel is not None
    if lang == "fa":
        await double.slash(double.manager, channel, "hokm settings", {"language": "fa"})
    a, b, c, d = double.members
    store = hokm_bot.store
    # eleven finished matches with their replays (c sat at three), one recorded before
    # replays were kept, and one of another server
    matches = []
    for n in range(11):
        third = c.id if n in (2, 5, 9) else None
        matches.append(played(100 + n, (a.id, b.id, third, d.id), guild.id, n))
    old = replace(played(99, (a.id, b.id, None, d.id), guild.id, -1), replay=None)
    elsewhere = played(200, (a.id, b.id, c.id, d.id), guild.id + 1, 20)
    for m in (*matches, old, elsewhere):
        assert await store.finish_match(m)

    # ------------------------------------------------------------- the listing, paged
    rec = await double.slash(a, channel, "hokm history")
    listing = rec.message
    assert listing is not None and not rec.ephemeral
    rows = [line for line in listing.text.splitlines() if re.match(r"^\u200f?\*\*", line)]
    assert len(rows) == 10
    newest = matches[-1]
    assert f"<t:{int(newest.finished_at.timestamp())}:f>" in rows[0]
    assert "player0" in rows[0] and "`Computer 2`" in rows[0]
    assert replay_ids(listing) == [f"hokm:y:{m.match_id}" for m in reversed(matches[1:])]
    page = t(
        lang, "history.page", page=number(lang, 1), pages=number(lang, 2), total=number(lang, 12)
    )
    assert page in listing.text
    rec = await double.click(b, listing, custom_id=press(listing, t(lang, "button.next")))
    assert rec.response_type == 7  # the page is edited in place
    listing = double.message(listing.id)
    assert replay_ids(listing) == [f"hokm:y:{matches[0].match_id}", f"hokm:y:{old.match_id}"]

    # ------------------------------------------------------------- one member's matches
    rec = await double.slash(a, channel, "hokm history", {"member": c.id})
    mine = rec.message
    assert mine is not None and f"<@{c.id}>" in mine.text
    ids = replay_ids(mine)
    assert ids == [f"hokm:y:{matches[n].match_id}" for n in (9, 5, 2)]

    # ------------------------------------------------------------- a replay, step by step
    told: MatchStory = story(matches[9].replay)
    assert len(told.hands) > 1  # the seed's match took more than one hand
    rec = await double.click(a, mine, custom_id=ids[0])
    view = rec.message
    assert rec.ephemeral and view is not None and view.ephemeral_to == a.id
    deal = view.text
    assert (
        t(lang, "replay.position", hand=number(lang, 1), hands=number(lang, told.hands[-1].number))
        in deal
    )
    assert cards_in_hands(deal) == [13, 13, 13, 13]  # every seat's cards, as play began
    rec = await double.click(a, view, custom_id=press(view, "▶"))
    assert rec.response_type == 7 and rec.message is not None and rec.message.id == view.id
    first = told.hands[0].tricks[0]
    text = double.message(view.id).text
    for _, card in first.plays(4):
        assert card.label in text
    assert cards_in_hands(text) == [12, 12, 12, 12]
    view = double.message(view.id)
    await double.click(a, view, custom_id=press(view, "⏭"))
    view = double.message(view.id)
    assert (
        t(
            lang,
            "replay.position",
            hand=number(lang, told.hands[1].number),
            hands=number(lang, told.hands[-1].number),
        )
        in view.text
    )
    await double.click(a, view, custom_id=press(view, "◀"))
    view = double.message(view.id)
    last = len(told.hands[0].tricks)
    assert t(lang, "replay.trick", n=number(lang, last), of=number(lang, last)) in view.text
    step = press(view, "▶")

    # ------------------------------------------------------------- refusals, nothing changed
    before = double.message(mine.id).text
    shown = double.message(view.id).text

    async def refused(user: User, cid: str, code: str, on: StoredMessage | None = None) -> None:
        on = on or mine
        rec = await double.click(user, on, custom_id=cid, stale=True)
        assert rec.ephemeral and rec.message is not None, rec.response_name
        assert rec.message.id != on.id  # a new private answer: the clicked message is kept
        assert rec.message.text == error_text(lang, code, {}), rec.message.text
        assert not CARD.search(rec.message.text)
        assert double.message(mine.id).text == before
        assert double.message(view.id).text == shown

    await refused(b, step, "error.replay_not_yours")  # a's replay buttons, pressed by b
    await refused(a, step, "error.bad_button")  # a step forged onto the public listing
    await refused(a, f"hokm:y:{old.match_id}", "error.replay_unavailable")
    await refused(a, f"hokm:y:{elsewhere.match_id}", "error.replay_unknown")
    forged = custom_ids.replay_step_id(matches[9].match_id, a.id, 40, 0, "forward")
    await refused(a, forged, "error.bad_button", on=view)  # a hand the match never had
    await refused(a, custom_ids.history_id(2, "n"), "error.bad_button", on=view)  # a page id
    assert mention_problems(double.requests, lambda content: set()) == []  # nobody pinged
    # a live table: never replayed, whoever asks, with its own words
    table = await open_table(double, hokm_bot, a)
    for user in (b, c, d):
        join = custom_ids.lobby_id(table.table_id, "join")
        await double.click(user, table_message(double, table), custom_id=join)
    assert table.status == "playing"
    await refused(b, f"hokm:y:{table.table_id}", "error.replay_live")
    rec = await double.slash(a, channel, "hokm history")
    assert rec.message is not None and len(replay_ids(rec.message)) == 10
    assert f"hokm:y:{table.table_id}" not in replay_ids(rec.message)  # not a finished match
    assert all(card.label not in before for card in CARDS)  # the listing shows no card
