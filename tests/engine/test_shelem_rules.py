"""V6 Shelem, rule by rule (docs/rules.md V6; engine/shelem)."""

from __future__ import annotations

import json

import pytest

from engine import (
    Card,
    CardNotInHand,
    IllegalMove,
    InvalidSetting,
    InvalidState,
    MatchCompleted,
    MustFollowSuit,
    NotYourTurn,
    Suit,
    Trick,
    UnknownSeat,
    WrongPhase,
    parse_cards,
)
from engine.errors import (
    BidOutOfRange,
    BidTooLow,
    DiscardCount,
    JokerCannotNameTrump,
    ModeNotAllowed,
    SarShelemNotAllowed,
)
from engine.shelem import (
    BID,
    DISCARD,
    MATCH_OVER,
    MODE,
    PASS,
    PLAY,
    SAR_SHELEM,
    SHELEM,
    HakemChosen,
    KittyDiscarded,
    ModeChosen,
    ShelemBid,
    ShelemDealt,
    ShelemHandResult,
    ShelemMatch,
    ShelemOptions,
    ShelemRedealt,
    TrumpNamed,
    card_points,
    match_winner,
    replay,
    score_hand,
    seat_view,
    trick_winner,
)
from engine.shelem.options import mask_points

from .shelem_helpers import ONE_SUIT, ONE_SUIT_KITTY, auction, rigged

C = Card.parse
JOKER = ShelemOptions(joker=True)
ALL_MODES = ShelemOptions(nars=True, ace_nars=True, sars=True)

#: Seat 0: four spades with the ace, four low hearts with the ace, four low clubs; seat 1:
#: spades, clubs and diamonds but no heart; seat 2: low spades, hearts, high clubs; seat 3:
#: diamonds, two hearts and the ace of clubs, no spade. The kitty: 2♠ 10♥ 5♥ 6♥.
MIXED = [
    "AS KS 10S 5S AH 2H 3H 4H 2C 3C 4C 5C",
    "QS JS 9S 8S 6C 7C 8C 9C 2D 3D 4D 5D",
    "7S 6S 4S 3S JH 9H 8H 7H 10C JC QC KC",
    "AD KD QD JD 10D 9D 8D 7D 6D KH QH AC",
]
MIXED_KITTY = "2S 10H 5H 6H"


def kitty_of(m: ShelemMatch) -> set[Card]:
    """The kitty as dealt, read from the stored form (no seat may see it during the bidding)."""
    return {C(code) for code in m.to_dict()["kitty"]}


def unchanged(m: ShelemMatch) -> str:
    return json.dumps(m.to_dict(), sort_keys=True)


def hakem_at_100(m: ShelemMatch) -> None:
    """The first seat to speak bids 100 and the others pass."""
    auction(m, 100, PASS, PASS, PASS)


# ------------------------------------------------------------------------ V6.1, V6.2 deal


def test_v6_2_deal_is_twelve_each_and_a_kitty_of_four_from_the_52() -> None:
    for seed in range(20):
        m = ShelemMatch(seed)
        hands = [set(m.hand_of(s)) for s in range(4)]
        assert [len(h) for h in hands] == [12] * 4
        kitty = kitty_of(m)
        assert len(kitty) == 4
        assert set().union(*hands, kitty) == set(range(52))
        assert m.phase == BID and m.hakem == -1


def test_v6_13_joker_deal_is_54_cards_and_a_kitty_of_six() -> None:
    for seed in range(20):
        m = ShelemMatch(seed, JOKER)
        hands = [set(m.hand_of(s)) for s in range(4)]
        kitty = kitty_of(m)
        assert [len(h) for h in hands] == [12] * 4 and len(kitty) == 6
        assert set().union(*hands, kitty) == set(range(54))


def test_v6_2_first_dealer_from_the_seed_then_the_next_seat_each_hand() -> None:
    dealers = {ShelemMatch(seed).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}  # a random seat
    m = rigged(ONE_SUIT, ONE_SUIT_KITTY, dealer=3)
    assert m.to_act == 0  # V6.3.1: the seat after the dealer speaks first
    hakem_at_100(m)
    m.discard(0, parse_cards("2H 2D 2C 3S"))
    events: list[object] = []
    while m.hand_number == 1:
        events += m.play(m.turn, m.legal_cards(m.turn)[-1])
    assert m.dealer == 0 and m.to_act == 1
    assert events[-1] == ShelemDealt(2, 0, 1)


def test_v6_2_a_refused_seed_is_invalid_state() -> None:
    for bad in (-1, "1", 1.5, True):
        with pytest.raises(InvalidState):
            ShelemMatch(bad)  # type: ignore[arg-type]


# ------------------------------------------------------------------------ V6.3 bidding


def test_v6_3_1_bidding_goes_round_from_the_seat_after_the_dealer_skipping_passes() -> None:
    m = rigged(MIXED, MIXED_KITTY, dealer=1)
    assert m.to_act == 2
    assert m.bid(2, 100) == (ShelemBid(2, 100),)
    assert m.bid(3, PASS) == (ShelemBid(3, PASS),)
    m.bid(0, 105)
    m.bid(1, 110)
    assert m.to_act == 2  # seat 3 passed: skipped from now on
    m.bid(2, 120)
    assert m.to_act == 0
    assert m.bids == [105, 110, 120, PASS]
    assert m.auction == [(2, 100), (3, PASS), (0, 105), (1, 110), (2, 120)]
    assert seat_view(m, 3).auction == tuple(m.auction)
    assert m.legal_bids(0) == (PASS, *range(125, 170, 5), SHELEM)
    assert m.legal_bids(1) == ()  # not its turn


def test_v6_3_2_a_bid_is_a_multiple_of_five_from_100_to_165() -> None:
    m = rigged(MIXED, MIXED_KITTY)
    before = unchanged(m)
    for bad in (95, 99, 101, 170, 166, -5, 1, True, "100", 100.0, None, SHELEM + 1):
        with pytest.raises(BidOutOfRange) as info:
            m.bid(0, bad)  # type: ignore[arg-type]
        assert info.value.code == "bid_out_of_range"
        assert (info.value.minimum, info.value.maximum) == (100, 165)
    assert unchanged(m) == before
    m.bid(0, 165)
    assert m.high == 165 and m.high_seat == 0


def test_v6_3_2_a_bid_must_beat_the_highest_so_far() -> None:
    m = rigged(MIXED, MIXED_KITTY)
    m.bid(0, 120)
    before = unchanged(m)
    for low in (100, 115, 120):
        with pytest.raises(BidTooLow) as info:
            m.bid(1, low)
        assert info.value.highest == 120 and info.value.code == "bid_too_low"
    assert unchanged(m) == before
    m.bid(1, 125)


def test_v6_3_out_of_turn_wrong_phase_and_unknown_seat_change_nothing() -> None:
    m = rigged(MIXED, MIXED_KITTY)
    before = unchanged(m)
    with pytest.raises(NotYourTurn):
        m.bid(1, 100)
    for seat in (4, -1, "0", True):
        with pytest.raises(UnknownSeat):
            m.bid(seat, 100)  # type: ignore[arg-type]
    with pytest.raises(WrongPhase):
        m.play(0, C("AS"))
    with pytest.raises(WrongPhase):
        m.discard(0, parse_cards("AS KS 10S 5S"))
    with pytest.raises(WrongPhase):
        m.choose_mode(0, "hokm")
    assert unchanged(m) == before


def test_v6_3_3_three_passes_end_the_bidding_and_the_last_bidder_takes_the_kitty() -> None:
    m = rigged(MIXED, MIXED_KITTY)
    m.bid(0, PASS)
    m.bid(1, 100)
    m.bid(2, PASS)
    events = m.bid(3, PASS)
    assert events == (ShelemBid(3, PASS), HakemChosen(1, 100))
    assert m.phase == DISCARD and m.hakem == 1 and m.bid_value == 100 and m.to_act == 1
    assert set(m.hand_of(1)) == set(parse_cards(MIXED[1] + " " + MIXED_KITTY))  # V6.6.1


def test_v6_3_a_pass_is_final() -> None:
    m = rigged(MIXED, MIXED_KITTY)
    auction(m, 100, PASS, 105, 110)  # seat 1 passed
    m.bid(0, 115)
    assert m.to_act == 2  # seat 1 is not asked again
    m.bid(2, PASS)
    events = m.bid(3, PASS)
    assert m.hakem == 0 and m.bid_value == 115 and events[-1] == HakemChosen(0, 115)


# --------------------------------------------------------------------- V6.4 all pass


def test_v6_4_the_first_three_passing_is_a_redeal_by_the_same_dealer() -> None:
    m = rigged(MIXED, MIXED_KITTY, dealer=3)
    m.bid(0, PASS)
    m.bid(1, PASS)
    deal = m.deal_number
    events = m.bid(2, PASS)  # the fourth (seat 3) is not asked
    assert events == (ShelemBid(2, PASS), ShelemRedealt(3, deal + 1))
    assert m.phase == BID and m.dealer == 3 and m.to_act == 0
    assert m.hand_number == 1 and m.deal_number == deal + 1
    assert m.bids == [-1] * 4
    assert [set(m.hand_of(s)) for s in range(4)] != [set(parse_cards(h)) for h in MIXED]


# ------------------------------------------------------------ V6.5 shelem, sar-shelem


def test_v6_5_1_shelem_is_above_165_and_only_sar_shelem_or_pass_follow() -> None:
    m = rigged(ONE_SUIT, ONE_SUIT_KITTY, dealer=3)
    m.bid(0, 165)
    assert SHELEM in m.legal_bids(1)
    m.bid(1, SHELEM)
    assert m.to_act == 2 or m.to_act == 0  # an opponent of seat 1 still in
    assert m.to_act == 2 and m.legal_bids(2) == (PASS, SAR_SHELEM)
    before = unchanged(m)
    with pytest.raises(BidTooLow):
        m.bid(2, 165)
    with pytest.raises(BidTooLow):
        m.bid(2, SHELEM)
    assert unchanged(m) == before


def test_v6_5_2_after_a_shelem_each_opponent_still_in_is_asked_once_not_the_partner() -> None:
    m = rigged(ONE_SUIT, ONE_SUIT_KITTY, dealer=3)
    m.bid(0, SHELEM)
    assert m.to_act == 1
    m.bid(1, PASS)
    assert m.to_act == 3  # seat 2, the partner, is skipped
    events = m.bid(3, PASS)
    assert events[-1] == HakemChosen(0, SHELEM)
    assert m.phase == DISCARD and m.hakem == 0
    assert m.bids[2] == -1


def test_v6_5_2_an_opponent_who_passed_before_the_shelem_is_not_asked() -> None:
    m = rigged(ONE_SUIT, ONE_SUIT_KITTY, dealer=3)
    auction(m, PASS, 100, 105)  # seat 0 passed; seats 1 and 2 bid
    m.bid(3, SHELEM)  # seat 3's opponents: 0 passed, 2 still in
    assert m.to_act == 2
    events = m.bid(2, PASS)
    assert events[-1] == HakemChosen(3, SHELEM)
    m = rigged(ONE_SUIT, ONE_SUIT_KITTY, dealer=3)
    auction(m, PASS, 100, PASS)
    events = m.bid(3, SHELEM)  # both opponents passed: nobody to ask
    assert events[-1] == HakemChosen(3, SHELEM) and m.phase == DISCARD


def test_v6_5_2_sar_shelem_only_over_a_shelem() -> None:
    m = rigged(ONE_SUIT, ONE_SUIT_KITTY)
    before = unchanged(m)
    with pytest.raises(SarShelemNotAllowed) as info:
        m.bid(0, SAR_SHELEM)
    assert info.value.code == "sar_shelem_not_allowed"
    assert unchanged(m) == before
    m.bid(0, 120)
    with pytest.raises(SarShelemNotAllowed):
        m.bid(1, SAR_SHELEM)


def test_v6_6_3_sar_shelem_makes_its_caller_hakem_who_sees_but_does_not_take_the_kitty() -> None:
    m = rigged(ONE_SUIT, ONE_SUIT_KITTY, dealer=3)
    m.bid(0, SHELEM)
    events = m.bid(1, SAR_SHELEM)
    assert events == (ShelemBid(1, SAR_SHELEM), HakemChosen(1, SAR_SHELEM))
    assert m.phase == PLAY and m.turn == 1 and m.hakem == 1  # no discard phase
    assert set(m.hand_of(1)) == set(parse_cards(ONE_SUIT[1]))
    kitty = set(parse_cards(ONE_SUIT_KITTY))
    assert set(m.kitty_of(1)) == kitty and set(m.discards_of(1)) == kitty
    view = seat_view(m, 1)
    assert set(view.kitty) == kitty and view.own_set_points == 5
    for seat in (0, 2, 3):
        assert seat_view(m, seat).kitty == () and seat_view(m, seat).discards == ()


# ------------------------------------------------------------------ V6.6 the kitty


def test_v6_6_1_the_hakem_lays_down_exactly_four_different_cards_he_holds() -> None:
    m = rigged(MIXED, MIXED_KITTY)
    hakem_at_100(m)
    assert len(m.hand_of(0)) == 16
    before = unchanged(m)
    for bad in ("2C 3C 4C", "2C 3C 4C 5C AS", "2C 2C 3C 4C"):
        with pytest.raises(DiscardCount) as info:
            m.discard(0, parse_cards(bad))
        assert info.value.needed == 4 and info.value.code == "discard_count"
    with pytest.raises(CardNotInHand):
        m.discard(0, parse_cards("2C 3C 4C AD"))
    for bad_cards in (C("2C"), "2C 3C 4C 5C", [1, 2, 3, 99], [True, 1, 2, 3], None):
        with pytest.raises(IllegalMove):
            m.discard(0, bad_cards)  # type: ignore[arg-type]
    with pytest.raises(NotYourTurn):
        m.discard(1, parse_cards("QS JS 9S 8S"))
    assert unchanged(m) == before
    assert m.discard(0, parse_cards("2C 3C 4C 10H")) == (KittyDiscarded(0, 4),)
    assert len(m.hand_of(0)) == 12 and m.phase == PLAY and m.mode == "hokm"
    assert set(m.discards_of(0)) == set(parse_cards("2C 3C 4C 10H"))


def test_v6_6_2_laid_down_cards_count_for_the_hakem_as_a_set_of_five_plus_points() -> None:
    m = rigged(MIXED, MIXED_KITTY)
    hakem_at_100(m)
    m.discard(0, parse_cards("10H 5H 5S 2C"))  # 10 + 5 + 5 points, and the set's 5
    assert m.hand_points() == (25, 0)
    assert seat_view(m, 0).own_set_points == 25
    assert seat_view(m, 2).own_set_points == 0  # not even the partner
    assert seat_view(m, 0).trick_points == (0, 0)


def test_v6_6_4_kitty_hidden_until_taken_and_then_from_all_but_the_hakem() -> None:
    m = rigged(MIXED, MIXED_KITTY)
    kitty = set(parse_cards(MIXED_KITTY))
    for seat in range(4):
        view = seat_view(m, seat)
        assert view.kitty == () and not kitty & set(view.hand)
    hakem_at_100(m)
    assert set(seat_view(m, 0).kitty) == kitty
    for seat in (1, 2, 3):
        view = seat_view(m, seat)
        assert view.kitty == () and view.discards == ()
    m.discard(0, parse_cards("2C 3C 4C 5C"))
    assert set(seat_view(m, 0).discards) == set(parse_cards("2C 3C 4C 5C"))
    for seat in (1, 2, 3):
        assert seat_view(m, seat).discards == ()


# --------------------------------------------------------------------- V6.7 modes


def test_v6_7_no_mode_phase_at_a_table_without_the_options() -> None:
    m = rigged(MIXED, MIXED_KITTY)
    hakem_at_100(m)
    events = m.discard(0, parse_cards("2C 3C 4C 5C"))
    assert events == (KittyDiscarded(0, 4),)
    assert m.phase == PLAY and m.mode == "hokm"
    assert m.options.modes == ("hokm",)


def test_v6_7_the_hakem_announces_a_mode_the_table_allows() -> None:
    m = rigged(MIXED, MIXED_KITTY, options=ShelemOptions(nars=True))
    hakem_at_100(m)
    m.discard(0, parse_cards("2C 3C 4C 5C"))
    assert m.phase == MODE and m.to_act == 0 and seat_view(m, 0).can_choose_mode
    before = unchanged(m)
    for bad in ("sars", "ace_nars", "NARS", "", 1):
        with pytest.raises(ModeNotAllowed) as info:
            m.choose_mode(0, bad)  # type: ignore[arg-type]
        assert info.value.allowed == ("hokm", "nars")
    with pytest.raises(NotYourTurn):
        m.choose_mode(2, "nars")
    assert unchanged(m) == before
    assert m.choose_mode(0, "nars") == (ModeChosen(0, "nars"),)
    assert m.phase == PLAY and m.turn == 0


def test_v6_7_nars_reverses_the_ranks_and_has_no_trump() -> None:
    m = rigged(MIXED, MIXED_KITTY, options=ALL_MODES)
    hakem_at_100(m)
    m.discard(0, parse_cards("2C 3C 4C 5C"))
    m.choose_mode(0, "nars")
    assert m.play(0, C("2H")) == ()  # no trump named
    m.play(1, C("QS"))  # void in hearts: no cut in nars
    m.play(2, C("JH"))
    events = m.play(3, C("KH"))
    assert m.trump is None
    assert isinstance(events[0], Trick) and events[0].winner == 0  # the 2 is highest


def test_v6_7_trick_winner_in_each_mode() -> None:
    cards = [C(c) for c in ("KH", "2H", "AH", "QS")]
    assert trick_winner(0, cards, "hokm", int(Suit.SPADES)) == 3  # the cut
    assert trick_winner(0, cards, "hokm", int(Suit.CLUBS)) == 2
    assert trick_winner(0, cards, "sars", -1) == 2  # A high, no trump
    assert trick_winner(0, cards, "nars", -1) == 1  # 2 high
    assert trick_winner(0, cards, "ace_nars", -1) == 2  # A high, then 2
    assert trick_winner(1, [C("KH"), C("3H"), C("QH"), C("2S")], "ace_nars", -1) == 2
    # ace-nars: A 2 3 … Q K, the king lowest
    assert trick_winner(0, [C("KH"), C("QH"), C("2H"), C("JH")], "ace_nars", -1) == 2


# ------------------------------------------------------------------------ V6.8 play


def test_v6_8_1_the_hakem_leads_and_his_first_card_names_trump() -> None:
    m = rigged(MIXED, MIXED_KITTY)
    hakem_at_100(m)
    m.discard(0, parse_cards("2C 3C 4C 5C"))
    assert m.turn == 0 and m.trump is None and seat_view(m, 0).names_trump
    assert m.play(0, C("AS")) == (TrumpNamed(0, Suit.SPADES),)
    assert m.trump == Suit.SPADES and not seat_view(m, 1).names_trump


def test_v6_8_2_follow_suit_and_a_trump_cuts() -> None:
    m = rigged(MIXED, MIXED_KITTY)
    hakem_at_100(m)
    m.discard(0, parse_cards("2C 3C 4C 5C"))
    m.play(0, C("AS"))
    before = unchanged(m)
    with pytest.raises(MustFollowSuit) as info:
        m.play(1, C("6C"))
    assert info.value.led == Suit.SPADES
    with pytest.raises(NotYourTurn):
        m.play(2, C("3S"))
    with pytest.raises(CardNotInHand):
        m.play(1, C("AD"))
    assert unchanged(m) == before
    assert set(m.legal_cards(1)) == set(parse_cards("QS JS 9S 8S"))
    m.play(1, C("8S"))
    m.play(2, C("3S"))
    assert len(m.legal_cards(3)) == 12  # void in spades: anything
    events = m.play(3, C("AC"))
    assert events == (Trick(1, 0, (C("AS"), C("8S"), C("3S"), C("AC")), 0),)
    assert m.team_points == [25, 0]  # the trick's 5, A♠ 10, A♣ 10
    m.play(0, C("AH"))
    m.play(1, C("9S"))  # void in hearts: cuts
    m.play(2, C("7H"))
    events = m.play(3, C("QH"))
    assert isinstance(events[0], Trick) and events[0].winner == 1
    assert m.team_points == [25, 15] and m.turn == 1 and m.leader == 1


def test_v6_8_2_all_twelve_tricks_are_played() -> None:
    m = rigged(ONE_SUIT, ONE_SUIT_KITTY, dealer=3)
    hakem_at_100(m)
    m.discard(0, parse_cards("2H 2D 2C 3S"))
    results = []
    while m.hand_number == 1:
        for event in m.play(m.turn, m.legal_cards(m.turn)[0]):
            if isinstance(event, ShelemHandResult):
                results.append(event)
    assert len(results) == 1 and results[0].tricks == (12, 0)


# --------------------------------------------------------------------- V6.9 points


def test_v6_9_card_points() -> None:
    assert [card_points(C(f"{r}S")) for r in ("2", "4", "5", "9", "10", "J", "K", "A")] == [
        0,
        0,
        5,
        0,
        10,
        0,
        0,
        10,
    ]
    assert card_points(C("RJ")) == 20 and card_points(C("BJ")) == 15
    assert mask_points((1 << 52) - 1) == 100  # 13 sets of 5 more make 165
    assert ShelemOptions().hand_total == 165 and JOKER.hand_total == 200


# --------------------------------------------------------------------- V6.10 scoring

PLAIN = ShelemOptions()


def test_v6_10_made_scores_the_bid_and_the_defenders_their_points() -> None:
    assert score_hand(PLAIN, 120, 0, (125, 40), False, (0, 0)) == ("made", (120, 40), (0, 0))
    assert score_hand(PLAIN, 120, 1, (40, 120), False, (0, 0)) == ("made", (40, 120), (0, 0))


def test_v6_10_all_tricks_on_a_points_bid_scores_double_the_bid() -> None:
    assert score_hand(PLAIN, 105, 0, (165, 0), True, (0, 0)) == ("all_tricks", (210, 0), (0, 0))


def test_v6_10_a_failed_bid_loses_the_bid_or_double_below_the_defenders() -> None:
    assert score_hand(PLAIN, 120, 0, (115, 50), False, (0, 0)) == ("set", (-120, 50), (0, 0))
    assert score_hand(PLAIN, 100, 1, (80, 85), False, (0, 0)) == ("set", (80, -100), (0, 0))
    assert score_hand(PLAIN, 100, 1, (85, 80), False, (0, 0)) == ("double_set", (85, -200), (0, 0))
    assert score_hand(PLAIN, 100, 0, (80, 85), False, (0, 0)) == ("double_set", (-200, 85), (0, 0))


def test_v6_11_shelem_and_sar_shelem_win_or_lose_330() -> None:
    assert score_hand(PLAIN, SHELEM, 0, (165, 0), True, (0, 0)) == ("shelem", (330, 0), (0, 0))
    assert score_hand(PLAIN, SHELEM, 0, (160, 5), False, (0, 0)) == (
        "shelem_set",
        (-330, 5),
        (0, 0),
    )
    assert score_hand(PLAIN, SAR_SHELEM, 1, (0, 165), True, (0, 0)) == (
        "sar_shelem",
        (0, 330),
        (0, 0),
    )
    assert score_hand(PLAIN, SAR_SHELEM, 1, (20, 145), False, (0, 0))[:2] == (
        "sar_shelem_set",
        (20, -330),
    )
    assert score_hand(JOKER, SHELEM, 0, (200, 0), True, (0, 0))[1] == (400, 0)


def test_v6_12_a_defending_side_near_the_target_scores_only_by_setting_the_hakem() -> None:
    near = (0, 1000)  # 165 from 1165
    assert score_hand(PLAIN, 100, 0, (120, 45), False, near) == ("made", (100, 0), (0, 45))
    assert score_hand(PLAIN, 100, 0, (95, 70), False, near) == ("set", (-100, 70), (0, 0))
    far = (0, 995)  # 170 from it
    assert score_hand(PLAIN, 100, 0, (120, 45), False, far) == ("made", (100, 45), (0, 0))
    assert score_hand(PLAIN, 100, 0, (120, 45), False, (1100, 0)) == ("made", (100, 45), (0, 0))
    jokers_near = (0, 1200)  # 200 from 1400
    assert score_hand(JOKER, 120, 0, (150, 50), False, jokers_near)[2] == (0, 50)


def test_v6_10_the_engine_scores_a_hand_taken_whole_and_deals_the_next() -> None:
    m = rigged(ONE_SUIT, ONE_SUIT_KITTY, dealer=3)
    hakem_at_100(m)
    m.discard(0, parse_cards("2H 2D 2C 3S"))
    events: list[object] = []
    while m.hand_number == 1:
        events += m.play(m.turn, m.legal_cards(m.turn)[0])
    result = next(e for e in events if isinstance(e, ShelemHandResult))
    assert result.kind == "all_tricks" and result.points == (165, 0)
    assert result.changes == (200, 0) and m.scores == [200, 0]
    assert result.trump == Suit.SPADES and result.mode == "hokm" and result.bid == 100
    assert m.hand_results == [result] and m.phase == BID


def test_v6_11_a_shelem_taken_whole_scores_330() -> None:
    m = rigged(ONE_SUIT, ONE_SUIT_KITTY, dealer=3)
    auction(m, SHELEM, PASS, PASS)
    m.discard(0, parse_cards("2H 2D 2C 3S"))
    while m.hand_number == 1:
        m.play(m.turn, m.legal_cards(m.turn)[0])
    assert m.hand_results[-1].kind == "shelem" and m.scores == [330, 0]


def test_v6_11_a_sar_shelem_taken_whole_scores_330_for_its_side() -> None:
    m = rigged(ONE_SUIT, ONE_SUIT_KITTY, dealer=3)
    auction(m, SHELEM, SAR_SHELEM)
    while m.hand_number == 1:
        m.play(m.turn, m.legal_cards(m.turn)[0])
    result = m.hand_results[-1]
    assert result.kind == "sar_shelem" and result.hakem == 1 and m.scores == [0, 330]
    assert result.points == (0, 165)  # the kitty laid aside counts as the hakem's set


# ----------------------------------------------------------------- V6.13 jokers

JOKER_HANDS = [
    "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S AH",
    "RJ 3S AD KD QD JD 10D 9D 8D 7D 6D 5D",
    "KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2D",
    "BJ AC KC QC JC 10C 9C 8C 7C 6C 5C 4C",
]
JOKER_KITTY = "2S 4D 3D 2H 3C 2C"


def test_v6_13_jokers_bids_from_120_to_200_and_six_laid_down() -> None:
    m = rigged(JOKER_HANDS, JOKER_KITTY, options=JOKER)
    assert m.legal_bids(0) == (PASS, *range(120, 205, 5), SHELEM)
    with pytest.raises(BidOutOfRange):
        m.bid(0, 115)
    auction(m, 120, PASS, PASS, PASS)
    assert len(m.hand_of(0)) == 18
    with pytest.raises(DiscardCount):
        m.discard(0, parse_cards("2S 4D 3D 2H"))
    m.discard(0, parse_cards(JOKER_KITTY))
    assert len(m.hand_of(0)) == 12


def test_v6_13_a_joker_is_a_trump_above_the_ace_red_over_black() -> None:
    m = rigged(JOKER_HANDS, JOKER_KITTY, dealer=2, options=JOKER)
    auction(m, 120, PASS, PASS, PASS)  # seat 3 hakem
    m.discard(3, parse_cards(JOKER_KITTY))
    before = unchanged(m)
    with pytest.raises(JokerCannotNameTrump) as info:
        m.play(3, C("BJ"))
    assert info.value.code == "joker_cannot_name_trump"
    assert unchanged(m) == before
    assert C("BJ") not in m.legal_cards(3)
    m.play(3, C("4C"))  # clubs trump
    assert m.trump == Suit.CLUBS
    m.play(0, C("4S"))
    assert m.legal_cards(1) == (C("RJ"),)  # its only trump: it must follow with it
    with pytest.raises(MustFollowSuit):
        m.play(1, C("3S"))
    m.play(1, C("RJ"))
    events = m.play(2, C("2D"))
    assert isinstance(events[0], Trick) and events[0].winner == 1
    assert m.team_points == [0, 25]  # 5 and the red joker's 20
    assert trick_winner(0, [C("AC"), C("BJ"), C("RJ"), C("KC")], "hokm", 3) == 2
    assert trick_winner(0, [C("AC"), C("BJ"), C("2D"), C("KC")], "hokm", 3) == 1


def test_v6_13_a_joker_goes_on_a_plain_lead_only_from_a_void_seat() -> None:
    m = rigged(JOKER_HANDS, JOKER_KITTY, options=JOKER)
    auction(m, 120, PASS, PASS, PASS)
    m.discard(0, parse_cards("2S 3D 2H 3C 2C 4S"))  # keeps 4♦
    m.play(0, C("AS"))  # spades trump
    assert set(m.legal_cards(1)) == {C("RJ"), C("3S")}
    m.play(1, C("3S"))
    m.play(2, C("3H"))
    assert m.legal_cards(3) == (C("BJ"),)
    m.play(3, C("BJ"))  # the black joker beats the ace of trump
    assert m.tricks[-1].winner == 3
    m.play(3, C("4C"))
    m.play(0, C("KS"))  # void in clubs: cuts
    assert C("RJ") in m.legal_cards(1)  # void in clubs: the joker may go
    m.play(1, C("5D"))
    m.play(2, C("4H"))
    assert m.tricks[-1].winner == 0
    m.play(0, C("4D"))
    assert C("RJ") not in m.legal_cards(1)  # it holds diamonds: it must follow them
    assert set(m.legal_cards(1)) == set(parse_cards("AD KD QD JD 10D 9D 8D 7D 6D"))
    with pytest.raises(MustFollowSuit):
        m.play(1, C("RJ"))


def test_v6_13_joker_and_nars_modes_exclude_each_other() -> None:
    for key in ("nars", "ace_nars", "sars"):
        with pytest.raises(InvalidSetting) as info:
            ShelemOptions(joker=True, **{key: True})
        assert info.value.key == "joker"


def test_v6_options_are_validated() -> None:
    for bad in ({"joker": 1}, {"nars": "yes"}, {"target_score": 1166}, {"target_score": 100}):
        with pytest.raises(InvalidSetting):
            ShelemOptions(**bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidSetting):
        ShelemOptions.from_dict({"bam": True})
    assert ShelemOptions().to_dict() == {}
    o = ShelemOptions(nars=True, target_score=500)
    assert ShelemOptions.from_dict(o.to_dict()) == o and o.target == 500
    assert ShelemOptions().target == 1165 and JOKER.target == 1400


# ------------------------------------------------------------------- V6.14 match end


def test_v6_14_a_team_at_the_target_wins() -> None:
    m = rigged(ONE_SUIT, ONE_SUIT_KITTY, dealer=3, scores=(1000, 0))
    hakem_at_100(m)
    m.discard(0, parse_cards("2H 2D 2C 3S"))
    events: list[object] = []
    while m.phase == PLAY:
        events += m.play(m.turn, m.legal_cards(m.turn)[0])
    assert m.phase == MATCH_OVER and m.is_over and m.winner_team == 0 and m.to_act == -1
    assert events[-1] == MatchCompleted(0, (1200, 0))


def test_v6_14_a_team_ahead_by_the_target_wins_and_scores_may_be_negative() -> None:
    m = rigged(ONE_SUIT, ONE_SUIT_KITTY, dealer=0, scores=(-1000, 0))
    auction(m, 100, PASS, PASS, PASS)  # seat 1 hakem
    m.discard(1, parse_cards("2H 2S 2C 3D"))
    while m.phase == PLAY:
        m.play(m.turn, m.legal_cards(m.turn)[0])
    assert m.winner_team == 1 and m.scores == [-1000, 200]
    assert match_winner(PLAIN, (-100, 0)) is None
    assert match_winner(PLAIN, (-1165, 0)) == 1
    assert match_winner(PLAIN, (1165, 1165)) is None
    assert match_winner(PLAIN, (1170, 1165)) == 0


# ------------------------------------------------------- replay and JSON round trip


def test_v6_replay_and_json_round_trip_of_a_rigged_hand() -> None:
    m = rigged(MIXED, MIXED_KITTY, options=ALL_MODES)
    hakem_at_100(m)
    m.discard(0, parse_cards("2C 3C 4C 5C"))
    m.choose_mode(0, "ace_nars")
    m.play(0, C("AH"))
    data = json.loads(json.dumps(m.to_dict()))
    assert ShelemMatch.from_dict(data) == m
    assert data["actions"][-3:] == [
        ["discard", 0, ["2C", "3C", "4C", "5C"]],
        ["mode", 0, "ace_nars"],
        "AH",
    ]


def test_v6_replay_rebuilds_a_seeded_match() -> None:
    m = ShelemMatch(7)
    auction(m, 100, PASS, PASS, PASS)
    hakem = m.hakem
    m.discard(hakem, m.hand_of(hakem)[:4])
    for _ in range(9):
        m.play(m.turn, m.legal_cards(m.turn)[0])
    again = replay(7, json.loads(json.dumps(m.to_dict()["actions"])))
    assert again == m


def test_v6_from_dict_refuses_what_is_not_a_possible_match() -> None:
    m = rigged(MIXED, MIXED_KITTY)
    hakem_at_100(m)
    good = m.to_dict()
    broken = [
        {"version": 2},
        {"format": "standard"},
        {"phase": "trump"},
        {"kitty": ["2S", "10H", "5H"]},
        {"hands": good["hands"][:3]},
        {"hands": [good["hands"][1], *good["hands"][1:]]},
        {"mode": "nars"},
        {"bids": [100, 0, 0, 7]},
        {"auction": [[0, 100], [1, 0], [2, 0]]},
        {"high": 105},
        {"hakem": 2},
        {"decider": 2},
        {"dealer": 9},
        {"options": {"joker": True}},
        {"scores": [1]},
    ]
    for change in broken:
        with pytest.raises(InvalidState):
            ShelemMatch.from_dict(good | change)
    assert ShelemMatch.from_dict(good) == m


def test_v6_apply_refuses_unknown_actions() -> None:
    m = ShelemMatch(3)
    before = unchanged(m)
    for bad in ((), ("trump", 0, "S"), ("bid", 0), ("redeal", 0), "ZZ", None, 1.5):
        with pytest.raises(IllegalMove):
            m.apply(bad)  # type: ignore[arg-type]
    assert unchanged(m) == before


def test_v6_hand_result_round_trips_and_names_kind() -> None:
    m = rigged(ONE_SUIT, ONE_SUIT_KITTY, dealer=3)
    hakem_at_100(m)
    m.discard(0, parse_cards("2H 2D 2C 3S"))
    while m.hand_number == 1:
        m.play(m.turn, m.legal_cards(m.turn)[0])
    again = ShelemMatch.from_dict(json.loads(json.dumps(m.to_dict())))
    assert again.hand_results == m.hand_results and again.hand_results[0].made


def test_v6_the_shelem_engine_is_pure_stdlib() -> None:
    """As the rest of ``engine``: no I/O library, no third-party import (the bot's layers
    test does not walk sub-packages)."""
    import ast
    import sys
    from pathlib import Path

    folder = Path(__file__).resolve().parents[2] / "engine" / "shelem"
    files = sorted(folder.glob("*.py"))
    assert len(files) >= 7
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                roots = [alias.name.split(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                roots = [(node.module or "").split(".")[0]]
            else:
                continue
            for root in roots:
                assert root in sys.stdlib_module_names or root == "__future__", (path, root)
                assert root not in ("os", "io", "socket", "asyncio", "time"), (path, root)
