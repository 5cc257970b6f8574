"""``engine.story`` (``/hokm history``'s Replay): a finished match kept as its
format, seed, rules and actions replays to exactly the same match, in every format and with
every house rule, and its story holds each hand's deal, tricks and result as they happened."""

from __future__ import annotations

import json
import random

import pytest

from engine import FORMATS, STANDARD, InvalidState, Match, Rules, Trick
from engine.rules import hokm_formats
from engine.story import pack, rebuild, record, story, unpack

from .helpers import random_move, through_json


def finished(fmt_name: str, seed: int, rules: Rules | None = None) -> Match:
    match = Match(seed, rules or Rules(target_score=3), FORMATS[fmt_name])
    rng = random.Random(seed)
    while not match.is_over:
        random_move(match, rng)
    return match


@pytest.mark.parametrize("fmt_name", sorted(hokm_formats()))
@pytest.mark.parametrize("seed", [1, 7])
def test_a_record_replays_to_the_same_match_in_every_format(fmt_name: str, seed: int) -> None:
    rules = Rules(target_score=3, redeal_without_court=True, bam=True)  # R6 and V1 too
    match = finished(fmt_name, seed, rules)
    data = through_json(record(match))
    assert rebuild(data) == match
    told = story(data)
    assert told.fmt is match.fmt and told.scores == tuple(match.scores)
    assert told.winner_team == match.winner_team
    assert [h.result for h in told.hands] == match.hand_results  # every hand that was played
    for hand in told.hands:
        # R10: the hand's tricks are all there, each a card from every seat, dealt to it
        assert sum(hand.result.tricks) == len(hand.tricks) > 0
        dealt = [set(cards) for cards in hand.dealt]
        for trick in hand.tricks:
            assert len(trick.cards) == match.fmt.seats
            for seat, card in trick.plays(match.fmt.seats):
                assert card in dealt[seat]
                dealt[seat].discard(card)
        assert hand.held(len(hand.tricks)) == tuple(
            tuple(c for c in cards if c in left)
            for cards, left in zip(hand.dealt, dealt, strict=True)
        )
        assert hand.team_tricks(match.fmt, len(hand.tricks)) == hand.result.tricks


def test_the_story_of_a_standard_match_hand_by_hand() -> None:
    """R4–R11 as a viewer steps through them: 13 cards a seat as play began (the hakem's five
    among them), the hakem leads the first trick (R7), the winner leads the next, the counts
    and the score before the hand."""
    match = finished("standard", 3)
    told = story(record(match))
    first = told.hands[0]
    assert first.number == 1 and first.bid == 0
    assert [len(cards) for cards in first.dealt] == [13, 13, 13, 13]
    assert first.tricks[0].leader == first.hakem
    for before, after in zip(first.tricks, first.tricks[1:], strict=False):
        assert after.leader == before.winner
    assert first.scores_before == (0, 0)
    assert first.held(0) == first.dealt
    assert [len(cards) for cards in first.held(1)] == [12, 12, 12, 12]
    assert sum(first.team_tricks(STANDARD, 1)) == 1
    if len(told.hands) > 1:
        assert told.hands[1].scores_before == first.result.scores_after


def test_plays_are_packed_into_runs_and_unpacked_exactly() -> None:
    actions: list[str | list[object]] = [["trump", 0, "S"], "AS", "KS", "10S", ["bam", 1], "2H"]
    packed = pack(actions)
    assert packed == [["trump", 0, "S"], "AS KS 10S", ["bam", 1], "2H"]
    assert unpack(packed) == actions
    match = finished("standard", 5)
    data = record(match)
    # a standard hand is its trump, then one run of plays: one string per hand
    runs = [a for a in data["actions"] if isinstance(a, str)]
    assert len(runs) == len(match.hand_results) > 1
    assert sum(len(run.split()) for run in runs) == sum(
        4 * sum(r.tricks) for r in match.hand_results
    )
    assert len(json.dumps(data)) < len(json.dumps(match.to_dict()["actions"]))


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (lambda d: d.update(v=2), "version"),
        (lambda d: d.update(format="chess"), "format"),
        (lambda d: d.update(seed=True), "seed"),
        (lambda d: d.update(seed=-1), "seed"),
        (lambda d: d.update(rules={"target_score": 99}), "rules"),
        (lambda d: d.update(actions="AS"), "actions"),
        (lambda d: d["actions"].insert(1, "AS AS"), "replay"),
        (lambda d: d["actions"].insert(0, ["fly", 0]), "replay"),
        (lambda d: d["actions"].insert(0, "XX"), "replay"),
    ],
)
def test_a_record_that_does_not_replay_is_refused(change: object, why: str) -> None:
    data = record(finished("standard", 2))
    change(data)  # type: ignore[operator]
    with pytest.raises(InvalidState):
        story(data)
    with pytest.raises(InvalidState):
        rebuild(data)


@pytest.mark.parametrize("data", [None, [], "x", {"v": 1}])
def test_what_is_not_a_record_at_all_is_refused(data: object) -> None:
    with pytest.raises(InvalidState):
        story(data)


def test_a_record_cut_short_tells_the_hands_so_far_and_no_winner() -> None:
    match = finished("standard", 4)
    data = record(match)
    assert len(story(data).hands) >= 2
    cut = dict(data, actions=unpack(data["actions"])[:60])  # the first hand and a bit more
    told = story(cut)
    assert told.winner_team is None and len(told.hands) >= 1
    assert [h.result for h in told.hands] == match.hand_results[: len(told.hands)]
    assert all(isinstance(t, Trick) for h in told.hands for t in h.tricks)
