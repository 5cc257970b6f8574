"""V3 three players, V4 five players, V5 six players (two teams of three, three teams of two):
the formats are data in ``FORMATS``, played by the one ``Match`` (R4–R13 generalised)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine import (
    CARDS,
    Card,
    IllegalMove,
    InvalidState,
    Match,
    Rules,
    Suit,
    Trick,
    parse_cards,
    replay,
)
from engine.match import TRUMP
from engine.rules import (
    FIVE,
    FORMATS,
    SIX_PAIRS,
    SIX_TEAMS,
    STANDARD,
    THREE,
    TWO,
    GameFormat,
    hokm_formats,
)

from .helpers import random_move, rigged_format_match

DATA = Path(__file__).parent / "data"


def fill(fmt: GameFormat, fixed: dict[int, str]) -> list[str]:
    """Whole hands: the seats in ``fixed`` hold those cards first (topped up), the others the
    rest of the deck in card order."""
    taken = {c for text in fixed.values() for c in parse_cards(text)}
    rest = [CARDS[c] for c in fmt.deck if CARDS[c] not in taken]
    hands = []
    for seat in range(fmt.seats):
        cards = list(parse_cards(fixed.get(seat, "")))
        more = fmt.hand_size - len(cards)
        cards += rest[:more]
        del rest[:more]
        hands.append(" ".join(c.code for c in cards))
    return hands


SPADES_DOWN = "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S"


def play_out(match: Match, rng: random.Random, hands: int = 1) -> None:
    start = match.hand_number
    while not match.is_over and match.hand_number < start + hands:
        random_move(match, rng)


# ------------------------------------------------------------------------ the formats as data


def test_v2_to_v5_formats_are_named_data() -> None:
    assert set(FORMATS) == {
        "standard",
        "three",
        "five",
        "six_teams",
        "six_pairs",
        "two",
        "joker_six",
        "shelem",
    }
    assert {n for n, f in FORMATS.items() if f.family == "shelem"} == {"shelem"}
    assert all(FORMATS[f.name] is f for f in (STANDARD, THREE, FIVE, SIX_TEAMS, SIX_PAIRS, TWO))


def test_v3_deck_is_51_cards_without_the_two_of_diamonds() -> None:
    assert len(THREE.deck) == 51
    assert THREE.removed == (Card.parse("2D"),)
    assert TWO.removed == (Card.parse("2D"),)


def test_v4_deck_is_50_cards_without_two_of_diamonds_and_clubs() -> None:
    assert len(FIVE.deck) == 50
    assert set(FIVE.removed) == set(parse_cards("2D 2C"))


def test_v5_deck_is_48_cards_without_the_four_twos() -> None:
    for fmt in (SIX_TEAMS, SIX_PAIRS):
        assert len(fmt.deck) == 48
        assert set(fmt.removed) == set(parse_cards("2S 2H 2D 2C"))


def test_v3_v4_every_seat_plays_alone() -> None:
    for fmt in (THREE, FIVE, TWO):
        assert fmt.solo and fmt.teams == tuple((s,) for s in range(fmt.seats))
    assert not SIX_TEAMS.solo and not SIX_PAIRS.solo and not STANDARD.solo


def test_v5_teams_of_three_sit_every_other_seat_and_pairs_sit_opposite() -> None:
    assert SIX_TEAMS.teams == ((0, 2, 4), (1, 3, 5))
    assert SIX_PAIRS.teams == ((0, 3), (1, 4), (2, 5))
    # play alternates between the teams, as partners opposite do at the standard table (R2)
    for fmt in (SIX_TEAMS, SIX_PAIRS):
        assert all(fmt.team_of[s] != fmt.team_of[fmt.next_seat[s]] for s in range(6))


@pytest.mark.parametrize(
    ("fmt", "pattern"),
    [(STANDARD, (5, 4, 4)), (THREE, (5, 4, 4, 4)), (FIVE, (5, 5)), (SIX_TEAMS, (4, 4))],
)
def test_v3_deal_is_5_4_4_4_and_v4_5_5_and_v5_4_4(fmt: GameFormat, pattern: tuple[int]) -> None:
    assert fmt.deal == pattern and sum(pattern) == fmt.hand_size
    for seed in range(20):
        m = Match(seed, None, fmt)
        assert m.phase == TRUMP
        assert [len(m.hand_of(s)) for s in range(fmt.seats)] == [
            pattern[0] if s == m.hakem else 0 for s in range(fmt.seats)
        ]
        first = set(m.hand_of(m.hakem))
        m.choose_trump(m.hakem, Suit.HEARTS)
        hands = [m.hand_of(s) for s in range(fmt.seats)]
        assert [len(h) for h in hands] == [fmt.hand_size] * fmt.seats
        assert sorted(c for h in hands for c in h) == sorted(fmt.deck)  # the deck, partitioned
        assert first <= set(hands[m.hakem])  # the first packet stays in the hakem's hand


def test_v5_hakem_names_trump_on_four_cards() -> None:
    m = Match(3, None, SIX_PAIRS)
    assert len(m.hand_of(m.hakem)) == 4


def test_r3_first_ace_works_with_any_number_of_seats() -> None:
    for fmt in (f for f in hokm_formats().values() if not f.bids):  # joker six has no hakem to find
        for seed in range(10):
            m = Match(seed, None, fmt)
            seat, card = m.first_hakem_deal[-1]
            assert seat == m.hakem and card.rank_code == "A"
            assert all(c.rank_code != "A" for _, c in m.first_hakem_deal[:-1])
            assert all(int(c) in fmt.deck for _, c in m.first_hakem_deal)


# ----------------------------------------------------------------- hand end and score (R10–R13)


def test_v3_seven_tricks_take_the_hand_and_a_hakem_winning_alone_is_a_kot() -> None:
    hands = fill(THREE, {0: SPADES_DOWN + " AH KH QH JH"})
    m = rigged_format_match(THREE, 0, hands, trump=Suit.SPADES)
    for _ in range(7):
        for _ in range(3):
            m.play(m.turn, m.legal_cards(m.turn)[-1])
    r = m.hand_results[-1]
    assert r.tricks == (7, 0, 0) and r.winner_team == 0
    assert (r.kind, r.points) == ("kot", 2)  # R11: the hakem's side won 7-0 ("kot applies")
    assert m.hakem == 0 and m.hand_number == 2  # R13: the hakem won, stays


def test_v3_kot_of_the_hakem_scores_three_and_the_winner_becomes_hakem() -> None:
    hands = fill(THREE, {0: SPADES_DOWN + " AH KH QH JH"})
    hands[1], hands[2] = hands[2], hands[1]  # seat 1 holds the clubs, seat 2 the rest
    m = rigged_format_match(THREE, 1, hands, trump=Suit.HEARTS)
    while m.hand_number == 1:
        m.play(m.turn, m.legal_cards(m.turn)[-1])
    r = m.hand_results[-1]
    assert r.winner_team == 0 and r.tricks[0] == 7 and r.tricks[1] == 0
    assert (r.kind, r.points) == ("hakem_kot", 3)
    assert m.scores == [3, 0, 0]
    assert m.hakem == 0  # R13: the nearest seat after the hakem on the winning side: the winner


def test_v3_kot_is_any_other_seat_without_a_trick() -> None:
    """A solo kot needs one other seat with no trick, not all of them (the seed: "اگر در یک
    دست بازی یکی از تیمها هیچ امتیازی کسب نکند ... کُت")."""
    results = []
    for seed in range(40):
        m = Match(seed, None, THREE)
        play_out(m, random.Random(seed), hands=3)
        results += m.hand_results
    for r in results:
        zero = [t for t, n in enumerate(r.tricks) if n == 0 and t != r.winner_team]
        if max(r.tricks) < 7:
            assert r.kind == "win"
        elif not zero:
            assert r.kind == "win" and r.points == 1
        elif r.hakem in zero:
            assert r.kind == "hakem_kot" and r.points == 3
        else:
            assert r.kind == "kot" and r.points == 2
    assert {r.kind for r in results} >= {"win", "kot"}


def test_v3_v5_a_hand_nobody_takes_seven_of_goes_to_most_tricks_first_reached() -> None:
    """V3 6–6–5 of 17, V4/V5 most hands: every trick is played, the side with most tricks
    takes the hand (one point); of sides tied, the one that reached that count first."""
    seen = 0
    for fmt in (THREE, FIVE, SIX_TEAMS, SIX_PAIRS):
        for seed in range(30):
            m = Match(seed, None, fmt)
            rng = random.Random(seed)
            while not m.is_over and m.hand_number < 4:
                hand = m.hand_number
                random_move(m, rng)
                if m.hand_number == hand or not m.hand_results:
                    continue
                r = m.hand_results[-1]
                if max(r.tricks) >= 7:
                    continue
                seen += 1
                assert sum(r.tricks) == fmt.hand_size and (r.kind, r.points) == ("win", 1)
                best = max(r.tricks)
                assert r.tricks[r.winner_team] == best
                assert fmt.can_run_out
    assert seen > 50
    assert not STANDARD.can_run_out and not TWO.can_run_out and THREE.can_run_out


def test_v4_tie_for_most_tricks_goes_to_the_side_that_got_there_first() -> None:
    for seed in range(300):
        m = Match(seed, None, FIVE)
        rng = random.Random(seed)
        winners: list[int] = []
        while m.hand_number == 1:
            winners += [e.winner for e in random_move(m, rng) if isinstance(e, Trick)]
        r = m.hand_results[0]
        best = max(r.tricks)
        if best >= 7 or r.tricks.count(best) < 2:
            continue
        running = [0] * FIVE.seats
        for w in winners:
            running[w] += 1
            if running[w] == best:
                assert r.winner_team == w
                return
    pytest.fail("no tied hand in 300 seeds")


def test_r13_six_pairs_hakem_passes_to_the_nearest_seat_of_the_winning_pair() -> None:
    hands = fill(SIX_PAIRS, {2: "AS KS QS JS 10S 9S 8S 7S", 0: "3H 4H 5H 6H 7H 8H 9H 10H"})
    m = rigged_format_match(SIX_PAIRS, 0, hands, trump=Suit.SPADES)
    while m.hand_number == 1:
        m.play(m.turn, m.legal_cards(m.turn)[0])
    r = m.hand_results[-1]
    assert r.winner_team == 2 and r.tricks == (0, 0, 7)
    assert (r.kind, r.points) == ("hakem_kot", 3)
    assert m.hakem == 2  # 0 -> 1 (pair 1) -> 2 (pair 2, the winners)
    assert m.scores == [0, 0, 3]


def test_r13_six_teams_hakem_passes_to_the_next_seat() -> None:
    hands = fill(SIX_TEAMS, {1: "AS KS QS JS 10S 9S 8S 7S", 0: "3H 4H 5H 6H 7H 8H 9H 10H"})
    m = rigged_format_match(SIX_TEAMS, 0, hands, trump=Suit.SPADES)
    while m.hand_number == 1:
        m.play(m.turn, m.legal_cards(m.turn)[0])
    assert m.hand_results[-1].winner_team == 1 and m.hakem == 1


def test_r12_solo_match_ends_when_one_seat_reaches_the_target() -> None:
    for fmt in (THREE, FIVE, SIX_PAIRS):
        m = Match(11, Rules(target_score=3), fmt)
        play_out(m, random.Random(1), hands=10_000)
        assert m.is_over and m.scores[m.winner_team or 0] >= 3
        assert sorted(m.scores)[-2] < 3


def test_r6_redeal_works_in_every_format() -> None:
    rules = Rules(redeal_without_court=True)
    for fmt in (STANDARD, THREE, FIVE, SIX_TEAMS, SIX_PAIRS):
        low = "3S 4S 5S 6S 7S"
        hands = fill(fmt, {0: " ".join(low.split()[: fmt.first_deal])})
        m = rigged_format_match(fmt, 0, hands, rules=rules)
        assert m.can_redeal(0) and not m.can_redeal(1)
        m.redeal(0)
        assert m.phase == TRUMP and m.deal_number == 2
        assert len(m.hand_of(0)) == fmt.first_deal
        court = fill(fmt, {0: "AS " + " ".join(low.split()[: fmt.first_deal - 1])})
        m = rigged_format_match(fmt, 0, court, rules=rules)
        assert not m.can_redeal(0)
        with pytest.raises(IllegalMove):
            m.redeal(0)


# ------------------------------------------------------------------------- storage, replay


def test_r1_stored_variant_names_its_format_and_rejects_a_removed_card() -> None:
    m = Match(4, None, THREE)
    m.choose_trump(m.hakem, Suit.CLUBS)
    data = json.loads(json.dumps(m.to_dict()))
    assert data["format"] == "three"
    assert Match.from_dict(data) == m
    seat = (m.hakem + 1) % 3
    data["hands"][seat][0] = "2D"
    with pytest.raises(InvalidState):
        Match.from_dict(data)


def test_r1_a_match_stored_before_the_variants_loads_and_stores_the_same() -> None:
    """``data/standard_v1.json`` was written by the engine before the Hokm family's formats (main at 4093e97)."""
    for name in ("standard_v1.json", "standard_v1_over.json"):
        stored = json.loads((DATA / name).read_text())
        m = Match.from_dict(stored)
        assert m.fmt is STANDARD
        assert m.to_dict() == stored
        assert replay(m.seed, stored["actions"], m.rules).to_dict() == stored
