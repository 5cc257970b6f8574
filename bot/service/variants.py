"""The decisions some formats add to trump and cards: V1's bam (play on for every
trick, or stop), V2's discards and draws and the joker six's bidding for hakem (V5), through
the engine, for a member's button, a computer player, or a member whose time ran out (R14:
the engine's ``auto_*`` defaults).

Plain functions with no I/O, like ``moves``, which turns what they return into table state and
typed events.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from engine import (
    BAM,
    BID,
    DISCARD,
    DRAW,
    Card,
    Event,
    Match,
    Player,
    SeatView,
    auto_bam,
    auto_bid,
    auto_discard,
    auto_draw,
)

PHASES: Final = (BAM, DISCARD, DRAW, BID)
"""The phases whose decision is neither a trump nor a card to play."""


@dataclass(frozen=True, slots=True)
class Decision:
    """A yes or no: ``bam`` (play on for every trick: yes; stop: no) or ``draw`` (keep the
    stock's top card and lay the next down: yes; lay it down and keep the next: no); or a
    ``bid`` of ``tricks`` for hakem (0 passes)."""

    kind: Literal["bam", "draw", "bid"]
    yes: bool = False
    tricks: int = 0


@dataclass(frozen=True, slots=True)
class ShelemDecision:
    """V6 Shelem's decisions that are not a card (``shelem_moves``): a ``bid`` of ``value``
    (0 passes, V6.3; ``SHELEM``, ``SAR_SHELEM``, V6.5), the ``discard`` of ``cards`` (the
    hakem's laid-down cards, V6.6.1), or the ``mode`` announced (V6.7)."""

    kind: Literal["bid", "discard", "mode"]
    value: int = 0
    cards: tuple[Card, ...] = ()
    mode: str = ""


def engine_move(match: Match, seat: int, choice: Card | Decision) -> tuple[Event, ...]:
    """Apply ``choice`` in the match's decision phase (a ``Card`` is a V2 discard).

    :raises IllegalMove: the engine's refusal; nothing changed.
    """
    if isinstance(choice, Decision):
        if choice.kind == "bam":
            return match.declare_bam(seat, choice.yes)
        if choice.kind == "bid":
            return match.bid(seat, choice.tricks)
        return match.draw(seat, choice.yes)
    return match.discard(seat, choice)


def player_move(player: Player, view: SeatView) -> Card | Decision:
    """A computer player's decision (a player without the variant's methods decides as the
    server does for a member whose time ran out)."""
    if view.phase == BAM:
        choose_bam = getattr(player, "choose_bam", auto_bam)
        return Decision("bam", bool(choose_bam(view)))
    if view.phase == DRAW:
        choose_draw = getattr(player, "choose_draw", auto_draw)
        return Decision("draw", bool(choose_draw(view)))
    if view.phase == BID:  # V5 joker six: the engine's players' hand estimate (greedy_bid)
        choose_bid = getattr(player, "choose_bid", auto_bid)
        return Decision("bid", tricks=int(choose_bid(view)))
    choose_discard = getattr(player, "choose_discard", auto_discard)
    card: Card = choose_discard(view)
    return card


def default_move(view: SeatView) -> Card | Decision:
    """R14 for the variants' phases: stop (a bam is insisted on), the card worth least, keep a
    trump or court card, pass the bid (``engine.defaults``)."""
    if view.phase == BAM:
        return Decision("bam", auto_bam(view))
    if view.phase == DRAW:
        return Decision("draw", auto_draw(view))
    if view.phase == BID:  # a member who says nothing passes ("معاف", ``auto_bid``)
        return Decision("bid", tricks=auto_bid(view))
    return auto_discard(view)


def bid_of(choice: Card | Decision) -> int:
    """V5: the tricks a bid names (``Decided.tricks``); 0 for a pass or any other move."""
    return choice.tricks if isinstance(choice, Decision) and choice.kind == "bid" else 0


def word(choice: Card | Decision) -> str:
    """The public name of a decision (``bam``, ``stop``, ``draw``, ``discard``): never the card
    laid face down or drawn, which the other seats may not know."""
    if isinstance(choice, Decision):
        if choice.kind == "bam":
            return "bam" if choice.yes else "stop"
        if choice.kind == "bid":
            return f"bid{choice.tricks}" if choice.tricks else "pass"
        return "draw"
    return "discard"
