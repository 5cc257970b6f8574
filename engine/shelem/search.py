"""A searching Shelem player: determinized Monte Carlo (PIMC) over greedy rollouts (V6.15).

For a card it draws deals consistent with what its seat has seen (``ShelemSampler``: its own
hand, the cards played, how many cards each seat holds, the suits a seat showed it lacks, and
the hakem's face-down cards as one more hidden pile), tries every distinct legal card on each
deal, finishes the hand with the greedy policy (``fastsim.play_out``) for all four seats and
scores it exactly as the engine does (``score_hand``: the bid made or set, shelem, the
near-target rule). The card with the best average outcome for its side is played.

The bid is searched too: deals of the three other hands and the kitty are drawn, weighted by
how likely each seat's bids and passes were with the hand it holds in that deal (a seat bids
about as far as ``hand_estimate`` allows: ``BidModel``); on each the seat plays the hand out
as hakem (kitty taken, ``greedy_discard``, its best suit named), and, when another seat holds
the highest bid, as that seat's hand would go if it passed. It bids the lowest bid it may when
that is worth more than passing, or shelem when taking every trick is the better promise.

Budgets count simulated cards, never wall-clock time, so a seeded player is reproducible;
``should_stop`` lets a host cut a search short between deals (it never changes what is drawn).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from math import exp
from typing import Final

from ..cards import CARDS, SUIT_MASKS, Card, any_cards_of, cards_in, mask_of
from .fastsim import JOKERS, best_suit, play_out, suit_mask
from .match import POWER, score_hand, trick_winner
from .options import (
    CARD_POINTS,
    HAND_SIZE,
    PASS,
    PASSED_DEALS_MAX,
    SAR_SHELEM,
    SHELEM,
    TRICK_POINTS,
    Mode,
    mask_points,
)
from .players import (
    GreedyShelemPlayer,
    greedy_bid,
    greedy_card,
    greedy_discard,
    greedy_mode,
    hand_estimate,
)
from .view import ShelemView

StopCheck = Callable[[], bool]


@dataclass(frozen=True, slots=True)
class ShelemSearchSettings:
    """The knobs of ``ShelemSearchPlayer``; ``LEVELS`` holds the tuned ones."""

    card_budget: int = 12_000
    """Work per card decision, in simulated cards (a drawn deal counts ``sample_cost``)."""
    min_deals: int = 4
    max_deals: int = 200
    bid_deals: int = 120
    """Deals drawn per bidding decision; 0 bids as the greedy player does."""
    bid_margin: float = 0.0
    """How much more than passing a bid must be worth (points of score difference)."""
    sample_cost: int = 30
    bid_weights: bool = True
    """Weigh the deals by the bidding (``BidModel``), in the bidding and in play."""


class BidModel:
    """How likely a seat's bids and passes were with a given hand: a seat bids while
    ``hand_estimate`` clears the bid, with a logistic spread of ``SPREAD`` points. A dealer who
    had to open (V6.4.1) at the lowest bid told nothing by it."""

    SPREAD: Final = 12.0

    def __init__(self, view: ShelemView) -> None:
        self._options = view.options
        steps: list[tuple[int, int, int]] = []  # (seat, value, the bid it had to beat)
        high = 0
        forced = view.passed_deals >= PASSED_DEALS_MAX
        for seat, value in view.auction:
            if forced and seat == view.dealer and high == 0 and value == self._options.min_bid:
                continue
            steps.append((seat, value, high))
            if PASS < value <= view.options.max_bid:
                high = value
        self._steps = steps

    def weight(self, seat: int, hand: int) -> float:
        """Likelihood of ``seat``'s part of the auction holding ``hand`` (12 cards)."""
        steps = [s for s in self._steps if s[0] == seat]
        if not steps:
            return 1.0
        estimate = hand_estimate(hand, self._options)
        w = 1.0
        for _, value, high in steps:
            if value == PASS:
                need = max(high + 5, self._options.min_bid)
                w *= 1.0 / (1.0 + exp((estimate - need) / self.SPREAD))
            elif value <= self._options.max_bid:
                w *= 1.0 / (1.0 + exp((value - estimate) / self.SPREAD))
        return w


class ShelemSampler:
    """Deals of the cards a seat has not seen among the others' hands and the hidden pile
    (the kitty in the bidding, the hakem's face-down cards in play) that respect the counts
    and the suits each seat showed it lacks (V6.8.2; a seat that did not follow a trump lead
    holds no joker either, V6.13)."""

    def __init__(self, view: ShelemView) -> None:
        me = view.seat
        options = view.options
        played = 0
        trump = -1 if view.trump is None else int(view.trump)
        voids = [0] * 4  # per seat, masks of cards it cannot hold
        plays = [t.plays(4) for t in view.tricks]
        if view.trick:
            plays.append(view.trick)
        for trick in plays:
            first = trick[0][1]
            led = trump if first.is_joker else first.suit
            follow = suit_mask(led, trump)
            for seat, card in trick:
                played |= 1 << card
                if not follow >> card & 1:
                    voids[seat] |= follow
        own = mask_of(view.hand) | mask_of(view.discards)
        self.pool = mask_of(options.deck) & ~own & ~played
        slots: list[int] = []
        counts: list[int] = []
        for seat in range(4):
            if seat != me:
                slots.append(seat)
                counts.append(view.cards_left[seat])
        pile = self.pool.bit_count() - sum(counts)
        if pile:
            slots.append(4)  # the kitty, or the hakem's face-down cards
            counts.append(pile)
            voids.append(0)
        self.me = me
        self.slots = slots
        self.counts = counts
        self.voids = voids
        cards = cards_in(self.pool)
        allowed = {c: [i for i, s in enumerate(slots) if not voids[s] >> c & 1] for c in cards}
        self._cards = sorted(cards, key=lambda c: len(allowed[c]))
        self._allowed = allowed

    def sample(self, rng: random.Random) -> list[int]:
        """Five masks: the four seats (the seat's own empty) and the hidden pile."""
        for _ in range(20):
            out = self._try(rng)
            if out is not None:
                return out
        # Tight constraints defeat the quick random fill now and then: a matching always
        # finds a deal that respects them, since the real one does.
        return self._matched(rng)

    def _try(self, rng: random.Random) -> list[int] | None:
        room = list(self.counts)
        out = [0] * 5
        cards = list(self._cards)
        # shuffle within each constraint level, keep the constrained cards first
        rng.shuffle(cards)
        cards.sort(key=lambda c: len(self._allowed[c]))
        for card in cards:
            choices = self._allowed[card]
            total = sum(room[i] for i in choices)
            if total <= 0:
                return None
            pick = rng.random() * total
            for i in choices:
                pick -= room[i]
                if pick < 0 and room[i]:
                    break
            else:
                i = next(i for i in choices if room[i])
            room[i] -= 1
            out[self.slots[i]] |= 1 << card
        return out

    def _matched(self, rng: random.Random) -> list[int]:
        """The cards placed by augmenting paths (a bipartite matching of cards to slots with
        room): each card goes to a slot it may be in, moving cards already placed along a
        chain of slots when its own are full; cards and slots tried in a random order."""
        members: list[list[int]] = [[] for _ in self.slots]
        cards = list(self._cards)
        rng.shuffle(cards)

        def place(card: int, seen: set[int]) -> bool:
            choices = list(self._allowed[card])
            rng.shuffle(choices)
            for i in choices:
                if i not in seen and len(members[i]) < self.counts[i]:
                    members[i].append(card)
                    return True
            for i in choices:
                if i in seen:
                    continue
                seen.add(i)
                for k, other in enumerate(members[i]):
                    members[i][k] = card  # ``other`` makes room if it fits elsewhere
                    if place(other, seen):
                        return True
                    members[i][k] = other
            return False

        for card in cards:
            if not place(card, set()):  # pragma: no cover - the real deal is a solution
                raise AssertionError("no deal fits what the seat has seen")
        out = [0] * 5
        for i, group in enumerate(members):
            for card in group:
                out[self.slots[i]] |= 1 << card
        return out


def distinct_cards(legal: Sequence[Card], live: int, mode: Mode) -> list[int]:
    """The legal cards, one per run of equivalent ones: cards of a suit with no ``live`` card
    (held by another seat, or in this trick) between them and the same points do the same work."""
    power = POWER[mode]
    by_suit: dict[int, list[int]] = {}
    out: list[int] = []
    for card in legal:
        if card >= len(CARDS):
            out.append(int(card))
            continue
        by_suit.setdefault(card // 13, []).append(int(card))
    for suit, group in by_suit.items():
        group.sort(key=lambda c: power[c])
        others = live & SUIT_MASKS[suit]
        out.append(group[0])
        for low, high in pairwise(group):
            between = any(power[low] < power[c] < power[high] for c in cards_in(others))
            if between or CARD_POINTS[low] != CARD_POINTS[high]:
                out.append(high)
    return out


class ShelemSearchPlayer:
    """PIMC over greedy rollouts for cards and bids; sees only its ``ShelemView``."""

    def __init__(
        self,
        seed: int | None = None,
        settings: ShelemSearchSettings | None = None,
        should_stop: StopCheck | None = None,
    ) -> None:
        self._rng = random.Random(seed)
        self.settings = settings or LEVELS["hard"]
        self._should_stop = should_stop
        self._greedy = GreedyShelemPlayer()

    # --------------------------------------------------------------- kitty and mode

    def choose_discard(self, view: ShelemView) -> tuple[Card, ...]:
        return self._greedy.choose_discard(view)

    def choose_mode(self, view: ShelemView) -> Mode:
        return greedy_mode(view)

    # -------------------------------------------------------------------------- bid

    def choose_bid(self, view: ShelemView) -> int:
        """V6.3, V6.5: the lowest bid, shelem or sar-shelem if worth more than passing on the
        sampled deals, else pass; a dealer who must open (V6.4.1) the better of the lowest bid
        and shelem."""
        settings = self.settings
        legal = view.legal_bids
        if settings.bid_deals <= 0 or len(legal) <= 1:
            return greedy_bid(view)
        options = view.options
        candidates = [b for b in legal if b != PASS]
        lowest_points = next((b for b in candidates if b <= options.max_bid), None)
        tried = [b for b in (lowest_points, SHELEM, SAR_SHELEM) if b in candidates]
        sampler = ShelemSampler(view)
        model = BidModel(view) if settings.bid_weights else None
        me = view.seat
        own = mask_of(view.hand)
        totals = dict.fromkeys(tried, 0.0)
        pass_total = 0.0
        weight_sum = 0.0
        stop = self._should_stop
        for _ in range(settings.bid_deals):
            if stop is not None and stop():
                break
            deal = sampler.sample(self._rng)
            weight = 1.0
            if model is not None:
                for seat in range(4):
                    if seat != me:
                        weight *= model.weight(seat, deal[seat])
            if weight <= 0.0:
                continue
            deal[me] = own
            points, all_tricks = _as_hakem(deal, me, options.kitty_size)
            for b in tried:
                _, changes, _ = score_hand(options, b, me % 2, points, all_tricks, view.scores)
                totals[b] += weight * (changes[me % 2] - changes[1 - me % 2])
            if view.high_seat >= 0:
                high = view.high_seat
                points, all_tricks = _as_hakem(deal, high, options.kitty_size)
                _, changes, _ = score_hand(
                    options, view.high, high % 2, points, all_tricks, view.scores
                )
                pass_total += weight * (changes[me % 2] - changes[1 - me % 2])
            weight_sum += weight
        if weight_sum <= 0.0:
            return greedy_bid(view)
        best, value = PASS, pass_total / weight_sum + settings.bid_margin
        if view.must_open:
            best, value = tried[0], totals[tried[0]] / weight_sum
        for b in tried:
            if totals[b] / weight_sum > value:
                best, value = b, totals[b] / weight_sum
        return best

    # ------------------------------------------------------------------------ cards

    def choose_card(self, view: ShelemView) -> Card:
        legal = view.legal
        if not legal:
            raise ValueError("no legal card: it is not this seat's turn")
        if len(legal) == 1:
            return legal[0]
        assert view.mode is not None
        sampler = ShelemSampler(view)
        in_trick = mask_of(c for _, c in view.trick)
        candidates = distinct_cards(legal, sampler.pool | in_trick, view.mode)
        if len(candidates) == 1:
            return any_cards_of(1 << candidates[0])[0]
        totals = self._evaluate(view, sampler, candidates)
        if totals is None:
            return greedy_card(view)
        best = max(range(len(candidates)), key=lambda i: (totals[i], -candidates[i]))
        return any_cards_of(1 << candidates[best])[0]

    def _evaluate(
        self, view: ShelemView, sampler: ShelemSampler, candidates: list[int]
    ) -> list[float] | None:
        settings = self.settings
        options = view.options
        me = view.seat
        us = me % 2
        hakem = view.hakem
        hakem_team = hakem % 2
        mode = view.mode
        assert mode is not None
        trump = -1 if view.trump is None else int(view.trump)
        leader = view.leader
        trick = [int(c) for _, c in view.trick]
        base_points = list(view.trick_points)
        base_tricks = list(view.team_tricks)
        own = mask_of(view.hand)
        own_set = view.own_set_points
        remaining = sum(view.cards_left)
        model = BidModel(view) if settings.bid_weights else None
        played_by = _played_by(view)
        totals = [0.0] * len(candidates)
        spent = deals = 0
        budget = settings.card_budget
        stop = self._should_stop
        while deals < settings.min_deals or (spent < budget and deals < settings.max_deals):
            if stop is not None and stop():
                if deals == 0:
                    return None
                break
            deal = sampler.sample(self._rng)
            spent += settings.sample_cost
            weight = 1.0
            if model is not None:
                for seat in range(4):
                    if seat != me and seat != hakem:
                        weight *= model.weight(seat, deal[seat] | played_by[seat])
            pile = deal[4]
            set_points = own_set if me == hakem else TRICK_POINTS + mask_points(pile)
            deal[me] = own
            for i, card in enumerate(candidates):
                hands = deal[:4]
                hands[me] = own ^ (1 << card)
                now_trump = card // 13 if trump < 0 and mode == "hokm" else trump
                p0, p1, t0, t1 = _finish(
                    hands, leader, [*trick, card], mode, now_trump, base_points, base_tricks, hakem
                )
                spent += remaining
                points = [p0, p1]
                points[hakem_team] += set_points
                all_tricks = (t0, t1)[hakem_team] == HAND_SIZE
                _, changes, _ = score_hand(
                    options, view.bid, hakem_team, (points[0], points[1]), all_tricks, view.scores
                )
                totals[i] += weight * (changes[us] - changes[1 - us])
            deals += 1
        return totals


def _played_by(view: ShelemView) -> list[int]:
    """The cards each seat has played this hand (to rebuild the twelve it bid with)."""
    out = [0] * 4
    for trick in view.tricks:
        for seat, card in trick.plays(4):
            out[seat] |= 1 << card
    for seat, card in view.trick:
        out[seat] |= 1 << card
    return out


def _finish(
    hands: list[int],
    leader: int,
    trick: list[int],
    mode: str,
    trump: int,
    points: list[int],
    tricks: list[int],
    hakem: int,
) -> tuple[int, int, int, int]:
    """Finish the trick ``trick`` (led by ``leader``) and the hand with the greedy policy."""
    if len(trick) < 4:
        return play_out(hands, leader, trick, mode, trump, points, tricks, -1, hakem)
    winner = trick_winner(leader, trick, mode, trump)
    won = TRICK_POINTS + sum(CARD_POINTS[c] for c in trick)
    points = list(points)
    tricks = list(tricks)
    points[winner % 2] += won
    tricks[winner % 2] += 1
    if not hands[winner]:
        return points[0], points[1], tricks[0], tricks[1]
    return play_out(hands, winner, [], mode, trump, points, tricks, -1, hakem)


def _as_hakem(deal: list[int], hakem: int, kitty_size: int) -> tuple[tuple[int, int], bool]:
    """Play a sampled deal out greedily with ``hakem`` taking the kitty (``deal[4]``), laying
    down with ``greedy_discard`` and naming its best suit; the points per team (his set
    included) and whether his side took every trick."""
    hands = deal[:4]
    full = hands[hakem] | deal[4]
    laid = greedy_discard(full, kitty_size)
    hands[hakem] = full & ~laid
    plan = best_suit(hands[hakem] & ~JOKERS)
    p0, p1, t0, t1 = play_out(hands, hakem, [], "hokm", -1, [0, 0], [0, 0], plan, hakem)
    points = [p0, p1]
    points[hakem % 2] += TRICK_POINTS + mask_points(laid)
    return (points[0], points[1]), (t0, t1)[hakem % 2] == HAND_SIZE


#: The searching levels (``easy`` is ``GreedyShelemPlayer``).
LEVELS: Final[dict[str, ShelemSearchSettings]] = {
    "normal": ShelemSearchSettings(card_budget=3_000, bid_deals=40),
    "hard": ShelemSearchSettings(card_budget=12_000, bid_deals=120),
}


def make_shelem_player(
    difficulty: str, seed: int | None = None, should_stop: StopCheck | None = None
) -> GreedyShelemPlayer | ShelemSearchPlayer:
    """A Shelem computer player: ``easy`` greedy, ``normal``/``hard`` searching."""
    if difficulty == "easy":
        return GreedyShelemPlayer()
    if difficulty in LEVELS:
        return ShelemSearchPlayer(seed, LEVELS[difficulty], should_stop)
    raise ValueError(f"unknown difficulty {difficulty!r}: easy, normal or hard")
