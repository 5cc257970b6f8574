"""The several-process bench's checks: a card click the bot accepted must
be in the store as that member's play in that hand of that table (else ``actions_lost``), and
every stored play of a member must be one of their clicks or a timer's move a process logged
(else ``actions_doubled``, with its writers); a move no line names while a process was killed
around it is the audit's false positive, not a double; a killed process's tables are measured
by their pause across the kill."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from typing import Any, cast

import pytest

from bench.audit import (
    Answer,
    Ledger,
    ProcessLog,
    StoredPlay,
    StoredTable,
    audit,
    stored_plays,
    writes_of,
)
from bench.processes import Kill, Progress, kill_order, kill_report, rotation_report
from bot.present import custom_ids
from bot.service.service import TableService
from bot.store import Store
from engine import Card, Match
from engine.rules import STANDARD, Rules
from tests.service.fakes import FakeClock, FakeStore
from tests.service.helpers import HAKEM_0_SEED, click_greedy, four_people, match_of

TABLE = "0123456789ab"
OTHER = "ba9876543210"
CHANNEL = 50
USERS = [11, None, 13, None]
T0 = time.mktime(time.strptime("2026-12-02 10:00:00", "%Y-%m-%d %H:%M:%S"))


def _cid(hand: int, code: str, table: str = TABLE) -> str:
    return custom_ids.card_id(table, hand, Card.parse(code))


def _click(ledger: Ledger, user: int, hand: int, code: str, table: str = TABLE) -> None:
    ledger.accepted(user, _cid(hand, code, table), Answer(0, "dm", T0))


def _table(plays: list[tuple[int, int, str]], table: str = TABLE) -> StoredTable:
    """Plays as (hand, seat, card), numbered as moves 1, 2, …"""
    numbered = [StoredPlay(i, h, s, c) for i, (h, s, c) in enumerate(plays, start=1)]
    return StoredTable(table, 9, CHANNEL, list(USERS), numbered)


def _line(second: int, words: str, v: int, move: int, by: str, pid: int = 100) -> str:
    stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(T0 + second))
    return (
        f"{stamp},000 INFO bot.service.commits: table {TABLE}: {words} "
        f"(v={v} move={move} by={by} pid={pid})"
    )


def _logs(*lines: str, pid: int = 100, killed_at: float | None = None) -> list[ProcessLog]:
    return [ProcessLog(1, pid, "\n".join(lines), killed_at)]


def test_a_played_click_found_in_the_store_is_neither_lost_nor_doubled() -> None:
    ledger = Ledger()
    _click(ledger, 11, 1, "AS")
    result = audit(ledger, [_table([(1, 0, "AS"), (1, 1, "2S")])], [])
    assert result["actions_lost"] == 0
    assert result["actions_doubled"] == 0
    assert result["accepted_card_clicks"] == 1
    assert result["actions_doubled_detail"] == []


def test_an_accepted_click_missing_from_the_store_is_lost() -> None:
    ledger = Ledger()
    _click(ledger, 11, 1, "AS")
    _click(ledger, 13, 1, "KS")  # the store never got it
    assert audit(ledger, [_table([(1, 0, "AS")])], [])["actions_lost"] == 1
    # the same card in another hand is not that play either
    assert audit(ledger, [_table([(2, 0, "AS")])], [])["actions_lost"] == 2


def test_a_click_answered_as_played_twice_is_doubled_with_both_answers_and_the_writer() -> None:
    ledger = Ledger()
    _click(ledger, 11, 1, "AS")
    ledger.accepted(11, _cid(1, "AS"), Answer(2, "my_hand", T0 + 1))
    logs = _logs(_line(0, "card_played seat=0 hand=1", v=5, move=1, by="action"))
    found = audit(ledger, [_table([(1, 0, "AS")])], logs)
    assert found["actions_doubled"] == 1
    (case,) = found["actions_doubled_detail"]
    assert case["kind"] == "answered as played twice"
    assert (case["table"], case["seat"], case["hand"], case["card"]) == (TABLE, 0, 1, "AS")
    assert [w.split(" (")[0] for w in case["writers"]] == [
        "answered by shard 0",
        "answered by shard 2",
    ]
    assert case["stored"][0].startswith("shard 1 pid 100 stored v5 move 1 (a click)")


def test_the_same_card_in_the_same_hand_of_two_tables_of_one_channel_is_two_plays() -> None:
    """A channel hosts one table after another: hand 1 of the next match is not hand 1 of
    the last one (the audit once keyed plays by channel, and a long run counted doubles)."""
    ledger = Ledger()
    _click(ledger, 11, 1, "AS")
    _click(ledger, 11, 1, "AS", table=OTHER)
    tables = [_table([(1, 0, "AS")]), _table([(1, 0, "AS")], table=OTHER)]
    found = audit(ledger, tables, [])
    assert (found["actions_doubled"], found["actions_lost"]) == (0, 0)
    assert found["accepted_card_clicks"] == 2


def test_a_member_s_stored_play_nobody_made_is_doubled_unless_a_timer_line_names_it() -> None:
    ledger = Ledger()
    table = _table([(1, 0, "AS"), (1, 1, "2S"), (1, 2, "KS")])  # seat 2 (user 13) never clicked
    _click(ledger, 11, 1, "AS")
    found = audit(ledger, [table], [])
    assert found["actions_doubled"] == 1
    (case,) = found["actions_doubled_detail"]
    assert case["kind"] == "stored, no click of theirs"
    assert (case["seat"], case["hand"], case["card"], case["move"]) == (2, 1, "KS", 3)
    assert case["writers"] == ["no line names it"]

    timeout = _line(20, "timeout seat=2, card_played seat=2 hand=1", v=9, move=3, by="timer")
    assert audit(ledger, [table], _logs(timeout))["actions_doubled"] == 0
    computer = _line(20, "card_played seat=2 hand=1", v=9, move=3, by="timer")
    assert audit(ledger, [table], _logs(computer))["actions_doubled"] == 0
    # a line of another move, or another seat, explains nothing
    for line in (
        _line(20, "timeout seat=2, card_played seat=2 hand=1", v=9, move=4, by="timer"),
        _line(20, "timeout seat=0, card_played seat=0 hand=1", v=9, move=3, by="timer"),
    ):
        assert audit(ledger, [table], _logs(line))["actions_doubled"] == 1
    # a click line the bench never sent: the bot applied a click nobody made
    clicked = _line(20, "card_played seat=2 hand=1", v=9, move=3, by="action")
    found = audit(ledger, [table], _logs(clicked))
    assert found["actions_doubled"] == 1
    assert found["actions_doubled_detail"][0]["writers"][0].startswith(
        "shard 1 pid 100 stored v9 move 3 (a click)"
    )
    # a click the bot applied but answered too late is the member's move all the same
    ledger.sent(13, _cid(1, "KS"))
    assert audit(ledger, [table], [])["actions_doubled"] == 0


def test_a_move_no_line_names_is_a_false_positive_when_its_writer_was_killed() -> None:
    """A process that stored a move and was killed before writing its line leaves a move no
    line names; with a kill between the table's lines around it, that is no double."""
    ledger = Ledger()
    _click(ledger, 11, 1, "AS")
    table = _table([(1, 0, "AS"), (1, 1, "2S"), (1, 2, "KS"), (1, 3, "3S")])
    before = _line(10, "card_played seat=1 hand=1", v=6, move=2, by="timer", pid=100)
    after = _line(40, "card_played seat=3 hand=1", v=8, move=4, by="timer", pid=200)
    alive = [*_logs(before, pid=100), ProcessLog(2, 200, after)]
    assert audit(ledger, [table], alive)["actions_doubled"] == 1  # nobody was killed

    killed = [*_logs(before, pid=100, killed_at=T0 + 25), ProcessLog(2, 200, after)]
    found = audit(ledger, [table], killed)
    assert found["actions_doubled"] == 0
    assert found["audit_false_positives"]["unlogged_at_kill"] == 1
    (case,) = found["audit_false_positives"]["detail"]
    assert (case["seat"], case["hand"], case["card"], case["move"]) == (2, 1, "KS", 3)
    assert case["writers"][0].startswith("shard 1 pid 100, killed at ")

    # killed just after the next line: its loop was late, and the other process went on
    just_after = [*_logs(before, pid=100, killed_at=T0 + 41), ProcessLog(2, 200, after)]
    assert audit(ledger, [table], just_after)["actions_doubled"] == 0
    killed_later = [*_logs(before, pid=100, killed_at=T0 + 60), ProcessLog(2, 200, after)]
    assert audit(ledger, [table], killed_later)["actions_doubled"] == 1


def test_one_version_written_by_two_lines_and_a_card_stored_twice_are_doubled() -> None:
    ledger = Ledger()
    _click(ledger, 11, 1, "AS")
    one = _line(10, "card_played seat=0 hand=1", v=6, move=1, by="action", pid=100)
    two = _line(11, "card_played seat=0 hand=1", v=6, move=1, by="timer", pid=200)
    logs = [*_logs(one, pid=100), ProcessLog(0, 200, two)]
    found = audit(ledger, [_table([(1, 0, "AS")])], logs)
    assert found["actions_doubled"] == 1
    (case,) = found["actions_doubled_detail"]
    assert case["kind"] == "one version written twice"
    assert [w.split(" stored")[0] for w in case["writers"]] == [
        "shard 1 pid 100",
        "shard 0 pid 200",
    ]
    twice = audit(ledger, [_table([(1, 0, "AS"), (1, 1, "2S"), (1, 0, "AS")])], [])
    kinds = [c["kind"] for c in twice["actions_doubled_detail"]]
    assert "stored twice" in kinds


def test_a_click_answered_in_place_that_did_not_play_is_neither_lost_nor_doubled() -> None:
    """Back from the computer's hands, a click whose card could not go is answered with the
    hand in place (and a refusal): the bench no longer counts it as played; played later,
    it is one play, not two."""
    ledger = Ledger()
    ledger.answered_not_played(13, _cid(1, "KS"))
    _click(ledger, 13, 1, "KS")
    found = audit(ledger, [_table([(1, 2, "KS")])], [])
    assert (found["actions_doubled"], found["actions_lost"]) == (0, 0)
    assert found["audit_false_positives"]["answered_not_played"] == 1


def test_stored_plays_name_each_card_s_move_hand_and_seat_as_the_engine_played_it() -> None:
    match = Match(7, Rules(), STANDARD)
    seats: list[int] = []
    moves: list[int] = []
    while match.hand_number == 1 and not match.is_over:
        if match.trump is None:
            match.choose_trump(match.hakem, match.hand_of(match.hakem)[0].suit)
            continue
        seat = match.to_act
        seats.append(seat)
        match.play(seat, match.legal_cards(seat)[0])
        moves.append(len(match.actions))
    plays = stored_plays(match.to_dict())
    assert [p.seat for p in plays] == seats
    assert [p.move for p in plays] == moves  # what the live match's move count was after it
    assert {p.hand for p in plays} == {1}
    assert len(plays) >= 28  # a hand ends when a side has seven tricks (R10)


def test_kill_report_measures_affected_tables_by_their_pause_across_the_kill() -> None:
    progress = Progress("postgresql://unused", "unused")
    progress.moves["a"] = [(1.0, 1), (2.0, 2), (9.0, 3)]  # affected: 7 s pause across t=5
    progress.moves["b"] = [(1.0, 1), (4.0, 2), (6.0, 3)]  # not affected: 2 s
    progress.moves["c"] = [(3.0, 1)]  # affected, never moved again: counted to the end
    progress.guild_of.update({"a": 1, "b": 2, "c": 1})
    report = kill_report(progress, {1}, kill_at=5.0, end=20.0)
    assert report["tables_affected"] == 2
    assert report["tables_recovered"] == 1
    assert report["recovery_s_max"] == 17.0
    assert report["unaffected_pause_s_max"] == 2.0
    assert report["pause_s_max_before_kill"] == 3.0


def test_kills_in_turn_and_their_report_over_every_kill() -> None:
    assert kill_order(3, "all") == [1, 2, 0]
    assert kill_order(3, "others") == [1, 2]
    progress = Progress("postgresql://unused", "unused")
    one, two = 1 << 22, 2 << 22  # servers of shards 1 and 2 of 3
    progress.moves["a"] = [(1.0, 1), (4.0, 2), (24.0, 3)]  # shard 1: 20 s across the first kill
    progress.moves["b"] = [(1.0, 1), (18.0, 2), (30.0, 3)]  # shard 2: 12 s across the second
    progress.moves["c"] = [(1.0, 1), (3.0, 2)]  # shard 1, its match ended at about 9 s
    progress.guild_of.update({"a": one, "b": two, "c": one})
    progress.last_seen.update({"a": 40.0, "b": 40.0, "c": 8.6})
    progress.last_read = 40.0
    report = rotation_report(progress, [Kill(1, 5.0), Kill(2, 25.0)], 3, end=40.0)
    assert report["kills"] == 2
    assert report["tables_affected"] == 3  # a and c at the first kill, b at the second
    assert report["tables_recovered"] == 3  # c's last move ended its match
    assert report["recovery_s_max"] == 20.0
    assert report["unaffected_pause_s_max"] == 17.0  # b across the first kill; c had ended
    assert report["pause_s_max_before_kill"] == 3.0


async def test_the_audit_reads_the_services_commit_lines(caplog: pytest.LogCaptureFixture) -> None:
    """The line the real service writes for each committed change, in the bot's log format,
    names its table, version, move number, cause and pid (the audit joins it with the store's
    moves), and never a card."""
    clock = FakeClock()
    service = TableService(
        cast(Store, FakeStore(now=clock)),
        clock=clock,
        call_later=clock.call_later,
        monotonic=clock.monotonic,
        think_grace=0.0,
        seed_source=lambda: HAKEM_0_SEED,
    )
    caplog.set_level(logging.INFO)
    table = await four_people(service)
    await click_greedy(service, table)  # the hakem's trump: a click
    assert table.deadline is not None
    await clock.advance(table.deadline - clock() + 0.01)  # the next card: a time-out
    await service.close()
    match = match_of(table)
    formatter = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    text = "\n".join(formatter.format(r) for r in caplog.records)
    writes = writes_of([ProcessLog(0, os.getpid(), text)])
    assert [(w.move, w.by) for w in writes if w.move] == [(1, "action"), (2, "timer")]
    timed = writes[-1]
    assert (timed.table_id, timed.version, timed.move) == (table.table_id, table.version, 2)
    (lead,) = match.current_trick()
    assert timed.card_seat() == (lead[0], 1)
    assert "timeout seat=" in timed.words
    assert str(timed).startswith(f"shard 0 pid {os.getpid()} stored v{table.version} move 2")
    played = match.actions[-1]
    assert isinstance(played, Card)
    for line in text.splitlines():
        assert played.label not in line and f" {played.code}" not in line, line


async def test_a_save_cancelled_by_a_stop_still_names_its_move(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A graceful stop cancels the timers' work in flight; a time-out whose save the database
    committed just before the cancel reached the process left no line, and the audit counted
    its card as a move nobody made (the 120 s soak's five doubles). Its line now says the
    process stopped while saving it, naming the move, and the audit takes it for that move."""
    clock = FakeClock()
    store = FakeStore(now=clock)
    service = TableService(
        cast(Store, store),
        clock=clock,
        call_later=clock.call_later,
        monotonic=clock.monotonic,
        think_grace=0.0,
        seed_source=lambda: HAKEM_0_SEED,
    )
    caplog.set_level(logging.INFO)
    table = await four_people(service)
    await click_greedy(service, table)  # trump
    saved = store.save_table

    async def commits_then_stops(record: Any) -> Any:
        await saved(record)  # the database has it
        raise asyncio.CancelledError  # the stop reaches the process before the answer

    store.save_table = commits_then_stops  # type: ignore[method-assign]
    assert table.deadline is not None
    with contextlib.suppress(asyncio.CancelledError):
        await clock.advance(table.deadline - clock() + 0.01)  # the lead times out, as it stops
    await service.close()
    record = await store.load_table(table.table_id)
    assert record is not None
    stored = stored_plays(record.state["match"])
    assert [p.move for p in stored] == [2]  # the time-out is stored

    formatter = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    text = "\n".join(formatter.format(r) for r in caplog.records)
    (write,) = [w for w in writes_of([ProcessLog(0, os.getpid(), text)]) if w.move == 2]
    assert write.maybe and write.by == "timer" and write.version == record.version
    assert "timeout seat=" in write.words
    ledger = Ledger()  # nobody clicked: the seat's card is the time-out's
    users = [s.user_id for s in table.seats if s is not None]
    found = audit(
        ledger,
        [StoredTable(table.table_id, 1, 2, users, stored)],
        [ProcessLog(0, os.getpid(), text)],
    )
    assert found["actions_doubled"] == 0
    assert found["audit_false_positives"]["stored_while_stopping"] == 1
