"""A searching computer player: determinized Monte Carlo (PIMC) over greedy rollouts.

For each card decision the player draws deals consistent with what its seat has seen
(``sampling.Sampler``: cards played, its own hand, hand sizes, revealed voids), plays every
candidate card in each deal, lets ``fastsim.rollout`` finish the hand with greedy play for all
four seats, and keeps the card with the best average outcome. What makes it strong, measured
against ``GreedyPlayer`` in ``bench/arena.py``:

- every candidate is scored on the same deals, so the comparison is paired and far less
  noisy than the outcomes themselves; equivalent cards (touching once the cards still out are
  counted) are tried once;
- successive halving spends most of the budget on the close candidates;
- deals are weighted towards what the play so far suggests: a hakem names a suit it is long in
  (``_TRUMP_LIKELIHOOD``), and a seat that played what a greedy player would not have played
  with that hand is less likely to hold it (``sampling.PlayModel``, a soft preference);
- outcomes are valued as the chance of winning the *match* after the hand (points, kot bonuses,
  who is hakem next: R11–R13), so the player plays for the match, not for tricks: at 6–0 a
  kot is worth nothing extra, while at 0–5 conceding a hakem-kot loses the match.

Trump (R5) is named by ``auto_trump`` unless ``trump_deals`` asks for search: trying each suit
on sampled completions of the five cards picked a suit winning 56.5% of hands against 56.1% for
``auto_trump`` (1000 deals, greedy play), no measurable gain, so the levels leave it off.

Every format of ``FORMATS`` is played from its ``GameFormat``: the standard table keeps its own
fast paths (``fastsim.rollout``, the suit-by-suit sampler), any other goes through
``fastsim.rollout_n`` (n seats, tricks per team, a hand that runs out going to the first side at
most tricks) and is valued by ``HandValues``: with two teams the match equity below, with more
sides (alone, or three pairs) a race in which every side is equally likely to take a hand
(``_race``), "our side" being the seat alone in a solo format. In those rollouts the
searching side's own seats look to the end of each trick they follow in (``looking``,
``fastsim.lookahead_card``): with five or six seats many play after one, and "win it as cheaply
as possible" wastes a card that a later seat overtakes (at ``six_pairs``, 0.690 of 200 matches
against greedy, 0.658 before on the same deals: within the noise; ``docs/experiments/six-pairs.md``).
V2's discards and draws and V1's bam follow rules (``auto_discard``, ``auto_draw``, always
bam); a bam is searched to its end.
V5 joker six: bids follow ``greedy_bid``; cards are searched with the jokers placed among the
trumps of every deal (``fastsim.joker_bit``), each hand played out to its ninth trick
(``fastsim.rollout_joker``) and valued by the bid's scoring (``JokerValues``).

Budgets count simulated cards, never wall-clock time, so a seeded player is reproducible.
A host that must bound the time a decision takes passes ``should_stop``: the engine never reads a
clock, it only asks between batches of deals whether to stop, and then plays the best card found
so far (or the greedy card when it has evaluated nothing yet). Without it, nothing changes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from math import comb, erf, sqrt
from typing import Final, Literal

from .cards import ANY_CARDS, BLACK_JOKER, Card, Suit
from .defaults import auto_discard, auto_draw
from .fastsim import (
    RM_SUIT,
    TO_RM,
    Seating,
    card_of,
    joker_bit,
    rollout,
    rollout_joker,
    rollout_n,
    seating,
    to_rm,
    to_rm_any,
    trick_winner,
    trick_winner_joker,
)
from .joker import made_points, set_points
from .players import (
    GreedyPlayer,
    VariantPlayer,
    auto_trump,
    black_joker_gone,
    forced_card,
    greedy_bam,
    greedy_bid,
    suit_in_play,
)
from .rules import STANDARD, GameFormat
from .sampling import Bias, Knowledge, PlayModel, Sampler, knowledge
from .signals import losing_follows, signal_card, winning_card
from .view import SeatView

Difficulty = Literal["easy", "normal", "hard"]
DIFFICULTIES: Final[tuple[Difficulty, ...]] = ("easy", "normal", "hard")
StopCheck = Callable[[], bool]
"""Asked between batches of deals; ``True`` ends the search with the best card so far."""

#: Hand results between two greedy teams (15 699 hands): hakem's team wins 1 point, kot;
#: defenders win 1 point, hakem-kot. The match-equity model only needs their rough shape.
_HAND_ODDS: Final = (0.562, 0.008, 0.420, 0.010)


#: Per mille, the chance that ``auto_trump`` names a suit of which the hakem was dealt k cards
#: (k = 0..13; 300 000 random hands). Floored above zero: a person may name any suit.
_TRUMP_LIKELIHOOD: Final = (5, 5, 73, 196, 343, 499, 647, 777, 886, 929, 1000, 1000, 1000, 1000)

#: The chance that ``auto_trump`` names a suit holding j of the cards it looks at, for four
#: and five cards (300 000 random draws each). Mixed over which of the hakem's cards came
#: first (``_trump_likelihood``) it gives ``_TRUMP_LIKELIHOOD`` back within 16 per mille.
_NAMED_WITH: Final = {4: (0.0, 0.0601, 0.8423, 1.0, 1.0), 5: (0.0, 0.0, 0.573, 1.0, 1.0, 1.0)}


#: What drawing one deal costs, in simulated cards (about 20 µs against 0.7 µs a card).
_SAMPLE_COST: Final = 28
#: Deals drawn at a time.
_BATCH: Final = 2


def match_equity(
    us: int, them: int, target: int, we_are_hakem: bool, fmt: GameFormat = STANDARD
) -> float:
    """Chance that "we" win the match from these scores, hands played at greedy odds and
    scored as ``fmt`` scores them (R11: a win, a kot, a hakem-kot; R12: who is hakem next)."""
    return _equity(
        us, them, target, we_are_hakem, fmt.points_win, fmt.points_kot, fmt.points_hakem_kot
    )


@lru_cache(maxsize=4096)
def _equity(
    us: int, them: int, target: int, we_are_hakem: bool, win_points: int, kot: int, hakem_kot: int
) -> float:
    """``match_equity`` with the format's three point values as plain (cheaply hashed) ints."""
    if us >= target:
        return 1.0
    if them >= target:
        return 0.0
    p_win, p_kot, p_lose, p_hakem_kot = _HAND_ODDS
    total = p_win + p_kot + p_lose + p_hakem_kot
    points = (win_points, kot, hakem_kot)
    if we_are_hakem:
        value = (
            p_win * _equity(us + win_points, them, target, True, *points)
            + p_kot * _equity(us + kot, them, target, True, *points)
            + p_lose * _equity(us, them + win_points, target, False, *points)
            + p_hakem_kot * _equity(us, them + hakem_kot, target, False, *points)
        )
    else:
        value = (
            p_win * _equity(us, them + win_points, target, False, *points)
            + p_kot * _equity(us, them + kot, target, False, *points)
            + p_lose * _equity(us + win_points, them, target, True, *points)
            + p_hakem_kot * _equity(us + hakem_kot, them, target, True, *points)
        )
    return value / total


@lru_cache(maxsize=64)
def _trump_likelihood(hand_size: int, first_deal: int) -> tuple[int, ...]:
    """``_TRUMP_LIKELIHOOD`` for any format's deal sizes (the measured table at 13 and 5)."""
    if (hand_size, first_deal) == (13, 5):
        return _TRUMP_LIKELIHOOD
    return mixed_likelihood(hand_size, first_deal)


def mixed_likelihood(hand_size: int, first_deal: int) -> tuple[int, ...]:
    """Per mille, the chance that ``auto_trump`` names a suit of which the hakem holds k
    cards (k = 0..13): the hakem's first cards are a random part of its hand
    (hypergeometric), and ``_NAMED_WITH`` says how often a suit with j of them is named.
    Other first-deal sizes fall back on a rough "the more, the likelier"."""
    named = _NAMED_WITH.get(first_deal)
    if named is None:
        named = tuple(min(1.0, j / max(1, first_deal) * 2) for j in range(first_deal + 1))
    out = []
    for k in range(14):
        if k > hand_size:
            out.append(1000)
            continue
        p = sum(
            comb(k, j) * comb(hand_size - k, first_deal - j) * named[j]
            for j in range(min(k, first_deal) + 1)
        ) / comb(hand_size, first_deal)
        out.append(max(5, round(1000 * p)))
    return tuple(out)


@lru_cache(maxsize=1 << 14)
def _race(need: int, others: tuple[int, ...]) -> float:
    """Chance to win a race of hands, each won by one side, all sides equally likely, where
    we need ``need`` more hands and the others ``others`` (sorted): the match equity of a
    format of more than two sides (R12), in its simplest shape."""
    if need <= 0:
        return 1.0
    if others and others[0] <= 0:
        return 0.0
    sides = len(others) + 1
    total = _race(need - 1, others)
    for i in range(len(others)):
        total += _race(need, tuple(sorted((*others[:i], others[i] - 1, *others[i + 1 :]))))
    return total / sides


def side_equity(
    scores: Sequence[int], side: int, target: int, hakem_side: int, fmt: GameFormat
) -> float:
    """Chance that team ``side`` wins the match from ``scores`` (one per team) with
    ``hakem_side`` the hakem's team: ``match_equity`` for two teams, ``_race`` for more."""
    if len(scores) == 2:
        return match_equity(scores[side], scores[1 - side], target, hakem_side == side, fmt)
    if scores[side] >= target:
        return 1.0
    if max(scores) >= target:
        return 0.0
    step = fmt.points_win
    need = -(-(target - scores[side]) // step)
    others = sorted(-(-(target - s) // step) for t, s in enumerate(scores) if t != side)
    return _race(need, tuple(others))


def outcome_values(view: SeatView) -> tuple[float, float, float, float]:
    """Match equity of the four ways this hand can end, for the seat's team.

    Order: we win, we win 7–0, we lose, we lose 0–7.
    """
    us, them = view.scores[view.team], view.scores[1 - view.team]
    target = view.target_score
    hakem = view.team_of(view.hakem) == view.team
    fmt = view.fmt
    clean = fmt.points_kot if hakem else fmt.points_hakem_kot
    their_clean = fmt.points_hakem_kot if hakem else fmt.points_kot
    return (
        match_equity(us + fmt.points_win, them, target, True, fmt),
        match_equity(us + clean, them, target, True, fmt),
        match_equity(us, them + fmt.points_win, target, False, fmt),
        match_equity(us, them + their_clean, target, False, fmt),
    )


class HandValues:
    """What each way this hand can end is worth to the seat's team: the match equity after it
    (``side_equity``) plus ``margin_weight`` per trick of margin over the best other team.
    Any format: ``result`` is ``rollout_n``'s, the tricks per team and then the team that took
    the hand. Scored as the engine scores it (R11 generalised): a kot when some other side has
    no trick, a hakem-kot when that is the hakem's side; a hand won on most tricks, short of
    ``tricks_to_win``, is a plain win. During a bam (V1) the bam side wins the match if it
    takes every trick, else scores the kot it had. Memoised, since a hand ends in few ways.
    """

    __slots__ = (
        "_bam",
        "_fmt",
        "_hakem",
        "_margin",
        "_memo",
        "_need",
        "_scores",
        "_target",
        "_team",
    )

    def __init__(self, view: SeatView, margin_weight: float) -> None:
        self._bam = view.bam_team
        self._fmt = view.fmt
        self._team = view.team
        self._need = view.tricks_to_win
        self._scores = view.scores
        self._target = view.target_score
        self._hakem = view.hakem
        self._margin = margin_weight
        self._memo: dict[tuple[int, ...], float] = {}

    def __call__(self, result: tuple[int, ...]) -> float:
        value = self._memo.get(result)
        if value is None:
            value = self._memo[result] = self._worth(result[:-1], result[-1])
        return value

    def _worth(self, tricks: tuple[int, ...], winner: int) -> float:
        fmt = self._fmt
        team = self._team
        ours = tricks[team]
        best_other = max(n for t, n in enumerate(tricks) if t != team)
        margin = self._margin * (ours - best_other)
        hakem_team = fmt.team_of[self._hakem]
        bam = self._bam
        if bam >= 0:  # V1: every trick wins the match, one lost leaves the kot
            winner = bam
            if sum(tricks) == tricks[bam]:
                return (1.0 if team == bam else 0.0) + margin
            points = fmt.points_kot if bam == hakem_team else fmt.points_hakem_kot
        elif tricks[winner] < self._need or 0 not in tricks:
            points = fmt.points_win
        elif winner != hakem_team and not tricks[hakem_team]:
            points = fmt.points_hakem_kot
        else:
            points = fmt.points_kot
        scores = list(self._scores)
        scores[winner] += points
        hakem = self._hakem
        if winner != hakem_team:  # R13: the nearest seat after the hakem on the winning side
            hakem = fmt.next_seat[hakem]
            while fmt.team_of[hakem] != winner:
                hakem = fmt.next_seat[hakem]
        return side_equity(scores, team, self._target, fmt.team_of[hakem], fmt) + margin


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """The knobs of ``SearchPlayer``; ``LEVELS`` holds the tuned ones."""

    card_budget: int = 80_000
    """Work per card decision, in simulated cards (a drawn deal counts ``_SAMPLE_COST``)."""
    min_deals: int = 6
    """Deals per halving round, whatever the budget says."""
    max_deals: int = 400
    """Deals per halving round at most (late in a hand rollouts are short)."""
    trump_deals: int = 0
    """Deals to try each trump suit on; 0 names trump with ``auto_trump`` (R14's rule)."""
    margin_weight: float = 0.002
    """Value of one trick of margin, to tell apart outcomes that are equal for the match."""
    trump_prior: bool = True
    """Deal the hakem more trumps, as naming a suit suggests (``_TRUMP_LIKELIHOOD``)."""
    eps: float = 0.3
    """Weight factor of a deal per opponent card a greedy player would not have played."""
    eps_partner: float = 0.5
    """The same for the partner's cards (1 ignores them)."""
    oversample: int = 4
    """Deals drawn per deal kept when resampling by the play model."""
    halving: bool = True
    """Successive halving of the candidates rather than equal shares."""
    signals: bool = False
    """Follow suit with a losing card by the partners' signal (``engine.signals``)."""
    eps_signal: float = 0.05
    """Weight factor of a deal per card of a ``signal_seats`` seat the signal contradicts."""


class SearchPlayer:
    """Determinized Monte Carlo search (PIMC) with greedy rollouts; sees only its ``SeatView``.

    Deterministic for a given seed and sequence of views: its only randomness is its own
    ``random.Random(seed)`` and its budgets count work, not time. ``should_stop`` (the host's
    time budget) can only cut a search short; it never changes what is drawn.

    ``greedy_seats``: the seats the host knows to be ``GreedyPlayer``s. Their past cards are
    then read as the facts they are (``PlayModel``): every deal drawn explains them. The bot
    passes none (a table's computers all play at one level, so a searching seat's opponents
    are people or searchers); ``bench/arena.py --tell-kinds`` measures what the knowledge is
    worth against greedy players. ``signal_seats``: partners known to play the signal of
    ``engine.signals`` (an experiment with ``SearchSettings.signals``, which the bot leaves off).
    """

    def __init__(
        self,
        seed: int | None = None,
        settings: SearchSettings | None = None,
        should_stop: StopCheck | None = None,
        greedy_seats: frozenset[int] = frozenset(),
        signal_seats: frozenset[int] = frozenset(),
    ) -> None:
        self._rng = random.Random(seed)
        self.settings = settings or LEVELS["hard"]
        self._fallback = GreedyPlayer()
        self._should_stop = should_stop
        self.greedy_seats = greedy_seats
        self.signal_seats = signal_seats

    def _knowledge(self, view: SeatView) -> Knowledge:
        """What the seat knows of the hidden cards: ``knowledge(view)``, nothing more. A seam
        for ``bench/arena.py --reveal``, which measures what not knowing some hands costs by
        showing them to the seat; the engine's players never see more than their view."""
        return knowledge(view)

    # ------------------------------------------------------------------------ trump

    def choose_trump(self, view: SeatView) -> Suit:
        """R5: ``auto_trump``, or each suit tried on the same completions of the five cards."""
        deals = self.settings.trump_deals
        if not view.hand or deals <= 0 or view.fmt.jokers:  # V5 joker six: see choose_bid
            return auto_trump(view.hand)
        sampler = Sampler(self._knowledge(view))
        table = seating(view.fmt)
        values = outcome_values(view) if table.standard else None
        worth = HandValues(view, self.settings.margin_weight)
        team = view.team
        need = view.tricks_to_win
        start = (0,) * table.teams
        totals = [0.0] * 4
        stop = self._should_stop
        for done in range(deals):
            if stop is not None and stop():
                if done == 0:
                    return auto_trump(view.hand)
                break
            hands = sampler.sample(self._rng)
            for suit in range(4):
                if values is not None:
                    result = rollout(hands, suit, view.hakem, [], (0, 0), need)
                    totals[suit] += self._value(result, team, need, values)
                else:
                    results = rollout_n(
                        hands, suit, view.hakem, [], start, need, table, -1, looking=team
                    )
                    totals[suit] += worth(results)
        return Suit(max(range(4), key=lambda s: (totals[s], -s)))

    # ------------------------------------------------------ V2 hand building, V1 bam

    def choose_discard(self, view: SeatView) -> Card:
        """V2: ``auto_discard``, the lowest card outside trump (the hand is still being
        built: no search)."""
        return auto_discard(view)

    def choose_draw(self, view: SeatView) -> bool:
        """V2: ``auto_draw``, keep a trump or a J, Q, K, A."""
        return auto_draw(view)

    def choose_bam(self, view: SeatView) -> bool:
        """V1: ``greedy_bam``: playing on never costs (a failed bam scores the kot)."""
        return greedy_bam(view)

    def choose_bid(self, view: SeatView) -> int:
        """V5 joker six: ``greedy_bid``, the hand-strength estimate (no search: the bot asks
        for the variants' decisions on its event loop, and the trump after the bid is named
        by ``auto_trump`` as at the other tables, which ``trump_deals`` found no worse)."""
        return greedy_bid(view)

    # ------------------------------------------------------------------------ cards

    def choose_card(self, view: SeatView) -> Card:
        """The searched card; following suit with a losing card, the signal's (``signals``,
        at tables where the seat has a partner to read it)."""
        card = self._search_card(view)
        if (
            self.settings.signals
            and view.trick
            and view.trump is not None
            and not view.fmt.jokers  # V5 joker six: not read (the play model knows no jokers)
            and not view.fmt.solo
        ):
            return ANY_CARDS[card_of(self._signal(view, TO_RM[card], int(view.trump)))]
        return card

    def _search_card(self, view: SeatView) -> Card:
        forced = forced_card(view)
        if forced is not None:
            return forced
        legal = view.legal
        if view.trump is None:
            return self._fallback.choose_card(view)
        know = self._knowledge(view)
        trump = int(view.trump)
        in_trick = to_rm_any((c for _, c in view.trick), trump)
        candidates = distinct_cards(legal, know.unseen | in_trick, trump)
        if len(candidates) == 1:
            return ANY_CARDS[card_of(candidates[0])]
        totals = self._evaluate(view, know, candidates)
        if totals is None:  # stopped before a single deal was tried
            return self._fallback.choose_card(view)
        best = max(range(len(candidates)), key=lambda i: (totals[i], -candidates[i]))
        return ANY_CARDS[card_of(candidates[best])]

    @staticmethod
    def _signal(view: SeatView, card: int, trump: int) -> int:
        """``card``, or the losing card of the suit led the signal plays in its place."""
        trick = [TO_RM[c] for _, c in view.trick]
        led = trick[0] & 3
        win = winning_card(view.leader, trick, trump, view.seats)
        if not losing_follows(1 << card, led, win, trump):
            return card
        played = [c for t in view.tricks for c in t.cards] + [c for _, c in view.trick]
        rest = seating(view.fmt).deck & ~to_rm(played)
        signal = signal_card(to_rm(view.hand), led, win, trump, rest)
        return card if signal < 0 else signal

    def _evaluate(
        self, view: SeatView, know: Knowledge, candidates: list[int]
    ) -> list[float] | None:
        """Summed value of each candidate over the deals it was tried on.

        Successive halving: the budget is split into rounds; each round tries the surviving
        candidates on fresh deals (all on the same ones) and keeps the better half, so most of
        the budget goes to telling the good cards apart rather than to the obvious blunders.
        The survivors have been tried on exactly the same deals, so their sums compare fairly.
        Work is counted in cards actually simulated, so the time a decision takes follows the
        budget closely whatever the position.

        ``should_stop`` is asked before each batch: the survivors have then all been tried on
        the same deals, so cutting there keeps the comparison fair. ``None``: stopped before
        any deal was tried.
        """
        settings = self.settings
        assert view.trump is not None
        trump = int(view.trump)
        me = view.seat
        team = view.team
        need = view.tricks_to_win
        leader = view.leader
        trick = [TO_RM[c] if c < 52 else joker_bit(c, trump) for _, c in view.trick]
        table = seating(view.fmt)
        standard = table.standard and view.bam_team < 0
        jokers = table.jokers > 0  # V5 joker six: every trick played, scored by the bid
        black_gone = black_joker_gone(view)
        if view.bam_team >= 0:  # V1: the hand goes on to the last trick
            need = view.fmt.hand_size + 1
        seats = table.seats
        tricks_n = tuple(view.team_tricks)
        lead = first_to_most(view)
        tricks = (tricks_n[0], tricks_n[-1])  # the standard table's two teams
        played = sum(tricks_n)
        values = outcome_values(view) if standard else (0.0, 0.0, 0.0, 0.0)
        worth: Callable[[tuple[int, ...]], float] = (
            JokerValues(view, settings.margin_weight)
            if jokers
            else HandValues(view, settings.margin_weight)
        )
        bias = self._trump_bias(view) if settings.trump_prior else None
        model = None
        greedy = self.greedy_seats
        signalling = self.signal_seats
        if (settings.eps < 1 or settings.eps_partner < 1 or greedy or signalling) and not jokers:
            # (the play model's greedy probe knows no jokers: V5 joker six samples uniformly)
            model = PlayModel(
                view, settings.eps, settings.eps_partner, greedy, signalling, settings.eps_signal
            )
        try:
            sampler = Sampler(know, bias, model.exclusions if model is not None else ())
        except ValueError:  # the greedy seats' plays and the voids admit no deal together
            sampler = Sampler(know, bias)
        draw_cost = _SAMPLE_COST * (settings.oversample if model else 1)
        totals = [0.0] * len(candidates)
        alive = list(range(len(candidates)))
        rounds = max(1, (len(alive) - 1).bit_length()) if settings.halving else 1
        value = self._value
        stop = self._should_stop
        stopped = False
        for round_ in range(rounds):
            budget = settings.card_budget // rounds
            spent = deals = 0
            while deals < settings.min_deals or (spent < budget and deals < settings.max_deals):
                if stop is not None and stop():
                    stopped = True
                    break
                for hands, weight in self._deals(sampler, model, _BATCH):
                    spent += draw_cost
                    own = hands[me]
                    for i in alive:
                        card = candidates[i]
                        hands[me] = own ^ (1 << card)
                        cards = [*trick, card]
                        if jokers:
                            results = _play_out_joker(
                                hands, trump, leader, cards, tricks_n, table, black_gone
                            )
                            spent += seats * (sum(results[:-1]) - played) - len(trick)
                            totals[i] += weight * worth(results)
                            continue
                        if not standard:
                            results = _play_out(
                                hands, trump, leader, cards, tricks_n, lead, need, table, team
                            )
                            spent += seats * (sum(results) - played) - len(trick)
                            totals[i] += weight * worth(results)
                            continue
                        if len(cards) < 4:
                            result = rollout(hands, trump, leader, cards, tricks, need)
                        else:
                            winner = trick_winner(leader, cards, trump)
                            done = (tricks[0] + (winner & 1 == 0), tricks[1] + (winner & 1))
                            if max(done) >= need:
                                result = done
                            else:
                                result = rollout(hands, trump, winner, [], done, need)
                        spent += 4 * (result[0] + result[1] - played) - len(trick)
                        totals[i] += weight * value(result, team, need, values)
                    hands[me] = own
                deals += _BATCH
            if stopped:
                if round_ == 0 and deals == 0:
                    return None
                break
            if round_ < rounds - 1:
                alive.sort(key=lambda i: (-totals[i], candidates[i]))
                alive = alive[: (len(alive) + 1) // 2]
        floor = min(totals) - 1.0
        return [t if i in alive else floor for i, t in enumerate(totals)]

    def _deals(
        self, sampler: Sampler, model: PlayModel | None, count: int
    ) -> list[tuple[list[int], float]]:
        """``count`` deals, each with its weight; with a play model, resampled by it."""
        rng = self._rng
        if not model:
            return [(sampler.sample(rng), 1.0) for _ in range(count)]
        pool = [sampler.sample(rng) for _ in range(count * self.settings.oversample)]
        weights = [model.weight(hands) for hands in pool]
        step = sum(weights) / count
        point = rng.random() * step
        picked: dict[int, int] = {}
        acc = 0.0
        taken = 0
        for i, w in enumerate(weights):  # systematic resampling: duplicates share a rollout
            acc += w
            while point < acc and taken < count:
                picked[i] = picked.get(i, 0) + 1
                point += step
                taken += 1
        return [(pool[i], float(k)) for i, k in picked.items()]

    @staticmethod
    def _trump_bias(view: SeatView) -> Bias | None:
        """Another seat named trump: it was probably dealt several (``_TRUMP_LIKELIHOOD``)."""
        hakem = view.hakem
        if hakem == view.seat or view.trump is None:
            return None
        trump = view.trump
        plays = [p for t in view.tricks for p in t.plays(view.seats)] + list(view.trick)
        shown = sum(
            1 for seat, card in plays if seat == hakem and suit_in_play(card, trump) == trump
        )
        likelihood = _trump_likelihood(view.fmt.hand_size, view.fmt.first_deal)
        weights = tuple(likelihood[min(13, k + shown)] for k in range(14))
        return Bias(hakem, int(trump), weights)

    def _value(
        self,
        result: tuple[int, int],
        team: int,
        need: int,
        values: tuple[float, float, float, float],
    ) -> float:
        ours, theirs = result[team], result[1 - team]
        margin = self.settings.margin_weight * (ours - theirs)
        if ours >= need:
            return (values[1] if theirs == 0 else values[0]) + margin
        return (values[3] if ours == 0 else values[2]) + margin


def distinct_cards(legal: tuple[Card, ...], live: int, trump: int = -1) -> list[int]:
    """The legal cards as rank-major bits, one per run of equivalent cards.

    Two cards of a suit are equivalent when no ``live`` card (in another hand, or on the
    table in this trick) lies between them: whichever is played, the other does the same work
    later. The lowest of each run stands for it. A joker (V5 joker six, placed under
    ``trump``) is always a candidate of its own: the black one makes the red count, the red
    one may be burnt, so neither does another card's work.
    """
    out: list[int] = []
    by_suit: dict[int, list[int]] = {}
    for card in legal:
        if card.is_joker:
            out.append(joker_bit(card, trump))
            continue
        by_suit.setdefault(card // 13, []).append(TO_RM[card])
    for suit, bits in by_suit.items():
        bits.sort()
        out.append(bits[0])
        outside = live & RM_SUIT[suit]
        for low, high in pairwise(bits):
            between = outside & ((1 << high) - 1) & ~((2 << low) - 1)
            if between:
                out.append(high)
    return out


def _play_out(
    hands: list[int],
    trump: int,
    leader: int,
    cards: list[int],
    tricks: tuple[int, ...],
    lead: int,
    need: int,
    table: Seating,
    looking: int,
) -> tuple[int, ...]:
    """Any format: finish the trick ``cards`` (led by ``leader``) and the hand, greedily
    but for ``looking``'s seats, which look to the end of each trick they follow in; the
    tricks per team and the team that took the hand (``rollout_n``)."""
    seats = table.seats
    if len(cards) < seats:
        return rollout_n(hands, trump, leader, cards, tricks, need, table, lead, looking=looking)
    winner = trick_winner(leader, cards, trump, seats)
    done = list(tricks)
    team = table.team_of[winner]
    taken = done[team] = done[team] + 1
    if taken > max(tricks):
        lead = team
    if taken >= need or not hands[winner]:
        return (*done, lead)
    return rollout_n(hands, trump, winner, [], done, need, table, lead, looking=looking)


def _play_out_joker(
    hands: list[int],
    trump: int,
    leader: int,
    cards: list[int],
    tricks: tuple[int, ...],
    table: Seating,
    black_gone: bool,
) -> tuple[int, ...]:
    """V5 joker six: finish the trick ``cards`` and play every trick of the hand, greedily
    (``rollout_joker``); the tricks per team, then -1."""
    seats = table.seats
    if len(cards) < seats:
        return rollout_joker(hands, trump, leader, cards, tricks, table, black_gone)
    winner = trick_winner_joker(leader, cards, trump, seats, black_gone)
    done = list(tricks)
    done[table.team_of[winner]] += 1
    if not hands[winner]:
        return (*done, -1)
    black_gone = black_gone or joker_bit(BLACK_JOKER, trump) in cards
    return rollout_joker(hands, trump, winner, [], done, table, black_gone)


#: V5 joker six: the spread of one hand's net points, for ``joker_equity`` (a made bid scores
#: its 5-9 tricks, a set 10-18 to the others: about 8 either way).
_JOKER_HAND_SPREAD: Final = 8.0
#: Points a joker six hand adds to the leader's score on average, to count the hands left.
_JOKER_HAND_POINTS: Final = 7.0


def joker_equity(us: int, them: int, target: int) -> float:
    """V5 joker six: the chance that "we" reach ``target`` (124) first, from these scores, as
    a race of hands each worth about ``_JOKER_HAND_SPREAD`` net points either way (a normal
    approximation: the exact recursion of ``match_equity`` would need hundreds of levels)."""
    if us >= target:
        return 1.0
    if them >= target:
        return 0.0
    hands = max(1.0, (target - max(us, them)) / _JOKER_HAND_POINTS)
    z = (us - them) / (_JOKER_HAND_SPREAD * sqrt(2.0 * hands))
    return 0.5 * (1.0 + erf(z))


class JokerValues:
    """V5 joker six: what each way this hand can end is worth to the seat's team, scored as
    ``engine.joker`` scores it (the bid made: the tricks taken, 18 for all nine, 36 for a bid
    of nine made; else ``set_points`` to the others), then ``joker_equity``, plus
    ``margin_weight`` per trick of margin. ``result``: ``rollout_joker``'s."""

    __slots__ = ("_bid", "_hakem_team", "_margin", "_memo", "_scores", "_target", "_team")

    def __init__(self, view: SeatView, margin_weight: float) -> None:
        self._team = view.team
        self._hakem_team = view.team_of(view.hakem)
        self._bid = view.bids[view.hakem]
        self._scores = view.scores
        self._target = view.target_score
        self._margin = margin_weight
        self._memo: dict[tuple[int, ...], float] = {}

    def __call__(self, result: tuple[int, ...]) -> float:
        value = self._memo.get(result)
        if value is None:
            value = self._memo[result] = self._worth(result[:-1])
        return value

    def _worth(self, tricks: tuple[int, ...]) -> float:
        team = self._team
        hakem_team = self._hakem_team
        took = tricks[hakem_team]
        scores = list(self._scores)
        if took >= self._bid:
            scores[hakem_team] += made_points(self._bid, took)
        else:
            scores[1 - hakem_team] += set_points(self._bid, took)
        margin = self._margin * (tricks[team] - tricks[1 - team])
        return joker_equity(scores[team], scores[1 - team], self._target) + margin


def first_to_most(view: SeatView) -> int:
    """The team that first reached the most tricks of the hand so far (-1: no trick yet),
    which takes a hand that runs out with nobody at ``tricks_to_win`` (R10, V3-V5)."""
    counts = [0] * len(view.fmt.teams)
    best = 0
    lead = -1
    team_of = view.fmt.team_of
    for trick in view.tricks:
        team = team_of[trick.winner]
        counts[team] += 1
        if counts[team] > best:
            best = counts[team]
            lead = team
    return lead


#: The searching difficulty levels (``easy`` is ``GreedyPlayer``).
LEVELS: Final[dict[str, SearchSettings]] = {
    "normal": SearchSettings(card_budget=12_000),
    "hard": SearchSettings(card_budget=80_000),
}


def parse_difficulty(name: str) -> Difficulty:
    """A difficulty named from outside the engine (a stored table, a worker's argument)."""
    for level in DIFFICULTIES:
        if name == level:
            return level
    raise ValueError(f"unknown difficulty {name!r}: easy, normal or hard")


def make_player(
    difficulty: Difficulty, seed: int | None = None, should_stop: StopCheck | None = None
) -> VariantPlayer:
    """A computer player: ``easy`` is ``GreedyPlayer``, ``normal``/``hard`` search
    (``should_stop``: the host's time budget, see ``SearchPlayer``)."""
    if difficulty == "easy":
        return GreedyPlayer()
    if difficulty in LEVELS:
        return SearchPlayer(seed, LEVELS[difficulty], should_stop)
    raise ValueError(f"unknown difficulty {difficulty!r}: easy, normal or hard")
