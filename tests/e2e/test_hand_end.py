"""The real bot against the Discord double, in English and
Persian: how the end of a hand reads to players.

1. The trick that decided a hand (who played what, who took it) is in the hand's result in
   the channel, and in the table message and every player's hand message until the next
   hand's first move.
2. The last card's answer carries the hand's result (who took it, the points, the score), and
   so does every other player's DM; at the match's end too.
3. The table message of a hand never shows the trump an earlier hakem named.

Every seat is a member, so the table waits for a person at the next hand's first move; the
members' moves up to the last card go through the service (``fast_forward``), the last card
and the first move after it through their DMs. The hidden-hands checker walks every message.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

import pytest

from bot.discord.client import HokmBot
from bot.present import custom_ids
from bot.present.hand_end import HandEnd, deciding_line, end_of
from bot.present.hand_over import result_line
from bot.present.i18n import suit_label, t
from bot.service.table import Table
from bot.service.variants import Decision, ShelemDecision
from engine import Card, Match, Suit, Trick
from engine.shelem import BID, DISCARD, MODE, GreedyShelemPlayer, ShelemMatch
from engine.shelem import seat_view as shelem_view
from tests.double.models import StoredMessage, User
from tests.double.server import DiscordDouble
from tests.reliability.inproc import until
from tests.reliability.leaks import HandWatcher, leaks
from tests.reliability.script import button_id, member_choice

from .conftest import BotFactory
from .helpers import open_table, table_message

NAMES = ("amir", "bahar", "cyrus", "dara", "ela", "farid")
SEATS = {"standard": 4, "three": 3, "joker_six": 6, "shelem": 4}
SEEDS = {"standard": 5, "three": 7, "joker_six": 11, "shelem": 17}
CASES = [
    pytest.param(fmt, db, lang, id=f"{fmt}-{lang}")
    for fmt in SEATS
    for db, lang in (("sqlite", "en"), ("postgresql", "fa"))
]
"""Every format the issue names, in English on SQLite and in Persian on PostgreSQL."""


async def members_table(
    double: DiscordDouble, bot: HokmBot, fmt: str, lang: str, **options: object
) -> Table:
    """Members named amir, bahar, … at every seat of a ``fmt`` table in ``lang``; the match
    has started."""
    assert double.guild is not None and double.channel is not None
    while len(double.members) < SEATS[fmt]:
        double.members.append(double.add_member(double.guild, NAMES[len(double.members)]))
    people = double.members[: SEATS[fmt]]
    for user, name in zip(people, NAMES, strict=False):
        user.global_name = name
    if lang == "fa":
        assert double.manager is not None
        await double.slash(double.manager, double.channel, "hokm settings", {"language": "fa"})
    host, *others = people
    chosen: dict[str, object] = {"format": fmt, "turn_seconds": 60} | options
    table = await open_table(double, bot, host, chosen)
    for user in others:
        join = custom_ids.lobby_id(table.table_id, "join")
        await double.click(user, table_message(double, table), custom_id=join)
    assert table.status == "playing" and len(table.seats) == SEATS[fmt]
    assert all(s is not None and not s.is_computer for s in table.seats)
    return table


# ----------------------------------------------------------------------- moves


def shelem_choice(match: ShelemMatch) -> Card | ShelemDecision:
    """The greedy player's decision for the seat to act (a member's, here)."""
    view = shelem_view(match, match.to_act)
    player = GreedyShelemPlayer()
    if match.phase == BID:
        return ShelemDecision("bid", player.choose_bid(view))
    if match.phase == DISCARD:
        return ShelemDecision("discard", cards=player.choose_discard(view))
    if match.phase == MODE:
        return ShelemDecision("mode", mode=player.choose_mode(view))
    return player.choose_card(view)


async def move(bot: HokmBot, table: Table) -> None:
    """The member to act makes their move through the service (no Discord): the script's
    (``member_choice``) at Hokm, the greedy player's at Shelem."""
    match = table.match
    assert match is not None
    user, tid, shelem = table.seat(match.to_act).user_id or 0, table.table_id, bot.service.shelem
    if isinstance(match, ShelemMatch):
        choice = shelem_choice(match)
        if isinstance(choice, Card):
            await bot.service.play_card(tid, user, match.hand_number, choice)
        elif choice.kind == "bid":
            await shelem.bid(tid, user, match.deal_number, choice.value)
        elif choice.kind == "discard":
            await shelem.lay_down(tid, user, match.deal_number, choice.cards)
        else:
            await shelem.announce(tid, user, match.deal_number, choice.mode)
        return
    hokm = member_choice(match, match.to_act)
    if isinstance(hokm, Suit):
        await bot.service.choose_trump(tid, user, match.hand_number, hokm)
    elif isinstance(hokm, Decision):
        await bot.service.decide(tid, user, match.hand_number, hokm)
    else:
        await bot.service.play_card(tid, user, match.hand_number, hokm)


def deciding_trick(table: Table) -> Trick | None:
    """The trick the next move would complete, if that move ends the hand (on a copy)."""
    match = table.match
    assert match is not None
    if isinstance(match, ShelemMatch):
        if match.phase != "play" or len(match.tricks) != 11 or len(match.trick) != 3:
            return None
        card = shelem_choice(match)
        assert isinstance(card, Card)
        trial: Match | ShelemMatch = copy.deepcopy(match)
        events: tuple[object, ...] = tuple(trial.play(trial.to_act, card))
    else:
        choice = member_choice(match, match.to_act)
        if match.phase != "play" or not isinstance(choice, Card):
            return None
        trial = copy.deepcopy(match)
        events = tuple(trial.play(trial.to_act, choice))
    if trial.hand_number == match.hand_number and not trial.is_over:
        return None
    return next(e for e in events if isinstance(e, Trick))


async def to_last_card(bot: HokmBot, table: Table) -> Trick:
    """Play members' moves through the service until the next card ends a hand."""
    for _ in range(800):
        trick = deciding_trick(table)
        if trick is not None:
            return trick
        await move(bot, table)
    raise AssertionError("no hand ended")


def user_of(double: DiscordDouble, table: Table, seat: int) -> User:
    return next(u for u in double.members if u.id == table.seat(seat).user_id)


async def dm_with(double: DiscordDouble, user: User, custom_id: str) -> StoredMessage:
    """The user's newest DM holding the button ``custom_id`` (waiting for it)."""
    return await double.wait_for_dm(
        user, lambda m: any(b.custom_id == custom_id for b in m.buttons()), timeout=15
    )


async def click_next_move(double: DiscordDouble, table: Table) -> StoredMessage:
    """The member to act clicks their move in their DM; the message their click edited."""
    match = table.match
    assert match is not None
    user = user_of(double, table, match.to_act)
    if isinstance(match, ShelemMatch):
        choice = shelem_choice(match)
        if isinstance(choice, Card):
            cid = custom_ids.card_id(table.table_id, match.hand_number, choice)
        else:
            assert choice.kind == "bid", choice
            cid = custom_ids.shelem_bid_id(table.table_id, match.deal_number, choice.value)
    else:
        cid = button_id(table.table_id, match.hand_number, member_choice(match, match.to_act))
    dm = await dm_with(double, user, cid)
    record = await double.click(user, dm, custom_id=cid)
    assert record.response_type == 7, record.response_name  # the answer, in place
    return double.message(dm.id)


def expected_line(table: Table, hand: int, trick: Trick) -> str:
    """The English line, spelled out apart from the presenter."""
    names = [table.seat(i).name for i in range(len(table.seats))]
    cards = " · ".join(f"{names[s]} {c.label}" for s, c in trick.plays(len(table.seats)))
    return f"Hand {hand} ended with trick {trick.number}: {cards} → {names[trick.winner]}"


# ----------------------------------------------------------------------- the hand's end


@dataclass
class HandEndSeen:
    """A table just after hand 1's last card was clicked in a DM, with what must show."""

    table: Table
    bot: HokmBot
    watcher: HandWatcher
    hand: int
    trick: Trick
    """The trick that ended ``hand``, as the engine took it."""
    last: int
    """The seat that played the last card."""
    answer: StoredMessage
    """The message that card's click edited (the answer, in place)."""
    result: str
    """Hand 1's result line, as the channel is told it before this issue too."""
    ended: str
    """The line of the trick that ended hand 1, rendered from the trick taken."""


async def end_of_hand_1(
    double: DiscordDouble, make_bot: BotFactory, fmt: str, lang: str
) -> HandEndSeen:
    bot = await make_bot(match_seed_base=SEEDS[fmt])
    watcher = HandWatcher.install(bot)
    table = await members_table(double, bot, fmt, lang)
    match = table.match
    assert match is not None
    trick = await to_last_card(bot, table)
    hand, last = match.hand_number, match.to_act
    await until(lambda: bot.outbox.backlog == 0, what="the DMs to show the hand so far")
    answer = await click_next_move(double, table)
    assert match.hand_number == hand + 1 and not match.is_over
    moves = len(match.actions)  # nobody has moved in hand 2 yet
    ended = deciding_line(table, lang, HandEnd(hand, trick, moves))
    if lang == "en":
        assert ended == expected_line(table, hand, trick)
    else:
        assert ended.startswith("دور \u2068۱\u2069 با دست ")
        assert all(table.seat(s).name in ended for s, _ in trick.plays(len(table.seats)))
    result = result_line(table, lang, hand)
    assert result is not None
    return HandEndSeen(table, bot, watcher, hand, trick, last, answer, result, ended)


def no_leaks(double: DiscordDouble, seen: HandEndSeen) -> None:
    found = leaks(double, seen.watcher)
    assert found == [], [(f.viewer, f.cards, f.text) for f in found]


@pytest.mark.parametrize(("fmt", "bot_db_url", "lang"), CASES, indirect=["bot_db_url"])
async def test_item_1_the_trick_that_ended_a_hand_shows_until_the_next_first_move(
    discord_double: DiscordDouble, make_bot: BotFactory, fmt: str, lang: str
) -> None:
    """Hand 1's last card is clicked in a DM: the channel's report of the hand, the table
    message and every other member's DM say which cards its last trick held, who played them
    and who took it; once the next hand's first move is made (trump named, a bid), the table
    message and that member's answer no longer do. No card of hand 2 shows anywhere but in
    its holder's DM (the checker walks the new lines too)."""
    double = discord_double
    channel = double.channel
    assert channel is not None
    seen = await end_of_hand_1(double, make_bot, fmt, lang)
    table, ended = seen.table, seen.ended
    match = table.match
    assert match is not None
    moves = len(match.actions)
    await double.wait_for_message(
        channel, lambda m: seen.result in m.text and ended in m.text, timeout=15
    )
    await double.wait_until(
        lambda: ended in table_message(double, table).text, timeout=10, what="the trick shown"
    )
    for seat in range(len(table.seats)):
        if seat != seen.last:
            user = user_of(double, table, seat)
            await double.wait_for_dm(user, lambda m: ended in m.text, timeout=15)
    assert len(match.actions) == moves  # all that while, nobody moved in hand 2
    assert end_of(table, seen.hand) == HandEnd(seen.hand, seen.trick, moves)  # the service's
    first = await click_next_move(double, table)  # trump named, or a bid
    assert len(match.actions) == moves + 1 and ended not in first.text, first.text
    await double.wait_until(
        lambda: ended not in table_message(double, table).text,
        timeout=10,
        what="the table message to move on",
    )
    await until(lambda: seen.bot.outbox.backlog == 0, what="the outbox to drain")
    no_leaks(double, seen)


@pytest.mark.parametrize(("fmt", "bot_db_url", "lang"), CASES, indirect=["bot_db_url"])
async def test_item_2_the_last_cards_answer_and_every_dm_carry_the_hands_result(
    discord_double: DiscordDouble, make_bot: BotFactory, fmt: str, lang: str
) -> None:
    """The answer to hand 1's last card says who took the hand, the points and the score (the
    result the channel gets) and the trick that ended it, and so does every other member's DM
    before the next hand's first move; not only "This hand is over."."""
    double = discord_double
    seen = await end_of_hand_1(double, make_bot, fmt, lang)
    table = seen.table
    assert seen.result in seen.answer.text and seen.ended in seen.answer.text, seen.answer.text
    assert t(lang, "hand.over") not in seen.answer.text
    for seat in range(len(table.seats)):
        if seat != seen.last:
            user = user_of(double, table, seat)
            await double.wait_for_dm(user, lambda m: seen.result in m.text, timeout=15)
    await until(lambda: seen.bot.outbox.backlog == 0, what="the outbox to drain")
    no_leaks(double, seen)


@pytest.mark.parametrize(
    ("bot_db_url", "lang"), [("sqlite", "en"), ("postgresql", "fa")], indirect=["bot_db_url"]
)
async def test_item_2_the_last_card_of_a_match_is_answered_with_its_result(
    discord_double: DiscordDouble, make_bot: BotFactory, lang: str
) -> None:
    """At the match's end (a standard table to 1 point): the last card's answer says who took
    the hand, the points and the final score, and the trick that ended it, rather than only
    "This hand is over."; so does every other member's DM of that hand."""
    double = discord_double
    bot = await make_bot(match_seed_base=5)
    table = await members_table(double, bot, "standard", lang, target_score=1)
    match = table.match
    assert match is not None
    trick = await to_last_card(bot, table)
    clicker = match.to_act
    await until(lambda: bot.outbox.backlog == 0, what="the DMs to show the hand so far")
    answer = await click_next_move(double, table)
    assert match.is_over and table.status == "finished"
    hand = match.hand_results[-1].number
    result = result_line(table, lang, hand)
    assert result is not None
    ended = deciding_line(table, lang, HandEnd(hand, trick, len(match.actions)))
    assert result in answer.text and ended in answer.text, answer.text
    assert t(lang, "hand.over") not in answer.text and not answer.buttons()
    for seat in range(len(table.seats)):  # and every other member's DM of that hand
        if seat != clicker:
            user = user_of(double, table, seat)
            await double.wait_for_dm(
                user, lambda m: result in m.text and ended in m.text, timeout=15
            )


# ----------------------------------------------------------------------- item 3


@pytest.mark.parametrize(
    ("bot_db_url", "lang"), [("sqlite", "en"), ("postgresql", "fa")], indirect=["bot_db_url"]
)
async def test_item_3_a_hands_table_message_never_names_an_earlier_hands_trump(
    discord_double: DiscordDouble, make_bot: BotFactory, lang: str
) -> None:
    """At ``three``: while hand 2's hakem chooses trump, the table message says so and no
    longer that hand 1's hakem named their trump; once hand 2's trump is named, its own line
    shows, and still not hand 1's."""
    double = discord_double
    seen = await end_of_hand_1(double, make_bot, "three", lang)
    table = seen.table
    match = table.match
    assert isinstance(match, Match)
    first = match.hand_results[0]
    named = t(
        lang,
        "report.trump_named",
        name=table.seat(first.hakem).name,
        suit=suit_label(lang, first.trump),
    )
    choosing = t(lang, "table.trump_pending", name=table.seat(match.hakem).name)
    await double.wait_until(
        lambda: choosing in table_message(double, table).text, timeout=10, what="hand 2's trump"
    )
    assert named not in table_message(double, table).text
    await click_next_move(double, table)  # hand 2's hakem names trump
    assert match.trump is not None
    now = t(
        lang,
        "report.trump_named",
        name=table.seat(match.hakem).name,
        suit=suit_label(lang, match.trump),
    )
    await double.wait_until(
        lambda: now in table_message(double, table).text, timeout=10, what="hand 2's trump line"
    )
    assert named != now and named not in table_message(double, table).text
