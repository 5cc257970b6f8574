"""``engine.shelem.story`` (V6: ``/hokm history``'s Replay of a Shelem match): a
finished match kept as its seed, options and actions replays to exactly the same match, and its
story holds each hand's bidding, kitty, laid-down cards, mode and trump, deal, tricks, points
and result as they happened; a record that does not replay is refused."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from engine import InvalidState, Trick
from engine.shelem import (
    PASS,
    PLAY,
    SAR_SHELEM,
    SHELEM,
    ShelemMatch,
    ShelemOptions,
)
from engine.shelem.options import CARD_POINTS
from engine.shelem.story import rebuild, record, story
from engine.story import story as hokm_story
from engine.story import unpack

from .helpers import through_json
from .shelem_helpers import finished

OPTIONS = {
    "plain": ShelemOptions(target_score=300),
    "jokers": ShelemOptions(joker=True, target_score=300),
    "modes": ShelemOptions(nars=True, ace_nars=True, sars=True, target_score=300),
}


def play_hand(match: ShelemMatch, rng: random.Random) -> None:
    """Random legal cards until the hand in play is scored."""
    hand = match.hand_number
    while match.hand_number == hand and not match.is_over:
        assert match.phase == PLAY
        match.play(match.turn, rng.choice(match.legal_cards(match.turn)))


@pytest.mark.parametrize("name", sorted(OPTIONS))
@pytest.mark.parametrize("seed", [1, 7])
def test_v6_story_a_record_replays_through_json_to_the_same_match(name: str, seed: int) -> None:
    options = OPTIONS[name]
    match = finished(seed, options)
    data = through_json(record(match))
    assert data["format"] == "shelem" and data["options"] == options.to_dict()
    assert rebuild(data) == match
    told = story(data)
    assert told.options == options and told.fmt.name == "shelem"
    assert told.scores == tuple(match.scores) and told.winner_team == match.winner_team
    assert [h.result for h in told.hands] == match.hand_results  # every hand that was played
    deck = set(options.deck)
    for hand in told.hands:
        # V6.2, V6.6: 12 a seat as play began, the kitty's worth laid down, nothing twice
        assert [len(cards) for cards in hand.dealt] == [12, 12, 12, 12]
        assert len(hand.kitty) == len(hand.laid_down) == options.kitty_size
        every = [c for cards in hand.dealt for c in cards] + list(hand.laid_down)
        assert len(every) == len(set(every)) and set(every) == deck
        assert len(hand.tricks) == 12 and hand.tricks[0].leader == hand.hakem  # V6.8.1
        dealt = [set(cards) for cards in hand.dealt]
        for trick in hand.tricks:
            for seat, card in trick.plays(4):
                assert card in dealt[seat]
                dealt[seat].discard(card)
        assert hand.held(12) == ((), (), (), ())
        assert hand.team_tricks(12) == hand.result.tricks
        assert hand.team_points(12) == hand.result.points  # V6.9: the laid-down set included
        laid = 5 + sum(CARD_POINTS[c] for c in hand.laid_down)  # a set of its own
        assert sum(hand.team_points(0)) == hand.team_points(0)[hand.hakem % 2] == laid
        assert (hand.bid, hand.mode, hand.trump) == (
            hand.result.bid,
            hand.result.mode,
            hand.result.trump,
        )
    for before, after in zip(told.hands, told.hands[1:], strict=False):
        assert after.scores_before == before.result.scores_after


def test_v6_3_story_keeps_every_word_of_the_bidding_and_the_hakem() -> None:
    """V6.3: the auction in order, a seat bidding again, passes; the highest bidder is hakem."""
    match = ShelemMatch(11, ShelemOptions())
    first, dealer = match.to_act, match.dealer
    assert first == (match.dealer + 1) % 4
    words = [(first, 100), ((first + 1) % 4, PASS), ((first + 2) % 4, 105)]
    words += [((first + 3) % 4, PASS), (first, 110), ((first + 2) % 4, PASS)]
    for seat, value in words:
        match.bid(seat, value)
    hakem = first
    kitty = match.kitty_of(hakem)
    laid = match.hand_of(hakem)[:4]
    match.discard(hakem, laid)
    dealt = tuple(match.hand_of(s) for s in range(4))
    play_hand(match, random.Random(3))
    told = story(through_json(record(match))).hands[0]
    assert told.auction == tuple(words)
    assert (told.hakem, told.bid, told.dealer, told.passed_deals) == (hakem, 110, dealer, 0)
    assert told.kitty == kitty and told.laid_down == laid and told.dealt == dealt
    assert told.mode == "hokm" and told.trump == told.tricks[0].cards[0].suit  # V6.8.1


def test_v6_4_story_counts_the_deals_everyone_passed_and_tells_only_the_one_played() -> None:
    match = ShelemMatch(12, ShelemOptions())
    for _ in range(2):  # twice the first three pass: the same dealer deals again
        for _ in range(3):
            match.bid(match.to_act, PASS)
    assert match.deal_number == 3 and match.hand_number == 1
    first = match.to_act
    match.bid(first, 100)
    for _ in range(3):
        match.bid(match.to_act, PASS)
    match.discard(first, match.hand_of(first)[-4:])
    play_hand(match, random.Random(1))
    told = story(record(match))
    assert len(told.hands) == 1 and told.winner_team is None  # a record cut short: no winner
    hand = told.hands[0]
    assert hand.passed_deals == 2 and hand.number == 1
    assert hand.auction == ((first, 100), *(((first + k) % 4, PASS) for k in (1, 2, 3)))


def test_v6_5_story_of_a_sar_shelem_the_kitty_laid_aside_untouched() -> None:
    """V6.5.2, V6.6.3: over a shelem an opponent calls sar-shelem; he plays his own twelve
    cards, and the kitty he only saw is his laid-down set."""
    match = ShelemMatch(5, ShelemOptions(nars=True))
    first = match.to_act
    match.bid(first, SHELEM)
    caller = (first + 1) % 4
    dealt = match.hand_of(caller)
    match.bid(caller, SAR_SHELEM)
    match.choose_mode(caller, "nars")
    play_hand(match, random.Random(2))
    hand = story(record(match)).hands[0]
    assert hand.auction == ((first, SHELEM), (caller, SAR_SHELEM))
    assert (hand.hakem, hand.bid, hand.mode, hand.trump) == (caller, SAR_SHELEM, "nars", None)
    assert hand.laid_down == hand.kitty and hand.dealt[caller] == dealt
    assert hand.result.kind in ("sar_shelem", "sar_shelem_set")


def test_v6_7_story_names_the_mode_and_a_hokm_hands_trump_by_the_first_card() -> None:
    match = finished(3, OPTIONS["modes"])
    told = story(record(match))
    for hand in told.hands:
        first = hand.tricks[0].cards[0]
        assert hand.trump == (first.suit if hand.mode == "hokm" else None)


def test_v6_9_story_counts_the_laid_down_set_for_the_hakems_side_from_the_deal() -> None:
    hand = story(record(finished(2, OPTIONS["plain"]))).hands[0]
    before = [0, 0]
    before[hand.hakem % 2] = 5 + sum(  # V6.9: 5 for a 5, 10 for a 10 or an ace, 5 a set
        {3: 5, 8: 10, 12: 10}.get(c % 13, 0) for c in hand.laid_down
    )
    assert hand.team_points(0) == tuple(before)
    first = hand.tricks[0]
    after = list(before)
    after[first.winner % 2] += 5 + sum({3: 5, 8: 10, 12: 10}.get(c % 13, 0) for c in first.cards)
    assert hand.team_points(1) == tuple(after)


def tampered(change: Callable[[dict[str, object]], object]) -> dict[str, object]:
    data = through_json(record(finished(4, OPTIONS["modes"])))
    change(data)
    return data


def _actions(data: dict[str, object]) -> list[object]:
    actions = data["actions"]
    assert isinstance(actions, list)
    return actions


def _swap_first_bid(data: dict[str, object]) -> None:
    actions = unpack(_actions(data))
    bid = next(a for a in actions if isinstance(a, list) and a[0] == "bid")
    bid[2] = 101  # not a multiple of five
    data["actions"] = actions


def _discard(data: dict[str, object], cards: Callable[[list[str]], list[str]]) -> None:
    """The first laid-down cards changed by ``cards``."""
    actions = unpack(_actions(data))
    discard = next(a for a in actions if isinstance(a, list) and a[0] == "discard")
    discard[2] = cards(discard[2])
    data["actions"] = actions


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.update(v=3),
        lambda d: d.update(format="standard"),
        lambda d: d.update(seed=True),
        lambda d: d.update(seed=-1),
        lambda d: d.update(seed="5"),
        lambda d: d.update(options={"joker": "yes"}),
        lambda d: d.update(options={"colour": True}),
        lambda d: d.update(options={"joker": True, "nars": True}),
        lambda d: d.update(options=[]),
        lambda d: d.update(actions="AS"),
        lambda d: _actions(d).insert(0, "AS"),  # a card in the bidding
        lambda d: _actions(d).insert(0, ["fly", 0]),
        lambda d: _actions(d).insert(0, ["bid", 7, 100]),
        lambda d: _actions(d).insert(0, "XX"),
        lambda d: _actions(d).append(["bid", 0, 100]),  # after the match was over
        lambda d: _actions(d).__setitem__(slice(0, 1), []),  # the first word lost
        _swap_first_bid,
        lambda d: _discard(d, lambda cards: [cards[0]] * len(cards)),  # one card four times
        lambda d: _discard(d, lambda cards: [*cards[:-1], "RJ"]),  # no jokers at this table
        lambda d: _discard(d, lambda cards: cards[:-1]),  # one card short
        lambda d: d.update(seed=int(str(d["seed"])) + 1),  # another deal: not his cards
    ],
)
def test_v6_story_a_tampered_record_is_refused(
    change: Callable[[dict[str, object]], object],
) -> None:
    data = tampered(change)
    with pytest.raises(InvalidState):
        story(data)
    with pytest.raises(InvalidState):
        rebuild(data)


@pytest.mark.parametrize("data", [None, [], "x", {"v": 1}, {"v": 1, "format": "shelem"}])
def test_v6_story_what_is_not_a_record_at_all_is_refused(data: object) -> None:
    with pytest.raises(InvalidState):
        story(data)


def test_v6_story_and_hokms_each_refuse_the_others_records() -> None:
    data = record(finished(6, OPTIONS["plain"]))
    with pytest.raises(InvalidState):
        hokm_story(data)
    from engine import Match, Rules
    from engine.story import record as hokm_record

    with pytest.raises(InvalidState):
        story(hokm_record(Match(6, Rules(target_score=1))))


def test_v6_story_a_record_cut_short_tells_the_hands_so_far_and_no_winner() -> None:
    match = finished(9, ShelemOptions())  # to the seed's 1165: hands enough
    data = record(match)
    whole = story(data)
    assert len(whole.hands) >= 2
    actions = unpack(_actions(data))
    cut = dict(data, actions=actions[: len(actions) // 2])
    told = story(cut)
    assert told.winner_team is None and len(told.hands) < len(whole.hands)
    assert [h.result for h in told.hands] == match.hand_results[: len(told.hands)]
    assert all(isinstance(t, Trick) for h in told.hands for t in h.tricks)
