"""The several-process bench's checks (issue 15): a card click the bot accepted must be in the
store as that member's play in that hand (else ``actions_lost``), and every stored play of a
member must be one of their accepted clicks or a time-out the bot logged (else
``actions_doubled``); a killed process's tables are measured by their pause across the kill."""

from __future__ import annotations

from bench.processes import Ledger, Progress, StoredTable, audit, kill_report, stored_plays
from bot.present import custom_ids
from engine import Card, Match
from engine.rules import STANDARD, Rules

TABLE = "0123456789ab"
CHANNEL = 50
USERS = [11, None, 13, None]


def _click(ledger: Ledger, user: int, hand: int, code: str) -> None:
    ledger.accepted(CHANNEL, user, custom_ids.card_id(TABLE, hand, Card.parse(code)))


def _table(plays: list[tuple[int, int, str]]) -> StoredTable:
    return StoredTable(TABLE, 9, CHANNEL, list(USERS), plays)


def test_a_played_click_found_in_the_store_is_neither_lost_nor_doubled() -> None:
    ledger = Ledger()
    _click(ledger, 11, 1, "AS")
    result = audit(ledger, [_table([(1, 0, "AS"), (1, 1, "2S")])], "")
    assert result == {
        "actions_lost": 0,
        "actions_doubled": 0,
        "accepted_card_clicks": 1,
        "actions_doubled_detail": [],
    }


def test_an_accepted_click_missing_from_the_store_is_lost() -> None:
    ledger = Ledger()
    _click(ledger, 11, 1, "AS")
    _click(ledger, 13, 1, "KS")  # the store never got it
    assert audit(ledger, [_table([(1, 0, "AS")])], "")["actions_lost"] == 1
    # the same card in another hand is not that play either
    assert audit(ledger, [_table([(2, 0, "AS")])], "")["actions_lost"] == 2


def test_a_click_answered_as_played_twice_is_doubled() -> None:
    ledger = Ledger()
    _click(ledger, 11, 1, "AS")
    _click(ledger, 11, 1, "AS")
    assert audit(ledger, [_table([(1, 0, "AS")])], "")["actions_doubled"] == 1


def test_a_member_s_stored_play_nobody_made_is_doubled_unless_a_timeout_explains_it() -> None:
    ledger = Ledger()
    table = _table([(1, 0, "AS"), (1, 1, "2S"), (1, 2, "KS")])  # seat 2 (user 13) never clicked
    _click(ledger, 11, 1, "AS")
    assert audit(ledger, [table], "")["actions_doubled"] == 1
    log = f"2026-12-02 INFO bot.service.commits: table {TABLE}: timeout seat=2, trick seat=0"
    assert audit(ledger, [table], log)["actions_doubled"] == 0
    taken_over = f"table {TABLE}: replaced seat=2"
    assert audit(ledger, [table], taken_over)["actions_doubled"] == 0
    other_seat = f"table {TABLE}: timeout seat=0"
    found = audit(ledger, [table], other_seat)
    assert found["actions_doubled"] == 1
    assert found["actions_doubled_detail"] == [
        f"table {TABLE} seat 2: 1 plays no click made, 0 time-outs logged"
    ]
    # a click the bot applied but answered too late is the member's move all the same
    ledger.sent(CHANNEL, 13, custom_ids.card_id(TABLE, 1, Card.parse("KS")))
    assert audit(ledger, [table], "") == {
        "actions_lost": 0,
        "actions_doubled": 0,
        "accepted_card_clicks": 1,
        "actions_doubled_detail": [],
    }


def test_stored_plays_name_each_card_s_hand_and_seat_as_the_engine_played_it() -> None:
    match = Match(7, Rules(), STANDARD)
    seats: list[int] = []
    while match.hand_number == 1 and not match.is_over:
        if match.trump is None:
            match.choose_trump(match.hakem, match.hand_of(match.hakem)[0].suit)
            continue
        seat = match.to_act
        seats.append(seat)
        match.play(seat, match.legal_cards(seat)[0])
    plays = stored_plays(match.to_dict())
    assert [seat for _, seat, _ in plays] == seats
    assert {hand for hand, _, _ in plays} == {1}
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
