"""The scripted match: how the simulated members choose, and the match the bot must end with.

A member's choice is a function of the stored match alone, so the same seed and the same
seating give the same match card for card, however often the bot is killed and restarted in
between. Cards are picked by a rule that is *not* ``GreedyPlayer``'s, so a time-out or a
computer move sneaking in where a member should have played would change the match. Trump is
the one choice a member makes exactly as the time-out rule would (``auto_trump``), so a script
may let the hakem run out of time there and still end with the same match.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from bot.present import custom_ids
from bot.service.variants import Decision
from engine import (
    BID,
    MATCH_OVER,
    TRUMP,
    Card,
    GreedyPlayer,
    Match,
    Rules,
    Suit,
    auto_trump,
    greedy_bid,
    seat_view,
)

Choice = Card | Suit | Decision
"""A scripted move: a card, a trump, or (V5 joker six) a ``Decision("bid", tricks=n)``."""

SEED = 5
"""``match_seed_base`` of the scripted match: ``find_seed()`` (two hands of 45 and 37 actions,
hakems seats 0 and 1, both members; a test checks this stays so)."""
TARGET = 2
COMPUTER_SEATS = frozenset({3})
"""The host and two members sit at seats 0-2; "Start" fills seat 3 with an easy computer."""


def member_choice(match: Match, seat: int) -> Choice:
    if match.phase == BID:  # V5 joker six: the lowest bid it may make one time in three
        bids = seat_view(match, seat).legal_bids
        bid = bids[1] if len(bids) > 1 and (len(match.actions) + seat) % 3 == 0 else 0
        return Decision("bid", tricks=bid)
    if match.phase == TRUMP:
        return auto_trump(match.hand_of(seat))
    legal = sorted(match.legal_cards(seat))
    return legal[(len(match.actions) * 7 + seat) % len(legal)]


def computer_choice(match: Match, seat: int) -> Choice:
    """What the bot plays for an easy computer (``GreedyPlayer``)."""
    view = seat_view(match, seat)
    player = GreedyPlayer()
    if match.phase == BID:
        return Decision("bid", tricks=greedy_bid(view))
    return Suit(player.choose_trump(view)) if match.phase == TRUMP else player.choose_card(view)


def apply(match: Match, seat: int, choice: Choice) -> None:
    if isinstance(choice, Decision):
        match.bid(seat, choice.tricks)
    elif isinstance(choice, Suit):
        match.choose_trump(seat, choice)
    else:
        match.play(seat, choice)


def button_id(table_id: str, hand: int, choice: Choice) -> str:
    """The custom_id of the button that makes ``choice`` (a trump, a bid, a card)."""
    if isinstance(choice, Suit):
        return custom_ids.trump_id(table_id, hand, choice)
    if isinstance(choice, Decision):
        return custom_ids.bid_id(table_id, hand, choice.tricks)
    return custom_ids.card_id(table_id, hand, choice)


def simulate(
    seed: int = SEED, target: int = TARGET, computers: Collection[int] = COMPUTER_SEATS
) -> Match:
    """The engine alone, with no bot: the match every run of the script must end with."""
    match = Match(seed, Rules(target_score=target))
    while match.phase != MATCH_OVER:
        seat = match.to_act
        chooser = computer_choice if seat in computers else member_choice
        apply(match, seat, chooser(match, seat))
    return match


@dataclass(frozen=True)
class Point:
    """One moment of the scripted match: the number of actions stored, and what it is."""

    actions: int
    hand: int
    trick_cards: int
    to_act: int
    phase: str


def points(seed: int = SEED, target: int = TARGET) -> list[Point]:
    """Every decision point of the scripted match, in order (to pick kill points from)."""
    final = simulate(seed, target)
    match = Match(seed, Rules(target_score=target))
    found = []
    for action in final.actions:
        found.append(
            Point(
                len(match.actions),
                match.hand_number,
                len(match.current_trick()),
                match.to_act,
                match.phase,
            )
        )
        match.apply(action)
    return found


def find_seed(target: int = TARGET, start: int = 0) -> int:
    """The first seed whose match lasts two hands with a member as hakem in both, so the
    script can kill between hands and let a member's trump choice time out in hand 2."""
    seed = start
    while True:
        pts = points(seed, target)
        hakems = {p.hand: p.to_act for p in pts if p.phase == TRUMP}
        if len(hakems) == 2 and not set(hakems.values()) & COMPUTER_SEATS:
            return seed
        seed += 1
