"""The races behind "one doubled action": two bot processes on one PostgreSQL, each
a ``TableService`` on its own ``Store``, racing for one move. By construction a move cannot be
stored twice: every save names the version it replaces (``UPDATE … WHERE version = n``), the
loser of a race gets ``StaleWrite``, reloads, and runs its action again on the state the winner
stored, where the engine refuses what is no longer that seat's move. These tests run each race
the soak can produce and check the store holds each move once:

- a member's click on one process while the serving process's timer times that seat out;
- two processes timing the same due move (a restarted process and the one that adopted its
  table while it was down), computers' moves and time-outs alike;
- a process killed between its store write and its answer (no answer, no log line): the
  member's click again, on another process, is refused; the restarted process resumes from the
  stored state and replays nothing.
"""

from __future__ import annotations

import asyncio
from typing import Any

from bot.service.errors import ActionError
from bot.service.ports import Update
from bot.service.service import TableService
from bot.service.table import Table
from bot.service.turns import VISITOR_GRACE
from engine import Card, Suit

from .fakes import FakeClock
from .helpers import GUILD, Make, four_people, greedy, match_of, user_at, with_computers
from .test_shared_tables import move, name, stored_match


async def fire_together(clock: FakeClock, *also: Any) -> list[Any]:
    """Every timer due now fired at once (not one by one, as ``advance`` does), with
    ``also`` (a click, say) running at the same moment; what ``also`` returned or raised."""
    due = [h for h in clock.pending if h.when <= clock()]
    for handle in due:
        handle.cancel()  # fired here, not again by a later advance
        handle.callback()
    results = await asyncio.gather(*also, return_exceptions=True)
    await clock.settle()
    return list(results)


async def stored_actions(service: TableService, table_id: str) -> list[str]:
    return [name(a) for a in (await stored_match(service, table_id)).actions]


def other_choice(table: Table) -> Card | Suit:
    """A legal move of the seat to act that is not the time-out's (greedy) one, when there is
    one: the stored move then says who made it."""
    match = match_of(table)
    timed = greedy(table)
    if isinstance(timed, Suit):
        return next(s for s in Suit if s != timed)
    legal = match.legal_cards(match.to_act)
    return next((c for c in legal if c != timed), timed)


async def test_a_click_on_one_process_racing_the_other_s_time_out_stores_one_move(
    processes: Make, clock: FakeClock
) -> None:
    """The member's click reaches the DM process (a copy of the table, often stale) just as
    the serving process's timer times the seat out (R14): both at once, or the click first
    and the timer then on its own copy, now stale. Whichever saves first is the move; the
    other finds a newer version, reloads, and is refused there (the seat has played) or finds
    nothing due. Each turn is stored once: the click's card or the time-out's, never both,
    and a click answered as played is the one stored."""
    home = await processes()
    dm = await processes(owns=lambda guild_id: guild_id != GUILD)
    table = await four_people(home)
    tid = table.table_id
    await dm.held(tid)
    outcomes: set[str] = set()
    for turn in range(24):
        match = match_of(table)
        if match.phase == "play" and len(match.current_trick()) == 3:
            await move(home, table, user_at(table, match.to_act), greedy(table))
            continue  # the trick's last card may give the seat the lead: not this race
        before = await stored_actions(home, tid)
        seat, hand = match.to_act, match.hand_number
        timed, clicked = str(greedy(table)), other_choice(table)
        assert table.deadline is not None
        clock.now = table.deadline + 0.01
        if isinstance(clicked, Card):
            click = dm.play_card(tid, user_at(table, seat), hand, clicked)
        else:
            click = dm.choose_trump(tid, user_at(table, seat), hand, clicked)
        if turn % 2:  # the click first, then the serving process's timer on its stale copy
            (result,) = await asyncio.gather(click, return_exceptions=True)
            await fire_together(clock)
        else:
            (result,) = await fire_together(clock, click)
        after = await stored_actions(home, tid)
        assert len(after) == len(before) + 1, (turn, after[len(before) :])
        assert after[: len(before)] == before
        if isinstance(result, Update) and result.refusal is None:
            assert after[-1] == str(clicked)
            outcomes.add("click")
        else:  # refused; or taken back from the computer (two misses), the card refused
            assert isinstance(result, ActionError | Update), result
            assert after[-1] == timed
            outcomes.add("time-out")
    assert outcomes == {"click", "time-out"}  # both sides of the race were run


async def test_two_processes_timing_one_table_store_each_due_move_once(
    processes: Make, clock: FakeClock
) -> None:
    """A restarted process and the one that adopted its table while it was down both time
    the table on time: both timers fire for each due move (a computer's, then a member's
    time-outs and the computer playing for them). One save wins each; the other reloads."""
    one = await processes()
    two = await processes()  # serves the same servers: both time it with no lag
    table = await with_computers(one, difficulty="easy")
    tid = table.table_id
    there = await two.held(tid)
    for _ in range(30):
        before = await stored_actions(one, tid)
        due = [t for t in (table.deadline, table.computer_due) if t is not None]
        due_there = [t for t in (there.deadline, there.computer_due) if t is not None]
        assert due and due == due_there  # both copies wait for the same move
        clock.now = min(due) + 0.01
        await fire_together(clock)
        after = await stored_actions(one, tid)
        assert len(after) == len(before) + 1
        assert after[: len(before)] == before
        assert table.version == there.version  # the loser reloaded the winner's state
        if table.status != "playing":
            break
    assert table.seat(0).autoplay  # the member timed out twice: the computer played for them


async def test_a_process_killed_between_its_write_and_its_answer_leaves_one_move(
    processes: Make, clock: FakeClock
) -> None:
    """A process stores a member's card and dies before answering (and before its log
    line). The member, unanswered, clicks the same card again; it reaches another process,
    whose copy is stale: refused there, once it has the stored state. The killed process,
    started again, resumes from the store and times the next seat, not this one again; the
    other's late timer finds the move made."""
    dying = await processes()
    other = await processes(owns=lambda guild_id: guild_id != GUILD)
    table = await four_people(dying)
    tid = table.table_id
    await move(dying, table, user_at(table, 0), greedy(table))  # the hakem's trump
    stale = await other.held(tid)
    start = await stored_actions(dying, tid)
    seat, hand = match_of(table).to_act, match_of(table).hand_number
    card = greedy(table)
    assert isinstance(card, Card)

    written = dying.keeper.store_update

    async def write_then_die(t: Table, update: Update, by: str) -> None:
        await written(t, update, by)
        raise asyncio.CancelledError  # SIGKILL: nothing after the write runs

    dying.keeper.store_update = write_then_die  # type: ignore[method-assign]
    try:
        await dying.play_card(tid, user_at(table, seat), hand, card)
    except asyncio.CancelledError:
        pass
    else:
        raise AssertionError("the process answered after all")
    await dying.close()
    assert await stored_actions(other, tid) == [*start, str(card)]

    again = await asyncio.gather(
        other.play_card(tid, user_at(stale, seat), hand, card), return_exceptions=True
    )
    assert isinstance(again[0], ActionError), again
    assert again[0].code in ("error.already_played", "error.not_your_turn")
    assert await stored_actions(other, tid) == [*start, str(card)]

    back = await processes()
    (resumed,) = await back.restore()
    assert match_of(resumed).to_act == (seat + 1) % 4
    assert resumed.deadline is not None
    await clock.advance(resumed.deadline - clock() + 0.01)  # the next seat times out
    await clock.advance(VISITOR_GRACE)  # the other's late timer: nothing left due
    stored = await stored_actions(back, tid)
    assert stored[: len(start) + 1] == [*start, str(card)]
    assert len(stored) == len(start) + 2
    assert stored.count(str(card)) == 1
