"""Computer players in every Hokm format of ``FORMATS``: legal in every phase, sampling
consistent with what a seat knows, the simulator faithful to ``Match``, hints for every seat.

Every test here runs over all formats the engine knows, from their ``GameFormat`` data only:
a format added to ``FORMATS`` is covered without a change here. Budgets are tiny: these tests
check behaviour, never strength or speed (that is ``bench/arena.py --variant``).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    TRUMP,
    GreedyPlayer,
    HandResult,
    Match,
    RandomPlayer,
    Rules,
    SearchPlayer,
    hint,
    seat_view,
)
from engine.fastsim import (
    FROM_RM,
    RM_SUIT,
    TO_RM,
    greedy_card,
    lookahead_card,
    rollout_n,
    seating,
    to_rm,
    trick_winner,
)
from engine.match import BAM, DISCARD, DRAW, PLAY
from engine.players import VariantPlayer
from engine.rules import FORMATS, STANDARD, THREE, GameFormat, hokm_formats
from engine.sampling import Bias, Knowledge, Sampler, knowledge
from engine.search import (
    _TRUMP_LIKELIHOOD,
    HandValues,
    SearchSettings,
    _play_out,
    _trump_likelihood,
    first_to_most,
    match_equity,
    mixed_likelihood,
    side_equity,
)
from tests.engine.helpers import greedy_hand_out

from .test_bam import spades_match, to_seven

fast = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ALL = sorted(
    (f for f in hokm_formats().values() if not getattr(f, "bids", ())),  # joker six: its own file
    key=lambda f: f.name,
)
"""Every format but the joker six (V5 with jokers and bidding, ``GameFormat.bids``): its
hakem is bid for, its jokers are trumps and its hands are scored by the bid, so its players,
sampling and simulator have their own tests (``test_joker_players.py``)."""
NAMES = [f.name for f in ALL]
TINY = SearchSettings(card_budget=300, min_deals=2, max_deals=4, trump_deals=2)


def by_name(name: str) -> GameFormat:
    return FORMATS[name]


def act(match: Match, player: VariantPlayer) -> None:
    """One decision of the seat the table waits for, checked legal, in any phase."""
    seat = match.to_act
    view = seat_view(match, seat)
    phase = match.phase
    if phase == TRUMP:
        match.choose_trump(seat, player.choose_trump(view))
    elif phase == DISCARD:
        assert view.can_discard
        card = player.choose_discard(view)
        assert card in view.hand
        match.discard(seat, card)
    elif phase == DRAW:
        assert view.can_draw and view.drawn is not None
        keep = player.choose_draw(view)
        assert isinstance(keep, bool)
        match.draw(seat, keep)
    elif phase == BAM:
        assert view.can_bam
        bam = player.choose_bam(view)
        assert isinstance(bam, bool)
        match.declare_bam(seat, bam)
    else:
        assert phase == PLAY, phase
        card = player.choose_card(view)
        assert card in view.legal
        match.play(seat, card)


def in_play(
    fmt: GameFormat, seed: int, plays: int, greedy_seats: frozenset[int] = frozenset()
) -> Match:
    """A match of ``fmt`` in the play phase of its first hand after up to ``plays`` cards,
    random but for the ``greedy_seats``' (greedy before trump), still in that hand."""
    rng = random.Random(seed)
    m = Match(seed, fmt=fmt)
    greedy = GreedyPlayer()
    while m.phase != PLAY:
        act(m, greedy)
    for _ in range(plays):
        probe = Match.from_dict(m.to_dict())
        seat = probe.turn
        if seat in greedy_seats:
            card = greedy.choose_card(seat_view(probe, seat))
        else:
            card = rng.choice(probe.legal_cards(seat))
        probe.play(seat, card)
        if probe.hand_number != 1 or probe.phase != PLAY:
            break
        m.play(m.turn, card)
    return m


# ------------------------------------------------------------------------ whole matches


@pytest.mark.parametrize(("name", "bam"), [(n, b) for n in NAMES for b in (False, True)])
def test_every_player_is_legal_in_every_phase_of_a_whole_match(name: str, bam: bool) -> None:
    """Trump, V2's discards and draws, V1's bam, cards: every decision is a legal one."""
    fmt = by_name(name)
    phases: set[str] = set()
    for seed in range(2):
        m = Match(seed, Rules(target_score=2, bam=bam), fmt=fmt)
        players: list[VariantPlayer] = [
            (SearchPlayer(seed * 10 + s, TINY), GreedyPlayer(), RandomPlayer(seed + s))[s % 3]
            for s in range(fmt.seats)
        ]
        decisions = 0
        while not m.is_over and decisions < 1000:
            phases.add(m.phase)
            act(m, players[m.to_act])
            decisions += 1
        assert m.is_over
    assert {TRUMP, PLAY} <= phases
    assert (DISCARD in phases and DRAW in phases) == bool(fmt.discards)


@pytest.mark.parametrize("fmt", [STANDARD, THREE], ids=["standard", "three"])
def test_v1_computers_say_bam_and_search_the_bam_to_its_end(fmt: GameFormat) -> None:
    """Seat 0 has 7 tricks to none and a heart that may lose: every computer says bam (a
    failed bam scores the kot anyway), and the searcher plays the bam out legally for every
    seat, to the trick the defenders need."""
    m = spades_match(
        fmt=fmt,
        seat0="AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2H" + (" AH KH QH JH" if fmt is THREE else ""),
    )
    to_seven(m)
    assert m.phase == BAM
    view = seat_view(m, m.to_act)
    for player in (GreedyPlayer(), SearchPlayer(1, TINY)):
        assert player.choose_bam(view) is True
    m.declare_bam(m.to_act, True)
    assert seat_view(m, 1).bam_team == 0
    players = [SearchPlayer(s, TINY) for s in range(fmt.seats)]
    while m.phase == PLAY and m.hand_number == 1:
        act(m, players[m.to_act])
    r = m.hand_results[-1]
    assert r.bam
    if fmt is STANDARD:  # the 2♥ is seat 0's last card: a defender's heart takes it
        assert r.kind == "kot" and r.tricks[1] == 1


# --------------------------------------------------------------------------- sampling


def check_deals(m: Match, seat: int, sampler: Sampler, rng: random.Random) -> None:
    """Sampled deals agree with everything ``seat`` has seen."""
    view = seat_view(m, seat)
    know = knowledge(view)
    n = m.fmt.seats
    deck = seating(m.fmt).deck
    seen = to_rm(view.hand) | to_rm(c for t in view.tricks for c in t.cards)
    seen |= to_rm(c for _, c in view.trick) | to_rm(view.discards)  # V2: its own laid down
    assert know.unseen == deck & ~seen
    for _ in range(4):
        hands = sampler.sample(rng)
        assert len(hands) == n
        assert hands[seat] == to_rm(view.hand)
        for a, b in itertools.combinations(range(n), 2):
            assert not hands[a] & hands[b]
        for s in range(n):
            assert hands[s].bit_count() == view.cards_left[s]
            assert not hands[s] & ~deck  # no card outside the format's deck
            if s != seat:
                assert not hands[s] & seen
            for suit in range(4):
                if know.voids[s] >> suit & 1:
                    assert not hands[s] & RM_SUIT[suit]


@fast
@given(
    name=st.sampled_from(NAMES),
    seed=st.integers(0, 2**40),
    plays=st.integers(0, 80),
    pick=st.integers(0, 5),
)
def test_sampled_deals_respect_counts_seen_cards_and_voids(
    name: str, seed: int, plays: int, pick: int
) -> None:
    fmt = by_name(name)
    m = in_play(fmt, seed, plays)
    seat = pick % fmt.seats
    view = seat_view(m, seat)
    know = knowledge(view)
    for s in range(fmt.seats):  # the real deal is one the seat must think possible
        for suit in range(4):
            if know.voids[s] >> suit & 1:
                assert not any(c.suit == suit for c in m.hand_of(s))
    rng = random.Random(seed)
    check_deals(m, seat, Sampler(know), rng)
    check_deals(m, seat, Sampler(know, SearchPlayer._trump_bias(view)), rng)


@pytest.mark.parametrize("name", NAMES)
def test_trump_phase_deals_complete_the_hakems_first_cards(name: str) -> None:
    fmt = by_name(name)
    m = Match(11, fmt=fmt)
    view = seat_view(m, m.hakem)
    assert view.can_choose_trump and len(view.hand) == fmt.first_deal
    know = knowledge(view)
    hands = Sampler(know).sample(random.Random(1))
    assert [h.bit_count() for h in hands] == [fmt.hand_size] * fmt.seats
    assert hands[m.hakem] & to_rm(view.hand) == to_rm(view.hand)
    dealt = 0
    for h in hands:
        dealt |= h
    assert dealt & ~seating(fmt).deck == 0
    assert (seating(fmt).deck & ~dealt).bit_count() == know.undealt


def brute_force(
    know: Knowledge, bias: Bias | None, exclude: tuple[int, ...] = ()
) -> Counter[tuple[int, ...]]:
    """Every deal that agrees with ``know`` (and gives no seat a card of its ``exclude``),
    with its weight under ``bias``."""
    cards = [c for c in range(64) if know.unseen >> c & 1]
    seats = [s for s, k in enumerate(know.counts) if k]
    out: Counter[tuple[int, ...]] = Counter()

    def deal(i: int, left: list[int], hands: list[int]) -> None:
        if i == len(seats):
            weight = 1
            if bias is not None:
                weight = bias.weights[(hands[bias.seat] & RM_SUIT[bias.suit]).bit_count()]
            out[tuple(hands)] += weight
            return
        s = seats[i]
        for combo in itertools.combinations(left, know.counts[s]):
            if any(know.voids[s] >> (c & 3) & 1 for c in combo):
                continue
            if s < len(exclude) and any(exclude[s] >> c & 1 for c in combo):
                continue
            dealt = list(hands)
            dealt[s] |= sum(1 << c for c in combo)
            deal(i + 1, [c for c in left if c not in combo], dealt)

    deal(0, cards, list(know.known))
    return out


EIGHT_CARDS = Knowledge(
    0,
    (0,) * 6,
    sum(1 << c for c in (0, 1, 2, 3, 4, 5, 8, 9)),  # rank-major: 2♠ 2♥ 2♦ 2♣ 3♠ 3♥ 4♠ 4♥
    (0, 2, 2, 1, 2, 1),
    (0, 0b0001, 0b0010, 0, 0b0100, 0),
)
"""Eight unseen cards among five receiving seats, three of them void in a suit."""


def assert_drawn_as_weighed(
    sampler: Sampler, exact: Counter[tuple[int, ...]], draws: int, seed: int
) -> None:
    """Only deals of ``exact`` are drawn, each as often as its weight says (chi-square)."""
    total = sum(exact.values())
    rng = random.Random(seed)
    seen = Counter(tuple(sampler.sample(rng)) for _ in range(draws))
    assert set(seen) <= set(exact)
    chi2 = sum((seen[d] - w / total * draws) ** 2 / (w / total * draws) for d, w in exact.items())
    dof = len(exact) - 1
    assert chi2 < dof + 5 * (2 * dof) ** 0.5  # about 5 standard deviations


@pytest.mark.parametrize("bias", [None, Bias(3, 1, (1, 3, 9, 27)), Bias(1, 1, (2, 1, 5, 1))])
def test_many_seat_sampling_is_exact(bias: Bias | None) -> None:
    """Five receiving seats (the seat-by-seat count): each consistent deal turns up as often
    as its weight says (chi-square over all 666 of them)."""
    exact = brute_force(EIGHT_CARDS, bias)
    assert_drawn_as_weighed(Sampler(EIGHT_CARDS, bias), exact, 40_000, 7)


@pytest.mark.parametrize(
    ("exclude", "bias"),
    [
        ((0, 0b0000_0001_0000, 0, 0b1_0000_0000, 0, 0), None),
        ((0, 0b0000_0001_0000, 0, 0b1_0000_0000, 0, 0), Bias(3, 0, (1, 3, 9, 27))),
        ((0, 0, 0b10_0010, 0, 0, 0b1_0000_0001), Bias(1, 1, (2, 1, 5, 1))),
    ],
)
def test_sampling_with_exclusions_is_exact(exclude: tuple[int, ...], bias: Bias | None) -> None:
    """``exclude`` (a known greedy seat's telltales, ``PlayModel.exclusions``): no seat is
    dealt a card it excludes, and every deal that agrees turns up as often as its weight says,
    the ``Bias`` counted over its suit's cards however the exclusions split them."""
    exact = brute_force(EIGHT_CARDS, bias, exclude)
    assert 0 < len(exact) < len(brute_force(EIGHT_CARDS, bias))
    assert_drawn_as_weighed(Sampler(EIGHT_CARDS, bias, exclude), exact, 30_000, 11)


def test_exclusions_no_deal_agrees_with_are_refused() -> None:
    """Both receiving seats exclude the 2♠: no deal, ValueError (the search then draws
    without the exclusions); with one excluding it, the other is always dealt it."""
    know = Knowledge(0, (0, 0, 0), to_rm(range(4)), (0, 2, 2), (0, 0, 0))
    two_of_spades = 1 << TO_RM[0]
    with pytest.raises(ValueError, match="no deal"):
        Sampler(know, None, (0, two_of_spades, two_of_spades))
    hands = Sampler(know, None, (0, two_of_spades, 0)).sample(random.Random(1))
    assert hands[2] & two_of_spades


def test_cards_nobody_holds_are_left_out_of_every_hand() -> None:
    """``undealt``: unseen cards in no hand (a deck not all dealt) go to nobody."""
    unseen = to_rm(range(10))
    know = Knowledge(0, (0, 0), unseen, (0, 4), (0, 0), undealt=6)
    rng = random.Random(3)
    held = Counter()
    for _ in range(2000):
        hands = Sampler(know).sample(rng)
        assert len(hands) == 2 and hands[0] == 0 and hands[1].bit_count() == 4
        held.update(c for c in range(64) if hands[1] >> c & 1)
    assert set(held) == {TO_RM[c] for c in range(10)}
    assert max(held.values()) < 1.25 * min(held.values())


# ------------------------------------------------------------------------ the simulator


DEALT = [n for n in NAMES if not FORMATS[n].discards]


@pytest.mark.parametrize(("name", "seed"), [(n, s) for n in DEALT for s in range(8)])
def test_rollout_n_agrees_with_match(name: str, seed: int) -> None:
    """Same tricks, same winners, same result, same team taking the hand as ``Match`` played
    by ``GreedyPlayer``s, from a random position of the first hand.

    Not at two (V2): there a rollout knows where every laid-down card is (they are in no hand
    of its deal) where a ``GreedyPlayer`` knows only its own, so it may see a master a greedy
    seat does not."""
    fmt = by_name(name)
    m = in_play(fmt, seed, random.Random(seed).randrange(3 * fmt.hand_size))
    table = seating(fmt)
    assert m.trump is not None
    trace: list[tuple[int, tuple[int, ...], int]] = []
    result = rollout_n(
        [to_rm(m.hand_of(s)) for s in range(fmt.seats)],
        int(m.trump),
        m.leader,
        [TO_RM[c] for c in m.trick],
        tuple(m.team_tricks),
        fmt.tricks_to_win,
        table,
        first_to_most(seat_view(m, m.turn)),
        trace,
    )
    seen, final = greedy_hand_out(m)
    assert [(t.leader, t.cards, t.winner) for t in seen] == [
        (leader, tuple(FROM_RM[c] for c in cards), winner) for leader, cards, winner in trace
    ]
    assert result[:-1] == final.tricks
    assert result[-1] == final.winner_team


@fast
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 2**40), plays=st.integers(0, 80))
def test_greedy_card_is_greedy_player(name: str, seed: int, plays: int) -> None:
    fmt = by_name(name)
    m = in_play(fmt, seed, plays)
    assert m.trump is not None
    view = seat_view(m, m.turn)
    played = to_rm(c for t in view.tricks for c in t.cards) | to_rm(c for _, c in view.trick)
    rest = seating(fmt).deck & ~played & ~to_rm(view.discards)  # what the seat knows is out
    card = greedy_card(
        to_rm(m.hand_of(m.turn)),
        m.turn,
        m.leader,
        [TO_RM[c] for c in m.trick],
        int(m.trump),
        rest,
        fmt.team_of,
    )
    assert FROM_RM[card] == GreedyPlayer().choose_card(view)


def rm(rank: int, suit: int) -> int:
    """A rank-major bit: rank 0 is the 2, 12 the ace."""
    return 1 << (rank * 4 + suit)


SIX_PAIRS = FORMATS["six_pairs"].team_of  # partners three seats apart: (0, 1, 2, 0, 1, 2)


def test_lookahead_follows_with_the_card_that_holds_the_trick_not_the_cheapest() -> None:
    """R8/R9 at six seats: seat 0 led the 7 of suit 0; seat 1 holds its 8 and ace, seat 2 its
    queen. Greedy beats the 7 with the 8 and loses the trick to the queen; looking to the end
    of the trick, seat 1 plays the ace, which nobody after it beats."""
    trump = 3
    hands = [0, rm(6, 0) | rm(12, 0), rm(10, 0) | rm(0, 1), rm(1, 0), rm(2, 0), rm(3, 0)]
    win, led = 5 * 4 + 0, 0
    greedy = greedy_card(hands[1], 1, 0, [win], trump, sum(hands) | 1 << win, SIX_PAIRS)
    assert greedy == 6 * 4  # the 8
    assert lookahead_card(hands, 1, win, 0, led, trump, 5, SIX_PAIRS) == 12 * 4  # the ace


def test_lookahead_throws_the_cheapest_card_when_the_trick_is_lost_anyway() -> None:
    """Seat 1 holds the 3 and the 8 of the led suit, seat 2 its ace: no card of seat 1's takes
    the trick, so it keeps the 8 (greedy would spend it on beating the 7)."""
    trump = 3
    hands = [0, rm(1, 0) | rm(6, 0), rm(12, 0), rm(0, 0), rm(2, 0), rm(3, 0)]
    assert lookahead_card(hands, 1, 5 * 4, 0, 0, trump, 5, SIX_PAIRS) == 1 * 4


def test_lookahead_leaves_a_trick_its_partner_keeps_and_takes_one_it_would_lose() -> None:
    """Seat 1's partner, seat 4, plays after it: when seat 4's ace will take the trick, seat 1
    throws its lowest card rather than beating the 7 (greedy would beat it)."""
    trump = 3
    hands = [0, rm(2, 0) | rm(9, 0), rm(4, 0), rm(0, 0), rm(12, 0), rm(1, 0)]
    assert lookahead_card(hands, 1, 5 * 4, 0, 0, trump, 5, SIX_PAIRS) == 2 * 4


@fast
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 2**40), plays=st.integers(0, 80))
def test_lookahead_card_is_legal_and_takes_the_trick_when_a_card_can(
    name: str, seed: int, plays: int
) -> None:
    """From a random position of a real deal: the card is legal (R8), and when some legal card
    of the seat's leads the trick, played out greedily, to its team, the one chosen does and
    is the cheapest such (outside trump first, then by rank); otherwise the cheapest card."""
    fmt = by_name(name)
    m = in_play(fmt, seed, plays)
    assert m.trump is not None
    if not m.trick:
        return
    trump = int(m.trump)
    table = seating(fmt)
    hands = [to_rm(m.hand_of(s)) for s in range(fmt.seats)]
    cards = [TO_RM[c] for c in m.trick]
    seat, left = m.turn, fmt.seats - len(cards)
    winner = trick_winner(m.leader, cards, trump, fmt.seats)
    win = cards[(winner - m.leader) % fmt.seats]
    chosen = lookahead_card(hands, seat, win, winner, cards[0] & 3, trump, left, table.team_of)
    assert FROM_RM[chosen] in seat_view(m, seat).legal

    def takes(card: int) -> bool:
        """Play ``card`` and the rest of the trick greedily: does the seat's team take it?"""
        out = rollout_n(
            [h & ~(1 << card) if s == seat else h for s, h in enumerate(hands)],
            trump,
            m.leader,
            [*cards, card],
            (0,) * table.teams,
            1,
            table,
        )
        return out[-1] == table.team_of[seat]

    legal = sorted(
        (TO_RM[c] for c in seat_view(m, seat).legal), key=lambda c: ((c & 3) == trump, c)
    )
    if left > 1:
        taking = [c for c in legal if takes(c)]
        assert chosen == (taking[0] if taking else legal[0])


def test_rollout_n_without_a_looking_team_is_the_greedy_rollout() -> None:
    """``looking=-1`` (the default) changes nothing; a looking team changes only its own
    seats' cards: the result of a deal can differ, and each differs in a trick it follows in."""
    fmt = by_name("six_pairs")
    table = seating(fmt)
    differs = 0
    for seed in range(40):
        m = in_play(fmt, seed, 0)
        assert m.trump is not None
        hands = [to_rm(m.hand_of(s)) for s in range(fmt.seats)]
        args = (int(m.trump), m.leader, [], (0, 0, 0), fmt.tricks_to_win, table)
        plain: list[tuple[int, tuple[int, ...], int]] = []
        same: list[tuple[int, tuple[int, ...], int]] = []
        looked: list[tuple[int, tuple[int, ...], int]] = []
        assert rollout_n(list(hands), *args, -1, plain) == rollout_n(
            list(hands), *args, -1, same, -1
        )
        assert plain == same
        rollout_n(list(hands), *args, -1, looked, 0)
        if looked != plain:
            differs += 1
            first = next(i for i, (a, b) in enumerate(zip(plain, looked, strict=False)) if a != b)
            leader, before, _ = plain[first]
            _, after, _ = looked[first]
            at = next(i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b)
            assert at > 0 and table.team_of[(leader + at) % fmt.seats] == 0
    assert differs > 0


def test_play_out_looks_for_the_searching_side_after_a_finished_trick() -> None:
    """``search._play_out`` from a trick its candidate card completes goes on with the
    searching side's seats looking ahead, whoever took that trick: the same as ``rollout_n``
    from the next trick with that side looking."""
    fmt = by_name("six_pairs")
    table = seating(fmt)
    for seed in range(30):
        m = in_play(fmt, seed, 0)
        assert m.trump is not None
        trump = int(m.trump)
        hands = [to_rm(m.hand_of(s)) for s in range(fmt.seats)]
        trace: list[tuple[int, tuple[int, ...], int]] = []
        rollout_n(list(hands), trump, m.leader, [], (0, 0, 0), 7, table, -1, trace)
        leader, cards, winner = trace[0]
        rest = [h & ~to_rm(FROM_RM[c] for c in cards) for h in hands]
        done = [0, 0, 0]
        done[table.team_of[winner]] = 1
        for side in range(3):
            expected = rollout_n(
                list(rest),
                trump,
                winner,
                [],
                tuple(done),
                7,
                table,
                table.team_of[winner],
                looking=side,
            )
            got = _play_out(list(rest), trump, leader, list(cards), (0, 0, 0), -1, 7, table, side)
            assert got == expected, (seed, side)


# ------------------------------------------------------------------------- the values


@pytest.mark.parametrize("name", NAMES)
def test_hand_values_score_hands_as_the_engine_does(name: str) -> None:
    """Each hand of greedy matches: the value ``HandValues`` gives its outcome is the match
    equity of the engine's scores after it (margin weight 0)."""
    fmt = by_name(name)
    for seed in range(6):
        m = Match(seed, Rules(target_score=5), fmt=fmt)
        greedy = GreedyPlayer()
        while not m.is_over:
            while m.phase != PLAY:
                act(m, greedy)
            before = [seat_view(m, s) for s in range(fmt.seats)]
            lead_view = before[m.turn]
            lead = first_to_most(lead_view)
            assert lead == -1
            hand = m.hand_number
            final = None
            while final is None:
                for event in m.play(m.turn, greedy.choose_card(seat_view(m, m.turn))):
                    if isinstance(event, HandResult):
                        final = event
            assert m.hand_number != hand or m.is_over
            for view in before:
                worth = HandValues(view, 0.0)((*final.tricks, final.winner_team))
                hakem_team = fmt.team_of[m.hakem] if not m.is_over else 0
                expected = side_equity(
                    final.scores_after, view.team, view.target_score, hakem_team, fmt
                )
                if m.is_over:
                    expected = 1.0 if final.winner_team == view.team else 0.0
                assert worth == pytest.approx(expected)


def test_trump_likelihood_for_other_deal_sizes_agrees_with_the_measured_one() -> None:
    """The hypergeometric mix gives back the table measured at 13 cards, 5 first, and is a
    chance that grows with the hakem's length in the suit for every format's deal."""
    measured = _TRUMP_LIKELIHOOD
    mixed = mixed_likelihood(13, 5)
    assert max(abs(a - b) for a, b in zip(measured, mixed, strict=True)) <= 16
    for fmt in ALL:
        table = _trump_likelihood(fmt.hand_size, fmt.first_deal)
        assert len(table) == 14 and all(5 <= p <= 1000 for p in table)
        assert list(table) == sorted(table)


@pytest.mark.parametrize("name", NAMES)
def test_side_equities_are_probabilities_that_add_up(name: str) -> None:
    fmt = by_name(name)
    sides = len(fmt.teams)
    rng = random.Random(5)
    for _ in range(30):
        scores = [rng.randrange(7) for _ in range(sides)]
        hakem = rng.randrange(sides)
        total = sum(side_equity(scores, t, 7, hakem, fmt) for t in range(sides))
        assert total == pytest.approx(1.0)
        if sides == 2:
            assert side_equity(scores, 0, 7, hakem, fmt) == match_equity(
                scores[0], scores[1], 7, hakem == 0, fmt
            )


# ---------------------------------------------------------------------------- hints


@pytest.mark.parametrize("name", NAMES)
def test_hints_for_every_seat_of_every_format(name: str) -> None:
    """The trump hint, then a legal hinted card for each seat to play, over two tricks."""
    fmt = by_name(name)
    m = Match(3, fmt=fmt)
    view = seat_view(m, m.hakem)
    trump_hint = hint(view)
    assert trump_hint.reason == "longest_suit"
    greedy = GreedyPlayer()
    while m.phase != PLAY:
        if m.phase != TRUMP:  # V2's discards and draws have no hint
            with pytest.raises(ValueError, match="no hint in the"):
                hint(seat_view(m, m.to_act))
        act(m, greedy)
    for _ in range(2 * fmt.seats + 1):
        view = seat_view(m, m.turn)
        advice = hint(view)
        assert advice.choice in view.legal
        m.play(m.turn, greedy.choose_card(view))
        if m.phase != PLAY:
            break


@fast
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 2**40), plays=st.integers(0, 60))
def test_hints_read_the_view_alone_in_every_format(name: str, seed: int, plays: int) -> None:
    """Two deals that differ only in cards the seat to play cannot see (two other seats swap
    cards of one suit): the same hint."""
    fmt = by_name(name)
    m = in_play(fmt, seed, plays)
    me = m.turn
    data = m.to_dict()
    others = [s for s in range(fmt.seats) if s != me]
    swapped = False
    for a, b in itertools.combinations(others, 2):
        for ca in data["hands"][a]:
            cb = next((c for c in data["hands"][b] if c[-1] == ca[-1] and c != ca), None)
            if cb is not None:
                data["hands"][a] = [cb if c == ca else c for c in data["hands"][a]]
                data["hands"][b] = [ca if c == cb else c for c in data["hands"][b]]
                swapped = True
                break
        if swapped:
            break
    other = Match.from_dict(data)
    assert seat_view(other, me) == seat_view(m, me)
    assert hint(seat_view(other, me)) == hint(seat_view(m, me))
