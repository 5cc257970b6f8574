"""Random seeds, random legal play: the invariants of R4 and R8–R13 hold at every step."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    PLAY,
    TRUMP,
    HandResult,
    IllegalMove,
    Match,
    MatchCompleted,
    Rules,
    Suit,
    Trick,
    replay,
    seat_view,
)

seeds = st.integers(min_value=0, max_value=2**63 - 1)
fast = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _winner_by_r9(trick: Trick, trump: Suit) -> int:
    led = trick.cards[0].suit
    trumps = [(c.rank, s) for s, c in trick.plays() if c.suit == trump]
    if trumps:
        return max(trumps)[1]
    return max((c.rank, s) for s, c in trick.plays() if c.suit == led)[1]


def play_checked_match(seed: int, rng: random.Random, rules: Rules) -> Match:
    """A whole match with random legal moves, checking every invariant on the way."""
    m = Match(seed, rules)
    while not m.is_over:
        assert m.phase == TRUMP
        assert [len(m.hand_of(s)) for s in range(4)].count(0) == 3
        assert len(m.hand_of(m.hakem)) == 5
        hakem, scores_before = m.hakem, tuple(m.scores)
        m.choose_trump(m.hakem, rng.choice(list(Suit)))
        hands = [m.hand_of(s) for s in range(4)]
        assert [len(h) for h in hands] == [13] * 4
        assert len({c for h in hands for c in h}) == 52
        hand_no = m.hand_number
        result = None
        while m.phase == PLAY and m.hand_number == hand_no:
            seat = m.turn
            legal = m.legal_cards(seat)
            held = m.hand_of(seat)
            assert legal and set(legal) <= set(held)
            if m.current_trick():
                led = m.current_trick()[0][1].suit
                if any(c.suit == led for c in held):
                    assert {c.suit for c in legal} == {led}  # R8
                else:
                    assert set(legal) == set(held)
            for card in held:  # everything not legal is refused, state untouched
                if card not in legal:
                    before = m.to_dict()
                    try:
                        m.play(seat, card)
                    except IllegalMove:
                        pass
                    else:
                        raise AssertionError(f"{card} was accepted but not legal")
                    assert m.to_dict() == before
                    break
            trump, tricks_before = m.trump, sum(m.team_tricks)
            assert trump is not None
            for event in m.play(seat, rng.choice(legal)):
                if isinstance(event, Trick):  # R9, and exactly one winner per trick
                    assert event.winner == _winner_by_r9(event, trump)
                    assert event.number == tricks_before + 1 and len(event.cards) == 4
                if isinstance(event, HandResult):
                    result = event
        assert result is not None
        assert max(result.tricks) == 7 and sum(result.tricks) <= 13  # R10
        assert result.tricks[result.winner_team] == 7
        loser = result.tricks[1 - result.winner_team]
        hakem_team = hakem % 2
        expected = 1 if loser else (2 if result.winner_team == hakem_team else 3)  # R11
        assert result.points == expected
        assert (
            result.scores_after[result.winner_team] == scores_before[result.winner_team] + expected
        )
        if not m.is_over:  # R13
            assert m.hakem == (hakem if result.winner_team == hakem_team else (hakem + 1) % 4)
    assert max(m.scores) >= rules.target_score  # R12
    assert m.scores[m.winner_team] >= rules.target_score
    assert min(m.scores) < rules.target_score
    return m


@fast
@given(seed=seeds, moves=st.integers(0, 2**32), target=st.integers(1, 13))
def test_random_matches_keep_every_invariant(seed: int, moves: int, target: int) -> None:
    play_checked_match(seed, random.Random(moves), Rules(target_score=target))


@fast
@given(seed=seeds, moves=st.integers(0, 2**32))
def test_replay_equals_original_and_serialization_round_trips(seed: int, moves: int) -> None:
    rng = random.Random(moves)
    m = Match(seed, Rules(target_score=3))
    checkpoints = 0
    while not m.is_over:
        if m.phase == TRUMP:
            m.choose_trump(m.hakem, rng.choice(list(Suit)))
        else:
            m.play(m.turn, rng.choice(m.legal_cards(m.turn)))
        if rng.random() < 0.1:
            checkpoints += 1
            data = json.loads(json.dumps(m.to_dict()))
            restored = Match.from_dict(data)
            assert restored == m
            assert restored.to_dict() == m.to_dict()
            assert [seat_view(restored, s) for s in range(4)] == [seat_view(m, s) for s in range(4)]
            # the restored match plays on exactly like one replayed from its actions
            twin = replay(seed, data["actions"], Rules(target_score=3))
            a, b = random.Random(checkpoints), random.Random(checkpoints)
            for _ in range(6):
                for mm, r in ((restored, a), (twin, b)):
                    if mm.phase == TRUMP:
                        mm.choose_trump(mm.hakem, r.choice(list(Suit)))
                    elif mm.phase == PLAY:
                        mm.play(mm.turn, r.choice(mm.legal_cards(mm.turn)))
                assert restored.to_dict() == twin.to_dict()
    rebuilt = replay(seed, m.to_dict()["actions"], Rules(target_score=3))
    assert rebuilt == m
    assert rebuilt.to_dict() == m.to_dict()


@fast
@given(seed=seeds, moves=st.integers(0, 2**32))
def test_replay_accepts_the_logged_actions_at_any_point(seed: int, moves: int) -> None:
    """``replay(seed, match.actions)``: the logged form itself (``Card`` objects, 2♠ = ``Card(0)``
    included, and trump tuples), not only its JSON form, rebuilds the match at random points."""
    rng = random.Random(moves)
    rules = Rules(target_score=2)
    m = Match(seed, rules)
    while not m.is_over:
        if m.phase == TRUMP:
            m.choose_trump(m.hakem, rng.choice(list(Suit)))
        else:
            m.play(m.turn, rng.choice(m.legal_cards(m.turn)))
        if rng.random() < 0.15:
            rebuilt = replay(seed, m.actions, rules)
            assert rebuilt == m
            assert rebuilt.to_dict() == m.to_dict()
    assert replay(seed, m.actions, rules).to_dict() == m.to_dict()


@fast
@given(seed=seeds)
def test_deal_is_a_permutation_of_the_deck(seed: int) -> None:
    m = Match(seed)
    m.choose_trump(m.hakem, Suit.SPADES)
    assert sorted(c for s in range(4) for c in m.hand_of(s)) == list(range(52))


def test_event_stream_ends_with_match_completed() -> None:
    m = play_checked_match(99, random.Random(5), Rules(target_score=7))
    assert m.hand_results[-1].scores_after == tuple(m.scores)
    assert MatchCompleted(m.winner_team, tuple(m.scores)).winner_team == m.winner_team
