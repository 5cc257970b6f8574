"""V6 Shelem's Replay end to end, through the real discord.py against the
double: a member and three computers play a Shelem match to its end; ``/hokm history`` lists
it with a Replay button; the Replay, private to the member who opened it, steps through the
match trick by trick and hand by hand, with the bidding, the kitty and the laid-down cards
and every seat's cards; another member's click on that view, a forged step and a live Shelem
table get the Hokm replay's refusals; nobody is pinged.

English on SQLite, Persian on PostgreSQL (``each_language_once``)."""

from __future__ import annotations

import random

from bot.present import custom_ids
from bot.present.history import short_format
from bot.present.i18n import number, t, word
from bot.present.render import error_text
from bot.store.guild_settings import GuildSettings
from engine.shelem import ShelemMatch
from engine.shelem.story import ShelemStory, story
from tests.double.mentions import mention_problems
from tests.double.models import StoredMessage, User
from tests.double.server import DiscordDouble
from tests.reliability.leaks import REPLAY_STEP

from .conftest import BotFactory, each_language_once
from .helpers import open_table, table_message
from .shelem_players import play_out
from .test_history import CARD, RANK, press, replay_ids


def seat_cards(text: str) -> list[int]:
    """How many cards each seat's line shows: the four lines after the frame's blank line."""
    seats = text.split("\n\n", 1)[1].splitlines()[:4]
    return [len(RANK.findall(line.rsplit(": ", 1)[1])) for line in seats]


@each_language_once()
async def test_v6_a_finished_shelem_match_replays_from_history_and_a_live_one_never(
    discord_double: DiscordDouble, make_bot: BotFactory, lang: str
) -> None:
    double = discord_double
    guild, channel = double.guild, double.channel
    assert guild is not None and channel is not None
    bot = await make_bot(match_seed_base=41)
    if lang == "fa":
        await bot.store.set_guild_settings(guild.id, GuildSettings(language="fa"))
    a, b, c, _ = double.members
    chosen = {"format": "shelem", "shelem_target": 200, "difficulty": "easy"}
    table = await open_table(double, bot, a, chosen)
    await double.click(
        a, table_message(double, table), custom_id=custom_ids.lobby_id(table.table_id, "start")
    )
    assert table.status == "playing" and isinstance(table.match, ShelemMatch)
    await play_out(double, bot, table, {u.id: u for u in double.members}, random.Random(5))
    match = table.match
    assert match.is_over

    # ------------------------------------------------------------- the listing: a Replay
    since = len(double.requests)  # the match's start pinged its member; nothing after it may
    rec = await double.slash(a, channel, "hokm history")
    listing = rec.message
    assert listing is not None and short_format(lang, "shelem") in listing.text
    ids = replay_ids(listing)
    assert ids == [f"hokm:y:{table.table_id}"]
    stored = await bot.store.match_replay(guild.id, table.table_id)
    assert stored is not None and stored.replay is not None
    told: ShelemStory = story(stored.replay)
    assert [h.result for h in told.hands] == match.hand_results
    assert len(told.hands) > 1  # the seed's match took more than one hand

    # ------------------------------------------------------------- the replay, step by step
    rec = await double.click(a, listing, custom_id=ids[0])
    view = rec.message
    assert rec.ephemeral and view is not None and view.ephemeral_to == a.id
    hands = number(lang, told.hands[-1].number)
    assert t(lang, "replay.position", hand=number(lang, 1), hands=hands) in view.text
    assert word(lang, "shelem.auction").split("{")[0] in view.text  # the bidding
    assert word(lang, "table.hakem").split("{")[0] in view.text
    first = told.hands[0]
    kitty = "replay.shelem_kitty_aside" if first.bid == 2000 else "replay.shelem_kitty"
    assert word(lang, kitty).split("{")[0] in view.text  # the kitty: a finished match
    assert seat_cards(view.text) == [12, 12, 12, 12]  # every seat's cards, as play began
    steps = [b.custom_id or "" for b in view.buttons()]
    assert len(steps) == 4 and all(REPLAY_STEP.match(cid) for cid in steps)  # leaks.py's rule
    await double.click(a, view, custom_id=press(view, "▶"))
    view = double.message(view.id)
    for _, card in first.tricks[0].plays(4):
        assert card.label in view.text
    assert seat_cards(view.text) == [11, 11, 11, 11]
    await double.click(a, view, custom_id=press(view, "⏭"))
    view = double.message(view.id)
    second = number(lang, told.hands[1].number)
    assert t(lang, "replay.position", hand=second, hands=hands) in view.text
    await double.click(a, view, custom_id=press(view, "◀"))
    view = double.message(view.id)
    assert t(lang, "replay.trick", n=number(lang, 12), of=number(lang, 12)) in view.text
    step = press(view, "◀")

    # ------------------------------------------------------------- refusals, nothing changed
    shown = view.text
    before = double.message(listing.id).text

    async def refused(user: User, cid: str, code: str, on: StoredMessage) -> None:
        rec = await double.click(user, on, custom_id=cid, stale=True)
        assert rec.ephemeral and rec.message is not None, rec.response_name
        assert rec.message.id != on.id
        assert rec.message.text == error_text(lang, code, {}), rec.message.text
        assert not CARD.search(rec.message.text)
        assert double.message(view.id).text == shown
        assert double.message(listing.id).text == before

    await refused(b, step, "error.replay_not_yours", listing)  # a's replay button, b's click
    await refused(a, step, "error.bad_button", listing)  # a step forged onto the listing
    forged = custom_ids.replay_step_id(table.table_id, a.id, len(told.hands), 0, "forward")
    await refused(a, forged, "error.bad_button", view)  # a hand the match never had
    assert mention_problems(double.requests[since:], lambda content: set()) == []  # no ping
    # a live Shelem table (its start pings its members): never replayed, nor listed
    live = await open_table(double, bot, b, chosen)
    await double.click(
        c, table_message(double, live), custom_id=custom_ids.lobby_id(live.table_id, "join")
    )
    await double.click(
        b, table_message(double, live), custom_id=custom_ids.lobby_id(live.table_id, "start")
    )
    assert live.status == "playing" and isinstance(live.match, ShelemMatch)
    await refused(a, f"hokm:y:{live.table_id}", "error.replay_live", listing)
    await refused(c, f"hokm:y:{live.table_id}", "error.replay_live", listing)  # seated: no
    rec = await double.slash(c, channel, "hokm history")
    assert rec.message is not None and replay_ids(rec.message) == ids
