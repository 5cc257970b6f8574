"""Every step refuses with its own code and changes nothing; a round is advanced once."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable

import pytest

from bot.tournament import (
    Tournament,
    TournamentConfig,
    TournamentError,
    advance,
    drop,
    forfeit,
    record_result,
    register,
    standings,
    start,
    withdraw,
)
from bot.tournament.errors import InvalidConfig

from .helpers import CLOSES, config, entered, first_member, play_round


def refused(t: Tournament, code: str, step: Callable[[Tournament], Tournament]) -> None:
    """``step`` raises the error ``code`` and leaves ``t`` exactly as it was."""
    before = copy.deepcopy(t.to_dict())
    with pytest.raises(TournamentError) as caught:
        step(t)
    assert caught.value.code == code
    assert t.to_dict() == before


def running(entries: int = 6, rounds: int = 5) -> Tournament:
    return start(entered(config(rounds=rounds), entries), now=CLOSES)


def test_registration_refusals() -> None:
    t = entered(config(), 2)
    refused(t, "registration_closed", lambda t: register(t, (1, 2), now=CLOSES))
    refused(t, "wrong_team_size", lambda t: register(t, (1,), now=0))
    refused(t, "already_registered", lambda t: register(t, (1, 100), now=0))
    refused(t, "already_registered", lambda t: register(t, (1, 1), now=0))
    refused(t, "not_registered", lambda t: withdraw(t, 5))
    refused(t, "registration_open", lambda t: start(t, now=0))
    refused(entered(config(), 1), "too_few_entrants", lambda t: start(t, now=CLOSES))
    full = entered(config(system="round_robin"), 8)
    refused(full, "tournament_full", lambda t: register(t, (1, 2), now=0))
    refused(t, "wrong_status", lambda t: advance(t, 0))
    refused(t, "wrong_status", lambda t: drop(t, 100, 0))


def test_withdraw_renumbers_and_an_early_start_pairs_round_one() -> None:
    t = withdraw(entered(config(), 4), 103)
    assert [e.members for e in t.entrants] == [(100, 101), (104, 105), (106, 107)]
    assert [e.number for e in t.entrants] == [0, 1, 2]
    started = start(t, now=0, early=True)
    assert started.status == "running" and started.current_round == 1
    assert len(started.rounds[0].tables) == 1 and len(started.rounds[0].byes) == 1


def test_result_and_forfeit_refusals() -> None:
    t = running()
    refused(t, "stale_round", lambda t: record_result(t, 2, 0, [7, 3], 0))
    refused(t, "unknown_table", lambda t: record_result(t, 1, 3, [7, 3], 0))
    refused(t, "invalid_result", lambda t: record_result(t, 1, 0, [7], 0))
    refused(t, "invalid_result", lambda t: record_result(t, 1, 0, [7, -1], 0))
    refused(t, "invalid_result", lambda t: record_result(t, 1, 0, [7, 3], 2))
    refused(t, "invalid_result", lambda t: record_result(t, 1, 0, [3, 7], 0))
    refused(t, "invalid_result", lambda t: record_result(t, 1, 0, [7, 7], True))  # type: ignore[arg-type]
    refused(t, "not_at_table", lambda t: forfeit(t, 1, 0, [999]))
    refused(t, "invalid_result", lambda t: forfeit(t, 1, 0, []))
    done = record_result(t, 1, 0, [7, 3], 0)
    refused(done, "result_already_recorded", lambda t: record_result(t, 1, 0, [7, 3], 0))
    refused(done, "result_already_recorded", lambda t: forfeit(t, 1, 0, [100]))
    refused(done, "round_not_complete", lambda t: advance(t, 1))
    refused(done, "round_not_complete", lambda t: drop(t, 100, 1))
    refused(t, "wrong_status", lambda t: register(t, (1, 2), now=0))


def test_a_round_is_advanced_once() -> None:
    """Two processes load the same round 1 and both advance it: the first makes round 2;
    the second, given the stored result of the first, is refused as stale."""
    t = play_round(running(), random.Random(2))
    stored = json.dumps(t.to_dict())
    mine = advance(Tournament.from_dict(json.loads(stored)), expected_round=1)
    assert mine.current_round == 2
    refused(mine, "stale_round", lambda t: advance(t, expected_round=1))
    refused(mine, "stale_round", lambda t: drop(t, 100, expected_round=1))
    refused(mine, "stale_round", lambda t: record_result(t, 1, 0, [7, 1], 0))


def test_drop_refusals_and_a_dropped_team_is_paired_no_more() -> None:
    t = play_round(running(6), random.Random(3))
    refused(t, "not_registered", lambda t: drop(t, 999, 1))
    t = drop(t, first_member(t, 4), expected_round=1)
    refused(t, "already_dropped", lambda t: drop(t, first_member(t, 4), 1))
    t = advance(t, 1)
    assert 4 not in {e for table in t.rounds[-1].tables for e in table.entrants}
    assert 4 not in t.rounds[-1].byes
    row = next(s for s in standings(t) if s.entrant == 4)
    assert row.dropped and len(row.games) == 1


def test_a_finished_tournament_refuses_every_step() -> None:
    t = running(4, rounds=1)
    t = advance(play_round(t, random.Random(4)), 1)
    assert t.status == "finished"
    refused(t, "wrong_status", lambda t: advance(t, 1))
    refused(t, "wrong_status", lambda t: record_result(t, 1, 0, [7, 1], 0))
    refused(t, "wrong_status", lambda t: register(t, (1, 2), now=0))


def test_a_forfeit_loses_the_match_and_says_so_in_the_standings() -> None:
    t = running(4)
    table = t.rounds[0].tables[0]
    absent_side, present_side = table.sides[0][0], table.sides[1][0]
    t = forfeit(t, 1, 0, [first_member(t, absent_side)])
    rows = {s.entrant: s for s in standings(t)}
    lost, won = rows[absent_side].games[0], rows[present_side].games[0]
    assert (lost.kind, lost.points) == ("forfeit", 0)
    assert (won.kind, won.points, won.hand_diff) == ("walkover", 2, 0)
    t = forfeit(t, 1, 1, [first_member(t, e) for e in t.rounds[0].tables[1].entrants])
    both = [rows2 for rows2 in standings(t) if rows2.entrant in t.rounds[0].tables[1].entrants]
    assert [(s.games[0].kind, s.match_points) for s in both] == [("forfeit", 0)] * 2


@pytest.mark.parametrize(
    ("changes", "key"),
    [
        ({"name": " "}, "name"),
        ({"format": "chess"}, "format"),
        ({"system": "ladder"}, "system"),
        ({"partners": "random"}, "partners"),
        ({"rounds": 0}, "rounds"),
        ({"rounds": 16}, "rounds"),
        ({"system": "knockout", "rounds": 3}, "rounds"),
        ({"system": "knockout", "rounds": 0, "partners": "individual"}, "partners"),
        ({"system": "round_robin", "rounds": 0, "format": "six_pairs"}, "system"),
        ({"target_score": 14}, "target_score"),
        ({"format": "shelem", "target_score": 7}, "target_score"),
        ({"format": "joker_six", "target_score": 7}, "target_score"),
        ({"turn_seconds": 5}, "turn_seconds"),
        ({"grace_seconds": True}, "grace_seconds"),
        ({"bye": "double"}, "bye"),
    ],
)
def test_bad_settings_are_refused_by_name(changes: dict[str, object], key: str) -> None:
    data = {**config().to_dict(), **changes}
    with pytest.raises(InvalidConfig) as caught:
        TournamentConfig.from_dict(data)
    assert caught.value.key == key and caught.value.code == "invalid_config"


def test_settings_the_engine_allows_are_taken() -> None:
    base = config().to_dict()
    for changes in (
        {"format": "shelem", "target_score": 500},
        {"target_score": 13},
        {"format": "six_pairs", "partners": "individual"},
        {"system": "knockout", "rounds": 0, "format": "two", "partners": "individual"},
    ):
        cfg = TournamentConfig.from_dict({**base, **changes})
        assert TournamentConfig.from_dict(cfg.to_dict()) == cfg
