"""A finished match exported as its documented file (``engine.export``,
``docs/match-format.md``) replays with the engine to exactly the match that was played, in
every Hokm format and in Shelem; ``python -m engine.replay_file`` says so in one line, and an
edited, truncated or foreign file is refused with a line naming what is wrong."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import FORMATS, InvalidState, Match, Rules
from engine.export import FORMAT_VERSION, BadMatchFile, check, export
from engine.replay_file import main, verdict
from engine.rules import hokm_formats
from engine.shelem import ShelemOptions
from engine.shelem.story import record as shelem_record
from engine.shelem.story import story as shelem_story
from engine.story import record, story

from .helpers import random_move
from .shelem_helpers import finished as shelem_finished

ROOT = Path(__file__).resolve().parents[2]
ABOUT = {"id": "00000000abcd", "finished_at": "2026-11-01T19:00:00+00:00"}


def seats(n: int) -> list[dict[str, Any]]:
    """Seat 1 a computer, the rest members (ids as strings), one name hostile."""
    return [
        {"name": "Computer 1", "computer": True, "member": None}
        if i == 1
        else {
            "name": '<b>"bahar"</b>' if i == 0 else f"player{i}",
            "computer": False,
            "member": str(10 + i),
        }
        for i in range(n)
    ]


def hokm_match(name: str, seed: int) -> Match:
    rules = Rules(target_score=3, redeal_without_court=True, bam=True)
    match = Match(seed, rules, FORMATS[name])
    rng = random.Random(seed)
    while not match.is_over:
        random_move(match, rng)
    return match


def as_file(data: dict[str, Any]) -> dict[str, Any]:
    """Written out and read back as a downloaded file is."""
    loaded: dict[str, Any] = json.loads(json.dumps(data, ensure_ascii=False, indent=1))
    return loaded


@pytest.mark.parametrize("name", sorted(hokm_formats()))
def test_every_hokm_format_exports_and_replays_to_the_match_as_played(name: str) -> None:
    match = hokm_match(name, 5)
    data = as_file(export(record(match), seats(match.fmt.seats), ABOUT))
    assert data["format_version"] == FORMAT_VERSION and data["game"] == "hokm"
    assert data["format"] == name and data["match"] == ABOUT
    assert [s["team"] for s in data["seats"]] == list(match.fmt.team_of)
    done = check(data)
    assert done.format == name and done.hands == len(match.hand_results)
    assert done.scores == tuple(match.scores) and done.winner_team == match.winner_team
    # what the file states of each hand is what was played
    for told, result in zip(data["hands"], match.hand_results, strict=True):
        assert told["number"] == result.number and told["hakem"] == result.hakem
        assert told["result"]["scores_after"] == list(result.scores_after)
    # the actions are one per entry: a play is a card code, a decision a list
    assert len(data["actions"]) == len(match.actions)
    assert all(isinstance(a, list) or " " not in a for a in data["actions"])
    ok, line = verdict(json.dumps(data))
    assert ok and line.startswith(f"ok: hokm {name}, {done.hands} hands replayed")


@pytest.mark.parametrize(
    "options",
    [
        ShelemOptions(target_score=300),
        ShelemOptions(joker=True, target_score=300),
        ShelemOptions(nars=True, ace_nars=True, sars=True, target_score=300),
    ],
    ids=["plain", "jokers", "modes"],
)
def test_shelem_exports_and_replays_to_the_match_as_played(options: ShelemOptions) -> None:
    match = shelem_finished(3, options)
    data = as_file(export(shelem_record(match), seats(4), ABOUT))
    assert data["game"] == "shelem" and data["format"] == "shelem"
    assert data["rules"] == options.to_dict() and data["record_version"] == 2
    done = check(data)
    assert done.game == "shelem" and done.scores == tuple(match.scores)
    assert done.winner_team == match.winner_team and done.hands == len(match.hand_results)
    told = shelem_story(shelem_record(match))
    first = data["hands"][0]
    assert first["kitty"] == [c.code for c in told.hands[0].kitty]
    assert first["auction"] == [list(a) for a in told.hands[0].auction]
    assert first["result"]["scores_after"] == list(match.hand_results[0].scores_after)


def test_a_record_that_is_not_a_finished_match_is_not_exported() -> None:
    match = Match(2, Rules(target_score=3))
    rng = random.Random(2)
    for _ in range(20):
        random_move(match, rng)
    with pytest.raises(InvalidState, match="before the match is over"):
        export(record(match), seats(4), ABOUT)
    with pytest.raises(InvalidState, match="seats"):
        export(record(hokm_match("standard", 2)), seats(3), ABOUT)


def _first_play(data: dict[str, Any]) -> int:
    return next(i for i, a in enumerate(data["actions"]) if isinstance(a, str))


def _swap_play(data: dict[str, Any]) -> None:
    """The first card played changed for another card of the same seat's hand."""
    i = _first_play(data)
    hand = data["hands"][0]
    leader = hand["tricks"][0]["leader"]
    other = next(c for c in hand["dealt"][leader] if c != data["actions"][i])
    data["actions"][i] = other


TAMPERED = {
    "a card played changed": (_swap_play, "the actions do not replay: seat "),
    "the final score": (
        lambda d: d["result"].update(scores=[d["result"]["scores"][0] + 1, 0]),
        "result.scores[0]: the file says",
    ),
    "the winner": (
        lambda d: d["result"].update(winner_team=1 - d["result"]["winner_team"]),
        "result.winner_team",
    ),
    "a dealt card": (
        lambda d: d["hands"][0]["dealt"][0].__setitem__(0, "XX"),
        "hands[0].dealt[0][0]: the file says 'XX'",
    ),
    "a trick's winner": (
        lambda d: d["hands"][0]["tricks"][0].update(
            winner=(d["hands"][0]["tricks"][0]["winner"] + 1) % 4
        ),
        "hands[0].tricks[0].winner",
    ),
    "a hand left out": (lambda d: d["hands"].pop(), "hands: the file has 3 entries, the replay 4"),
    "the last actions cut off": (
        lambda d: d.update(actions=d["actions"][: len(d["actions"]) // 2]),
        "the actions stop before the match is over",
    ),
    "an action that is no move": (
        lambda d: d["actions"].insert(_first_play(d), ["fly", 0]),
        "the actions do not replay",
    ),
    "the seed": (lambda d: d.update(seed=d["seed"] + 1), "the actions do not replay"),
    "the rules": (
        lambda d: d["rules"].update(target_score=9),
        "the actions stop before the match is over",
    ),
    "a seat's team": (lambda d: d["seats"][0].update(team=1), "seats[0].team"),
    "a newer version": (lambda d: d.update(format_version=2), "format_version 2"),
    "an unknown field": (lambda d: d.update(deals=[]), "unknown field 'deals'"),
    "a missing field": (lambda d: d.pop("seed"), "no field 'seed'"),
    "another game's format": (lambda d: d.update(format="shelem"), "no format of hokm"),
    "a type changed": (
        lambda d: d["result"].update(hands=str(d["result"]["hands"])),
        "result.hands",
    ),
}


@pytest.mark.parametrize("case", sorted(TAMPERED))
def test_a_tampered_file_is_refused_naming_what_is_wrong(case: str) -> None:
    change, said = TAMPERED[case]
    data = as_file(export(record(hokm_match("standard", 5)), seats(4), ABOUT))
    check(copy.deepcopy(data))  # the file as exported is fine
    change(data)
    with pytest.raises(BadMatchFile) as refused:
        check(data)
    assert said in str(refused.value), str(refused.value)
    ok, line = verdict(json.dumps(data))
    assert not ok and line == f"refused: {refused.value}"


def test_a_tampered_shelem_file_is_refused() -> None:
    match = shelem_finished(3, ShelemOptions(target_score=300))
    data = as_file(export(shelem_record(match), seats(4), ABOUT))
    data["hands"][0]["kitty"].reverse()
    with pytest.raises(BadMatchFile, match=r"hands\[0\]\.kitty"):
        check(data)
    data = as_file(export(shelem_record(match), seats(4), ABOUT))
    data["hands"][0]["result"]["points"][0] += 5
    with pytest.raises(BadMatchFile, match=r"hands\[0\]\.result\.points"):
        check(data)


def test_not_a_match_file_at_all_is_refused() -> None:
    for text, said in (
        ("[1, 2]", "a JSON object was expected"),
        ("{", "not JSON"),
        ('{"format_version": 1}', "no field 'game'"),
        ("[" * 100_000, "not JSON"),
    ):
        ok, line = verdict(text)
        assert not ok and said in line, line


def test_the_command_line_prints_one_line_and_exits_0_or_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    match = hokm_match("joker_six", 4)
    good = tmp_path / "match.json"
    good.write_text(json.dumps(export(record(match), seats(6), ABOUT)), encoding="utf-8")
    assert main([str(good)]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and out.startswith("ok: hokm joker_six")
    bad = tmp_path / "bad.json"
    data = json.loads(good.read_text(encoding="utf-8"))
    data["result"]["scores"][0] += 1
    bad.write_text(json.dumps(data), encoding="utf-8")
    assert main([str(bad)]) == 1
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and out.startswith("refused: result.scores[0]: the file says")
    assert main([str(tmp_path / "none.json")]) == 1
    assert capsys.readouterr().out.startswith("refused: cannot read")
    assert main([]) == 2
    # as it is run: python -m engine.replay_file FILE
    run = subprocess.run(
        [sys.executable, "-m", "engine.replay_file", str(good)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0 and run.stdout.startswith("ok: hokm joker_six"), run.stderr


def test_the_story_of_the_file_is_the_story_of_the_record() -> None:
    """The file's hands are the replay's story (``engine.story``), trick for trick."""
    match = hokm_match("six_pairs", 8)
    data = export(record(match), seats(6), ABOUT)
    told = story(record(match))
    for said, hand in zip(data["hands"], told.hands, strict=True):
        assert said["dealt"] == [[c.code for c in cards] for cards in hand.dealt]
        assert [t["cards"] for t in said["tricks"]] == [
            [c.code for c in t.cards] for t in hand.tricks
        ]
