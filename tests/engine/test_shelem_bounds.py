"""V6.4.1 (the dealer must open after three deals everyone passed), V6.14.1 (at most
``MAX_HANDS`` hands), V6.5.2 (the shelem bidder's partner is not asked), and the bound these put
on everything a match records (docs/rules.md V6)."""

from __future__ import annotations

import json
import re
from itertools import pairwise
from pathlib import Path

import pytest

from engine import InvalidState, MatchCompleted, NotYourTurn, parse_cards
from engine.errors import SarShelemNotAllowed
from engine.shelem import (
    BID,
    DISCARD,
    MAX_DEALS,
    MAX_HANDS,
    PASS,
    PASSED_DEALS_MAX,
    PLAY,
    SAR_SHELEM,
    SHELEM,
    DealerMustOpen,
    GreedyShelemPlayer,
    HakemChosen,
    RandomShelemPlayer,
    ShelemBid,
    ShelemHandResult,
    ShelemMatch,
    ShelemOptions,
    ShelemRedealt,
    act,
    auto_bid,
    hand_limit_winner,
    seat_view,
)
from engine.shelem.search import ShelemSearchPlayer, ShelemSearchSettings
from engine.shelem.story import record, story

from .shelem_helpers import ONE_SUIT, ONE_SUIT_KITTY, auction, rigged, worst_case_move

#: The largest saved form of a match (``ShelemMatch.to_dict`` as JSON) and of its finished
#: record (``story.record``), in bytes, at the worst case: ``MAX_HANDS`` hands, each dealt
#: ``PASSED_DEALS_MAX + 1`` times and bid up to sar-shelem (docs/rules.md V6.14.1).
MATCH_JSON_BOUND = 600_000
RECORD_JSON_BOUND = 400_000
RULES = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def unchanged(m: ShelemMatch) -> str:
    return json.dumps(m.to_dict(), sort_keys=True)


def pass_deals(m: ShelemMatch, deals: int) -> None:
    """The first three to speak pass ``deals`` deals in a row (V6.4)."""
    for _ in range(deals):
        auction(m, PASS, PASS, PASS)


# ------------------------------------------------------------- V6.4.1 the dealer opens


def test_v6_4_1_after_three_passed_deals_the_dealer_is_asked_and_may_not_pass() -> None:
    m = rigged(ONE_SUIT, ONE_SUIT_KITTY, dealer=3)
    first_deal = m.deal_number
    pass_deals(m, PASSED_DEALS_MAX - 1)
    assert not m.final_deal and m.passed_deals == PASSED_DEALS_MAX - 1
    events = m.bid(0, PASS)
    events += m.bid(1, PASS)
    events += m.bid(2, PASS)
    assert events[-1] == ShelemRedealt(3, first_deal + PASSED_DEALS_MAX)
    assert m.final_deal and m.passed_deals == PASSED_DEALS_MAX and m.to_act == 0
    assert PASS in m.legal_bids(0) and not m.must_open  # the first three still may pass
    auction(m, PASS, PASS, PASS)
    assert m.phase == BID and m.to_act == 3 and m.dealer == 3 and m.must_open
    assert m.deal_number == first_deal + PASSED_DEALS_MAX  # no fifth deal
    assert m.legal_bids(3) == (*range(100, 170, 5), SHELEM)
    view = seat_view(m, 3)
    assert view.must_open and view.final_deal and view.passed_deals == PASSED_DEALS_MAX
    assert not seat_view(m, 0).must_open
    before = unchanged(m)
    with pytest.raises(DealerMustOpen) as refused:
        m.bid(3, PASS)
    assert type(refused.value) is DealerMustOpen and refused.value.code == "dealer_must_open"
    assert refused.value.minimum == 100 and refused.value.passed_deals == PASSED_DEALS_MAX
    assert unchanged(m) == before
    assert m.bid(3, 100) == (ShelemBid(3, 100), HakemChosen(3, 100))
    assert m.phase == DISCARD and m.hakem == 3


def test_v6_4_1_on_the_final_deal_a_bid_before_the_dealer_lets_him_pass() -> None:
    m = rigged(ONE_SUIT, ONE_SUIT_KITTY, dealer=3)
    pass_deals(m, PASSED_DEALS_MAX)
    auction(m, PASS, 105, PASS)
    assert m.to_act == 3 and not m.must_open and PASS in m.legal_bids(3)
    assert m.bid(3, PASS)[-1] == HakemChosen(1, 105)


def test_v6_4_1_the_dealer_may_open_higher_or_with_shelem() -> None:
    m = rigged(ONE_SUIT, ONE_SUIT_KITTY, dealer=3)
    pass_deals(m, PASSED_DEALS_MAX)
    auction(m, PASS, PASS, PASS)
    before = unchanged(m)
    with pytest.raises(SarShelemNotAllowed):  # still a bid of the table's, checked first
        m.bid(3, SAR_SHELEM)
    assert unchanged(m) == before
    assert m.bid(3, SHELEM)[-1] == HakemChosen(3, SHELEM)  # both opponents passed


def test_v6_4_1_the_count_starts_again_with_each_hand() -> None:
    m = rigged(ONE_SUIT, ONE_SUIT_KITTY, dealer=3)
    pass_deals(m, PASSED_DEALS_MAX)
    auction(m, PASS, PASS, PASS, 100)  # the dealer, seat 3, is hakem
    m.discard(3, m.hand_of(3)[:4])
    while m.hand_number == 1:
        m.play(m.turn, m.legal_cards(m.turn)[0])
    assert m.passed_deals == 0 and not m.final_deal and m.phase == BID
    assert PASS in m.legal_bids(m.to_act)


def forced_view(options: ShelemOptions | None = None) -> ShelemMatch:
    """A match whose dealer must open now (V6.4.1)."""
    m = ShelemMatch(11, options)
    while not m.must_open:
        m.bid(m.to_act, PASS)
    return m


@pytest.mark.parametrize(
    "player",
    [
        GreedyShelemPlayer(),
        RandomShelemPlayer(3),
        ShelemSearchPlayer(1, ShelemSearchSettings(bid_deals=20)),
    ],
    ids=["greedy", "random", "search"],
)
@pytest.mark.parametrize("joker", [False, True])
def test_v6_4_1_computer_players_open_when_the_dealer_must(player: object, joker: bool) -> None:
    m = forced_view(ShelemOptions(joker=joker))
    view = seat_view(m, m.to_act)
    for _ in range(20):  # the random player draws: none of its draws is a pass
        bid = player.choose_bid(view)  # type: ignore[attr-defined]
        assert bid != PASS and bid in view.legal_bids
    m.bid(m.to_act, bid)
    assert m.phase in (DISCARD, PLAY) and m.hakem == m.dealer


@pytest.mark.parametrize("joker", [False, True])
def test_v6_4_1_v6_15_a_dealer_whose_time_runs_out_opens_at_the_lowest_bid(joker: bool) -> None:
    m = forced_view(ShelemOptions(joker=joker))
    assert auto_bid(seat_view(m, m.to_act)) == m.options.min_bid
    other = ShelemMatch(11, ShelemOptions(joker=joker))
    assert auto_bid(seat_view(other, other.to_act)) == PASS  # V6.15 otherwise


def test_v6_4_1_a_match_saved_before_the_rule_loads_and_counts_its_passed_deals() -> None:
    m = rigged(ONE_SUIT, ONE_SUIT_KITTY, dealer=3)
    pass_deals(m, 2)
    m.bid(0, PASS)
    old = json.loads(json.dumps(m.to_dict()))
    del old["passed_deals"], old["bounded"]  # a table saved before V6.4.1
    again = ShelemMatch.from_dict(old)
    assert again == m and again.passed_deals == 2 and again.bounded
    data = json.loads(json.dumps(m.to_dict()))
    data.update(passed_deals=PASSED_DEALS_MAX + 1)
    with pytest.raises(InvalidState, match="passed deals"):
        ShelemMatch.from_dict(data)
    # a table saved before the rule, its hand passed out five times: the count is capped
    legacy = ShelemMatch(5, bounded=False)
    for _ in range(PASSED_DEALS_MAX + 2):
        auction(legacy, PASS, PASS, PASS)
    stored = json.loads(json.dumps(legacy.to_dict()))
    del stored["passed_deals"], stored["bounded"]
    loaded = ShelemMatch.from_dict(stored)  # it plays on under the rule: the dealer opens
    assert loaded.passed_deals == PASSED_DEALS_MAX and loaded.final_deal
    assert ShelemMatch.from_dict(json.loads(json.dumps(legacy.to_dict()))) == legacy


def test_v6_4_1_a_record_kept_before_the_rule_still_replays() -> None:
    """A finished match recorded before V6.4.1 (version 1) replays as it was played, five
    deals passed in a row included; today's record (version 2) replays under the rule."""
    legacy = ShelemMatch(5, bounded=False)
    for _ in range(PASSED_DEALS_MAX + 2):
        auction(legacy, PASS, PASS, PASS)
    while not legacy.is_over:
        act(legacy, GreedyShelemPlayer())
    kept = record(legacy)
    assert kept["v"] == 1
    told = story(json.loads(json.dumps(kept)))
    assert told.hands[0].passed_deals == PASSED_DEALS_MAX + 2
    assert told.scores == tuple(legacy.scores)
    bounded = dict(kept, v=2)  # the same actions under the rule do not replay
    with pytest.raises(InvalidState, match="does not replay"):
        story(bounded)


# ------------------------------------------------------------ V6.14.1 the hand limit


def _last_hand(scores: tuple[int, int]) -> ShelemMatch:
    """Hand ``MAX_HANDS`` of a match at ``scores``, seat 0 hakem at 100 taking every trick."""
    data = rigged(ONE_SUIT, ONE_SUIT_KITTY, dealer=3, scores=scores).to_dict()
    data["hand_number"] = MAX_HANDS
    m = ShelemMatch.from_dict(data)
    auction(m, 100, PASS, PASS, PASS)
    m.discard(0, parse_cards("2H 2D 2C 3S"))
    return m


@pytest.mark.parametrize(
    ("scores", "winner"),
    [((-100, 0), 0), ((-200, 0), 0), ((-300, 0), 1), ((500, 800), 1)],
)
def test_v6_14_1_after_the_last_hand_the_higher_score_wins(
    scores: tuple[int, int], winner: int
) -> None:
    m = _last_hand(scores)
    events: list[object] = []
    while m.phase == PLAY:
        events += m.play(m.turn, m.legal_cards(m.turn)[0])
    assert m.is_over and m.winner_team == winner and m.hand_number == MAX_HANDS
    assert events[-1] == MatchCompleted(winner, tuple(m.scores))
    again = ShelemMatch.from_dict(json.loads(json.dumps(m.to_dict())))
    assert again.winner_team == winner


def test_v6_14_1_equal_scores_go_to_the_side_that_won_the_last_hand() -> None:
    made = ShelemHandResult(9, 1, 100, "hokm", None, (8, 4), (120, 45), "made", (100, 45),
                            (0, 0), (300, 300))  # fmt: skip
    assert hand_limit_winner((300, 300), made) == 1
    failed = made._replace(kind="set", changes=(45, -100))
    assert hand_limit_winner((300, 300), failed) == 0
    assert hand_limit_winner((301, 300), failed) == 0


def test_v6_14_1_a_match_without_the_limit_plays_on() -> None:
    data = rigged(ONE_SUIT, ONE_SUIT_KITTY, dealer=3, scores=(-100, 0)).to_dict()
    data.update(hand_number=MAX_HANDS, bounded=False)
    m = ShelemMatch.from_dict(data)
    auction(m, 100, PASS, PASS, PASS)
    m.discard(0, parse_cards("2H 2D 2C 3S"))
    while m.phase == PLAY:
        m.play(m.turn, m.legal_cards(m.turn)[0])
    assert not m.is_over and m.hand_number == MAX_HANDS + 1


# --------------------------------------------------- the worst case: every record bounded


@pytest.mark.parametrize("longest", [False, True], ids=["passing", "longest_auction"])
@pytest.mark.parametrize("joker", [False, True])
def test_v6_4_1_v6_14_1_the_worst_case_match_stays_within_its_bounds(
    longest: bool, joker: bool
) -> None:
    """Members passing as much as they may: every hand is dealt at most four times, a match
    deals at most ``MAX_DEALS`` times (2000: the bid buttons' deal field holds 9999) and its
    saved form and record stay under their bounds; a match bid up to sar-shelem every hand,
    its hakem's side losing, runs to the hand limit and no further."""
    m = ShelemMatch(7, ShelemOptions(joker=joker))
    deals_of_hand = {1: m.deal_number}
    largest = 0
    while not m.is_over:
        worst_case_move(m, longest)
        deals_of_hand.setdefault(m.hand_number, m.deal_number)
        assert m.deal_number - deals_of_hand[m.hand_number] <= PASSED_DEALS_MAX
        assert len(m.auction) <= 3 + 2 + len(m.options.point_bids)
        if m.phase == BID and m.passed_deals == 0 and not m.auction and m.hand_number % 50 == 0:
            largest = max(largest, len(json.dumps(m.to_dict())))
    assert m.deal_number <= MAX_DEALS and m.hand_number <= MAX_HANDS
    starts = list(deals_of_hand.values())
    assert all(
        later - earlier == PASSED_DEALS_MAX + 1 for earlier, later in pairwise(starts)
    )  # three deals passed out, then the final one, in every hand
    if longest:
        assert m.hand_number == MAX_HANDS and m.deal_number == MAX_DEALS
    saved = json.dumps(m.to_dict())
    kept = json.dumps(record(m))
    assert largest < len(saved) < MATCH_JSON_BOUND
    assert len(kept) < RECORD_JSON_BOUND
    assert ShelemMatch.from_dict(json.loads(saved)) == m
    assert len(story(json.loads(kept)).hands) == m.hand_number


# ------------------------------------------------------- V6.5.2 the shelem bidder's partner


def test_v6_5_2_the_shelem_bidders_partner_is_not_asked_his_sar_shelem_is_not_your_turn() -> None:
    """After a shelem the bidding waits only for the bidder's opponents still in: his partner
    is never the seat to speak, so anything he says, a sar-shelem included, is ``NotYourTurn``
    (the same as any seat speaking out of turn); ``SarShelemNotAllowed`` is for the seat whose
    turn it is calling sar-shelem with no shelem to call it over."""
    m = rigged(ONE_SUIT, ONE_SUIT_KITTY, dealer=3)
    m.bid(0, SHELEM)
    before = unchanged(m)
    for value in (SAR_SHELEM, PASS):
        with pytest.raises(NotYourTurn) as refused:
            m.bid(2, value)  # seat 2, seat 0's partner
        assert type(refused.value) is NotYourTurn and refused.value.code == "not_your_turn"
    assert unchanged(m) == before and 2 not in (m.to_act, *m.legal_bids(2))
    m.bid(1, PASS)
    with pytest.raises(NotYourTurn):
        m.bid(2, SAR_SHELEM)  # still not asked once seat 1 passed: seat 3 is
    assert m.to_act == 3
    fresh = rigged(ONE_SUIT, ONE_SUIT_KITTY, dealer=3)
    with pytest.raises(SarShelemNotAllowed) as no_shelem:
        fresh.bid(0, SAR_SHELEM)
    assert type(no_shelem.value) is SarShelemNotAllowed
    # docs/rules.md says the same: every sentence of V6.5.2 about the partner names the
    # class the engine raises, and not the other
    bullet = re.search(r"  - V6\.5\.2 (.*?)\n- \*\*V6\.6", RULES.read_text(), re.S)
    assert bullet is not None
    sentences = re.split(r"(?<=[.)])\s+(?=[A-Z])", " ".join(bullet.group(1).split()))
    about_partner = [x for x in sentences if "partner" in x]
    assert about_partner
    for sentence in about_partner:
        assert "`NotYourTurn`" in sentence and "SarShelemNotAllowed" not in sentence
