"""R2–R14 on hand-built deals: each test names the rule it checks."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine import (
    MATCH_OVER,
    PLAY,
    TRUMP,
    Card,
    CardNotInHand,
    HandResult,
    HandStarted,
    IllegalMove,
    InvalidSetting,
    Match,
    MatchCompleted,
    MustFollowSuit,
    NotHakem,
    NotYourTurn,
    RedealNotAllowed,
    Rules,
    Suit,
    Trick,
    TrumpChosen,
    UnknownSeat,
    WrongPhase,
    auto_trump,
    parse_cards,
    seat_view,
)
from engine.events import Event

from .helpers import rigged_match, suit_hands

Policy = Callable[[Match, int, tuple[Card, ...]], Card]


def highest(_m: Match, _s: int, legal: tuple[Card, ...]) -> Card:
    return max(legal, key=lambda c: c.rank)


def lowest(_m: Match, _s: int, legal: tuple[Card, ...]) -> Card:
    return min(legal, key=lambda c: c.rank)


def play_out_hand(match: Match, policies: dict[int, Policy] | Policy) -> list[Event]:
    """Play until the hand ends; returns every event."""
    events: list[Event] = []
    hand = match.hand_number
    while match.phase == PLAY and match.hand_number == hand:
        seat = match.turn
        policy = policies if callable(policies) else policies[seat]
        events.extend(match.play(seat, policy(match, seat, match.legal_cards(seat))))
    return events


def unchanged_after(match: Match, action: Callable[[], object], error: type[Exception]) -> None:
    """An illegal action raises ``error`` and leaves the match exactly as it was."""
    before = match.to_dict()
    with pytest.raises(error):
        action()
    assert match.to_dict() == before


# R2 ---------------------------------------------------------------------------------------


def test_r2_partners_sit_opposite() -> None:
    m = Match(3)
    assert [m.team_of(s) for s in range(4)] == [0, 1, 0, 1]


def test_r2_play_goes_round_in_seat_order() -> None:
    m = rigged_match(2, suit_hands(), trump=Suit.DIAMONDS)
    order = []
    for _ in range(4):
        order.append(m.turn)
        m.play(m.turn, m.legal_cards(m.turn)[0])
    assert order == [2, 3, 0, 1]


# R3 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(40))
def test_r3_first_ace_dealt_face_up_makes_the_hakem(seed: int) -> None:
    m = Match(seed, Rules(hakem_selection="first_ace"))
    shown = m.first_hakem_deal
    assert shown, "the channel needs the face-up cards"
    *before, (ace_seat, ace) = shown
    assert ace.rank_code == "A"
    assert all(c.rank_code != "A" for _, c in before)
    assert ace_seat == m.hakem
    first_seat = shown[0][0]
    assert [s for s, _ in shown] == [(first_seat + i) % 4 for i in range(len(shown))]
    assert len({c for _, c in shown}) == len(shown)


def test_r3_random_hakem_is_spread_over_seats_and_shows_no_cards() -> None:
    hakems = [Match(seed, Rules(hakem_selection="random")).hakem for seed in range(200)]
    assert set(hakems) == {0, 1, 2, 3}
    assert Match(5, Rules(hakem_selection="random")).first_hakem_deal == ()


def test_r3_first_ace_start_seat_varies() -> None:
    starts = {Match(seed).first_hakem_deal[0][0] for seed in range(100)}
    assert starts == {0, 1, 2, 3}


# R4 ---------------------------------------------------------------------------------------


def test_r4_hakem_alone_holds_five_then_everyone_thirteen() -> None:
    m = Match(11)
    assert m.phase == TRUMP
    sizes = [len(m.hand_of(s)) for s in range(4)]
    assert sizes[m.hakem] == 5 and sum(sizes) == 5
    for seat in range(4):
        view = seat_view(m, seat)
        assert len(view.hand) == (5 if seat == m.hakem else 0)
    m.choose_trump(m.hakem, Suit.CLUBS)
    hands = [m.hand_of(s) for s in range(4)]
    assert [len(h) for h in hands] == [13] * 4
    assert len({c for h in hands for c in h}) == 52


def test_r4_the_five_stay_in_the_hakems_hand() -> None:
    m = Match(12)
    five = set(m.hand_of(m.hakem))
    m.choose_trump(m.hakem, Suit.HEARTS)
    assert five <= set(m.hand_of(m.hakem))


def test_r4_deals_differ_between_hands_and_seeds() -> None:
    a, b = Match(1), Match(2)
    assert a.hand_of(a.hakem) != b.hand_of(b.hakem)


# R5 ---------------------------------------------------------------------------------------


def test_r5_only_the_hakem_names_trump() -> None:
    m = Match(4)
    other = (m.hakem + 1) % 4
    unchanged_after(m, lambda: m.choose_trump(other, Suit.SPADES), NotHakem)
    events = m.choose_trump(m.hakem, Suit.SPADES)
    assert events == (TrumpChosen(m.hakem, Suit.SPADES),)
    assert m.trump is Suit.SPADES and m.phase == PLAY


def test_r5_trump_is_locked_for_the_hand() -> None:
    m = Match(4)
    m.choose_trump(m.hakem, Suit.SPADES)
    unchanged_after(m, lambda: m.choose_trump(m.hakem, Suit.HEARTS), WrongPhase)
    assert m.trump is Suit.SPADES


def test_r5_no_card_before_trump_is_named() -> None:
    m = Match(4)
    card = m.hand_of(m.hakem)[0]
    unchanged_after(m, lambda: m.play(m.hakem, card), WrongPhase)


def test_r5_rejects_a_non_suit() -> None:
    m = Match(4)
    unchanged_after(m, lambda: m.choose_trump(m.hakem, 7), IllegalMove)


# R6 ---------------------------------------------------------------------------------------


def _low_five_hands() -> list[str]:
    hands = suit_hands()
    # seat 0 (hakem) gets 2S..6S as its first five: no court card.
    spades = "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"
    return [spades, *hands[1:]]


def test_r6_redeal_is_off_by_default() -> None:
    m = rigged_match(0, _low_five_hands())
    assert not m.can_redeal(0)
    unchanged_after(m, lambda: m.redeal(0), RedealNotAllowed)


def test_r6_redeal_when_five_hold_no_court_card() -> None:
    rules = Rules(redeal_without_court=True)
    m = rigged_match(0, _low_five_hands(), rules=rules)
    assert m.can_redeal(0) and not m.can_redeal(1)
    unchanged_after(m, lambda: m.redeal(1), NotHakem)
    deal_before = m.deal_number
    assert m.redeal(0)
    assert m.phase == TRUMP and m.hakem == 0 and m.deal_number == deal_before + 1
    assert len(m.hand_of(0)) == 5


def test_r6_no_redeal_with_a_court_card() -> None:
    rules = Rules(redeal_without_court=True)
    m = rigged_match(0, suit_hands(), rules=rules)  # seat 0's five are A K Q J 10 of spades
    assert not m.can_redeal(0)
    unchanged_after(m, lambda: m.redeal(0), RedealNotAllowed)


# R7 ---------------------------------------------------------------------------------------


def test_r7_hakem_leads_then_trick_winner_leads() -> None:
    m = rigged_match(1, suit_hands(), trump=Suit.SPADES)
    assert m.turn == 1
    unchanged_after(m, lambda: m.play(0, m.hand_of(0)[0]), NotYourTurn)
    # Hearts led by seat 1; seat 0 is void and cuts with a spade (trump): seat 0 wins.
    m.play(1, Card.parse("2H"))
    m.play(2, Card.parse("2D"))
    m.play(3, Card.parse("2C"))
    (trick,) = m.play(0, Card.parse("2S"))
    assert isinstance(trick, Trick) and trick.winner == 0
    assert m.turn == 0 and m.leader == 0


# R8 ---------------------------------------------------------------------------------------


def _mixed_hands() -> list[str]:
    return [
        "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2H",
        "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2S",
        "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D",
        "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C",
    ]


def test_r8_must_follow_led_suit() -> None:
    m = rigged_match(1, _mixed_hands(), trump=Suit.CLUBS)
    m.play(1, Card.parse("2S"))  # spades led
    m.play(2, Card.parse("2D"))
    m.play(3, Card.parse("2C"))
    with pytest.raises(MustFollowSuit) as info:
        m.play(0, Card.parse("2H"))
    assert info.value.led is Suit.SPADES
    assert "spades" in str(info.value)
    unchanged_after(m, lambda: m.play(0, Card.parse("2H")), MustFollowSuit)
    assert set(m.legal_cards(0)) == {c for c in m.hand_of(0) if c.suit is Suit.SPADES}
    m.play(0, Card.parse("3S"))


def test_r8_void_player_may_play_anything_and_need_not_trump() -> None:
    m = rigged_match(0, _mixed_hands(), trump=Suit.CLUBS)
    m.play(0, Card.parse("2H"))  # hearts led
    m.play(1, Card.parse("3H"))
    assert set(m.legal_cards(2)) == set(m.hand_of(2))  # void in hearts, holds no trump
    m.play(2, Card.parse("2D"))
    assert set(m.legal_cards(3)) == set(m.hand_of(3))  # void: trump allowed, not forced
    m.play(3, Card.parse("2C"))


def test_r8_card_not_in_hand() -> None:
    m = rigged_match(0, _mixed_hands(), trump=Suit.CLUBS)
    unchanged_after(m, lambda: m.play(0, Card.parse("AH")), CardNotInHand)
    unchanged_after(m, lambda: m.play(0, 52), IllegalMove)
    unchanged_after(m, lambda: m.play(0, -1), IllegalMove)
    for junk in ("AS", None, 5.5, [], (1,)):  # not card numbers at all
        unchanged_after(m, lambda junk=junk: m.play(0, junk), IllegalMove)
    unchanged_after(m, lambda: m.play(7, Card.parse("AS")), UnknownSeat)
    unchanged_after(m, lambda: m.play(-1, Card.parse("AS")), UnknownSeat)


# R9 ---------------------------------------------------------------------------------------


def test_r9_worked_example_low_trump_beats_the_led_ace() -> None:
    """Trump diamonds; 10♠ led, then A♠, 3♦ (void in spades), K♠ → 3♦ wins (001_…)."""
    hands = [
        "10S 2S 3S 4S 5S 6S 7S 8S 9S 2H 3H 4H 5H",
        "AS 6H 7H 8H 9H 10H JH QH KH AH 2C 3C 4C",
        "3D 2D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
        "KS QS JS 5C 6C 7C 8C 9C 10C JC QC KC AC",
    ]
    m = rigged_match(0, hands, trump=Suit.DIAMONDS)
    m.play(0, Card.parse("10S"))
    m.play(1, Card.parse("AS"))
    m.play(2, Card.parse("3D"))
    (trick,) = m.play(3, Card.parse("KS"))
    assert trick.winner == 2
    assert trick.plays() == tuple(
        (s, Card.parse(c)) for s, c in [(0, "10S"), (1, "AS"), (2, "3D"), (3, "KS")]
    )


def test_r9_highest_trump_wins_when_several_cut() -> None:
    hands = [
        "AH 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS",
        "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AS",
        "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
        "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
    ]
    m = rigged_match(2, hands, trump=Suit.SPADES)
    m.play(2, Card.parse("AD"))  # diamonds led; nobody else has one
    m.play(3, Card.parse("KC"))  # off-suit, not trump: never wins however high
    m.play(0, Card.parse("2S"))  # cut
    (trick,) = m.play(1, Card.parse("AS"))  # over-cut
    assert trick.winner == 1


def test_r9_off_suit_card_never_wins() -> None:
    m = rigged_match(0, suit_hands(), trump=Suit.HEARTS)
    m.play(0, Card.parse("2S"))
    m.play(1, Card.parse("2H"))  # hearts is trump: wins
    m.play(2, Card.parse("AD"))
    (trick,) = m.play(3, Card.parse("AC"))
    assert trick.winner == 1
    m2 = rigged_match(0, suit_hands(), trump=Suit.HEARTS)
    m2.play(0, Card.parse("2S"))
    m2.play(1, Card.parse("2H"))
    m2.play(2, Card.parse("AD"))
    assert m2.current_trick()[1] == (1, Card.parse("2H"))


# R10, R11 ----------------------------------------------------------------------------------


def test_r10_r11_hakem_team_seven_nil_is_kot_two_points() -> None:
    m = rigged_match(0, suit_hands(), trump=Suit.SPADES)
    events = play_out_hand(m, highest)
    tricks = [e for e in events if isinstance(e, Trick)]
    (result,) = [e for e in events if isinstance(e, HandResult)]
    assert len(tricks) == 7, "the hand ends the moment a team has 7 (R10)"
    assert result.tricks == (7, 0) and result.kind == "kot" and result.points == 2
    assert m.scores == [2, 0]


def test_r10_r11_defenders_seven_nil_is_hakem_kot_three_points() -> None:
    m = rigged_match(0, suit_hands(), trump=Suit.HEARTS)  # only seat 1 holds trump
    events = play_out_hand(m, highest)
    (result,) = [e for e in events if isinstance(e, HandResult)]
    assert result.tricks == (0, 7) and result.winner_team == 1
    assert result.kind == "hakem_kot" and result.points == 3
    assert m.scores == [0, 3]


def test_r11_seven_one_is_one_point() -> None:
    m = rigged_match(0, _mixed_hands(), trump=Suit.SPADES)
    # Seat 0 leads its only heart; seat 1 takes it with AH (team 1: one trick).
    m.play(0, Card.parse("2H"))
    m.play(1, Card.parse("AH"))
    m.play(2, Card.parse("2D"))
    (t1,) = m.play(3, Card.parse("2C"))
    assert t1.winner == 1
    # Seat 1 leads hearts from now on; seat 0 cuts with spades and wins the rest.
    events = play_out_hand(
        m,
        {
            0: highest,
            1: lambda _m, _s, legal: min(legal, key=lambda c: (c.suit == Suit.SPADES, c.rank)),
            2: lowest,
            3: lowest,
        },
    )
    (result,) = [e for e in events if isinstance(e, HandResult)]
    assert result.tricks == (7, 1) and result.kind == "win" and result.points == 1
    assert m.scores == [1, 0]


def test_r10_remaining_cards_are_not_played_and_next_hand_is_dealt() -> None:
    m = rigged_match(0, suit_hands(), trump=Suit.SPADES)
    events = play_out_hand(m, highest)
    assert isinstance(events[-1], HandStarted)
    assert m.hand_number == 2 and m.phase == TRUMP
    assert len(m.tricks) == 0 and m.team_tricks == [0, 0]


# R12 --------------------------------------------------------------------------------------


def test_r12_match_ends_exactly_at_target() -> None:
    m = rigged_match(0, suit_hands(), trump=Suit.SPADES, scores=(5, 6))
    events = play_out_hand(m, highest)  # kot: +2 → 7
    assert isinstance(events[-1], MatchCompleted)
    assert events[-1] == MatchCompleted(0, (7, 6))
    assert m.phase == MATCH_OVER and m.is_over and m.winner_team == 0
    unchanged_after(m, lambda: m.choose_trump(m.hakem, Suit.SPADES), WrongPhase)
    unchanged_after(m, lambda: m.play(0, Card.parse("2S")), WrongPhase)


def test_r12_match_goes_on_below_target() -> None:
    m = rigged_match(0, suit_hands(), trump=Suit.SPADES, scores=(4, 6))
    play_out_hand(m, highest)  # kot: 6
    assert m.scores == [6, 6] and not m.is_over and m.winner_team is None


def test_r12_target_is_a_setting() -> None:
    m = rigged_match(0, suit_hands(), trump=Suit.SPADES, rules=Rules(target_score=2))
    events = play_out_hand(m, highest)
    assert isinstance(events[-1], MatchCompleted)


@pytest.mark.parametrize("bad", [0, 14, -1, 7.0, "7", True, None])
def test_r12_target_outside_1_to_13_is_refused(bad: object) -> None:
    with pytest.raises(InvalidSetting) as info:
        Rules(target_score=bad)  # type: ignore[arg-type]
    assert info.value.key == "target_score"


def test_settings_reject_unknown_hakem_selection_and_bad_redeal_flag() -> None:
    with pytest.raises(InvalidSetting, match="hakem_selection"):
        Rules(hakem_selection="dice")  # type: ignore[arg-type]
    with pytest.raises(InvalidSetting, match="redeal"):
        Rules(redeal_without_court="yes")  # type: ignore[arg-type]
    assert isinstance(InvalidSetting("k", 1, "x"), ValueError)


# R13 --------------------------------------------------------------------------------------


def test_r13_hakem_stays_after_winning() -> None:
    m = rigged_match(0, suit_hands(), trump=Suit.SPADES)
    play_out_hand(m, highest)
    assert m.hakem == 0


def test_r13_hakem_passes_to_next_seat_after_losing() -> None:
    m = rigged_match(3, suit_hands(), trump=Suit.SPADES)  # only seat 0 has trump
    events = play_out_hand(m, highest)
    (result,) = [e for e in events if isinstance(e, HandResult)]
    assert result.winner_team == 0 and result.kind == "hakem_kot"
    assert m.hakem == 0  # next after seat 3 is seat 0, on the winning team
    assert events[-1] == HandStarted(2, 0)


# R14 --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("five", "trump"),
    [
        ("2S 3S 4S AH KH", Suit.SPADES),  # most cards
        ("2S 3S AH 4H 5D", Suit.HEARTS),  # tie on two: the ace decides
        ("KS 3S KH 4H 5D", Suit.HEARTS),  # tie on K: the next card (4 over 3) decides
        ("AS AH AD AC KC", Suit.CLUBS),
    ],
)
def test_r14_timeout_trump_most_cards_then_high_cards(five: str, trump: Suit) -> None:
    assert auto_trump(parse_cards(five)) is trump


def test_replay_takes_a_logged_two_of_spades_and_refuses_what_is_not_an_action() -> None:
    """``Card(0)`` (2♠) is falsy and an ``int``: it is a play, not an "empty action"; a bare int,
    a float, ``None`` or an empty list is refused with ``IllegalMove``, never a ``TypeError``."""
    from engine import Card, replay

    m = Match(0)  # seed 0: the hakem leads and holds 2♠
    m.choose_trump(m.hakem, Suit.HEARTS)
    two = Card.parse("2S")
    assert int(two) == 0 and two in m.legal_cards(m.turn)
    m.play(m.turn, two)
    assert m.actions[-1] is two
    assert replay(0, m.actions).to_dict() == m.to_dict()
    for bad in (0, 5.5, None, [], ()):
        with pytest.raises(IllegalMove):
            replay(3, [bad])
