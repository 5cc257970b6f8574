"""Random seeds, random legal decisions, every Hokm format of ``FORMATS`` (R4, R8–R13, V1–V5):
the invariants hold at every step, and a seat's view holds no card it may not see."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    PLAY,
    Card,
    HandResult,
    IllegalMove,
    Match,
    Rules,
    SeatView,
    Suit,
    Trick,
    replay,
    seat_view,
)
from engine.match import BAM, DISCARD, DRAW, TRUMP
from engine.rules import FORMATS, GameFormat, hokm_formats

from .helpers import random_move

seeds = st.integers(min_value=0, max_value=2**63 - 1)
few = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
NAMES = sorted(hokm_formats())
TRICK_FORMATS = sorted(name for name, fmt in hokm_formats().items() if not fmt.bids)
"""The formats won by tricks (joker six, won by its bid, has its own in test_joker_six.py)."""


def _winner_by_r9(trick: Trick, trump: Suit, seats: int) -> int:
    led = trick.cards[0].suit
    trumps = [(c.rank, s) for s, c in trick.plays(seats) if c.suit == trump]
    if trumps:
        return max(trumps)[1]
    return max((c.rank, s) for s, c in trick.plays(seats) if c.suit == led)[1]


def _cards_in(value: object) -> set[Card]:
    """Every card anywhere in a view field, however nested."""
    if isinstance(value, Card):
        return {value}
    if isinstance(value, tuple | list):
        return {c for v in value for c in _cards_in(v)}
    return set()


def check_views(m: Match) -> None:
    """``seat_view`` holds only the seat's own cards, its own discards, the card it is drawing,
    and the public table (first-hakem deal, tricks): never another hand, the undealt rest, the
    stock, or another seat's discards (R4, V2)."""
    public = {c for _, c in m.first_hakem_deal} | {c for t in m.tricks for c in t.cards}
    public |= set(m.trick)
    for seat in range(m.fmt.seats):
        view = seat_view(m, seat)
        own = set(m.hand_of(seat)) | set(m.discards_of(seat))
        if m.phase == DRAW and m.to_act == seat:
            assert view.drawn is not None
            own.add(view.drawn)
        else:
            assert view.drawn is None
        seen: set[Card] = set()
        for f in dataclasses.fields(SeatView):
            if f.name != "fmt":
                seen |= _cards_in(getattr(view, f.name))
        assert seen <= own | public, (seat, sorted(seen - own - public))
        assert set(view.hand) == set(m.hand_of(seat))
        assert set(view.discards) == set(m.discards_of(seat))
        if m.fmt.discards:
            assert view.stock_left == m.stock_left
            assert view.discard_counts == tuple(len(m.discards_of(s)) for s in range(m.fmt.seats))


def check_result(
    fmt: GameFormat, r: HandResult, tricks: list[Trick], scores_before: tuple[int, ...]
) -> None:
    """R10, R11 generalised (docs/rules.md), V1."""
    team_of = fmt.team_of
    assert r.tricks == tuple(
        sum(1 for t in tricks if team_of[t.winner] == team) for team in range(len(fmt.teams))
    )
    best = max(r.tricks)
    hakem_team = team_of[r.hakem]
    if r.bam:
        assert r.tricks[r.winner_team] >= fmt.tricks_to_win
        if r.kind in ("bam", "hakem_bam"):
            assert r.tricks[r.winner_team] == fmt.hand_size == len(tricks)
            assert (r.kind == "bam") == (r.winner_team == hakem_team)
        else:  # the bam side lost a trick: the kot it had when it declared stands
            assert sum(r.tricks) - r.tricks[r.winner_team] == 1
            assert team_of[tricks[-1].winner] != r.winner_team
            expected = fmt.points_kot if r.winner_team == hakem_team else fmt.points_hakem_kot
            assert r.points == expected
    elif best >= fmt.tricks_to_win:
        assert r.tricks[r.winner_team] == fmt.tricks_to_win  # the hand stopped there (R10)
        assert team_of[tricks[-1].winner] == r.winner_team
        zero = [t for t, n in enumerate(r.tricks) if n == 0 and t != r.winner_team]
        if not zero:
            assert (r.kind, r.points) == ("win", fmt.points_win)
        elif hakem_team in zero:
            assert (r.kind, r.points) == ("hakem_kot", fmt.points_hakem_kot)
        else:
            assert (r.kind, r.points) == ("kot", fmt.points_kot)
    else:  # nobody reached it: every trick played, most tricks, first to get there
        assert fmt.can_run_out and len(tricks) == fmt.hand_size
        assert (r.kind, r.points) == ("win", fmt.points_win)
        running = [0] * len(fmt.teams)
        for t in tricks:
            running[team_of[t.winner]] += 1
            if running[team_of[t.winner]] == best:
                assert r.winner_team == team_of[t.winner]
                break
    assert r.scores_after[r.winner_team] == scores_before[r.winner_team] + r.points
    assert all(
        r.scores_after[t] == scores_before[t] for t in range(len(fmt.teams)) if t != r.winner_team
    )


def play_checked(fmt: GameFormat, seed: int, rng: random.Random, rules: Rules) -> Match:
    m = Match(seed, rules, fmt)
    n = fmt.seats
    while not m.is_over:
        assert m.phase == TRUMP
        assert [len(m.hand_of(s)) for s in range(n)] == [
            fmt.first_deal if s == m.hakem else 0 for s in range(n)
        ]
        check_views(m)
        hakem, scores_before = m.hakem, tuple(m.scores)
        hand_no = m.hand_number
        tricks: list[Trick] = []
        result = None
        while m.hand_number == hand_no and not m.is_over:
            if m.phase == PLAY and not m.trick and not tricks:  # hands complete: R4, V2
                hands = [set(m.hand_of(s)) for s in range(n)]
                assert [len(h) for h in hands] == [fmt.hand_size] * n
                everything = set().union(*hands, *(m.discards_of(s) for s in range(n)))
                assert sum(len(h) for h in hands) + sum(len(m.discards_of(s)) for s in range(n)) + (
                    m.stock_left
                ) == len(fmt.deck)
                assert len(everything) + m.stock_left == len(fmt.deck)
                assert {int(c) for c in everything} <= set(fmt.deck)
            if m.phase == PLAY:
                seat = m.turn
                legal = m.legal_cards(seat)
                held = m.hand_of(seat)
                assert legal and set(legal) <= set(held)
                if m.trick:  # R8
                    led = m.trick[0].suit
                    if any(c.suit == led for c in held):
                        assert {c.suit for c in legal} == {led}
                    else:
                        assert set(legal) == set(held)
                illegal = [c for c in held if c not in legal]
                if illegal:  # refused, and the match is untouched
                    before = m.to_dict()
                    with pytest.raises(IllegalMove):
                        m.play(seat, illegal[0])
                    assert m.to_dict() == before
                other = (seat + 1) % n
                if m.hand_of(other):  # out of turn: refused, untouched
                    before = m.to_dict()
                    with pytest.raises(IllegalMove):
                        m.play(other, m.hand_of(other)[0])
                    assert m.to_dict() == before
            elif m.phase in (DISCARD, DRAW, BAM):  # nobody plays a card while one seat decides
                assert m.legal_cards(m.to_act) == ()
                with pytest.raises(IllegalMove):
                    m.play(m.to_act, m.hand_of(m.to_act)[0])
            if rng.random() < 0.05:
                check_views(m)
            for event in random_move(m, rng):
                if isinstance(event, Trick):  # R9
                    assert m.trump is not None or m.hand_number > hand_no
                    tricks.append(event)
                    assert event.number == len(tricks) and len(event.cards) == n
                if isinstance(event, HandResult):
                    result = event
        assert result is not None and result.hakem == hakem
        for t in tricks:
            assert t.winner == _winner_by_r9(t, result.trump, n)
        check_result(fmt, result, tricks, scores_before)
        if not m.is_over:  # R13 generalised: stays, or the nearest seat after on the winners
            if fmt.team_of[hakem] == result.winner_team:
                assert m.hakem == hakem
            else:
                expected = next(
                    (hakem + k) % n
                    for k in range(1, n + 1)
                    if fmt.team_of[(hakem + k) % n] == result.winner_team
                )
                assert m.hakem == expected
    target = rules.target_score
    last = m.hand_results[-1]
    assert m.scores[m.winner_team or 0] >= target or last.kind in ("bam", "hakem_bam")
    assert sorted(m.scores)[-2] < target  # R12: one side, the first there
    return m


@pytest.mark.parametrize("name", TRICK_FORMATS)
@few
@given(seed=seeds, moves=st.integers(0, 2**32), target=st.integers(1, 5), bam=st.booleans())
def test_every_format_keeps_every_invariant(
    name: str, seed: int, moves: int, target: int, bam: bool
) -> None:
    rules = Rules(target_score=target, bam=bam, redeal_without_court=bam)
    play_checked(FORMATS[name], seed, random.Random(moves), rules)


@pytest.mark.parametrize("name", NAMES)
@few
@given(seed=seeds, moves=st.integers(0, 2**32), bam=st.booleans())
def test_every_format_replays_and_round_trips_json(
    name: str, seed: int, moves: int, bam: bool
) -> None:
    fmt = FORMATS[name]
    rules = Rules(target_score=3, bam=bam)
    rng = random.Random(moves)
    m = Match(seed, rules, fmt)
    checkpoints = 0
    while not m.is_over:
        random_move(m, rng)
        if rng.random() < 0.08:
            checkpoints += 1
            data = json.loads(json.dumps(m.to_dict()))
            assert data["format"] == name
            restored = Match.from_dict(data)
            assert restored == m and restored.to_dict() == m.to_dict()
            views = [seat_view(m, s) for s in range(fmt.seats)]
            assert [seat_view(restored, s) for s in range(fmt.seats)] == views
            twin = replay(seed, data["actions"], rules, fmt)
            assert twin.to_dict() == m.to_dict()
            logged = replay(seed, m.actions, rules, fmt)
            assert logged.to_dict() == m.to_dict()
            a, b = random.Random(checkpoints), random.Random(checkpoints)
            for _ in range(8):  # the restored match plays on exactly like the replayed one
                if restored.is_over:
                    break
                random_move(restored, a)
                random_move(twin, b)
                assert restored.to_dict() == twin.to_dict()
    assert replay(seed, m.to_dict()["actions"], rules, fmt) == m
